"""Text fields keep a visible edge on the dark theme (a new user's walk found the Memory tab's search field with
none: Fusion draws it in the window colour darkened). Measured from a grab: 3:1 or more against the field's base."""

from __future__ import annotations

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLineEdit

from hermes_desktop.ui import theme as themes
from tests.ui.test_keyboard import contrast


def test_the_memory_search_field_has_an_edge_on_the_dark_theme(make_window) -> None:
    h = make_window()
    h.do(lambda: h.window.set_theme("dark"))
    h.do(lambda: h.window.inspector.setCurrentWidget(h.window.inspector.memory))
    field = h.window.findChild(QLineEdit, "memorySearch")
    h.settle(0.1)
    image = field.grab().toImage()
    middle = image.height() // 2
    base = QColor(themes.DARK_THEME.base)
    edge = max((image.pixelColor(x, middle) for x in range(0, 3)), key=lambda c: contrast(c, base))
    assert contrast(edge, base) >= 3.0, edge.name()
    assert contrast(QColor(themes.DARK_FIELD_EDGE), QColor(themes.DARK_THEME.window)) >= 3.0


def test_multi_line_text_boxes_have_an_edge_on_the_dark_theme(make_window) -> None:
    """The message box (and the approval dialog's arguments) are QPlainTextEdits: their frame is a PE_Frame."""
    from PySide6.QtWidgets import QPlainTextEdit

    h = make_window()
    h.do(lambda: h.window.set_theme("dark"))
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    h.settle(0.1)
    image = box.grab().toImage()
    middle = image.height() // 2
    base = QColor(themes.DARK_THEME.base)
    edge = max((image.pixelColor(x, middle) for x in range(0, 3)), key=lambda c: contrast(c, base))
    assert contrast(edge, base) >= 3.0, edge.name()

"""Markdown tables have a rule around every cell on both themes (issue 24: on the light theme the cells had none).

Qt draws `border="1"` as an outset border in a lighter and a darker shade of the colour; on white the lighter
shade vanished, and so did the rules between the cells. Measured on the real rendering: the reply's table laid
out by the transcript's own layouter, drawn as the delegate draws it, then scanned for full-length rules in the
theme's table colour."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAbstractTextDocumentLayout, QColor, QFont, QImage, QPainter, QPalette

from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.chat.items import MessageItem
from hermes_desktop.ui.chat.layout import RowLayouter

TABLE = "| File | Lines |\n|---|--:|\n| notes-1.md | 2 |\n| notes-2.md | 3 |"


def drawn_table(theme: themes.Theme) -> QImage:
    themes.set_current(theme)
    try:
        layout = RowLayouter(QFont()).layout(MessageItem("assistant", TABLE), 700)
    finally:
        themes.set_current(themes.LIGHT_THEME)
    part = next(p for p in layout.docs if "notes-1.md" in p.doc.toPlainText())
    size = part.doc.size().toSize()
    image = QImage(size.width() + 4, size.height() + 4, QImage.Format.Format_RGB32)
    image.fill(QColor(theme.base))
    painter = QPainter(image)
    painter.translate(2, 2)
    context = QAbstractTextDocumentLayout.PaintContext()
    context.palette.setColor(QPalette.ColorRole.Text, QColor(theme.text))
    part.doc.documentLayout().draw(painter, context)
    painter.end()
    return image


def rules(image: QImage, colour: str, *, vertical: bool) -> list[int]:
    """Columns (vertical) or rows (horizontal) drawn in the table colour along most of the table's extent."""
    target = QColor(colour).rgb()
    outer, inner = (image.width(), image.height()) if vertical else (image.height(), image.width())
    found = []
    for a in range(outer):
        hits = sum(1 for b in range(inner) if (image.pixel(a, b) if vertical else image.pixel(b, a)) == target)
        if hits >= 0.3 * inner:
            found.append(a)
    return found


@pytest.mark.parametrize("theme", [themes.LIGHT_THEME, themes.DARK_THEME], ids=["light", "dark"])
def test_every_cell_of_a_table_has_a_rule_around_it(qapp, theme: themes.Theme) -> None:
    image = drawn_table(theme)
    crop = image.copy(0, 0, max(x for x in range(image.width()) if QColor(image.pixel(x, image.height() // 2))
                                != QColor(theme.base)) + 2, image.height())
    columns = rules(crop, theme.markdown.table_border, vertical=True)
    lines = rules(crop, theme.markdown.table_border, vertical=False)
    # Two columns: the left edge, the rule between them, the right edge. Three rows: four rules.
    assert len(_runs(columns)) == 3, columns
    assert len(_runs(lines)) == 4, lines
    # The header row sits on the code background, so it reads as a header.
    header_y = (_runs(lines)[0][1] + _runs(lines)[1][0]) // 2
    assert QColor(crop.pixel(_runs(columns)[0][1] + 2, header_y)) == QColor(theme.markdown.code_background)


def _runs(values: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for v in values:
        if out and v == out[-1][1] + 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out

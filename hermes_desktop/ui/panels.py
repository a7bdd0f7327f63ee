"""Building blocks of the inspector's list tabs (Skills, MCP): named buttons, and a list over rows of them."""

from __future__ import annotations

from typing import Callable, Sequence

from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget


def button(label: str, object_name: str, on_click: Callable[[], object], tooltip: str = "") -> QPushButton:
    widget = QPushButton(label)
    widget.setObjectName(object_name)  # stable names for automation and tests
    widget.setToolTip(tooltip)
    widget.clicked.connect(lambda _checked=False: on_click())
    return widget


def list_with_buttons(page: QWidget, content: QWidget, rows: Sequence[Sequence[QPushButton]]) -> None:
    """Lay out `page`: the list takes the height, the buttons sit below it in rows."""
    layout = QVBoxLayout(page)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(content, 1)
    for buttons in rows:
        row = QHBoxLayout()
        for widget in buttons:
            row.addWidget(widget)
        layout.addLayout(row)

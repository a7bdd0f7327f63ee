"""The Activity tab's lines wrap to the tab's width instead of being cut.

A QTreeWidget with `wordWrap` still asks its delegate for one line per row (Qt's size hint has no width to wrap
to), so at the default 390 px a model round's numbers or a tool's arguments were cut with "…". `WrappingDelegate`
gives each row the height its text needs at the width it has (the viewport minus the row's indentation); Qt
then paints it wrapped, breaking long words (paths, JSON) where it must. When the tab's width changes the rows
are laid out again. Each line also keeps its whole text in a tooltip (ui/activity.py).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QFont, QTextLayout, QTextOption
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QTreeWidget

TEXT_MARGIN = 8  # the style's text margins on both sides, and the focus frame


class WrappingDelegate(QStyledItemDelegate):
    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self._tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if not text:
            return size
        depth, parent = 0, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        tree = self._tree
        indent = tree.indentation() * (depth + (1 if tree.rootIsDecorated() else 0))
        width = max(60, tree.viewport().width() - indent - TEXT_MARGIN)
        needed = wrapped_height(str(text), option.font, width)
        return QSize(min(size.width(), width), max(size.height(), int(needed) + 4))


def wrapped_height(text: str, font: QFont, width: int) -> float:
    """The height of `text` wrapped the way Qt's item views paint it (at word boundaries, or anywhere in a word
    longer than the line)."""
    layout = QTextLayout(text.replace("\n", "\u2028"), font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    height = 0.0
    layout.beginLayout()
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        height += line.height()
    layout.endLayout()
    return height


class _Relayout(QObject):
    """Lays the rows out again when the tab's width changes (their heights depend on it)."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self._tree = tree
        self._width = -1

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Resize and self._tree.viewport().width() != self._width:
            self._width = self._tree.viewport().width()
            self._tree.doItemsLayout()
        return False


def install_wrapping(tree: QTreeWidget) -> None:
    """Once per tree: wrapped rows, no sideways scrolling."""
    if tree.property("hermesWrapping"):
        return
    tree.setProperty("hermesWrapping", True)
    tree.setWordWrap(True)
    tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    tree.setItemDelegate(WrappingDelegate(tree))
    tree.viewport().installEventFilter(_Relayout(tree))

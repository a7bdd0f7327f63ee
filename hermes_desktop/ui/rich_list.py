"""A list delegate that paints an item's HTML (bold names, muted details, coloured warnings).

The item keeps its plain text (`item.text()`) for accessibility, keyboard search and tests; the HTML in
`HTML_ROLE` is only how it looks. Documents are cached per item and width, because sizeHint is asked often.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QListWidget, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

HTML_ROLE = Qt.ItemDataRole.UserRole + 40
PADDING = 6
_COLOUR = re.compile(r"color:\s*[^;\"']*;?")

Index = QModelIndex | QPersistentModelIndex


class RichTextDelegate(QStyledItemDelegate):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._cache: dict[tuple[str, int], QTextDocument] = {}

    def _document(self, html: str, width: int, option: QStyleOptionViewItem) -> QTextDocument:
        key = (html, width)
        document = self._cache.get(key)
        if document is None:
            if len(self._cache) > 2000:  # a reload with many skills must not keep every old layout
                self._cache.clear()
            document = QTextDocument()
            document.setDefaultFont(option.font)
            document.setDocumentMargin(0)
            document.setHtml(html)
            document.setTextWidth(max(40, width - 2 * PADDING))
            self._cache[key] = document
        return document

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        html = index.data(HTML_ROLE)
        if not html:
            super().paint(painter, option, index)
            return
        self.initStyleOption(option, index)
        style = option.widget.style() if option.widget else QApplication.style()
        text_free = QStyleOptionViewItem(option)
        text_free.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, text_free, painter, option.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        # On the selection colour, coloured spans would be unreadable: selected items use the highlight text colour.
        document = self._document(_COLOUR.sub("", str(html)) if selected else str(html), option.rect.width(), option)
        context = QAbstractTextDocumentLayout.PaintContext()
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, option.palette.color(role))
        painter.save()
        painter.translate(option.rect.left() + PADDING, option.rect.top() + PADDING)
        painter.setClipRect(QRectF(0, 0, option.rect.width() - PADDING, option.rect.height()))
        document.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        html = index.data(HTML_ROLE)
        if not html:
            return super().sizeHint(option, index)
        view = option.widget
        width = view.viewport().width() if view is not None and hasattr(view, "viewport") else option.rect.width()
        width = width - 2 * getattr(view, "spacing", lambda: 0)() if width > 0 else 300
        document = self._document(str(html), width, option)
        return QSize(width, int(document.size().height()) + 2 * PADDING)


def rich_list(object_name: str, accessible_name: str) -> QListWidget:
    """A list whose items show their HTML_ROLE, wrapped to the list's width (no horizontal scrolling)."""
    widget = QListWidget()
    widget.setObjectName(object_name)
    widget.setAccessibleName(accessible_name)
    widget.setWordWrap(True)
    widget.setItemDelegate(RichTextDelegate(widget))
    widget.setResizeMode(QListWidget.ResizeMode.Adjust)
    widget.setSpacing(2)
    widget.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return widget

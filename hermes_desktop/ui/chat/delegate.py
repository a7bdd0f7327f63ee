"""Paints transcript rows and turns clicks on them into actions.

Rows that were never painted get a cheap estimated height; a row's exact layout is
made the first time it is painted (only visible rows are), and if its height
differs the view is told to lay out again. So opening a long session costs the
rows on screen, not the rows in the session.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPointF, QRectF, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QBrush, QColor, QDesktopServices, QGuiApplication, QMouseEvent, QPainter, QPalette, QPen
from PySide6.QtGui import QImageReader, QPixmap
from PySide6.QtGui import QAbstractTextDocumentLayout
from PySide6.QtWidgets import QAbstractItemView, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from hermes_desktop.ui import design
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.chat.items import Item, MessageItem, thinking_state
from hermes_desktop.ui.chat.layout import LINK_ICON, RowLayout, RowLayouter, signature
from hermes_desktop.ui.chat.markdown_render import references_of, render_block, split_blocks
from hermes_desktop.ui.chat.model import ITEM_ROLE

LAYOUT_CACHE_ROWS = 240  # full layouts (with their QTextDocuments) kept; older rows keep only their exact height


class TranscriptDelegate(QStyledItemDelegate):
    sig_action = Signal(str, object, object)
    """A click on a row's link: (action, item, payload). Actions: copy, edit, regenerate, fork,
    toggle_args, toggle_result, show_all, toggle_thinking, banner:<action>. Links and code copies are handled here."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self._view = view
        self.layouter = RowLayouter(view.font())
        # Layouts of the rows painted last (LRU): scrolling through a 10,000-message session would otherwise keep a
        # layout, and its documents, for every row ever shown. An evicted row keeps its exact height in _heights,
        # so the view's geometry does not change when its layout goes.
        self._layouts: OrderedDict[str, tuple[tuple[Any, ...], int, RowLayout]] = OrderedDict()
        self._heights: dict[str, tuple[tuple[Any, ...], int, float]] = {}
        self._estimates: dict[str, tuple[tuple[Any, ...], int, float]] = {}
        self._pending_relayout: set[QPersistentModelIndex] = set()
        self.attachments_dir: Path | None = None  # where attached files live (set by the window)
        # content hash -> thumbnail, decoded once at thumbnail size; None for a file that could not be read (a file
        # is stored before its message is shown, so a missing one does not come back: no disk read on every paint)
        self._thumbs: dict[str, QPixmap | None] = {}
        self._link_icons: dict[tuple[str, str, float], QPixmap] = {}
        # The row a search hit led to (ChatView.highlight): tinted in the accent colour until the next click in the
        # transcript or the next page, so the eye finds the message among the ones around it.
        self.highlighted: Item | None = None

    # ------------------------------------------------------------------ geometry
    def _width(self, option: QStyleOptionViewItem) -> int:
        return max(200, self._view.viewport().width())

    @staticmethod
    def content_width(width: int) -> int:
        """The width rows are laid out at: the view's, up to design.READING_WIDTH (wider views centre the column)."""
        return min(width, design.READING_WIDTH)

    def row_layout(self, item: Item, width: int) -> RowLayout:
        sig = signature(item)
        cached = self._layouts.get(item.key)
        if cached is not None and cached[0] == sig and cached[1] == width:
            self._layouts.move_to_end(item.key)
            return cached[2]
        layout = self.layouter.layout(item, width)
        self._keep(item.key, (sig, width, layout))
        return layout

    def _keep(self, key: str, entry: tuple[tuple[Any, ...], int, RowLayout]) -> None:
        self._layouts[key] = entry
        self._layouts.move_to_end(key)
        self._heights.pop(key, None)
        while len(self._layouts) > LAYOUT_CACHE_ROWS:
            old_key, (old_sig, old_width, old_layout) = self._layouts.popitem(last=False)
            self._heights[old_key] = (old_sig, old_width, old_layout.height)

    def exact_height_known(self, item: Item, width: int) -> bool:
        cached = self._layouts.get(item.key) or self._heights.get(item.key)
        return cached is not None and cached[0] == signature(item) and cached[1] == width

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        item: Item = index.data(ITEM_ROLE)
        full = self._width(option)  # rows span the view (hover and clicks anywhere on them); laid out at `width`
        width = self.content_width(full)
        if item is None:
            return QSize(full, 0)
        cached = self._layouts.get(item.key)
        if cached is not None and cached[1] == width:
            if cached[0] != signature(item):
                cached = (signature(item), width, self.layouter.layout(item, width))
                self._keep(item.key, cached)
            return QSize(full, int(cached[2].height + 0.5))
        known = self._heights.get(item.key)
        if known is not None and known[1] == width and known[0] == signature(item):
            return QSize(full, int(known[2] + 0.5))
        if not isinstance(item, MessageItem):
            return QSize(full, int(self.row_layout(item, width).height + 0.5))
        sig = signature(item)
        estimate = self._estimates.get(item.key)
        if estimate is None or estimate[0] != sig or estimate[1] != width:
            estimate = (sig, width, self.layouter.estimate(item, width))
            self._estimates[item.key] = estimate
        return QSize(full, int(estimate[2] + 0.5))

    def forget(self) -> None:
        """Drop cached layouts (theme or font changed)."""
        self._layouts.clear()
        self._heights.clear()
        self._estimates.clear()
        self.layouter.set_font(self._view.font())

    # ------------------------------------------------------------------ painting
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        item: Item = index.data(ITEM_ROLE)
        if item is None:
            return
        width = self.content_width(self._width(option))
        dx = (self._width(option) - width) // 2  # a column narrower than the view is centred
        estimated = not self.exact_height_known(item, width)
        previous = self.sizeHint(option, index).height()
        layout = self.row_layout(item, width)
        if estimated and abs(layout.height - previous) > 1:
            self._relayout_later(index)
        theme = themes.current()
        # The footer links (Copy, Edit, …) show under the mouse, and on the message the keyboard is on.
        keyboard = bool(option.state & QStyle.StateFlag.State_HasFocus) and bool(self._view.property("keyboardFocus"))
        hovered = bool(option.state & QStyle.StateFlag.State_MouseOver) or keyboard
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(QPointF(option.rect.topLeft()) + QPointF(dx, 0))
        painter.setClipRect(QRectF(-dx, 0, option.rect.width(), option.rect.height()))
        if item is self.highlighted:
            self._paint_highlight(painter, QRectF(2, 1, width - 4, option.rect.height() - 2), theme)
        self._paint_background(painter, layout, theme)
        # A long reply is taller than the window: draw only the blocks that are on screen.
        visible_top = -option.rect.top()
        visible_bottom = visible_top + self._view.viewport().height()
        for part in layout.docs:
            if part.origin.y() > visible_bottom or part.origin.y() + part.doc.size().height() < visible_top:
                continue
            painter.save()
            painter.translate(part.origin)
            context = QAbstractTextDocumentLayout.PaintContext()
            context.palette.setColor(QPalette.ColorRole.Text, QColor(theme.text))
            if layout.background_kind == "notice" or part.muted:
                context.palette.setColor(QPalette.ColorRole.Text, QColor(theme.muted))
            part.doc.documentLayout().draw(painter, context)
            painter.restore()
        for rule in layout.rules:
            painter.fillRect(rule, QColor(theme.card_border))
        for text in layout.texts + (layout.hover_texts if hovered else []):
            self._paint_text(painter, text, theme)
        for image in layout.images:
            self._paint_thumbnail(painter, image, theme)
        if keyboard:  # the message the keyboard is on (ui/keyboard.py); no ring after a mouse click
            painter.setPen(QPen(QColor(theme.accent), 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(3, 1, width - 6, option.rect.height() - 2), design.RADIUS, design.RADIUS)
        painter.restore()

    def thumbnail(self, ref: Any) -> QPixmap | None:
        """The stored image decoded at thumbnail size (cached by hash); None when its file is missing or unreadable."""
        if ref.hash not in self._thumbs and self.attachments_dir is not None:
            reader = QImageReader(str(self.attachments_dir / ref.hash[:2] / ref.hash))
            size = reader.size()
            if size.isValid() and size.height() > 0:
                reader.setScaledSize(size.scaled(320, 192, Qt.AspectRatioMode.KeepAspectRatio))
            image = reader.read()
            self._thumbs[ref.hash] = None if image.isNull() else QPixmap.fromImage(image)
        return self._thumbs.get(ref.hash)

    def _paint_thumbnail(self, painter: QPainter, image: Any, theme: themes.Theme) -> None:
        pixmap = self.thumbnail(image.ref)
        painter.setPen(QPen(QColor(theme.card_border), 1))
        painter.setBrush(QBrush(QColor(theme.card)))
        painter.drawRoundedRect(image.rect, design.RADIUS_SMALL, design.RADIUS_SMALL)
        if pixmap is None:  # the file is gone: say which
            painter.setFont(self.layouter.small)
            painter.setPen(QColor(theme.muted))
            painter.drawText(image.rect.adjusted(4, 4, -4, -4), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                             image.ref.name)
            return
        painter.drawPixmap(image.rect.adjusted(1, 1, -1, -1), pixmap, QRectF(pixmap.rect()))

    @staticmethod
    def _paint_highlight(painter: QPainter, rect: QRectF, theme: themes.Theme) -> None:
        """A search hit's row: an accent tint with an accent edge (both themes: the tint alone was too faint)."""
        fill = QColor(theme.accent)
        fill.setAlpha(36 if theme.dark else 24)
        painter.setPen(QPen(QColor(theme.accent), 1.5))
        painter.setBrush(QBrush(fill))
        painter.drawRoundedRect(rect, design.RADIUS, design.RADIUS)

    def _paint_background(self, painter: QPainter, layout: RowLayout, theme: themes.Theme) -> None:
        if layout.background is None:
            return
        fill, border = {
            "bubble": (theme.user_bubble, theme.user_bubble),
            "card": (theme.card, theme.card_border),
            "error": (theme.error_bg, theme.error_border),
            "stopped": (theme.notice_bg, theme.card_border),
            "notice": (theme.notice_bg, theme.card_border),
            "summary": (theme.notice_bg, theme.card_border),  # a long conversation's summary card
            "remembered": (theme.notice_bg, theme.card_border),  # "Remembered: …" with Undo (ui/memory_actions.py)
        }.get(layout.background_kind, (theme.notice_bg, theme.notice_bg))
        painter.setPen(QPen(QColor(border), 1))
        painter.setBrush(QBrush(QColor(fill)))
        painter.drawRoundedRect(layout.background, design.RADIUS, design.RADIUS)

    def _paint_text(self, painter: QPainter, part: Any, theme: themes.Theme) -> None:
        layouter = self.layouter
        if part.role == "badge":
            painter.setPen(Qt.PenStyle.NoPen)
            colour = QColor(part.colour)
            colour.setAlpha(40)
            painter.setBrush(colour)
            painter.drawRoundedRect(part.rect, design.RADIUS_SMALL, design.RADIUS_SMALL)
            painter.setPen(QColor(part.colour))
            painter.setFont(layouter.bold_small)
            painter.drawText(part.rect, Qt.AlignmentFlag.AlignCenter, part.text)
            return
        if part.role == "button":
            painter.setPen(QPen(QColor(theme.accent), 1))
            painter.setBrush(QBrush(QColor(theme.base)))
            painter.drawRoundedRect(part.rect, design.RADIUS_SMALL, design.RADIUS_SMALL)
            painter.setFont(layouter.small)
            painter.setPen(QColor(theme.accent))
            painter.drawText(part.rect, Qt.AlignmentFlag.AlignCenter, part.text)
            return
        font, colour = {
            "header": (layouter.bold_small, theme.muted),
            "muted": (layouter.small, theme.muted),
            "name": (layouter.bold_small, theme.text),
            "link": (layouter.small, theme.accent),
            "tag": (layouter.italic_small, theme.muted),
            "status": (layouter.small, part.colour or theme.muted),
        }.get(part.role, (layouter.small, theme.text))
        painter.setFont(font)
        painter.setPen(QColor(colour))
        rect = part.rect
        if part.icon:  # a footer link's icon, from a cache (one pixmap per icon, colour and pixel ratio)
            side = LINK_ICON
            ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
            key = (part.icon, colour, ratio)
            pixmap = self._link_icons.get(key)
            if pixmap is None:
                from hermes_desktop.ui.icons import pixmap as icon_pixmap

                pixmap = self._link_icons[key] = icon_pixmap(part.icon, colour, side, ratio=ratio)
            painter.drawPixmap(QPointF(rect.left(), rect.center().y() - side / 2), pixmap)
            rect = rect.adjusted(side + design.XS, 0, 0, 0)
        painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, part.text)

    def _relayout_later(self, index: QModelIndex | QPersistentModelIndex) -> None:
        persistent = QPersistentModelIndex(index)
        if persistent in self._pending_relayout:
            return
        self._pending_relayout.add(persistent)

        def emit() -> None:
            self._pending_relayout.discard(persistent)
            if persistent.isValid():
                self.sizeHintChanged.emit(QModelIndex(persistent))

        QTimer.singleShot(0, emit)

    # ------------------------------------------------------------------ clicks
    def editorEvent(self, event: QEvent, model: Any, option: QStyleOptionViewItem,
                    index: QModelIndex | QPersistentModelIndex) -> bool:
        if event.type() not in (QEvent.Type.MouseButtonRelease, QEvent.Type.MouseMove):
            return super().editorEvent(event, model, option, index)
        item: Item = index.data(ITEM_ROLE)
        if item is None or not isinstance(event, QMouseEvent):
            return False
        full = self._width(option)
        width = self.content_width(full)
        layout = self.row_layout(item, width)
        point = event.position() - QPointF(option.rect.topLeft()) - QPointF((full - width) // 2, 0)
        target = self._target_at(layout, point)
        if event.type() == QEvent.Type.MouseMove:
            cursor = Qt.CursorShape.PointingHandCursor if target is not None else Qt.CursorShape.ArrowCursor
            self._view.viewport().setCursor(cursor)
            return False
        if target is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        action, payload = target
        if action == "link":
            url = QUrl(payload)
            if url.scheme() in ("http", "https", "mailto"):
                QDesktopServices.openUrl(url)
            elif url.scheme() == "cite":  # a reply's [n] (ui/citations.py)
                self.sig_action.emit("citation", item, url.path())
            return True
        if action == "copy_code":
            QGuiApplication.clipboard().setText(payload or "")
            self.sig_action.emit("copied", item, payload)
            return True
        if action == "toggle_thinking" and isinstance(item, MessageItem):
            # The user's choice holds for this reply from now on (also while it still streams).
            item.reasoning_open = thinking_state(item) != "open"
            if hasattr(model, "changed"):
                model.changed(item)
            self.sig_action.emit(action, item, payload)
            return True
        self.sig_action.emit(action, item, payload)
        return True

    def _target_at(self, layout: RowLayout, point: QPointF) -> tuple[str, Any] | None:
        for hit in layout.hits:
            if hit.rect.contains(point):
                return hit.action, hit.payload
        for part in layout.docs:
            local = point - part.origin
            size = part.doc.size()
            if 0 <= local.x() <= size.width() and 0 <= local.y() <= size.height():
                anchor = part.doc.documentLayout().anchorAt(local)
                if anchor == "copy:":
                    return "copy_code", part.code
                if anchor:
                    return "link", anchor
        return None

    # ------------------------------------------------------------------ selecting text
    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget | None:
        """Double-click a message: a read-only view of it where text can be selected and copied."""
        item = index.data(ITEM_ROLE)
        if not isinstance(item, MessageItem):
            return None
        from hermes_desktop.ui.chat.math_copy import MessageTextView

        browser = MessageTextView(parent)  # copies formulas as their LaTeX
        browser.setObjectName("messageTextView")
        browser.setOpenExternalLinks(True)
        browser.setReadOnly(True)
        browser.setFont(self._view.font())
        if item.role == "user":
            browser.setPlainText(item.text)
        else:
            palette = themes.current().markdown
            references = references_of(item.text)
            browser.set_message_html("".join(render_block(b, palette, references).html for b in split_blocks(item.text)))
        return browser

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: QModelIndex | QPersistentModelIndex) -> None:
        inset = (self._width(option) - self.content_width(self._width(option))) // 2 + design.M  # over the column
        editor.setGeometry(option.rect.adjusted(inset, 2, -inset, -2))

    def setModelData(self, editor: QWidget, model: Any, index: QModelIndex | QPersistentModelIndex) -> None:
        return  # read-only: nothing to write back

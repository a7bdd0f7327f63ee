"""The transcript view: a virtualised list that follows new text unless the user scrolled away."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QAbstractItemView, QFrame, QListView, QWidget

from hermes_desktop.ui.chat.delegate import TranscriptDelegate
from hermes_desktop.ui.chat.items import SummaryItem
from hermes_desktop.ui.chat.model import ITEM_ROLE, TranscriptModel

EARLIER_THRESHOLD_PX = 400


class ChatView(QListView):
    sig_need_earlier = Signal()
    """Fires when the user scrolled near the top and earlier messages exist: load the previous page."""
    sig_need_later = Signal()
    """Fires when the user scrolled near the bottom of a slice that does not reach the newest message."""

    def __init__(self, model: TranscriptModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatView")
        self.setAccessibleName(self.tr("Conversation"))
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked)
        self.setMouseTracking(True)
        self.setUniformItemSizes(False)
        self.verticalScrollBar().setSingleStep(24)
        self.transcript = model
        self.setModel(model)
        self.delegate = TranscriptDelegate(self)
        self.setItemDelegate(self.delegate)
        from hermes_desktop.ui.keyboard import install_message_keys

        install_message_keys(self)  # Menu key / Shift+F10: the focused message's actions (ui/keyboard.py)
        self._follow = True
        self._keep_from_bottom: int | None = None
        # A row scrolled to on purpose (a search hit, a memory's source): kept in place while the rows around it
        # change height (estimates replaced by exact layouts as they are painted), until the user scrolls.
        self._pinned: tuple[QPersistentModelIndex, QAbstractItemView.ScrollHint] | None = None
        model.dataChanged.connect(self._row_changed)
        model.sig_rows_appended.connect(self._maybe_follow)
        model.modelReset.connect(self.follow_bottom)
        model.modelReset.connect(lambda: self.highlight(-1))
        model.rowsAboutToBeInserted.connect(self._before_insert)
        model.rowsAboutToBeRemoved.connect(self._before_insert)
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._scrolled)
        bar.rangeChanged.connect(self._range_changed)
        bar.sliderPressed.connect(self._unpin)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        """Enter or Space on the summary card of a long conversation opens or closes it."""
        self._unpin()
        item = self.currentIndex().data(ITEM_ROLE) if self.currentIndex().isValid() else None
        if isinstance(item, SummaryItem) and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.delegate.sig_action.emit("toggle_summary", item, None)
            return
        super().keyPressEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        """A click in the transcript ends a search hit's highlight: the user has found it."""
        self.highlight(-1)
        self._unpin()
        super().mousePressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt's name)
        self._unpin()
        super().wheelEvent(event)

    def _unpin(self) -> None:
        self._pinned = None

    def highlight(self, row: int) -> None:
        """Mark the row a search hit led to (-1: none); the delegate tints it."""
        item = self.transcript.item(row) if 0 <= row < self.transcript.rowCount() else None
        if item is not self.delegate.highlighted:
            self.delegate.highlighted = item
            self.viewport().update()

    @property
    def highlighted_row(self) -> int:
        item = self.delegate.highlighted
        return self.transcript.row_of(item) if item is not None else -1

    def _row_changed(self, top_left: QModelIndex, *_: object) -> None:
        # A row that grew (streamed text, an opened card) needs the list laid out again.
        self.delegate.sizeHintChanged.emit(top_left)

    def _before_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        if first == 0 and self.transcript.rowCount() > 0 and self._keep_from_bottom is None:
            # Rows come or go above what is on screen: keep the view still (distance from the end).
            bar = self.verticalScrollBar()
            self._keep_from_bottom = bar.maximum() - bar.value()
            QTimer.singleShot(0, self._restore_position)  # in case the range does not change at all

    def _scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._follow = value >= bar.maximum() - 4 and not self.transcript.has_later
        self.check_edges()

    def check_edges(self) -> None:
        """Ask for the next page when the view is near the top or bottom of what is loaded."""
        if self._keep_from_bottom is not None:
            return
        bar = self.verticalScrollBar()
        if bar.value() < EARLIER_THRESHOLD_PX and self.transcript.has_earlier:
            self.sig_need_earlier.emit()
        elif bar.value() > bar.maximum() - EARLIER_THRESHOLD_PX and self.transcript.has_later:
            self.sig_need_later.emit()

    def _range_changed(self, _minimum: int, maximum: int) -> None:
        if self._keep_from_bottom is not None:
            self._restore_position()
        elif self._pinned is not None and self._pinned[0].isValid():
            self.scrollTo(QModelIndex(self._pinned[0]), self._pinned[1])
        elif self._follow:
            self.verticalScrollBar().setValue(maximum)

    def _restore_position(self) -> None:
        if self._keep_from_bottom is None:
            return
        bar = self.verticalScrollBar()
        keep, self._keep_from_bottom = self._keep_from_bottom, None
        bar.setValue(bar.maximum() - keep)

    def _maybe_follow(self) -> None:
        if self._follow:
            QTimer.singleShot(0, self._to_bottom)

    def follow_bottom(self) -> None:
        self._follow = True
        self._pinned = None
        QTimer.singleShot(0, self._to_bottom)

    def _to_bottom(self) -> None:
        if self._follow:
            self.scrollToBottom()

    @property
    def following(self) -> bool:
        return self._follow

    def scroll_to_row(self, row: int, hint: QAbstractItemView.ScrollHint = QAbstractItemView.ScrollHint.PositionAtTop
                      ) -> None:
        if 0 <= row < self.transcript.rowCount():
            self._follow = False
            index = self.transcript.index(row)
            self._pinned = (QPersistentModelIndex(index), hint)
            self.scrollTo(index, hint)

    def refresh_layouts(self) -> None:
        self.delegate.forget()
        self.scheduleDelayedItemsLayout()
        self.viewport().update()

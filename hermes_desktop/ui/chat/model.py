"""The transcript as a Qt list model: rows of chat items, updated from engine events.

This is the one place where core events become row changes (inserts and
`dataChanged`), the way napari bridges its lists to Qt's model/view. Streamed text
is buffered and applied at most once per frame (STREAM_INTERVAL_MS), at most
STREAM_BLOCKS_PER_FRAME new Markdown blocks (and STREAM_CHARS_PER_FRAME characters) at a time: a server
faster than the screen leaves the rest for the next frames, so no frame lays out a screenful of new
Markdown (720 blocks a second keeps up with any model's stream), and only the row being streamed
changes; finished rows are never touched again. Any other event applies all that is pending first; when
that is more than a frame's share (a stream that ended while the screen was behind), the event waits, in
order, for the frames that show the rest, so the reply's end is not laid out in one long frame.
`flush_stream()` brings everything up to date at once. Running tool cards tick
once a second so their elapsed time stays current.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Iterable

from collections import deque
from dataclasses import dataclass

from PySide6.QtCore import QAbstractListModel, QCoreApplication, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Signal

from hermes_desktop.core.reply_model import clean_model_name
from hermes_desktop.ui import words
from hermes_desktop.ui.chat.items import (
    CANCELLED,
    DENIED,
    DONE,
    FAILED,
    INTERRUPTED,
    PENDING,
    RUNNING,
    SKIPPED,
    WAITING,
    BannerItem,
    Item,
    MessageItem,
    NoticeItem,
    RememberedItem,
    SummaryItem,
    ToolCardItem,
    continues_reply,
    group_replies,
    pretty_arguments,
)

if TYPE_CHECKING:
    from hermes_desktop.core import events as ev

ITEM_ROLE = Qt.ItemDataRole.UserRole + 1
MAX_PAGES = 4  # loaded pages kept while scrolling through a long session (the rest is dropped and reloaded)
STREAM_INTERVAL_MS = 16
STREAM_CHARS_PER_FRAME = 3000
STREAM_BLOCKS_PER_FRAME = 12  # Markdown blocks (blank-line separated) laid out in one frame: ~0.3-0.7 ms each
TICK_INTERVAL_MS = 1000

# Keyed by the values of core.events' StrEnums (a member equals and hashes as its value), so this module needs
# core.events only when an event arrives, not before the window's first paint (ui/launch.py).
_OUTCOME_STATUS = {
    "ok": DONE, "error": FAILED, "invalid": FAILED, "timeout": "timed out", "denied": DENIED,
    "cancelled": CANCELLED, "skipped": SKIPPED, "dry_run": "dry run", "interrupted": INTERRUPTED,
}  # ToolOutcome
_GUARD_REASONS = ("max_round_trips", "repeated_call", "repeated_failure", "output_limit")  # FinishReason
# Turns that end with the reply still streaming cut short: its row is marked interrupted.
_CUT_REASONS = ("cancelled", "output_limit")  # FinishReason


@dataclass(frozen=True, slots=True)
class _Page:
    first: int  # active-history positions [first, end)
    end: int
    rows: int  # how many rows it shows


class TranscriptModel(QAbstractListModel):
    sig_rows_appended = Signal()
    """Fires after rows were added at the end or the streaming row grew: the view may follow."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Item] = []
        self._streaming: MessageItem | None = None
        self._last_reply: MessageItem | None = None  # the reply whose calls are showing (marked if they were cut)
        self._reply_model = ""  # the model of the request under way (ModelRequestStarted), for its reply's header
        self._pending_text: list[str] = []
        self._pending_reasoning: list[str] = []
        self._deferred: deque[ev.Event] = deque()  # events waiting for the frames that show the text before them
        self._cards: dict[str, ToolCardItem] = {}
        self._retry_notice: NoticeItem | None = None
        self._summarising: NoticeItem | None = None  # "Summarising earlier conversation…" while the turn waits
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(STREAM_INTERVAL_MS)
        self._flush_timer.timeout.connect(self._flush_frame)
        self._tick_timer = QTimer(self)
        self._tick_timer.setInterval(TICK_INTERVAL_MS)
        self._tick_timer.timeout.connect(self._tick_running_cards)
        self._pages: deque[_Page] = deque()  # the loaded slices, top to bottom; live rows follow the last
        self.total = 0

    # ------------------------------------------------------------------ Qt API
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item = self._rows[index.row()]
        if role == ITEM_ROLE:
            return item
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return _accessible_text(item)
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.isValid() and isinstance(self._rows[index.row()], MessageItem):
            base |= Qt.ItemFlag.ItemIsEditable  # "editing" opens a read-only text view for selecting text
        return base

    # ------------------------------------------------------------------ loading
    def items(self) -> list[Item]:
        return list(self._rows)

    def item(self, row: int) -> Item:
        return self._rows[row]

    def row_of(self, item: Item) -> int:
        for row in range(len(self._rows) - 1, -1, -1):
            if self._rows[row] is item:
                return row
        return -1

    @property
    def first_loaded(self) -> int:
        return self._pages[0].first if self._pages else 0

    @property
    def end_loaded(self) -> int:
        return self._pages[-1].end if self._pages else 0

    @property
    def has_earlier(self) -> bool:
        return self.first_loaded > 0

    @property
    def has_later(self) -> bool:
        return self.end_loaded < self.total

    def reset(self, items: Iterable[Item], *, first: int = 0, end: int = 0, total: int = 0) -> None:
        self.beginResetModel()
        self._rows = list(items)
        group_replies(self._rows)  # a turn's rounds under one reply header (items.continues_reply)
        self._streaming = None
        self._last_reply = None
        self._pending_text.clear()
        self._pending_reasoning.clear()
        self._deferred.clear()
        self._cards = {i.call_id: i for i in self._rows if isinstance(i, ToolCardItem)}
        self._retry_notice = None
        self._summarising = None
        self._pages = deque([_Page(first, end, len(self._rows))])
        self.total = total
        self.endResetModel()
        self._update_tick()

    def prepend(self, items: list[Item], *, first: int, end: int) -> None:
        """Earlier messages (scrolling up). The farthest page below is dropped when too many are loaded."""
        if len(self._pages) >= MAX_PAGES and not self._has_live_rows():
            self._drop(self._pages.pop(), at_end=True)
        if items:
            group_replies(items)
            self.beginInsertRows(QModelIndex(), 0, len(items) - 1)
            self._rows[0:0] = items
            self._index_cards(items)
            self.endInsertRows()
            self._regroup(len(items))  # the old first rows may continue a turn the new page starts
        self._pages.appendleft(_Page(first, end, len(items)))

    def append_page(self, items: list[Item], *, first: int, end: int) -> None:
        """Later messages (scrolling down). The farthest page above is dropped when too many are loaded."""
        if len(self._pages) >= MAX_PAGES:
            self._drop(self._pages.popleft(), at_end=False)
        if items:
            group_replies(self._rows + items, len(self._rows))
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows) + len(items) - 1)
            self._rows.extend(items)
            self._index_cards(items)
            self.endInsertRows()
        self._pages.append(_Page(first, end, len(items)))

    def _has_live_rows(self) -> bool:
        return sum(page.rows for page in self._pages) != len(self._rows)

    def _drop(self, page: _Page, *, at_end: bool) -> None:
        if not page.rows:
            return
        first = len(self._rows) - page.rows if at_end else 0
        self.beginRemoveRows(QModelIndex(), first, first + page.rows - 1)
        for item in self._rows[first : first + page.rows]:
            if isinstance(item, ToolCardItem):
                self._cards.pop(item.call_id, None)
        del self._rows[first : first + page.rows]
        self.endRemoveRows()
        if not at_end:
            self._regroup(0)  # the new first row may have lost the header it was grouped under

    def _index_cards(self, items: list[Item]) -> None:
        for item in items:
            if isinstance(item, ToolCardItem):
                self._cards.setdefault(item.call_id, item)

    def append(self, item: Item) -> None:
        if isinstance(item, MessageItem) and item.role == "assistant":
            item.continues = continues_reply(reversed(self._rows))
        self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows))
        self._rows.append(item)
        self.endInsertRows()
        self.sig_rows_appended.emit()

    def remove(self, item: Item) -> None:
        row = self.row_of(item)
        if row >= 0:
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._rows[row]
            self.endRemoveRows()
            self._regroup(row)

    def _regroup(self, start: int) -> None:
        """Rows came or went at `start`: the reply rounds below regroup (items.group_replies) and are laid out again."""
        for item in group_replies(self._rows, start):
            self.changed(item)

    def changed(self, item: Item) -> None:
        row = self.row_of(item)
        if row >= 0:
            index = self.index(row)
            self.dataChanged.emit(index, index, [ITEM_ROLE])

    def find_message(self, message_id: int) -> int:
        for row, item in enumerate(self._rows):
            if getattr(item, "message_id", None) == message_id:
                return row
        return -1

    @property
    def streaming_item(self) -> MessageItem | None:
        return self._streaming

    @property
    def up_to_date(self) -> bool:
        """Every event received is shown: no text waits for a frame, no event waits behind text."""
        return not (self._pending_text or self._pending_reasoning or self._deferred)

    # ------------------------------------------------------------------ live events
    def apply(self, event: ev.Event) -> None:
        """Show one engine event of the session this transcript displays."""
        from hermes_desktop.core import events as ev

        if self._deferred or (not isinstance(event, (ev.TextDelta, ev.ReasoningDelta)) and self._behind()):
            self._deferred.append(event)
            if not self._flush_timer.isActive():
                self._flush_timer.start()
            return
        self._apply_now(event)

    def _behind(self) -> bool:
        """More text is buffered than one frame shows."""
        if self._streaming is None:
            return False
        reasoning = sum(len(piece) for piece in self._pending_reasoning)
        if reasoning > STREAM_CHARS_PER_FRAME:
            return True
        text = "".join(self._pending_text)
        return _frame_cut(text, STREAM_CHARS_PER_FRAME - reasoning) < len(text)

    def _apply_now(self, event: ev.Event) -> None:
        from hermes_desktop.core import events as ev

        if isinstance(event, ev.TextDelta):
            self._stream(event.text)
            return
        if isinstance(event, ev.ReasoningDelta):
            self._stream_reasoning(event.text)
            return
        if not isinstance(event, (ev.UsageReported, ev.ContextPrepared, ev.ModelRequestStarted)):
            self._apply_pending()
        if isinstance(event, (ev.ConversationSummary, ev.Notice, ev.ContextPrepared, ev.TurnError, ev.TurnFinished)):
            self._end_summarising()
        if isinstance(event, ev.TurnStarted):
            # Retry and Regenerate run a stored message again, and the session's page, reopened for them, may
            # already show it: then it is not shown twice.
            if event.user_message_id is None or self.find_message(event.user_message_id) < 0:
                self.append(MessageItem("user", event.text, event.user_message_id, attachments=event.attachments))
        elif isinstance(event, ev.ModelRequestStarted):
            self._last_reply = None  # a new reply: a call without text must not mark the previous one
            self._reply_model = clean_model_name(event.model) or ""
        elif isinstance(event, ev.AssistantMessageStarted):
            if self._streaming is not None and self._streaming.message_id is None:
                self._streaming.message_id = event.message_id
        elif isinstance(event, ev.ToolCallProposed):
            self._end_stream(interrupted=False)
            card = ToolCardItem(event.call_id, event.name, pretty_arguments(event.raw_arguments), event.source,
                                event.risk, PENDING, impact=words.impact_text(
                                    event.impact_code, event.impact_params, event.impact, tool=event.name,
                                    source=event.source) or None)
            self._cards[event.call_id] = card
            self.append(card)
        elif isinstance(event, ev.ToolCallMeasured):  # measured when its turn came, or changed right before it ran
            card = self._cards.get(event.call_id)
            self._update_card(event.call_id, risk=event.risk, impact=words.impact_text(
                event.impact_code, event.impact_params, event.impact, tool=card.name if card else "",
                source=card.source if card else "") or None)
        elif isinstance(event, ev.ToolCallAwaitingApproval):
            self._update_card(event.call_id, status=WAITING, over_threshold=event.over_threshold)
        elif isinstance(event, ev.ToolCallDecided):
            self._update_card(event.call_id, decided_by=event.decided_by, decision=event.decision,
                              **({"status": PENDING} if event.approved else {"status": DENIED}))
        elif isinstance(event, ev.ToolCallStarted):
            self._update_card(event.call_id, status=RUNNING, started_at=time.monotonic())
        elif isinstance(event, ev.ToolCallFinished):
            self._update_card(event.call_id, status=_OUTCOME_STATUS.get(event.outcome, DONE), result=event.result,
                              duration_s=event.duration_s)
            if event.outcome is ev.ToolOutcome.INTERRUPTED and self._last_reply is not None:
                self._last_reply.interrupted = True  # as stored: the reply was cut while writing its calls
                self.changed(self._last_reply)
        elif isinstance(event, ev.RetryScheduled):
            self._show_retry(words.retry_text(event))
        elif isinstance(event, ev.SummarisingStarted):
            if self._summarising is None:
                self._summarising = NoticeItem(QCoreApplication.translate(
                    "Transcript", "Summarising earlier conversation…"))
                self.append(self._summarising)
        elif isinstance(event, ev.ConversationSummary):
            self.show_summary(SummaryItem(event.text, event.covered_to, event.covered_messages, event.tokens,
                                          event.model))
        elif isinstance(event, ev.Notice):
            self.append(NoticeItem(words.notice_text(event)))
        elif isinstance(event, ev.TurnError):
            self._end_stream(interrupted=True)
            self._clear_retry()
            self.append(error_banner(event))
        elif isinstance(event, ev.TurnFinished):
            self._clear_retry()
            self._end_stream(interrupted=event.reason in _CUT_REASONS)
            if event.reason in _GUARD_REASONS:
                self.append(BannerItem(words.stop_text(event), ("retry",), level="stopped"))
        self._update_tick()

    def _stream(self, text: str) -> None:
        self._clear_retry()
        if self._streaming is None:
            self._streaming = MessageItem("assistant", "", streaming=True, model=self._reply_model)
            self.append(self._streaming)
        if self._streaming.thinking:
            self._apply_pending()  # the thinking before the answer's first piece
            self._end_thinking(self._streaming)
        self._pending_text.append(text)
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _stream_reasoning(self, text: str) -> None:
        """A piece of the reply's thinking: its "Thinking" section opens (items.thinking_state) and grows."""
        self._clear_retry()
        if self._streaming is None:
            self._streaming = MessageItem("assistant", "", streaming=True, model=self._reply_model)
            self.append(self._streaming)
        if self._streaming.thinking_started is None:
            self._streaming.thinking, self._streaming.thinking_started = True, time.monotonic()
        self._pending_reasoning.append(text)
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _end_thinking(self, item: MessageItem) -> None:
        """The answer started (or the reply ended): the section collapses to "Thought for N s"."""
        if item.thinking:
            item.thinking = False
            if item.reasoning_ms is None and item.thinking_started is not None:
                item.reasoning_ms = int((time.monotonic() - item.thinking_started) * 1000)
            self.changed(item)

    def flush_stream(self) -> None:
        """Apply all buffered text to the streaming row (one repaint for many tokens), and the events waiting
        behind it."""
        self._apply_pending()
        while self._deferred:
            self._apply_now(self._deferred.popleft())
        self._apply_pending()

    def _apply_pending(self) -> None:
        self._flush_timer.stop()
        if self._streaming is not None and (self._pending_text or self._pending_reasoning):
            self._streaming.reasoning += "".join(self._pending_reasoning)
            self._streaming.text += "".join(self._pending_text)
            self._pending_text.clear()
            self._pending_reasoning.clear()
            self.changed(self._streaming)
            self.sig_rows_appended.emit()

    def _flush_frame(self) -> None:
        """One frame's update: a frame's share of the buffered text (_frame_cut); the rest waits a frame. Once
        it is all shown, the events that waited for it are applied (until one waits again)."""
        if self._streaming is None or not (self._pending_text or self._pending_reasoning):
            self._apply_deferred()
            return
        budget = STREAM_CHARS_PER_FRAME
        for pending, name in ((self._pending_reasoning, "reasoning"), (self._pending_text, "text")):
            if not pending or budget <= 0:
                continue
            joined = "".join(pending)
            cut = _frame_cut(joined, budget) if name == "text" else budget
            taken, rest = joined[:cut], joined[cut:]
            if rest and "\ud800" <= taken[-1] <= "\udbff":  # never split a surrogate pair between frames
                taken, rest = taken[:-1], taken[-1] + rest
            setattr(self._streaming, name, getattr(self._streaming, name) + taken)
            pending[:] = [rest] if rest else []
            budget -= len(taken)
        self.changed(self._streaming)
        self.sig_rows_appended.emit()
        if self._pending_text or self._pending_reasoning:
            self._flush_timer.start()
        elif self._deferred:
            self._apply_deferred()

    def _apply_deferred(self) -> None:
        from hermes_desktop.core import events as ev

        while self._deferred:
            event = self._deferred[0]
            if not isinstance(event, (ev.TextDelta, ev.ReasoningDelta)) and self._behind():
                if not self._flush_timer.isActive():
                    self._flush_timer.start()
                return
            self._apply_now(self._deferred.popleft())

    def _end_stream(self, *, interrupted: bool) -> None:
        self._apply_pending()
        if self._streaming is not None:
            self._end_thinking(self._streaming)
            self._streaming.streaming = False
            self._streaming.interrupted = self._streaming.interrupted or interrupted
            self.changed(self._streaming)
            self._last_reply, self._streaming = self._streaming, None

    def _update_card(self, call_id: str, **changes: Any) -> None:
        card = self._cards.get(call_id)
        if card is None:
            return
        for name, value in changes.items():
            setattr(card, name, value)
        self.changed(card)

    def _show_retry(self, text: str) -> None:
        if self._retry_notice is None:
            self._retry_notice = NoticeItem(text)
            self.append(self._retry_notice)
        else:
            self._retry_notice.text = text
            self.changed(self._retry_notice)

    def _clear_retry(self) -> None:
        if self._retry_notice is not None:
            self.remove(self._retry_notice)
            self._retry_notice = None

    def _end_summarising(self) -> None:
        if self._summarising is not None:
            self.remove(self._summarising)
            self._summarising = None

    # ------------------------------------------------------------------ the summary card
    def summary_item(self) -> SummaryItem | None:
        return next((i for i in self._rows if isinstance(i, SummaryItem)), None)

    def show_summary(self, card: SummaryItem) -> None:
        """Put the conversation's summary card at its cut (replacing an older one); not shown when the cut is
        above the loaded pages (it comes with them when the user scrolls up)."""
        old = self.summary_item()
        if old is not None:
            if (old.covered_to, old.text) == (card.covered_to, card.text):
                return
            card.open = old.open
            self._remove_paged(self.row_of(old))
        row = self._cut_row(card.covered_to)
        if row is not None:
            self._insert_paged(row, card)

    def _cut_row(self, covered_to: int) -> int | None:
        """The row just after the message `covered_to` (message ids grow along the conversation)."""
        seen = False
        for row, item in enumerate(self._rows):
            message_id = getattr(item, "message_id", None)
            if message_id is None:
                continue
            if message_id <= covered_to:
                seen = True
            else:
                return row if seen else None
        return len(self._rows) if seen else None

    def _insert_paged(self, row: int, item: Item) -> None:
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows.insert(row, item)
        self.endInsertRows()
        self._count_in_page(row, +1)
        self._regroup(row)

    def _remove_paged(self, row: int) -> None:
        if row < 0:
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._rows[row]
        self.endRemoveRows()
        self._count_in_page(row, -1)
        self._regroup(row)

    def _count_in_page(self, row: int, change: int) -> None:
        """Keep each loaded page's row count right when a row is put into (or taken out of) its middle."""
        start = 0
        for number, page in enumerate(self._pages):
            if start <= row < start + page.rows + (1 if change > 0 else 0):
                self._pages[number] = _Page(page.first, page.end, page.rows + change)
                return
            start += page.rows

    def _tick_running_cards(self) -> None:
        for card in self._cards.values():
            if card.status == RUNNING:
                self.changed(card)

    def _update_tick(self) -> None:
        running = any(card.status == RUNNING for card in self._cards.values())
        if running and not self._tick_timer.isActive():
            self._tick_timer.start()
        elif not running:
            self._tick_timer.stop()


def _frame_cut(text: str, chars: int) -> int:
    """Where one frame's share of `text` ends: after STREAM_BLOCKS_PER_FRAME blank lines, or `chars` characters."""
    cut = min(len(text), chars)
    at = -2
    for _ in range(STREAM_BLOCKS_PER_FRAME):
        at = text.find("\n\n", at + 2, cut)
        if at < 0:
            return cut
    return at + 2


def error_banner(error: ev.TurnError) -> BannerItem:
    """A turn's error card: the error in the window's language, and what the user can do (live, and as kept with
    the session for after a restart: core/turn_failures.py)."""
    return BannerItem(words.turn_error_text(error), _actions_for(error))


def _actions_for(error: ev.TurnError) -> tuple[str, ...]:
    from hermes_desktop.core import events as ev

    actions = ["retry"]
    if error.action is ev.ErrorAction.OPEN_PROVIDER_SETTINGS:
        actions.append("open_provider_settings")
    if error.action is ev.ErrorAction.NEW_SESSION_WITH_SUMMARY:
        actions.append("new_session_with_summary")
    return tuple(actions)


def note_heading(role: str) -> str:
    """The line above an imported note in the transcript: what it was, and that the model never sees it."""
    return QCoreApplication.translate("Transcript", "Imported “{role}” message: shown here, never sent to the model"
                                      ).format(role=role)


def remembered_text(item: RememberedItem) -> str:
    """The words of a "Remembered: …" row: what was remembered, or that Undo forgot it."""
    from hermes_desktop.core.terminal_text import visible_bidi  # a memory's words cannot reverse the row

    shown = [visible_bidi(s) for s in item.statements]
    # Statements that end a sentence already ("I prefer tea.") follow each other with a space ("tea.; The" read as
    # a typo); the others are set apart by "; ".
    listed = ""
    for n, statement in enumerate(shown):
        if n:
            listed += " " if shown[n - 1].rstrip().endswith((".", "!", "?", "。", "！", "？")) else "; "
        listed += statement
    if item.state == "undone":
        return QCoreApplication.translate("Transcript", "Forgotten (undone): {0}").format(listed)
    if item.state == "failed":
        return QCoreApplication.translate("Transcript", "Could not undo; still remembered: {0}").format(listed)
    return QCoreApplication.translate("Transcript", "Remembered: {0}").format(listed)


def _accessible_text(item: Item) -> str:
    if isinstance(item, RememberedItem):
        return remembered_text(item)
    if isinstance(item, MessageItem):
        who = "You" if item.role == "user" else "Hermes" + (f" ({item.model})" if item.model else "")
        return f"{who}: {item.text}"
    if isinstance(item, ToolCardItem):
        return f"Tool {item.name}, {item.status}"
    if isinstance(item, BannerItem):
        return f"Error: {item.message}"
    if isinstance(item, NoticeItem) and item.note_of:
        return f"{note_heading(item.note_of)}\n\n{item.text}"
    if isinstance(item, SummaryItem):
        heading = QCoreApplication.translate("Transcript", "Earlier conversation (summarised)")
        return f"{heading}\n\n{item.text}" if item.open else heading
    return item.text

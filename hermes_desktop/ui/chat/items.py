"""What the transcript shows, row by row: messages, tool-call cards, banners and notices.

Pure Python (no Qt): built from stored messages when a session opens, and updated
from the engine's events while a turn runs. The Qt model (chat/model.py) only
holds a list of these and tells the view which rows changed.

A reply's reasoning shows as a "Thinking" section above its text (`thinking_state`): with the
`thinking_display` setting AUTO it is open while the thinking streams and collapses to "Thought for N s"
once the answer starts; EXPANDED keeps it open, HIDDEN never shows it. A click on its heading toggles it
(the user's choice then holds for that reply). The setting is one per window, like the theme.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Union

if TYPE_CHECKING:
    from hermes_desktop.core.session_types import StoredMessage


@dataclass(eq=False)
class MessageItem:
    role: str  # user | assistant
    text: str
    message_id: int | None = None
    interrupted: bool = False
    streaming: bool = False
    created_at: float = field(default_factory=time.time)
    versions: tuple[int, ...] = ()  # ids of this message's versions (edits, regenerations), oldest first
    reasoning: str = ""  # the reply's thinking
    reasoning_ms: int | None = None  # how long it thought (None: not known, e.g. an imported reply)
    thinking: bool = False  # its thinking is streaming and the answer has not started
    thinking_started: float | None = None  # time.monotonic() at its first thinking piece (live duration)
    reasoning_open: bool | None = None  # the user's toggle; None follows the setting
    attachments: tuple[Any, ...] = ()  # a user message's files (AttachmentRef): thumbnails and chips under it
    copied: bool = False  # Copy was just clicked: its link reads "Copied" for a moment (never stored)
    model: str = ""  # a reply's model, shown small in its header (core/reply_model.py); "" when not known
    # A later round of the same turn's reply (after its tool cards): drawn under the first round's "Hermes" header,
    # without one of its own (continues_reply sets it; the transcript model keeps it right as rows come and go).
    continues: bool = False

    @property
    def key(self) -> str:
        return f"m{self.message_id}" if self.message_id is not None else f"tmp{id(self)}"

    @property
    def version_index(self) -> int:
        return self.versions.index(self.message_id) if self.message_id in self.versions else 0


# `thinking_display` values (core.settings.ThinkingDisplay), kept as plain strings so this module stays light.
THINKING_AUTO, THINKING_EXPANDED, THINKING_HIDDEN = "auto", "expanded", "hidden"
_thinking_display = THINKING_AUTO


def thinking_display() -> str:
    return _thinking_display


def set_thinking_display(value: str) -> bool:
    """Use the setting's value from now on; True when it changed (the view must lay its rows out again)."""
    global _thinking_display
    value = value if value in (THINKING_AUTO, THINKING_EXPANDED, THINKING_HIDDEN) else THINKING_AUTO
    changed, _thinking_display = value != _thinking_display, value
    return changed


def thinking_state(item: "MessageItem") -> str:
    """How the reply's thinking section shows: "none" (no reasoning, or hidden), "open" or "collapsed"."""
    if not item.reasoning or _thinking_display == THINKING_HIDDEN:
        return "none"
    if item.reasoning_open is not None:
        return "open" if item.reasoning_open else "collapsed"
    if _thinking_display == THINKING_EXPANDED or item.thinking:
        return "open"
    return "collapsed"


def thinking_seconds(item: "MessageItem", now: float | None = None) -> int | None:
    """Whole seconds it thought (live while it still thinks); None when not known."""
    if item.reasoning_ms is not None:
        return max(1, round(item.reasoning_ms / 1000))
    if item.thinking_started is not None:
        return max(0, int((now if now is not None else time.monotonic()) - item.thinking_started))
    return None


# Card states, in the words the card shows.
WAITING = "waiting"  # waiting for the user's approval
PENDING = "pending"  # proposed, about to run
RUNNING = "running"
DONE = "done"
FAILED = "failed"
DENIED = "denied"
CANCELLED = "cancelled"
SKIPPED = "skipped"
INTERRUPTED = "interrupted"  # never run: the reply was cut off (or stopped at its output limit) while writing it


@dataclass(eq=False)
class ToolCardItem:
    call_id: str
    name: str
    arguments: str  # pretty JSON (or the raw text when it did not parse)
    source: str = "builtin"
    risk: str = "read"
    status: str = PENDING
    result: str | None = None
    impact: str | None = None
    decided_by: str | None = None
    decision: str | None = None  # deny | allow_once | allow_session | allow_always
    over_threshold: bool = False
    started_at: float | None = None
    duration_s: float | None = None
    message_id: int | None = None  # the assistant message that asked for it
    args_open: bool = False
    result_open: bool = False
    show_all: bool = False

    @property
    def key(self) -> str:
        return f"c{self.call_id}"

    def elapsed(self, now: float | None = None) -> float | None:
        if self.duration_s is not None:
            return self.duration_s
        if self.started_at is not None:
            return (now or time.monotonic()) - self.started_at
        return None


@dataclass(eq=False)
class BannerItem:
    """An error on a turn, with what the user can do about it."""

    message: str
    actions: tuple[str, ...] = ()  # retry | open_provider_settings | new_session_with_summary
    level: str = "error"  # error | stopped

    @property
    def key(self) -> str:
        return f"b{id(self)}"


@dataclass(eq=False)
class NoticeItem:
    """A one-line note: a retry in progress, a switch to text tool calls, a cut-off reply; or a stored
    message that is not conversation: a session's summary, or an imported note (`note_of` is the role it had
    in the file; the view heads it "not sent to the model")."""

    text: str
    note_of: str = ""

    @property
    def key(self) -> str:
        return f"n{id(self)}"


@dataclass(eq=False)
class SummaryItem:
    """The card at the cut of a long conversation (core/conversation_summary.py): the messages above it are sent to
    the model as this summary, the ones below it word for word. Collapsed until clicked (or Enter/Space)."""

    text: str
    covered_to: int  # the last message it stands for: the card sits right after it
    covered_messages: int
    tokens: int
    model: str = ""
    open: bool = False

    @property
    def key(self) -> str:
        return f"s{self.covered_to}"


@dataclass(eq=False)
class RememberedItem:
    """ "Remembered: …" after a turn whose words Hermes kept as memories (core/memory), with Undo; after Undo it
    says they were forgotten. Shown by the window (ui/memory_actions.py), not stored with the conversation; its
    words come from chat/model.remembered_text."""

    memory_ids: tuple[int, ...]
    statements: tuple[str, ...]
    session_id: str = ""
    state: str = "shown"  # shown | undoing | undone | failed

    @property
    def key(self) -> str:
        return f"r{id(self)}"



Item = Union[MessageItem, ToolCardItem, BannerItem, NoticeItem, SummaryItem, RememberedItem]


def continues_reply(previous: Iterable[Item]) -> bool:
    """Whether an assistant row goes under the reply header of the rows before it (`previous`, nearest first).

    One user turn can be many model rounds (model, tools, model, tools, answer); each round is its own stored
    message, and each used to get its own "Hermes" header, so a five-round turn read as five replies (issue 24).
    A round continues the reply when the nearest row above it, passing over one-line notices (a retry, a switch to
    text tool calls), is a reply round or a tool card. A user message, an error or stop banner, a summary card, a
    "Remembered" row or an imported note starts afresh: what follows them gets its own header."""
    for item in previous:
        if isinstance(item, NoticeItem) and not item.note_of:
            continue
        return isinstance(item, ToolCardItem) or (isinstance(item, MessageItem) and item.role == "assistant")
    return False


def group_replies(rows: list[Item], start: int = 0) -> list[MessageItem]:
    """Set `continues` on the assistant rows from `start` on; returns the rows whose value changed."""
    changed = []
    for row in range(max(0, start), len(rows)):
        item = rows[row]
        if isinstance(item, MessageItem) and item.role == "assistant":
            value = continues_reply(rows[n] for n in range(row - 1, -1, -1))
            if value != item.continues:
                item.continues = value
                changed.append(item)
    return changed


ToolInfo = Callable[[str], tuple[str, str]]  # tool name -> (source, risk)


def pretty_arguments(raw: str) -> str:
    """A call's arguments for its card: bidi overrides and controls as escapes (they cannot reorder what the user
    judges); parsed JSON stays the same JSON."""
    from hermes_desktop.core.terminal_text import terminal_safe_json, visible_controls

    try:
        return terminal_safe_json(json.loads(raw or "{}"), indent=2)
    except ValueError:
        return visible_controls(raw, keep_newlines=True)


def status_of_result(content: str | None) -> str:
    """A stored tool result's card state (the engine's result shapes, see core/agent.py)."""
    if content is None:
        return CANCELLED
    try:
        data = json.loads(content)
    except ValueError:
        return DONE
    if isinstance(data, dict):
        status = data.get("status")
        if status == "denied":
            return DENIED
        if status == "cancelled":
            return CANCELLED
        if status == "not_run":
            return SKIPPED
        if status == "interrupted":
            return INTERRUPTED
        if status == "dry_run":  # core/agent.py's dry-run result: the live card's "dry run" state
            return "dry run"
        if "error" in data and len(data) <= 3:
            return FAILED
    return DONE


def apply_tool_record(card: ToolCardItem, record: Any) -> None:
    """Give a reopened card what it showed live: the impact line, who decided and how, and the duration, in the
    window's language (ui/words.py, as the live card). A record that does not read back (its parameters are not a
    JSON object) leaves the impact out; a record never fails the page."""
    from hermes_desktop.ui import words  # Qt: only when a stored record is shown

    try:
        if record.impact_params is not None:
            card.impact = words.impact_text(record.impact_code, record.impact_params, record.impact,
                                            tool=card.name, source=card.source) or None
    except Exception:  # noqa: BLE001 - odd stored parameters: the card shows without its impact line
        card.impact = None
    if isinstance(record.decision, str) and isinstance(record.decided_by, str):
        card.decision, card.decided_by = record.decision, record.decided_by
    if isinstance(record.duration_s, (int, float)) and record.duration_s >= 0:
        card.duration_s = float(record.duration_s)


def items_from_messages(messages: Iterable[StoredMessage], tool_info: ToolInfo,
                        versions: dict[int, tuple[int, ...]] | None = None,
                        summary: SummaryItem | None = None,
                        tool_records: dict[int, Any] | None = None,
                        failure: tuple[int, BannerItem] | None = None) -> list[Item]:
    """The rows for stored messages: tool results fold into the card of the call they answer.

    `versions` maps a message id to the ids of all its versions, for messages that have more than one. `summary`
    (the conversation's running summary) goes right after the message it ends with, when that is among them.
    `tool_records` (by tool message id, ui/controller.Page.tool_records) restore each card's impact line, decision
    and duration; cards without one show as before. `failure` (the user message id of the session's failed last turn
    and its error card, core/turn_failures.py) puts the card after that turn's rows, as it was shown live."""
    from hermes_desktop.core.session_types import CONVERSATION_ROLES, SUMMARY

    versions = versions or {}
    tool_records = tool_records or {}
    rows: list[Item] = []
    cards: dict[str, ToolCardItem] = {}
    for message in messages:
        if message.role == "user":
            rows.append(MessageItem("user", message.content or "", message.id, created_at=message.created_at,
                                    versions=versions.get(message.id, ()), attachments=message.attachments))
        elif message.role == "assistant":
            if message.content or message.reasoning or not message.tool_calls:
                rows.append(MessageItem("assistant", message.content or "", message.id, message.interrupted,
                                        created_at=message.created_at, versions=versions.get(message.id, ()),
                                        reasoning=message.reasoning or "", reasoning_ms=message.reasoning_ms,
                                        model=message.model or ""))
            for call in message.tool_calls or []:
                function: dict[str, Any] = call.get("function", {})
                name = str(function.get("name", "?"))
                source, risk = tool_info(name)
                card = ToolCardItem(str(call.get("id", "")), name, pretty_arguments(str(function.get("arguments", ""))),
                                    source, risk, status=CANCELLED, message_id=message.id)
                cards[card.call_id] = card
                rows.append(card)
        elif message.role == "tool":
            card = cards.get(message.tool_call_id or "")
            if card is not None:
                card.result = message.content
                card.status = status_of_result(message.content)
                record = tool_records.get(message.id)
                if record is not None:
                    apply_tool_record(card, record)
        elif message.role == SUMMARY:
            rows.append(NoticeItem(message.content or ""))
        elif message.role not in CONVERSATION_ROLES:  # an imported note, or an older version's system message
            rows.append(NoticeItem(message.content or "", note_of=message.name or message.role))
        if summary is not None and message.id == summary.covered_to:
            rows.append(summary)
    if failure is not None:
        _place_failure(rows, *failure)
    return rows


def _place_failure(rows: list[Item], message_id: int, banner: BannerItem) -> None:
    """The error card after the rows of the turn that answered user message `message_id` (before the next user
    message); not shown when that message is not among the rows."""
    start = next((n for n, item in enumerate(rows) if isinstance(item, MessageItem) and item.role == "user"
                  and item.message_id == message_id), None)
    if start is None:
        return
    end = next((n for n in range(start + 1, len(rows)) if isinstance(rows[n], MessageItem)
                and rows[n].role == "user"), len(rows))  # type: ignore[union-attr]
    rows.insert(end, banner)


def summary_card(page: Any) -> SummaryItem | None:
    """The summary card for a loaded page of a session (controller.Page.summary), if the session has one."""
    record = getattr(page, "summary", None)
    if record is None:
        return None
    return SummaryItem(record.text, record.covered_to, record.covered_messages, record.tokens, record.model)

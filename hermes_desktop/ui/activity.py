"""The Activity tab's data: what each turn did, from its events, with timings. No widgets: only
`QCoreApplication.translate` for its words (tool names, models, numbers and the model's own text stay data).

Per turn: each model round trip (tokens in/out, time to first token, duration),
the context budget and what was left out, each tool call (arguments, decision,
duration, result size), notices, errors and guard stops.

Turns run before the window opened are rebuilt from the saved conversation
(`recorder_from_history`): their replies and tool calls with outcomes and sizes. Timings,
context sizes and approval decisions live only in the events, so those turns do not have
them, and the tab says so.

Every line the tab shows has its whole text in a tooltip (`line_tooltip`, `entry_tooltip`, `turn_tooltip`): at
the default inspector width (390 px) a round's numbers, a tool's arguments and a path without spaces are longer
than the row. The tab wraps them to its width (ui/activity_view.py: at spaces, and inside a path or JSON where
it must), and the tooltip holds each whole. Tooltips are escaped text in a `pre-wrap` paragraph: Qt guesses rich text, and a
memory, a tool result or a question may contain markup that must be shown as written.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QCoreApplication

from hermes_desktop.ui import words
from hermes_desktop.ui.chat.items import status_of_result

if TYPE_CHECKING:
    from hermes_desktop.core import events as ev
    from hermes_desktop.core.session_types import StoredMessage


@dataclass
class ActivityEntry:
    kind: str  # round | context | tool | notice | error | stop | side
    title: str
    detail: str = ""
    message_id: int | None = None  # for "scroll the chat to it"
    call_id: str | None = None


@dataclass
class TurnActivity:
    text: str
    started: float
    user_message_id: int | None = None
    entries: list[ActivityEntry] = field(default_factory=list)
    finished: str | None = None

    @property
    def title(self) -> str:
        first = " ".join(self.text.split())
        return first[:60].rstrip() + ("…" if len(first) > 60 else "")


class ActivityRecorder:
    """Feed it one session's events; it keeps the turns it saw."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.turns: list[TurnActivity] = []
        self.rebuilt_turns = 0  # how many of `turns` (the first ones) come from the saved conversation
        self._clock = clock
        self._round: ActivityEntry | None = None
        self._round_started = 0.0
        self._first_token: float | None = None
        self._usage: tuple[int, int, int | None] | None = None
        self._tools: dict[str, ActivityEntry] = {}
        self._tool_names: dict[str, str] = {}
        self._decisions: dict[str, str] = {}
        self._message_id: int | None = None

    @property
    def current(self) -> TurnActivity | None:
        return self.turns[-1] if self.turns else None

    def record(self, event: ev.Event) -> ActivityEntry | TurnActivity | None:
        """Apply one event; returns the entry it created or changed (or the turn), if any."""
        from hermes_desktop.core import events as ev  # not at module level: see ui/launch.py
        now = self._clock()
        if isinstance(event, ev.TurnStarted):
            self.turns.append(TurnActivity(event.text, now, event.user_message_id))
            return self.turns[-1]
        turn = self.current
        if turn is None:
            return None
        if isinstance(event, ev.ContextPrepared):
            entry = ActivityEntry("context", QCoreApplication.translate("Activity", "Context {0} / {1} tokens").format(
                f"{event.estimated_tokens:,}", f"{event.budget_tokens:,}"),
                                  _breakdown(event))
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.ModelRequestStarted):
            self._close_round(now)
            self._round = ActivityEntry("round", QCoreApplication.translate("Activity", "Model round {0} · {1}").format(
                event.round_trip, event.model), QCoreApplication.translate("Activity", "tool calling: {0}").format(
                words.tool_mode_name(event.tool_mode)))
            self._round_started, self._first_token, self._usage, self._message_id = now, None, None, None
            turn.entries.append(self._round)
            return self._round
        if isinstance(event, (ev.TextDelta, ev.ReasoningDelta, ev.ToolCallProposed)) and self._first_token is None \
                and self._round:
            self._first_token = now - self._round_started
        if isinstance(event, ev.AssistantMessageStarted):
            self._message_id = event.message_id
            if self._round:
                self._round.message_id = event.message_id
        if isinstance(event, ev.UsageReported):
            self._usage = (event.prompt_tokens, event.completion_tokens, event.reasoning_tokens)
        if isinstance(event, ev.SideRequestRecorded):
            entry = ActivityEntry("side", QCoreApplication.translate("Activity", "Side request: {purpose} · {model}").format(
                purpose=words.side_purpose_name(event.purpose), model=event.model),
                (QCoreApplication.translate("Activity", "{0:,} tokens in, {1:,} out (estimated)") if event.estimated
                 else QCoreApplication.translate("Activity", "{0:,} tokens in, {1:,} out")).format(
                    event.input_tokens, event.output_tokens))
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.ToolCallProposed):
            self._close_round(now)
            arguments = json.dumps(event.arguments, ensure_ascii=False) if event.arguments is not None else event.raw_arguments
            entry = ActivityEntry("tool", QCoreApplication.translate("Activity", "{tool} ({risk})").format(
                tool=event.name, risk=words.risk_name(event.risk)),
                QCoreApplication.translate("Activity", "arguments: {0}").format(arguments[:300]),
                                  call_id=event.call_id)
            self._tools[event.call_id] = entry
            self._tool_names[event.call_id] = event.name
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.ToolCallMeasured) and event.call_id in self._tools:  # its risk as measured at its turn
            entry = self._tools[event.call_id]
            entry.title = QCoreApplication.translate("Activity", "{tool} ({risk})").format(
                tool=self._tool_names.get(event.call_id, ""), risk=words.risk_name(event.risk))
            return entry
        if isinstance(event, ev.ToolCallDecided):
            self._decisions[event.call_id] = QCoreApplication.translate("Activity", "{decision} by {who}").format(
                decision=words.decision_name(event.decision), who=words.decider(event.decided_by))
            return None
        if isinstance(event, ev.ToolCallFinished):
            entry = self._tools.get(event.call_id)
            if entry is not None:
                decision = self._decisions.get(event.call_id, "")
                entry.title = f"{event.name} · {_outcome_words(event)}"
                decision = decision or QCoreApplication.translate("Activity", "none")
                if event.truncated_chars:
                    entry.detail += "\n" + QCoreApplication.translate(
                        "Activity", "decision: {decision}; result: {size} characters ({cut} cut)").format(
                        decision=decision, size=f"{len(event.result):,}", cut=f"{event.truncated_chars:,}")
                else:
                    entry.detail += "\n" + QCoreApplication.translate(
                        "Activity", "decision: {decision}; result: {size} characters").format(
                        decision=decision, size=f"{len(event.result):,}")
                if event.outcome in (ev.ToolOutcome.ERROR, ev.ToolOutcome.TIMEOUT):  # why, e.g. an MCP breaker's note
                    entry.detail += "\n" + QCoreApplication.translate("Activity", "error: {0}").format(
                        _error_text(event.result)[:500])
            return entry
        if isinstance(event, ev.SummarisingStarted):
            entry = ActivityEntry("notice", QCoreApplication.translate(
                "Activity", "Summarising {0} earlier messages (the request waits)").format(f"{event.messages:,}"))
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.ConversationSummary):
            made = QCoreApplication.translate("Activity", "made now by {0}").format(event.model) if event.new else \
                QCoreApplication.translate("Activity", "made earlier by {0}").format(event.model)
            entry = ActivityEntry("context", QCoreApplication.translate(
                "Activity", "Earlier conversation: {0} messages sent as a {1}-token summary").format(
                f"{event.covered_messages:,}", f"{event.tokens:,}"), f"{made}\n{event.text[:600]}")
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.MemoryRecalled):  # the memory layer of this turn's requests, with sources
            lines = [words.memory_line(item) for item in event.items] if event.items else list(event.lines)
            entry = ActivityEntry("context", QCoreApplication.translate("Activity", "Memory: {0} recalled").format(
                len(event.lines)), "\n".join(lines))
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.WorkflowHintOffered):  # a past successful path this turn's requests carry as a hint
            source = event.source_title or event.source_session_id
            entry = ActivityEntry("context", QCoreApplication.translate(
                "Activity", "Workflow memory: a past path offered (from '{0}')").format(source),
                QCoreApplication.translate("Activity", "Earlier request: {0}\nPath: {1}").format(
                    event.request, event.path_text))
            turn.entries.append(entry)
            return entry
        if isinstance(event, (ev.Notice, ev.RetryScheduled)):
            entry = ActivityEntry("notice", words.notice_text(event) if isinstance(event, ev.Notice) else
                                  words.retry_text(event))
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.TurnError):
            entry = ActivityEntry("error", QCoreApplication.translate("Activity", "Error: {0}").format(
                words.error_kind_name(event.kind.value)), words.turn_error_text(event))
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.TurnFinished):
            self._close_round(now)
            turn.finished = event.reason.value
            if event.reason not in (ev.FinishReason.COMPLETED, ev.FinishReason.ERROR):
                entry = ActivityEntry("stop", QCoreApplication.translate("Activity", "Stopped: {0}").format(
                    words.stop_reason_name(event.reason.value)), words.stop_text(event))
                turn.entries.append(entry)
                return entry
            return turn
        return None

    def _close_round(self, now: float) -> None:
        if self._round is None:
            return
        parts = []
        if self._usage:
            reasoning = self._usage[2]
            if reasoning is not None:
                parts.append(QCoreApplication.translate(
                    "Activity", "{0} tokens in, {1} out ({2} of them reasoning)").format(
                    f"{self._usage[0]:,}", f"{self._usage[1]:,}", f"{reasoning:,}"))
                # also on a line of its own: the title is often cut in the narrow panel
                self._round.detail += "\n" + QCoreApplication.translate("Activity", "reasoning tokens: {0}").format(
                    f"{reasoning:,}")
            else:
                parts.append(QCoreApplication.translate("Activity", "{0} tokens in, {1} out").format(
                    f"{self._usage[0]:,}", f"{self._usage[1]:,}"))
        if self._first_token is not None:
            parts.append(QCoreApplication.translate("Activity", "first token after {0} s").format(
                f"{self._first_token:.2f}"))
        parts.append(QCoreApplication.translate("Activity", "{0} s").format(f"{now - self._round_started:.2f}"))
        self._round.title += QCoreApplication.translate("Activity", " — ", "before a round's numbers") + \
            QCoreApplication.translate("Activity", ", ", "between a round's numbers").join(parts)
        self._round = None


TOOLTIP_LIMIT = 4000  # characters: a pasted document as a question must not make a screen-sized tooltip


def line_tooltip(text: str) -> str:
    """The whole of one line (or several) as a tooltip: plain text, kept as written, wrapped at spaces."""
    from html import escape

    if not text:
        return ""
    text = text if len(text) <= TOOLTIP_LIMIT else text[:TOOLTIP_LIMIT] + "…"
    return f"<p style='white-space:pre-wrap'>{escape(text, quote=False)}</p>"


def entry_tooltip(entry: ActivityEntry) -> str:
    """An entry's title and its details (the title alone is often cut in the narrow tab)."""
    return line_tooltip(entry.title + ("\n" + entry.detail if entry.detail else ""))


def turn_tooltip(turn: TurnActivity, shown: str) -> str:
    """A turn's row: what it shows (the question cut at 60 characters, how it ended) and the whole question."""
    whole = " ".join(turn.text.split())
    return line_tooltip(shown if whole in shown else f"{shown}\n\n{turn.text}")


def _error_text(result: str) -> str:
    """The message of a `{"error": …}` tool result, or the result itself."""
    try:
        value = json.loads(result)
    except ValueError:
        return result
    return str(value.get("error", result)) if isinstance(value, dict) else result


def _outcome_words(event: ev.ToolCallFinished) -> str:
    from hermes_desktop.core import events as ev

    if event.outcome is ev.ToolOutcome.INTERRUPTED:  # never started: a duration would suggest it ran
        return QCoreApplication.translate("Activity", "interrupted, not run (the reply was cut off)")
    return QCoreApplication.translate("Activity", "{outcome} · {seconds} s").format(
        outcome=words.outcome_name(event.outcome.value), seconds=f"{event.duration_s:.2f}")


def _layer_labels() -> dict[str, str]:
    """The context layers in request order, each named in the user's language."""
    return {"system": QCoreApplication.translate("Activity", "system prompt"),
            "tool_schemas": QCoreApplication.translate("Activity", "tool schemas"),
            "skill_catalog": QCoreApplication.translate("Activity", "skill catalog"),
            "active_skills": QCoreApplication.translate("Activity", "active skills"),
            "tool_rules": QCoreApplication.translate("Activity", "tool rules"),
            "assistant": QCoreApplication.translate("Activity", "assistant's instructions"),
            "memory": QCoreApplication.translate("Activity", "memory"),
            "summary": QCoreApplication.translate("Activity", "summary the session began with"),
            "conversation_summary": QCoreApplication.translate("Activity", "earlier conversation (summary)"),
            "history": QCoreApplication.translate("Activity", "history"),
            "current_turn": QCoreApplication.translate("Activity", "this turn"),
            "attachments": QCoreApplication.translate("Activity", "attachments")}


def _breakdown(event: ev.ContextPrepared) -> str:
    """One line per context layer, in request order, then what was left out.

    The layers are our own estimates; the total in the title is scaled to the token
    counts the server reported on earlier rounds, so the two can differ, and we say so.
    """
    labels = _layer_labels()
    order = list(labels) + [k for k in event.breakdown if k not in labels]
    lines = [QCoreApplication.translate("Activity", "{layer}: {tokens}").format(
        layer=labels.get(k, k), tokens=f"{event.breakdown[k]:,}") for k in order if event.breakdown.get(k)]
    raw = sum(event.breakdown.values())
    if raw and abs(event.estimated_tokens - raw) > max(16, raw // 20):
        lines.append(QCoreApplication.translate("Activity", "layers sum to {0}; total scaled to the server's count")
                     .format(f"{raw:,}"))
    if event.skills_searchable:
        lines.append(QCoreApplication.translate("Activity", "skills: {0} listed, {1} more searchable with find_skills")
                     .format(f"{event.skills_listed:,}", f"{event.skills_searchable:,}"))
    elif event.skills_listed:
        lines.append(QCoreApplication.translate("Activity", "skills: all {0} listed").format(f"{event.skills_listed:,}"))
    if event.dropped_messages:
        lines.append(QCoreApplication.translate("Activity", "{0} older messages left out").format(event.dropped_messages))
    return "\n".join(lines)


def recorder_from_history(messages: list[StoredMessage]) -> ActivityRecorder:
    """The turns of a saved conversation as Activity entries: replies, tool calls and their outcomes."""
    recorder = ActivityRecorder()
    turn: TurnActivity | None = None
    calls: dict[str, ActivityEntry] = {}
    replies = 0
    for message in messages:
        if message.role == "user":
            turn = TurnActivity(message.content or "", message.created_at, message.id, finished="completed")
            recorder.turns.append(turn)
            replies = 0
        elif turn is None:
            continue
        elif message.role == "assistant":
            replies += 1
            if message.tokens and message.reasoning_tokens is not None:
                size = QCoreApplication.translate("Activity", "{0} tokens ({1} of them reasoning)").format(
                    f"{message.tokens:,}", f"{message.reasoning_tokens:,}")
            elif message.tokens:
                size = QCoreApplication.translate("Activity", "{0} tokens").format(f"{message.tokens:,}")
            else:
                size = QCoreApplication.translate("Activity", "{0} characters").format(f"{len(message.content or ''):,}")
            title = QCoreApplication.translate("Activity", "Model reply {0} — {1} (interrupted)") if message.interrupted \
                else QCoreApplication.translate("Activity", "Model reply {0} — {1}")
            turn.entries.append(ActivityEntry("round", title.format(replies, size), message_id=message.id))
            for call in message.tool_calls or []:
                function = call.get("function") or {}
                entry = ActivityEntry("tool", str(function.get("name") or "?"),
                                      QCoreApplication.translate("Activity", "arguments: {0}").format(
                                          str(function.get('arguments') or '')[:300]),
                                      message_id=message.id, call_id=call.get("id"))
                calls[str(call.get("id"))] = entry
                turn.entries.append(entry)
        elif message.role == "tool":
            entry = calls.get(str(message.tool_call_id))
            if entry is not None:
                entry.title += " · " + words.status_word(status_of_result(message.content))
                entry.detail += "\n" + QCoreApplication.translate("Activity", "result: {0} characters").format(
                    f"{len(message.content or ''):,}")
    recorder.rebuilt_turns = len(recorder.turns)
    return recorder

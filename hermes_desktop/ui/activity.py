"""The Activity tab's data: what each turn did, from its events, with timings. No Qt.

Per turn: each model round trip (tokens in/out, time to first token, duration),
the context budget and what was left out, each tool call (arguments, decision,
duration, result size), notices, errors and guard stops.

Turns run before the window opened are rebuilt from the saved conversation
(`recorder_from_history`): their replies and tool calls with outcomes and sizes. Timings,
context sizes and approval decisions live only in the events, so those turns do not have
them, and the tab says so.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Callable

from hermes_desktop.core import events as ev
from hermes_desktop.core.session_types import StoredMessage
from hermes_desktop.ui.chat.items import status_of_result


@dataclass
class ActivityEntry:
    kind: str  # round | context | tool | notice | error | stop
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
        return first[:60] + ("…" if len(first) > 60 else "")


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
        self._decisions: dict[str, str] = {}
        self._message_id: int | None = None

    @property
    def current(self) -> TurnActivity | None:
        return self.turns[-1] if self.turns else None

    def record(self, event: ev.Event) -> ActivityEntry | TurnActivity | None:
        """Apply one event; returns the entry it created or changed (or the turn), if any."""
        now = self._clock()
        if isinstance(event, ev.TurnStarted):
            self.turns.append(TurnActivity(event.text, now, event.user_message_id))
            return self.turns[-1]
        turn = self.current
        if turn is None:
            return None
        if isinstance(event, ev.ContextPrepared):
            entry = ActivityEntry("context", f"Context {event.estimated_tokens:,} / {event.budget_tokens:,} tokens",
                                  _breakdown(event))
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.ModelRequestStarted):
            self._close_round(now)
            self._round = ActivityEntry("round", f"Model round {event.round_trip} · {event.model}",
                                        f"tool calling: {event.tool_mode}")
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
        if isinstance(event, ev.ToolCallProposed):
            self._close_round(now)
            arguments = json.dumps(event.arguments, ensure_ascii=False) if event.arguments is not None else event.raw_arguments
            entry = ActivityEntry("tool", f"{event.name} ({event.risk})", f"arguments: {arguments[:300]}",
                                  call_id=event.call_id)
            self._tools[event.call_id] = entry
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.ToolCallDecided):
            self._decisions[event.call_id] = f"{event.decision} by {event.decided_by}"
            return None
        if isinstance(event, ev.ToolCallFinished):
            entry = self._tools.get(event.call_id)
            if entry is not None:
                decision = self._decisions.get(event.call_id, "")
                entry.title = f"{event.name} · {_outcome_words(event)}"
                entry.detail += f"\ndecision: {decision or 'none'}; result: {len(event.result):,} characters" + \
                    (f" ({event.truncated_chars:,} cut)" if event.truncated_chars else "")
                if event.outcome in (ev.ToolOutcome.ERROR, ev.ToolOutcome.TIMEOUT):  # why, e.g. an MCP breaker's note
                    entry.detail += f"\nerror: {_error_text(event.result)[:500]}"
            return entry
        if isinstance(event, ev.SummarisingStarted):
            entry = ActivityEntry("notice", f"Summarising {event.messages:,} earlier messages (the request waits)")
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.ConversationSummary):
            made = f"made now by {event.model}" if event.new else f"made earlier by {event.model}"
            entry = ActivityEntry("context", f"Earlier conversation: {event.covered_messages:,} messages sent as a "
                                  f"{event.tokens:,}-token summary", f"{made}\n{event.text[:600]}")
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.MemoryRecalled):  # the memory layer of this turn's requests, with sources
            entry = ActivityEntry("context", f"Memory: {len(event.lines)} recalled", "\n".join(event.lines))
            turn.entries.append(entry)
            return entry
        if isinstance(event, (ev.Notice, ev.RetryScheduled)):
            entry = ActivityEntry("notice", event.message)
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.TurnError):
            entry = ActivityEntry("error", f"Error: {event.kind.value}", event.message)
            turn.entries.append(entry)
            return entry
        if isinstance(event, ev.TurnFinished):
            self._close_round(now)
            turn.finished = event.reason.value
            if event.reason not in (ev.FinishReason.COMPLETED, ev.FinishReason.ERROR):
                entry = ActivityEntry("stop", f"Stopped: {event.reason.value}", event.message)
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
            parts.append(f"{self._usage[0]:,} tokens in, {self._usage[1]:,} out" +
                         (f" ({reasoning:,} of them reasoning)" if reasoning is not None else ""))
            if reasoning is not None:  # also on a line of its own: the title is often cut in the narrow panel
                self._round.detail += f"\nreasoning tokens: {reasoning:,}"
        if self._first_token is not None:
            parts.append(f"first token after {self._first_token:.2f} s")
        parts.append(f"{now - self._round_started:.2f} s")
        self._round.title += " — " + ", ".join(parts)
        self._round = None


def _error_text(result: str) -> str:
    """The message of a `{"error": …}` tool result, or the result itself."""
    try:
        value = json.loads(result)
    except ValueError:
        return result
    return str(value.get("error", result)) if isinstance(value, dict) else result


def _outcome_words(event: ev.ToolCallFinished) -> str:
    if event.outcome is ev.ToolOutcome.INTERRUPTED:  # never started: a duration would suggest it ran
        return "interrupted, not run (the reply was cut off)"
    return f"{event.outcome.value} · {event.duration_s:.2f} s"


_LAYER_LABELS = {"system": "system prompt", "tool_schemas": "tool schemas", "skill_catalog": "skill catalog",
                 "active_skills": "active skills", "tool_rules": "tool rules", "memory": "memory",
                 "summary": "summary the session began with",
                 "conversation_summary": "earlier conversation (summary)",
                 "history": "history", "current_turn": "this turn", "attachments": "attachments"}


def _breakdown(event: ev.ContextPrepared) -> str:
    """One line per context layer, in request order, then what was left out.

    The layers are our own estimates; the total in the title is scaled to the token
    counts the server reported on earlier rounds, so the two can differ, and we say so.
    """
    order = list(_LAYER_LABELS) + [k for k in event.breakdown if k not in _LAYER_LABELS]
    lines = [f"{_LAYER_LABELS.get(k, k)}: {event.breakdown[k]:,}" for k in order if event.breakdown.get(k)]
    raw = sum(event.breakdown.values())
    if raw and abs(event.estimated_tokens - raw) > max(16, raw // 20):
        lines.append(f"layers sum to {raw:,}; total scaled to the server's count")
    if event.skills_searchable:
        lines.append(f"skills: {event.skills_listed:,} listed, {event.skills_searchable:,} more searchable with find_skills")
    elif event.skills_listed:
        lines.append(f"skills: all {event.skills_listed:,} listed")
    if event.dropped_messages:
        lines.append(f"{event.dropped_messages} older messages left out")
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
            size = f"{message.tokens:,} tokens" if message.tokens else f"{len(message.content or ''):,} characters"
            state = " (interrupted)" if message.interrupted else ""
            if message.reasoning_tokens is not None:
                size += f" ({message.reasoning_tokens:,} of them reasoning)"
            turn.entries.append(ActivityEntry("round", f"Model reply {replies} — {size}{state}", message_id=message.id))
            for call in message.tool_calls or []:
                function = call.get("function") or {}
                entry = ActivityEntry("tool", str(function.get("name") or "?"),
                                      f"arguments: {str(function.get('arguments') or '')[:300]}",
                                      message_id=message.id, call_id=call.get("id"))
                calls[str(call.get("id"))] = entry
                turn.entries.append(entry)
        elif message.role == "tool":
            entry = calls.get(str(message.tool_call_id))
            if entry is not None:
                entry.title += f" · {status_of_result(message.content)}"
                entry.detail += f"\nresult: {len(message.content or ''):,} characters"
    recorder.rebuilt_turns = len(recorder.turns)
    return recorder

"""The loop guards of one turn: the same call repeated, and the same tool failing, too many times in a row.

Both count *replies*, not calls, where a reply's calls are not repetitions of each other:
- the identical-call guard stops when the model asks for the same tool with the same arguments
  `AgentLimits.max_identical_calls` times in a row (calls in between with other arguments reset it);
- the failure guard stops when the same tool failed in `AgentLimits.max_consecutive_failures` replies in a row.
  A reply counts once per tool: eight different files read in one reply, each refused, are one failing reply of
  `read_file`, not "failed 8 times in a row" (issue 21). A reply in which any call of the tool succeeded resets its
  count; replies that do not call the tool leave it as it is.

When the failure guard stops the tools, the turn does not end there: the model gets one more round without tools
to tell the user what it did and what went wrong (`handover_note`, core/agent.py), as the design we build on says.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hermes_desktop.core.events import FinishReason, ToolOutcome

FAILED = (ToolOutcome.ERROR, ToolOutcome.INVALID, ToolOutcome.TIMEOUT)


@dataclass(frozen=True, slots=True)
class GuardStop:
    """Why a guard stopped the tools: the finish reason, the message, and its numbers for the window's words."""

    reason: FinishReason
    message: str
    params: dict[str, Any]


def canonical_arguments(arguments: dict[str, Any] | None, raw: str) -> str:
    return json.dumps(arguments, sort_keys=True, ensure_ascii=False) if arguments is not None else raw.strip()


@dataclass
class RepeatGuard:
    """The same call (tool and arguments) asked for too many times in a row."""

    limit: int
    _last: tuple[str, str] | None = None
    _count: int = 0

    def check(self, name: str, arguments: dict[str, Any] | None, raw: str) -> GuardStop | None:
        key = (name, canonical_arguments(arguments, raw))
        self._count = self._count + 1 if key == self._last else 1
        self._last = key
        if self._count >= self.limit:
            return GuardStop(FinishReason.REPEATED_CALL,
                             f"Stopped: the agent asked for {name} with the same arguments {self._count} times in a "
                             "row. Tell it what to do differently.", {"tool": name, "count": self._count})
        return None


@dataclass
class FailureGuard:
    """The same tool failing in too many replies in a row (see the module docstring for what counts)."""

    limit: int
    _streaks: dict[str, int] = field(default_factory=dict)

    def after_reply(self, outcomes: list[tuple[str, ToolOutcome]]) -> GuardStop | None:
        """Count one reply's calls (tool name, outcome); a stop when a tool has now failed `limit` replies in a row."""
        succeeded = {name for name, outcome in outcomes if outcome is ToolOutcome.OK}
        failed = {name for name, outcome in outcomes if outcome in FAILED} - succeeded
        for name in succeeded:
            self._streaks.pop(name, None)
        for name in failed:
            self._streaks[name] = self._streaks.get(name, 0) + 1
        worst = max(failed, key=lambda name: (self._streaks[name], name), default=None)
        if worst is None or self._streaks[worst] < self.limit:
            return None
        count = self._streaks[worst]
        return GuardStop(FinishReason.REPEATED_FAILURE,
                         f"Stopped: {worst} failed {count} times in a row. Check the errors above and tell the agent "
                         "how to proceed.", {"tool": worst, "count": count})


def handover_note(stop: GuardStop) -> str:
    """The instruction for the last round, without tools, after the failure guard stopped them."""
    tool = stop.params.get("tool", "a tool")
    count = stop.params.get("count", "")
    return (f"Tools are stopped for the rest of this turn: {tool} failed {count} times in a row. Do not call any "
            "tool. Write to the user now: what you did so far, what went wrong (the errors above), and what they "
            "could do or decide next. Ask them how they want to proceed.")

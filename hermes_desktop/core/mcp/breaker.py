"""The circuit breaker of one MCP server: a server whose tool calls keep failing has its tools withheld.

- Closed (normal): every call goes through. A failure is a call that raised (the server broke, answered with
  a protocol error), reported `isError`, or hit its timeout. `failures` failures in a row, all within the last
  `window_s` (default 5 in 5 minutes), open the breaker; a success in between starts the count again.
- Open: the server's tools are not offered to the model (the runtime filters them out; see `withheld`), the
  MCP tab shows the reason, and a call that still arrives (one already in the model's batch) is not sent to
  the server: it gets a `ToolWithheld` error that says why and when it will be tried again.
- Half-open: `cooldown_s` after opening, the tools are offered again and the next call is one trial, sent to
  the server while any other call meanwhile is withheld. It succeeding closes the breaker; failing opens it for
  another cool-down.
- Restart (the MCP tab's button, or mcp.json changed) closes it at once.

Settings per server in mcp.json: `"breaker": {"failures": 5, "windowSeconds": 300, "cooldownSeconds": 60}`;
`failures: 0` turns it off. Pure logic with an injected clock: no I/O, no asyncio.
"""

from __future__ import annotations

import time
from collections import deque
from enum import StrEnum
from typing import Callable

from hermes_desktop.core.mcp.config import BreakerSettings
from hermes_desktop.core.mcp.status import BreakerInfo
from hermes_desktop.core.tools.spec import ToolError


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half-open"


class ToolWithheld(ToolError):
    """A call to a tool whose server's breaker is open: not sent to the server."""


class CircuitBreaker:
    def __init__(self, server: str, settings: BreakerSettings, clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.server = server
        self.settings = settings
        self.clock = clock
        self._wall = wall_clock
        self._failures: deque[float] = deque()  # when each failure of the current run happened
        self._state = BreakerState.CLOSED
        self._opened_at = 0.0
        self._trial_running = False
        self.reason = ""  # the last failure before it opened (shown with the note)
        self.generation = 0  # +1 at each Restart: a call begun before it does not count after it

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> BreakerState:
        if self._state is BreakerState.OPEN and self.clock() - self._opened_at >= self.settings.cooldown_s:
            self._state = BreakerState.HALF_OPEN  # the cool-down is over: one trial may go through
        return self._state

    @property
    def withheld(self) -> bool:
        """Whether the server's tools are kept from the model now (open, cool-down not over)."""
        return self.state is BreakerState.OPEN

    def retry_in_s(self) -> float:
        return max(0.0, self.settings.cooldown_s - (self.clock() - self._opened_at)) if self.withheld else 0.0

    def note(self) -> str:
        """One line for the MCP tab, the model and the logs; empty while closed."""
        state = self.state
        if state is BreakerState.CLOSED:
            return ""
        count = self.settings.failures
        if state is BreakerState.HALF_OPEN:
            return (f"tools offered again on trial after {count} failed calls in a row (last: {self.reason}); "
                    "the next call decides")
        until = time.strftime("%H:%M:%S", time.localtime(self._wall() + self.retry_in_s()))
        return (f"tools withheld from the model after {count} failed calls in a row (last: {self.reason}); "
                f"one trial call is allowed from {until}, or press Restart")

    def info(self) -> BreakerInfo | None:
        """The note in parts (for a translated sentence in the window); None while closed."""
        state = self.state
        if state is BreakerState.CLOSED:
            return None
        until = time.strftime("%H:%M:%S", time.localtime(self._wall() + self.retry_in_s()))
        return BreakerInfo(state is BreakerState.HALF_OPEN, self.settings.failures, self.reason,
                           "" if state is BreakerState.HALF_OPEN else until)

    # ------------------------------------------------------------------ calls
    def before_call(self) -> None:
        """Raise ToolWithheld when the call must not be sent; otherwise let it through (a half-open breaker lets
        exactly one trial through until it is settled)."""
        if self.settings.failures <= 0:
            return
        state = self.state
        if state is BreakerState.OPEN:
            raise ToolWithheld(f"Not sent: the tools of MCP server “{self.server}” are withheld after "
                               f"{self.settings.failures} failed calls in a row (last: {self.reason}). They are "
                               f"tried again in {self.retry_in_s():.0f} s; use another way meanwhile.")
        if state is BreakerState.HALF_OPEN:
            if self._trial_running:
                raise ToolWithheld(f"Not sent: MCP server “{self.server}” is being tried with one call after "
                                   "repeated failures; wait for that call's result.")
            self._trial_running = True

    def succeeded(self) -> None:
        self._failures.clear()
        self._trial_running = False
        self._state = BreakerState.CLOSED
        self.reason = ""

    def failed(self, reason: str, generation: int | None = None) -> bool:
        """Count a failed call; True when this failure opened the breaker. A call begun before the last Restart
        (`generation` older) does not count: Restart cut it short, which is the user's doing, like Stop."""
        if self.settings.failures <= 0 or (generation is not None and generation != self.generation):
            return False
        now = self.clock()
        self.reason = reason if len(reason) <= 160 else reason[:157] + "…"
        if self._state is BreakerState.HALF_OPEN or (self._state is BreakerState.OPEN and self._trial_running):
            self._open(now)  # the trial failed: another cool-down
            return True
        if self._state is BreakerState.OPEN:
            return False  # a call that was already running when it opened
        self._failures.append(now)
        while self._failures and now - self._failures[0] > self.settings.window_s:
            self._failures.popleft()
        if len(self._failures) >= self.settings.failures:
            self._open(now)
            return True
        return False

    def abandoned(self) -> None:
        """A call was cancelled before it had an answer (the user pressed Stop): it neither passes nor fails,
        and a half-open breaker lets the next call be the trial."""
        self._trial_running = False

    def reset(self) -> None:
        """Restart: closed, count cleared, calls still running from before it no longer count."""
        self.generation += 1
        self.succeeded()

    def _open(self, now: float) -> None:
        self._state = BreakerState.OPEN
        self._opened_at = now
        self._trial_running = False
        self._failures.clear()


def call_timed_out(source: str, started: float, limit_s: float) -> bool:
    """Whether a tool call being cancelled now hit its own time limit (a failure), rather than the user's Stop
    (not one). The tool runner keeps each running call's deadline by source; one that has expired is a timeout.
    A call made outside the runner falls back to the time it took. (The deadline, not the elapsed time, because
    it is lifted while the user answers a server's question.)"""
    from hermes_desktop.core.tools.runner import RUNNING_DEADLINES

    deadlines = RUNNING_DEADLINES.get(source)
    if deadlines:
        return any(deadline.expired() for deadline in deadlines)
    return time.monotonic() - started >= limit_s - 0.05

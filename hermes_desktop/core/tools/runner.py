"""Run one tool call: its own timeout, exceptions caught, result rendered, the app's own secrets removed from it
(whatever tool echoed them: a file, a web page, an MCP server), and cut to a budget. A successful result over the budget is kept whole in memory and its shown part says how to read
on with `read_more` (core/tools/pager.py).

Blocking handlers run on the bounded tool executor (core/executors.py), never on the threads the
session database uses. A timeout ends the wait and drops a call that had not started yet; a call
already running in a thread cannot be killed, so the tools themselves stop (file tools refuse FIFOs
and devices, network reads have deadlines inside their loop, scripts die with their process group).
When the call never got a thread because every tool worker was busy, the result says so.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Collection

from hermes_desktop.core.events import ToolOutcome
from hermes_desktop.core.executors import TOOL_WORKERS, run_tool_thread
from hermes_desktop.core.redact import redact_known
from hermes_desktop.core.tools.pager import PAGER, first_page
from hermes_desktop.core.tools.spec import ToolContext, ToolError, ToolSpec

log = logging.getLogger(__name__)

# The deadlines of the calls running now, by their tool's source ("mcp:<server>", ...): an MCP server that asks the
# user something mid-call stops its calls' clocks while the user answers (core/mcp/client_features.py).
RUNNING_DEADLINES: dict[str, set[asyncio.Timeout]] = {}


@dataclass(frozen=True, slots=True)
class ToolResult:
    outcome: ToolOutcome
    content: str  # exactly what the model is shown
    duration_s: float = 0.0
    truncated_chars: int = 0


def error_content(message: str, **extra: Any) -> str:
    return json.dumps({"error": message, **extra}, ensure_ascii=False)


def render(value: Any) -> str:
    if value is None:
        return "done"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def truncate(text: str, budget: int) -> tuple[str, int]:
    """Cut `text` to about `budget` characters, saying how much was cut (the note counts too)."""
    if len(text) <= budget:
        return text, 0
    note_template = "\n[… output truncated: showing the first {shown:,} of {total:,} characters]"
    shown = max(0, budget - len(note_template.format(shown=budget, total=len(text))))
    return text[:shown] + note_template.format(shown=shown, total=len(text)), len(text) - shown


async def run_tool(spec: ToolSpec, args: dict[str, Any], ctx: ToolContext, *, default_timeout_s: float,
                   char_budget: int, known_secrets: Collection[str] = ()) -> ToolResult:
    timeout = spec.timeout_s or default_timeout_s
    started = time.monotonic()
    began = threading.Event()
    try:
        async with asyncio.timeout(timeout) as deadline:
            RUNNING_DEADLINES.setdefault(spec.source, set()).add(deadline)
            try:
                value = await _invoke(spec, args, ctx, began)
            finally:
                RUNNING_DEADLINES.get(spec.source, set()).discard(deadline)
        content, outcome = render(value), ToolOutcome.OK
    except TimeoutError:
        content = error_content(_timeout_message(spec, timeout, began.is_set()))
        outcome = ToolOutcome.TIMEOUT
    except ToolError as exc:
        content, outcome = error_content(str(exc)), ToolOutcome.ERROR
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.exception("tool %s raised", spec.name)
        content = error_content(f"{spec.name} failed: {type(exc).__name__}: {exc}")
        outcome = ToolOutcome.ERROR
    content = redact_known(content, known_secrets)
    if outcome is ToolOutcome.OK and len(content) > char_budget:  # kept whole: read_more pages on (core/tools/pager.py)
        content, cut = first_page(content, char_budget, PAGER.keep(ctx.session_id, content))
    else:
        content, cut = truncate(content, char_budget)
    return ToolResult(outcome, content, time.monotonic() - started, cut)


def _timeout_message(spec: ToolSpec, timeout: float, began: bool) -> str:
    if began:
        return f"{spec.name} did not finish within {timeout:g} s and was stopped"
    return (f"{spec.name} could not start within {timeout:g} s: all {TOOL_WORKERS} tool workers are busy with "
            "earlier calls that have not stopped. It was not run.")


async def _invoke(spec: ToolSpec, args: dict[str, Any], ctx: ToolContext, began: threading.Event) -> Any:
    handler = spec.handler
    if inspect.iscoroutinefunction(handler):
        began.set()
        return await handler(args, ctx)
    if spec.blocking:
        # A thread cannot be killed: on timeout we stop waiting; the tool stops itself (see the module docstring).
        def call() -> Any:
            began.set()
            return handler(args, ctx)

        return await run_tool_thread(call)
    began.set()
    result = handler(args, ctx)
    return await result if inspect.isawaitable(result) else result

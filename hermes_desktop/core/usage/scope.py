"""Which session a model request is for, when its caller did not say (`ChatRequest.session_id`).

A turn runs in its own task; the agent sets the session here at the start of that task, so every request made
inside it, and in tasks it starts (a title, memory extraction, a context summary), is counted for that session
without each side-request module passing the id along. A context variable is per task, so two turns in
parallel never see each other's session.
"""

from __future__ import annotations

import contextvars
from typing import Awaitable, Callable, TypeVar

T = TypeVar("T")

_SESSION: contextvars.ContextVar[str | None] = contextvars.ContextVar("hermes_usage_session", default=None)


def current_session() -> str | None:
    return _SESSION.get()


async def within_session(session_id: str, work: Callable[[], Awaitable[T]]) -> T:
    """Await `work()` with `session_id` as the current session (for this task and the tasks it starts). A
    function, not a coroutine: a task cancelled before its first step then leaves no coroutine never awaited."""
    token = _SESSION.set(session_id)
    try:
        return await work()
    finally:
        _SESSION.reset(token)

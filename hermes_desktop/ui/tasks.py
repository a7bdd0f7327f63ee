"""Start coroutines from Qt slots without losing their errors."""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING, Any, Callable, Coroutine

if TYPE_CHECKING:
    import asyncio

log = logging.getLogger(__name__)
_running: set[asyncio.Task[Any]] = set()


def install_asyncgen_hooks(loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
    """Give the qasync loop asyncio's async-generator hooks, which qasync never installs.

    Without them an async generator abandoned by a library (the openai SDK leaves its HTTP byte stream
    suspended once it has read the final event) is finalized by the garbage collector outside the loop, and its
    cleanup fails ("unknown async library"). With them, its aclose() is scheduled on the loop as asyncio does.
    Returns a function that puts the previous hooks back."""
    previous = sys.get_asyncgen_hooks()
    sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook,  # type: ignore[attr-defined]
                           finalizer=loop._asyncgen_finalizer_hook)  # type: ignore[attr-defined]
    return lambda: sys.set_asyncgen_hooks(*previous)


def spawn(coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """Run `coroutine` on the qasync loop; an exception goes to sys.excepthook (shown in the window)."""
    import asyncio

    task = asyncio.get_event_loop().create_task(coroutine)
    _running.add(task)

    def done(finished: asyncio.Task[Any]) -> None:
        _running.discard(finished)
        if finished.cancelled():
            return
        error = finished.exception()
        if error is not None:
            sys.excepthook(type(error), error, error.__traceback__)

    task.add_done_callback(done)
    return task


async def drain() -> None:
    """Cancel and await everything still running (at shutdown), except the task calling this."""
    import asyncio

    current = asyncio.current_task()
    pending = [task for task in _running if task is not current]
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)


async def in_thread(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`asyncio.to_thread` for modules the window builds before its first paint: asyncio is imported only here,
    when the first call runs (tests/ui/test_startup.py fails when the paint imports it)."""
    import asyncio

    return await asyncio.to_thread(function, *args, **kwargs)

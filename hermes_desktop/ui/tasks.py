"""Start coroutines from Qt slots without losing their errors."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any, Coroutine

log = logging.getLogger(__name__)
_running: set[asyncio.Task[Any]] = set()


def spawn(coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """Run `coroutine` on the qasync loop; an exception goes to sys.excepthook (shown in the window)."""
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
    current = asyncio.current_task()
    pending = [task for task in _running if task is not current]
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)

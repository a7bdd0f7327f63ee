"""One turn per session at a time, across processes: the window and `ask`, or two `ask --session X`.

A turn holds an OS advisory lock on its session (core/file_lock.py) from before the user's message is stored until
its last message is stored, so the messages of two turns never interleave: each turn's stored order is
user -> assistant (tool calls) -> tool results -> assistant, and the next turn reads a whole history.

The decision when a session is busy: the second turn **waits**, saying so once (a Notice: `ask` prints it on stderr,
the window in the transcript), for at most `limits.session_wait_s` seconds (60 by default; settings.json), then
gives up with a clear error (`SessionBusy`; `ask` exits 1) and stores nothing. Waiting is right for the common
case (a script asks twice in a row while the first reply still streams); the bound keeps a forgotten approval
prompt in another terminal from hanging a script forever. Stop while waiting cancels the wait; nothing was stored.

The lock files live in the data directory under `session-locks/`, one per session, named by a hash of the id
(ids are validated, but a hash keeps any id a safe, short file name). A process that dies releases its lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from pathlib import Path
from typing import AsyncIterator, Callable

from hermes_desktop.core.file_lock import FileLock

log = logging.getLogger(__name__)

DIRECTORY_NAME = "session-locks"
DEFAULT_WAIT_S = 60.0
POLL_S = 0.1


class SessionBusy(Exception):
    """Another turn held the session for longer than the wait allowed."""

    def __init__(self, session_id: str, holder: int | None, waited_s: float) -> None:
        self.session_id = session_id
        self.holder = holder
        self.waited_s = waited_s
        who = f"another Hermes process (pid {holder})" if holder else "another Hermes window or command"
        super().__init__(f"The conversation {session_id} is busy: {who} is running a turn in it, and it did not "
                         f"finish within {waited_s:g} s. Nothing was sent or saved; try again when it has finished.")


def lock_path(directory: Path, session_id: str) -> Path:
    digest = hashlib.sha256(session_id.encode("utf-8")).hexdigest()[:32]
    return directory / f"{digest}.lock"


class SessionLocks:
    """Hands out the per-session locks of one data directory."""

    def __init__(self, directory: Path, wait_s: Callable[[], float] = lambda: DEFAULT_WAIT_S) -> None:
        self.directory = directory
        self._wait_s = wait_s

    @contextlib.asynccontextmanager
    async def hold(self, session_id: str, on_wait: Callable[[int | None, float], None]) -> AsyncIterator[None]:
        """Hold `session_id`'s lock for the block. When it is taken, `on_wait(holder pid, seconds)` is called once
        and the lock is tried again every POLL_S until the wait bound; then SessionBusy. Cancellable while waiting."""
        lock = FileLock(lock_path(self.directory, session_id))
        try:
            taken = lock.try_acquire()  # non-blocking; on the loop so a cancelled wait can never leave it held
        except OSError as exc:
            # The lock folder cannot be made or opened (a read-only or full data folder, a file in its place): the
            # store will refuse the turn's writes with its own clear error if it cannot write either; a turn is
            # never stopped by its lock alone.
            log.warning("the session lock %s could not be taken (%s); the turn runs without it", lock.path, exc)
            yield
            return
        if not taken:
            wait_s = max(0.0, float(self._wait_s()))
            on_wait(lock.holder(), wait_s)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + wait_s
            while True:
                if loop.time() >= deadline:
                    raise SessionBusy(session_id, lock.holder(), wait_s)
                await asyncio.sleep(POLL_S)
                if lock.try_acquire():
                    break
        try:
            yield
        finally:
            lock.release()


class NoSessionLocks:
    """For an engine without a data directory (unit tests that build AgentServices by hand): no locking."""

    @contextlib.asynccontextmanager
    async def hold(self, session_id: str, on_wait: Callable[[int | None, float], None]) -> AsyncIterator[None]:
        yield

"""An exclusive OS advisory lock on a file: one writer at a time across processes (and within one).

Used for the per-session turn lock (core/session_lock.py) and for read-modify-write of settings.json
(core/settings_merge.py). Why OS locks rather than a row in the database: the kernel releases them when the
holding process dies (a killed `ask`, a crashed window), so a lock can never be left stale, and nothing has to
guess from a PID and a timestamp whether its holder is still alive.

POSIX: `flock`, which belongs to the open file description, so two opens in the same process exclude each other
too (two turns of the window on one session wait for each other just like two processes). Windows: `msvcrt.locking`
on the first byte, per handle. The lock files are never deleted: removing a lock file while another process waits
on it would let a third process lock a new file of the same name while the second holds the old one.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path
from typing import IO, Iterator

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(handle: IO[bytes]) -> bool:
        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(handle: IO[bytes]) -> None:
        handle.seek(0)
        with contextlib.suppress(OSError):
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(handle: IO[bytes]) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class FileLock:
    """One lock file. `try_acquire` never blocks; `release` is safe to call twice. While held, the file holds the
    holder's PID (read by `holder()` to say who is busy)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[bytes] | None = None

    @property
    def held(self) -> bool:
        return self._handle is not None

    def try_acquire(self) -> bool:
        if self._handle is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # "a+b": created when missing, never truncated by the open itself (a waiter must not wipe the holder's PID)
        handle = open(self.path, "a+b")  # noqa: SIM115 - kept open while the lock is held
        if not _try_lock(handle):
            handle.close()
            return False
        with contextlib.suppress(OSError):  # the PID is only for messages: a full disk must not stop the lock
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()}\n".encode())
            handle.flush()
        self._handle = handle
        return True

    def acquire(self, timeout_s: float, poll_s: float = 0.05) -> bool:
        """Blocking, for short critical sections (settings.json): False when `timeout_s` passed."""
        deadline = time.monotonic() + timeout_s
        while not self.try_acquire():
            if time.monotonic() >= deadline:
                return False
            time.sleep(poll_s)
        return True

    def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is None:
            return
        _unlock(handle)
        handle.close()

    def holder(self) -> int | None:
        """The PID written by the process holding the lock (None when unknown)."""
        try:
            text = self.path.read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None


@contextlib.contextmanager
def locked(path: Path, timeout_s: float = 10.0) -> Iterator[None]:
    """Hold the lock on `path` for the block; TimeoutError when another holder kept it longer than `timeout_s`."""
    lock = FileLock(path)
    if not lock.acquire(timeout_s):
        raise TimeoutError(f"{path} stayed locked by another process (pid {lock.holder() or 'unknown'})")
    try:
        yield
    finally:
        lock.release()

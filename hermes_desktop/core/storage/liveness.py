"""Which process is streaming a message: a token held under an OS file lock for the process's life.

At start-up an assistant message that is still "streaming" is interrupted only if
the process that was writing it is gone. Asking "is it gone?" = "can I take its
lock?": the OS releases a dead process's locks, even after `kill -9`, so the
answer is exact, and a window and a CLI command running side by side never mark
each other's live replies as interrupted.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import IO

if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
else:
    import fcntl

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            return False


class ProcessToken:
    """This process's token; the lock is held until `release()` or the process ends."""

    def __init__(self, lock_dir: Path) -> None:
        lock_dir.mkdir(parents=True, exist_ok=True)
        self.token = uuid.uuid4().hex
        self._path = lock_dir / f"{self.token}.lock"
        self._handle: IO[bytes] | None = open(self._path, "a+b")
        if not _try_lock(self._handle):  # pragma: no cover - a fresh random name is never locked
            raise OSError(f"could not lock {self._path}")

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
            self._path.unlink(missing_ok=True)


def is_alive(lock_dir: Path, token: str) -> bool:
    path = lock_dir / f"{token}.lock"
    if not path.exists():
        return False
    try:
        handle = open(path, "a+b")
    except OSError:
        return False
    with handle:
        if _try_lock(handle):
            path.unlink(missing_ok=True)  # its owner is gone: tidy up
            return False
        return True


def sweep(lock_dir: Path) -> None:
    """Remove lock files whose processes have ended."""
    if lock_dir.is_dir():
        for path in lock_dir.glob("*.lock"):
            is_alive(lock_dir, path.stem)

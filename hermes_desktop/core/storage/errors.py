"""Storage failures, shared by the store and the engine that reports them.

Two kinds of failure must never be confused (a full disk once got a healthy
database renamed as "corrupt"):

- the file is *damaged*: SQLite read it and reports it malformed (SQLITE_CORRUPT,
  SQLITE_NOTADB). Only then may the file be set aside and a backup restored.
- the file *cannot be read or written right now*: a full disk, an I/O error,
  read-only media or file, missing permissions, a lock held by another program.
  The file is left exactly where and as it is; the user is told what is wrong
  and where.

`fault_of` classifies an exception by SQLite's result code (Python 3.11 exposes
`sqlite_errorcode`) or by the OS errno, never by message text. SQLite reports a
full disk as SQLITE_FULL when a write needs a page, but as an I/O error
(e.g. SQLITE_IOERR_SHMSIZE) when it cannot size its shared-memory file; an I/O
error on a filesystem with (almost) no free space is therefore reported as full.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from enum import Enum
from pathlib import Path

# Below this much free space an I/O error is taken to be the disk being full: SQLite's own
# writes (a WAL frame, the 32 KiB shared-memory index) need at least this much.
FULL_DISK_BYTES = 256 * 1024


class Fault(Enum):
    FULL = "full"
    IO = "io"
    READ_ONLY = "read_only"
    PERMISSION = "permission"
    BUSY = "busy"
    CORRUPT = "corrupt"
    OTHER = "other"


class StorageError(Exception):
    """The database could not do what was asked; the message is fit for the user."""


class ReadOnlyStoreError(StorageError):
    pass


class SessionNotFound(StorageError):
    pass


class SessionExists(StorageError):
    pass


class StorageUnavailable(StorageError):
    """The database (or its disk) cannot be read or written right now; nothing stored was changed.

    `str()` is one line for the user: what is wrong, where, what it means (`consequence`)
    and what to do."""

    fault = Fault.OTHER

    def __init__(self, path: Path, consequence: str = "nothing was saved", detail: str = "") -> None:
        self.path = path
        self.consequence = consequence
        self.detail = detail
        super().__init__(describe(self.fault, path, consequence, detail))

    def __str__(self) -> str:
        return self.args[0]  # the sentence with its code (a plain str() would drop it)

    def about(self, consequence: str) -> StorageUnavailable:
        """The same failure, saying what it meant for this caller (e.g. "your message was not saved")."""
        return type(self)(self.path, consequence, self.detail)


class DiskFullError(StorageUnavailable):
    fault = Fault.FULL


class StorageIOError(StorageUnavailable):
    fault = Fault.IO


class StorageReadOnlyError(StorageUnavailable, ReadOnlyStoreError):
    fault = Fault.READ_ONLY


class StoragePermissionError(StorageUnavailable):
    fault = Fault.PERMISSION


class StorageBusyError(StorageUnavailable):
    fault = Fault.BUSY


class StorageCorruptError(StorageUnavailable):
    fault = Fault.CORRUPT


_ERROR_FOR_FAULT: dict[Fault, type[StorageUnavailable]] = {
    Fault.FULL: DiskFullError, Fault.IO: StorageIOError, Fault.READ_ONLY: StorageReadOnlyError,
    Fault.PERMISSION: StoragePermissionError, Fault.BUSY: StorageBusyError, Fault.CORRUPT: StorageCorruptError,
    Fault.OTHER: StorageUnavailable,
}

# SQLite primary result codes (the low byte of an extended code): https://sqlite.org/rescode.html
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 3, 5, 6, 8
_SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 10, 11, 13, 14, 26


def describe(fault: Fault, path: Path, consequence: str, detail: str = "") -> str:
    """One line for the user: what is wrong, where, what it meant, what to do; with the code `storage_<fault>`
    and {path, consequence, detail} beside it (core/coded.py), which the window words in the user's language."""
    from hermes_desktop.core.coded import coded

    return coded(_describe(fault, path, consequence, detail), f"storage_{fault.value}", path=str(path),
                 consequence=consequence, detail=detail)


def _describe(fault: Fault, path: Path, consequence: str, detail: str = "") -> str:
    if fault is Fault.FULL:
        return f"The disk holding {path} is full: {consequence}. Free some space and try again."
    if fault is Fault.IO:
        return f"The disk holding {path} reported an I/O error: {consequence}. Check the disk, then try again."
    if fault is Fault.READ_ONLY:
        return (f"{path} is on read-only storage or is write-protected: {consequence}. "
                "Make it writable, then restart Hermes Desktop.")
    if fault is Fault.PERMISSION:
        return (f"Hermes is not allowed to read or write {path}: {consequence}. "
                "Check the permissions of the file and its folder.")
    if fault is Fault.BUSY:
        return f"{path} is locked by another program: {consequence}. Close that program or wait, then try again."
    if fault is Fault.CORRUPT:
        return f"{path} is damaged: {consequence}. Restart Hermes Desktop to recover it from a backup."
    return f"The session database {path} failed{f' ({detail})' if detail else ''}: {consequence}."


def error_for(exc: BaseException, path: Path, consequence: str) -> StorageUnavailable:
    """`exc` (a sqlite3 or OS error) as the StorageUnavailable subclass for its fault."""
    fault = fault_of(exc, path)
    return _ERROR_FOR_FAULT[fault](path, consequence, "" if fault is not Fault.OTHER else str(exc))


def fault_of(exc: BaseException, path: Path) -> Fault:
    """What kind of failure `exc` is, for the database file at `path`."""
    if isinstance(exc, StorageUnavailable):
        return exc.fault
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        return Fault.OTHER if code is None else _sqlite_fault(code & 0xFF, path)
    if isinstance(exc, OSError):
        return _errno_fault(exc.errno, path)
    return Fault.OTHER


def _sqlite_fault(primary: int, path: Path) -> Fault:
    if primary == _SQLITE_FULL:
        return Fault.FULL
    if primary == _SQLITE_IOERR:
        return Fault.FULL if disk_is_full(path) else Fault.IO
    if primary == _SQLITE_READONLY:
        return Fault.READ_ONLY
    if primary == _SQLITE_PERM:
        return Fault.PERMISSION
    if primary in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return Fault.BUSY
    if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return Fault.CORRUPT
    if primary == _SQLITE_CANTOPEN:
        return access_fault(path) or (Fault.FULL if disk_is_full(path) else Fault.IO)
    return Fault.OTHER


def _errno_fault(number: int | None, path: Path) -> Fault:
    if number in (errno.ENOSPC, errno.EDQUOT):
        return Fault.FULL
    if number == errno.EROFS:
        return Fault.READ_ONLY
    if number in (errno.EACCES, errno.EPERM):
        return Fault.PERMISSION
    if number == errno.EIO:
        return Fault.FULL if disk_is_full(path) else Fault.IO
    return Fault.OTHER


def access_fault(path: Path) -> Fault | None:
    """Why the database at `path` cannot be opened for writing (read-only media, permissions), or None.

    Checks the file (opened read-write, then closed) and its folder (SQLite creates `-wal` and
    `-shm` files there). Uses the real open, not permission bits: root ignores those, but not a
    read-only mount or an immutable file."""
    folder = path.parent
    if _mounted_read_only(folder):
        return Fault.READ_ONLY
    if path.exists():
        try:
            os.close(os.open(path, os.O_RDWR))
        except OSError as exc:
            if exc.errno == errno.EPERM:  # not a permission bit (root ignores those): an immutable file
                return Fault.READ_ONLY
            return _errno_fault(exc.errno, path)
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        return Fault.PERMISSION
    return None


def _mounted_read_only(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def disk_is_full(path: Path) -> bool:
    """The filesystem holding `path` has (almost) no space left for this process."""
    try:
        stats = os.statvfs(path.parent if not path.is_dir() else path)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < FULL_DISK_BYTES


def free_bytes(folder: Path) -> int | None:
    """Free space for this process on the filesystem holding `folder` (None when it cannot be asked)."""
    try:
        stats = os.statvfs(folder)
    except OSError:
        return None
    return stats.f_bavail * stats.f_frsize

"""Attachment files left by an import that was killed are removed at the next start.

`sessions import` (and the window's import) writes each embedded attachment's file before the one transaction that
stores the session's rows. When the import fails, it releases what it wrote; when it is killed (`kill -9`, a power
cut, the window closed hard) the transaction is rolled back by SQLite but the files stay, referred to by nothing.

While it runs, an import holds an OS lock on a marker `attachments/.imports/<start ns>-<random>.lock`
(core/file_lock.py). At start-up (core/store.py's housekeeping) a marker whose lock can be taken belongs to an
import that ended without tidying up; the files written since its start that no message refers to are then
deleted through the store (`release_attachments`, which checks the references in the same transaction), and the
marker goes. Two guards keep a live writer's files: nothing is swept while another import is still running (its
rows are not committed yet), and a file younger than `FRESH_S` is left for the next start (a turn in another
process writes its file a moment before the message that refers to it).
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

from hermes_desktop.core.file_lock import FileLock

log = logging.getLogger(__name__)
FOLDER = ".imports"
FRESH_S = 60.0
# Filesystem timestamps can be coarser than the clock (FAT: 2 s): a file written right at the start still counts.
SLACK_S = 2.0
_HASH = re.compile(r"[0-9a-f]{64}")


@contextlib.contextmanager
def import_running(attachments_dir: Path) -> Iterator[None]:
    """Mark an import as running for the block; the marker goes when it ends (however it ends, short of a kill)."""
    lock = FileLock(attachments_dir / FOLDER / f"{time.time_ns()}-{uuid.uuid4().hex[:12]}.lock")
    try:
        held = lock.try_acquire()
    except OSError as exc:  # e.g. a read-only data folder: the import itself will say what is wrong
        log.warning("the import's marker could not be written: %s", exc)
        held = False
    try:
        yield
    finally:
        if held:
            with contextlib.suppress(OSError):
                lock.path.unlink()
            lock.release()


def sweep_killed_imports(store: Any, *, now: float | None = None) -> int:
    """Remove the unreferenced files of imports that were killed; returns how many files were offered for removal."""
    root = Path(store.attachments_dir)
    markers = sorted((root / FOLDER).glob("*.lock")) if (root / FOLDER).is_dir() else []
    if not markers:
        return 0
    dead: list[tuple[FileLock, float]] = []
    try:
        for marker in markers:
            lock = FileLock(marker)
            if not lock.try_acquire():  # an import is running now: its files are not referenced yet
                return 0
            dead.append((lock, _started(marker)))
        now = time.time() if now is None else now
        since = min(started for _, started in dead) - SLACK_S
        offered, fresh = _candidates(root, since, now)
        for start in range(0, len(offered), 500):
            store.release_attachments(offered[start:start + 500])
        if offered:
            log.info("removed up to %d attachment files left by an import that did not finish", len(offered))
        if not fresh:
            for lock, _ in dead:
                with contextlib.suppress(OSError):
                    lock.path.unlink()
        return len(offered)
    finally:
        for lock, _ in dead:
            lock.release()


def _started(marker: Path) -> float:
    head = marker.stem.split("-", 1)[0]
    return int(head) / 1e9 if head.isdigit() else 0.0


def _candidates(root: Path, since: float, now: float) -> tuple[list[str], bool]:
    """(hashes of files written since `since` and older than FRESH_S, whether a younger one was seen)."""
    offered: list[str] = []
    fresh = False
    for folder in root.iterdir():
        if len(folder.name) != 2 or not folder.is_dir():
            continue
        for path in folder.iterdir():
            if not _HASH.fullmatch(path.name):
                continue
            try:
                modified = path.stat().st_mtime
            except OSError:
                continue
            if modified < since:
                continue
            if now - modified < FRESH_S:
                fresh = True
                continue
            offered.append(path.name)
    return offered, fresh

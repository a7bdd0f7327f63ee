"""Incremental sync of a knowledge base with its folders: only new and changed files are read again.

A sync walks the base's folders and files (hidden folders and `node_modules`, `__pycache__`, virtual environments
skipped; links to folders not followed), and for each file of a format we read (core/documents/):
- the same size and mtime as indexed: nothing to do (a sync with nothing changed reads no file);
- otherwise its SHA-256: the same content (a `touch`, a copy back) only updates the row's stat; new content is read,
  chunked (chunking.py) and stored in one transaction (index.py);
- a file that cannot be read (encrypted PDF, no text layer, too large, permission denied, not UTF-8 and no encoding
  detected, a FIFO, a link out of the folder…) gets its reason in the per-file list, and the rest goes on;
- rows of files that are gone or moved out of the folders are removed.
Vectors (when the base names an embedding model) are fetched after each file, in batches, for chunks that have none;
a failing endpoint stops only the vectors, with one notice, and a later sync fills them in.

Progress goes to a callback (`SyncProgress`: files done of total, the current file, elapsed, estimated time left);
`SyncControl` pauses and cancels between files. Only one sync of a base runs at a time, across processes (a lock
file beside the base); a second one is refused with a message. A full disk stops the sync (`IndexFull`), keeping
what was indexed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from hermes_desktop.core.documents import errors as E
from hermes_desktop.core.documents.errors import DocumentError
from hermes_desktop.core.documents.reader import check_path, kind_for, read_bytes, read_file_bytes, size_limit
from hermes_desktop.core.knowledge.chunking import chunk_sections
from hermes_desktop.core.knowledge.embeddings import BATCH, EmbeddingUnavailable, Endpoint, EndpointFor, embed
from hermes_desktop.core.knowledge.index import INDEXED, PROBLEM, IndexFull, KnowledgeIndex

SKIP_DIRS = frozenset({"node_modules", "__pycache__", ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".mypy_cache",
                       ".pytest_cache", "site-packages", ".idea", ".vscode"})
MAX_FILES = 100_000


class SyncBusy(Exception):
    """Another sync of this base is running (this process or another)."""


class SyncCancelled(Exception):
    pass


@dataclass(frozen=True, slots=True)
class SyncProgress:
    done: int
    total: int
    current: str  # the file being read (relative path), "" between files
    elapsed_s: float
    remaining_s: float | None  # estimated from the files done so far


@dataclass
class SyncResult:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    problems: int = 0
    touched: int = 0
    vectors: int = 0
    stopped: str = ""  # why the sync stopped early (full disk, cancelled), else ""
    notices: list[str] = field(default_factory=list)  # e.g. the embeddings endpoint failed (once)
    read: list[str] = field(default_factory=list)  # the files read again (relative paths)

    def summary(self) -> str:
        parts = [f"{self.added} new", f"{self.updated} changed", f"{self.removed} removed",
                 f"{self.unchanged} unchanged"]
        if self.problems:
            parts.append(f"{self.problems} could not be read")
        if self.vectors:
            parts.append(f"{self.vectors} vectors")
        text = ", ".join(parts)
        return f"stopped: {self.stopped} ({text})" if self.stopped else text


class SyncControl:
    """Pause, resume and cancel a running sync from another thread (checked between files)."""

    def __init__(self) -> None:
        self._running = threading.Event()
        self._running.set()
        self.cancelled = False

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def cancel(self) -> None:
        self.cancelled = True
        self._running.set()

    def checkpoint(self) -> None:
        self._running.wait()
        if self.cancelled:
            raise SyncCancelled()


@dataclass(frozen=True, slots=True)
class _Found:
    relative: str
    path: Path
    root: Path
    problem: DocumentError | None = None


def _walk(roots: list[str]) -> Iterator[_Found]:
    """The files of the base's folders (and single files), with a problem already known for some."""
    seen: set[str] = set()
    for root_text in roots:
        root = Path(root_text)
        label = root.name or str(root)
        if root.is_file() or (root.exists() and not root.is_dir()):
            if kind_for(root) is not None:
                yield _Found(label, root, root.parent)
            continue
        if not root.is_dir():
            yield _Found(label, root, root, DocumentError(f"{root}: the folder is gone (or cannot be opened).",
                                                          E.MISSING))
            continue
        for folder, dirs, files in os.walk(root, onerror=None, followlinks=False):
            base = Path(folder)
            kept = []
            for name in sorted(dirs):
                if name.startswith(".") or name in SKIP_DIRS:
                    continue
                full = base / name
                if full.is_symlink():
                    target = full.resolve()
                    if not target.is_relative_to(root.resolve()):
                        yield _Found(_relative(full, root, label), full, root,
                                     DocumentError(f"{name}: a link that points out of the folder (to {target}); not "
                                                   "read.", E.SYMLINK_OUTSIDE))
                    continue  # links to folders are not followed (loops); one inside is read where it really is
                kept.append(name)
            dirs[:] = kept
            for name in sorted(files):
                if name.startswith(".") or kind_for(name) is None:
                    continue
                full = base / name
                relative = _relative(full, root, label)
                if relative in seen:
                    continue
                seen.add(relative)
                yield _Found(relative, full, root)


def _relative(path: Path, root: Path, label: str) -> str:
    return f"{label}/{path.relative_to(root).as_posix()}"


@contextlib.contextmanager
def _lock(index_path: Path) -> Iterator[None]:
    lock_path = index_path.with_name(index_path.name + ".lock")
    handle = open(lock_path, "a+b")
    try:
        try:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover - Windows: msvcrt's lock on the first byte
            import msvcrt

            try:
                msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
            except OSError:
                raise SyncBusy("this knowledge base is being synced already") from None
        except OSError:
            raise SyncBusy("this knowledge base is being synced already (in this window or another process)") from None
        yield
    finally:
        handle.close()


def sync_base(index: KnowledgeIndex, *, progress: Callable[[SyncProgress], None] = lambda p: None,
              control: SyncControl | None = None, endpoint_for: EndpointFor | None = None,
              clock: Callable[[], float] = time.monotonic) -> SyncResult:
    """Bring the base up to date with its folders (blocking: run it in a worker thread or process).
    Raises SyncBusy, or IndexFull / IndexError_ when the base's file cannot be written (what was done stays)."""
    control = control or SyncControl()
    with _lock(index.path):
        return _sync(index, progress, control, endpoint_for, clock)


def _sync(index: KnowledgeIndex, progress: Callable[[SyncProgress], None], control: SyncControl,
          endpoint_for: EndpointFor | None, clock: Callable[[], float]) -> SyncResult:
    info = index.info()
    result = SyncResult()
    started = clock()
    known = {row.path: row for row in index.documents()}
    found = []
    for item in _walk(info.paths):
        found.append(item)
        if len(found) >= MAX_FILES:
            result.notices.append(f"only the first {MAX_FILES:,} files are indexed")
            break
    present = {item.relative for item in found}
    endpoint: Endpoint | None = None
    if info.embedding_model and endpoint_for is not None:
        endpoint = endpoint_for(info.embedding_model, info.embedding_url)
        if endpoint is None:
            result.notices.append(f"no embeddings endpoint for {info.embedding_model}: searching with BM25 only")
    try:
        result.removed = index.remove_documents(path for path in known if path not in present)
        total = len(found)
        read_since = 0
        for done, item in enumerate(found):
            elapsed = clock() - started
            remaining = (elapsed / read_since * (total - done)) if read_since else None
            progress(SyncProgress(done, total, item.relative, elapsed, remaining))
            control.checkpoint()  # paused here, or stopped before this file is read
            outcome = _sync_file(index, item, known.get(item.relative), info.chunk_tokens, info.overlap_tokens)
            if outcome in ("added", "updated"):
                read_since += 1
                result.read.append(item.relative)
            setattr(result, outcome, getattr(result, outcome) + 1)
            if endpoint is not None and outcome in ("added", "updated"):
                endpoint = _fill_vectors(index, endpoint, result)
        if endpoint is not None:  # vectors missing from an earlier sync whose endpoint failed
            endpoint = _fill_vectors(index, endpoint, result, everything=True)
        progress(SyncProgress(total, total, "", clock() - started, 0.0))
    except SyncCancelled:
        result.stopped = "cancelled"
    except IndexFull as exc:
        result.stopped = str(exc)
        _note_result(index, result)
        raise
    _note_result(index, result)
    return result


def _note_result(index: KnowledgeIndex, result: SyncResult) -> None:
    with contextlib.suppress(Exception):  # a full disk: the result is reported, not stored
        index.set_meta(last_sync=time.time(), last_result=result.summary())


def _sync_file(index: KnowledgeIndex, item: _Found, row: object, chunk_tokens: int, overlap_tokens: int) -> str:
    """One file: "unchanged", "touched", "added", "updated" or "problems"."""
    from hermes_desktop.core.knowledge.index import DocumentRow

    known = row if isinstance(row, DocumentRow) else None
    if item.problem is not None:
        if known is not None and known.status == PROBLEM and known.code == item.problem.code:
            return "unchanged"
        index.store_problem(item.relative, size=None, mtime_ns=None, code=item.problem.code, problem=str(item.problem))
        return "problems"
    kind = kind_for(item.path) or "text"
    size = mtime = None
    try:
        info = os.lstat(item.path)
        size, mtime = info.st_size, info.st_mtime_ns
        if stat.S_ISLNK(info.st_mode):
            followed = os.stat(item.path)
            size, mtime = followed.st_size, followed.st_mtime_ns
    except OSError:
        pass
    if known is not None and known.size == size and known.mtime_ns == mtime and mtime is not None and \
            known.status in (INDEXED, PROBLEM):
        return "unchanged"
    try:
        check_path(item.path, item.root, kind)
        data = read_file_bytes(item.path, size_limit(kind))
        digest = hashlib.sha256(data).hexdigest()
        if known is not None and known.status == INDEXED and known.sha256 == digest:
            index.touch(item.relative, len(data), mtime or 0)
            return "touched"
        document = read_bytes(item.path.name, data, kind)
        chunks = chunk_sections(document.sections, max_tokens=chunk_tokens, overlap_tokens=overlap_tokens)
        if not chunks:
            raise DocumentError(f"{item.path.name}: no text to index.", E.NO_TEXT)
    except DocumentError as exc:
        index.store_problem(item.relative, size=size, mtime_ns=mtime, code=exc.code, problem=str(exc))
        return "problems"
    index.store_document(item.relative, size=len(data), mtime_ns=mtime or 0, sha256=digest, kind=kind,
                         pages=document.pages, note=document.note, chunks=chunks)
    return "added" if known is None or known.status != INDEXED else "updated"


def _fill_vectors(index: KnowledgeIndex, endpoint: Endpoint, result: SyncResult, *,
                  everything: bool = False) -> Endpoint | None:
    """Vectors for chunks that have none; None (and one notice) when the endpoint fails."""
    while True:
        missing = index.chunks_without_vectors(endpoint.model, BATCH)
        if not missing:
            return endpoint
        try:
            vectors = embed(endpoint, [text for _, text in missing])
        except EmbeddingUnavailable as exc:
            result.notices.append(f"{exc}; this base is searched with BM25 only until a sync gets the vectors")
            return None
        index.store_vectors(endpoint.model, [(chunk_id, vector) for (chunk_id, _), vector in zip(missing, vectors)])
        result.vectors += len(vectors)
        if not everything and len(missing) < BATCH:
            return endpoint

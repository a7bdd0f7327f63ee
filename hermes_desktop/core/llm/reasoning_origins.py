"""Which server produced which reasoning, so a reasoning echo goes back only to the server that wrote it.

The reasoning echo (core/llm/reasoning.py) sends a reply's `reasoning_content` back with later requests. A session
can hold replies of several providers (the model picker switches them; an imported session brings someone else's),
and one provider's thinking is that provider's business: it is sent back only to the server that streamed it,
whatever the echo setting, and whatever a 400 taught about this server.

How: every reasoning a model client streams is noted here as the SHA-256 of its text under the server's key (its
base URL, scheme and host in lower case, default port and trailing slash dropped). A message's reasoning is echoed
only when this server's notes hold its digest. The notes are kept for the process, and in the data folder when
`configure` was called (the runtime does): one small file per server under `reasoning_origins/`, a digest a line,
appended (O_APPEND: two processes never mix their lines), at most `MAX_KEPT` kept. Digests say nothing about the
text. An imported session's reasoning, or one from a build before this, is in no notes, so it is never echoed (a
server that insists then answers 400 with the reason, which is shown). No schema change: the session database is
not touched.

Thread-safe (clients stream on the event loop; tests and the summary worker use threads).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections import OrderedDict
from pathlib import Path
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

MAX_KEPT = 20_000  # digests per server (a reply a line, 65 bytes): far more than any history a request sends
FOLDER_NAME = "reasoning_origins"

_lock = threading.Lock()
_folder: Path | None = None
_notes: dict[str, "OrderedDict[str, None]"] = {}
_loaded: set[str] = set()


def configure(folder: Path | None) -> None:
    """Keep notes in `folder` from now on (None: this process only). Notes already read stay."""
    global _folder
    with _lock:
        _folder = folder
        _loaded.clear()


def server_key(base_url: str) -> str:
    """The server a base URL names: what two profiles (or an edited one) must share for reasoning to be echoed."""
    parts = urlsplit(base_url.strip())
    try:
        port = parts.port
    except ValueError:
        return base_url.strip()
    scheme = parts.scheme.lower()
    port = None if (scheme, port) in (("http", 80), ("https", 443)) else port
    host = (parts.hostname or "").lower()
    return f"{scheme}://{host}{':' + str(port) if port else ''}{parts.path.rstrip('/')}"


def _digest(reasoning: str) -> str:
    return hashlib.sha256(reasoning.encode("utf-8", "surrogatepass")).hexdigest()


def _file(key: str) -> Path | None:
    if _folder is None:
        return None
    return _folder / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".txt")


def _notes_for(key: str) -> "OrderedDict[str, None]":
    """This server's notes, read from its file once (under the lock)."""
    notes = _notes.setdefault(key, OrderedDict())
    path = _file(key)
    if path is not None and key not in _loaded:
        _loaded.add(key)
        try:
            lines = path.read_text(encoding="ascii", errors="ignore").split()
        except OSError:
            lines = []
        for line in lines[-MAX_KEPT:]:
            if len(line) == 64:
                notes[line] = None
        if len(lines) > 2 * MAX_KEPT:  # compact now and then: keep the newest
            _rewrite(path, list(notes)[-MAX_KEPT:])
    while len(notes) > MAX_KEPT:
        notes.popitem(last=False)
    return notes


def _rewrite(path: Path, digests: list[str]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text("".join(d + "\n" for d in digests), encoding="ascii")
        os.replace(tmp, path)
    except OSError as exc:
        log.debug("could not compact %s: %s", path, exc)
        tmp.unlink(missing_ok=True)


def note(base_url: str, reasoning: str) -> None:
    """This server streamed this reasoning (never raises: a full disk keeps the note for this process)."""
    if not reasoning:
        return
    key, digest = server_key(base_url), _digest(reasoning)
    with _lock:
        notes = _notes_for(key)
        if digest in notes:
            return
        notes[digest] = None
        path = _file(key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            os.write(fd, (digest + "\n").encode("ascii"))
        finally:
            os.close(fd)
    except OSError as exc:
        log.warning("could not note where a reasoning came from (%s); it is echoed in this run only", exc)


def produced_by(base_url: str, reasoning: str) -> bool:
    """Whether this server streamed this reasoning (in this run, or one whose notes are kept)."""
    if not reasoning:
        return False
    key = server_key(base_url)
    with _lock:
        return _digest(reasoning) in _notes_for(key)


def forget(base_url: str) -> None:
    """Drop this server's notes (its file too): nothing it wrote is echoed any more."""
    key = server_key(base_url)
    with _lock:
        _notes.pop(key, None)
        _loaded.discard(key)
        path = _file(key)
    if path is not None:
        path.unlink(missing_ok=True)

"""Skills' parsed YAML kept between runs, by the text's SHA-256, so a start with unchanged skills never imports PyYAML.

Every start reads each skill's front matter (SKILL.md) or skill.yaml. Parsing it is quick; importing PyYAML is
not (~8 ms, most of it compiling the pure-Python reader's patterns, even with libyaml's C loader), and that was a
measurable part of a short `ask` (issue 16). So a parsed result is kept in a small JSON file (`configure(path)`;
the runtime puts it in the data folder next to the model catalog's cache) under the SHA-256 of the exact text
parsed: the same text always parses to the same value, so an entry can never be stale, and an edited skill is
simply a new text, parsed with PyYAML and added. Only what JSON gives back exactly is kept (mappings with text
keys, lists, text, whole and real numbers, true/false/null): anything else YAML can make (dates, binary, number
keys) is parsed every time, as before. Parse errors are kept too (their message), so a broken skill does not
bring PyYAML back at every start. An unreadable or foreign file is ignored and replaced; one that cannot be
written (a read-only data folder) only means PyYAML is imported again next time. At most MAX_ENTRIES entries
(the most recently used), texts of at most MAX_TEXT characters.

Without `configure` (tests, `skills validate`), the cache lives in memory only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FILE_NAME = "skill-yaml-cache.json"
FORMAT = "hermes-desktop.skill-yaml-cache"
VERSION = 1
MAX_ENTRIES = 2_000
MAX_TEXT = 64_000

_lock = threading.Lock()
_path: Path | None = None
_entries: dict[str, dict[str, Any]] = {}  # sha256 -> {"value": …} or {"error": kind, "message": …}; newest last
_loaded = False
_dirty = False


def configure(path: Path | None) -> None:
    """Keep the cache in `path` (read on first use, written by `save`); None: in memory only."""
    global _path, _loaded
    with _lock:
        if path != _path:
            _path, _loaded = path, False


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _load_locked() -> None:
    global _loaded, _entries
    if _loaded:
        return
    _loaded = True
    if _path is None:
        return
    try:
        document = json.loads(_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        log.info("skill YAML cache not read (%s); it is made again", exc)
        return
    if not (isinstance(document, dict) and document.get("format") == FORMAT and document.get("version") == VERSION
            and isinstance(document.get("entries"), dict)):
        return
    read = {key: entry for key, entry in document["entries"].items() if _valid(entry)}
    _entries = {**read, **_entries}  # what this process parsed already stays the newest


def _valid(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    if "value" in entry:
        try:
            return _exact_in_json(entry["value"])
        except RecursionError:
            return False
    return entry.get("error") in ("invalid", "too large") and isinstance(entry.get("message"), str)


def lookup(text: str) -> dict[str, Any] | None:
    """The kept entry for `text` ({"value": parsed} or {"error": kind, "message": text}), or None."""
    if len(text) > MAX_TEXT:
        return None
    key = _key(text)
    with _lock:
        _load_locked()
        entry = _entries.pop(key, None)
        if entry is None:
            return None
        _entries[key] = entry  # most recently used last
    if "value" in entry:
        return {"value": json.loads(json.dumps(entry["value"]))}  # a copy of its own: callers may change it
    return dict(entry)


def keep_value(text: str, value: Any) -> None:
    """Keep a parsed value when JSON gives it back exactly (module docstring)."""
    try:
        exact = len(text) <= MAX_TEXT and _exact_in_json(value)
    except RecursionError:  # nested deeper than JSON round trips comfortably: parsed every time
        exact = False
    if exact:
        _keep(text, {"value": json.loads(json.dumps(value))})  # a copy: the caller keeps and may change `value`


def keep_error(text: str, kind: str, message: str) -> None:
    """Keep why a text could not be used: kind "invalid" (not YAML) or "too large" (an alias bomb)."""
    if len(text) <= MAX_TEXT:
        _keep(text, {"error": kind, "message": message})


def _keep(text: str, entry: dict[str, Any]) -> None:
    global _dirty
    key = _key(text)
    with _lock:
        _load_locked()
        if _entries.get(key) == entry:
            return
        _entries.pop(key, None)
        _entries[key] = entry
        _dirty = True


def save() -> None:
    """Write the cache file when something was added (atomically; a failure is only logged)."""
    global _dirty
    with _lock:
        if not _dirty or _path is None:
            return
        document = {"format": FORMAT, "version": VERSION, "entries": dict(list(_entries.items())[-MAX_ENTRIES:])}
        path = _path
        _dirty = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".skill-yaml-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(document, handle, ensure_ascii=False, separators=(",", ":"))
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except (OSError, ValueError) as exc:  # ValueError: text JSON cannot write (a lone surrogate)
        log.info("skill YAML cache not written (%s)", exc)


def _exact_in_json(value: Any) -> bool:
    """Whether json.loads(json.dumps(value)) is `value` again, type for type."""
    if value is None or type(value) in (bool, str, int):
        return True
    if type(value) is float:
        return value == value and value not in (float("inf"), float("-inf"))
    if type(value) is list:
        return all(_exact_in_json(item) for item in value)
    if type(value) is dict:
        return all(type(key) is str and _exact_in_json(item) for key, item in value.items())
    return False

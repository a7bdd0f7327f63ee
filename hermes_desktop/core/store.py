"""Sessions in SQLite (`hermes.db` in the data directory): durable, searchable, crash-safe.

Guarantees, and how:
- A message is one transaction; appending is O(1) in the session's length (an insert
  and a head-pointer update, never a rewrite).
- WAL journal, foreign keys on, `synchronous=NORMAL`: a killed process loses nothing
  committed (a power cut may lose the last transactions; that trade keeps appends
  well under a millisecond).
- The window and a CLI command may write at the same time: writes take the lock
  up-front (`BEGIN IMMEDIATE`), wait up to 5 s for it, then retry a bounded number
  of times before giving up with a clear StorageError.
- A session is a tree of messages (edit-and-resend and regenerate make branches;
  nothing is overwritten); `head_id` names the message the conversation continues
  from, and the active history is the path from the root to it.
- An assistant message with no finish reason is still streaming. It records which
  process writes it (`stream_owner`, see storage/liveness.py); at open, one whose
  writer process is gone is marked interrupted.
- Deleting a session moves it to the trash for 30 days; it can be restored.
- Attached files live once per content hash in `attachments/` beside the database (core/attachments.py); a
  message refers to them (`message_attachments`, forks and edited versions copy the references). Purging a
  session deletes the files no message refers to any more, after the commit.
- A tool result has a record of what its card showed (`tool_call_records`, ToolCallRecord: impact code, parameters
  and English text, decision and who decided, outcome, duration), written by the engine right after the result in
  a transaction of its own (a full disk then costs only the record). It goes with its message: forks copy it, a
  purge deletes it (cascade), branches keep it. Exports leave it out (an import must not claim the user approved
  something), so an imported or pre-v8 session's cards show the result without it.

- A write that fails for lack of space, an I/O error, read-only media or permissions
  raises the StorageUnavailable subclass for it (storage/errors.py), one line saying
  what was not saved and where; SQLite has rolled the transaction back, so nothing
  stored changed, and the same write works once the cause is gone.

Opening (`open_store`) also handles corruption, migrations and backups, and tells a
damaged file (set aside, backup restored) from one that cannot be read or written right
now (never touched: opened read-only with the reason); see there.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import stat
import threading
import time
import uuid
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from hermes_desktop.core.coded import coded
from hermes_desktop.core.paths import AppPaths, ensure_dir
from hermes_desktop.core.reply_model import reply_model
from hermes_desktop.core.session_types import AttachmentRef, NewMessage, SessionInfo, StoredMessage, validate_session_id
from hermes_desktop.core.storage import liveness
from hermes_desktop.core.storage import search as fts
from hermes_desktop.core.storage.liveness import ProcessToken
from hermes_desktop.core.storage.errors import (
    Fault, ReadOnlyStoreError, SessionExists, SessionNotFound, StorageBusyError, StorageError, StorageUnavailable,
    access_fault, describe, error_for, fault_of, free_bytes,
)
from hermes_desktop.core.storage.migrations import LATEST_VERSION, migrate, schema_version

log = logging.getLogger(__name__)
T = TypeVar("T")

TRASH_DAYS = 30
BUSY_TIMEOUT_S = 5.0
WRITE_ATTEMPTS = 4
DAILY_BACKUPS_KEPT = 7

_MESSAGE_COLUMNS = ("id, session_id, role, content, tool_calls, tool_call_id, name, finish_reason, interrupted, "
                    "tokens, created_at, updated_at, parent_id, depth, reasoning, reasoning_ms, reasoning_tokens, model")
_SESSION_COLUMNS = ("id, title, created_at, updated_at, profile_id, model, pinned, source, prompt_tokens, "
                    "completion_tokens, active_skills, deleted_at, title_source, params, head_id")


@dataclass(frozen=True, slots=True)
class ToolCallRecord:
    """What a tool call's card showed, kept beside its stored result (table `tool_call_records`, migration 8).
    `impact_params` is None when the stored parameters do not read back as a JSON object (the card then shows no
    impact line, never fails)."""

    message_id: int
    call_id: str
    impact_code: str
    impact_params: dict[str, Any] | None
    impact: str | None
    decision: str | None
    decided_by: str | None
    outcome: str
    duration_s: float | None


@dataclass(frozen=True, slots=True)
class SearchHit:
    session_id: str
    session_title: str
    message_id: int | None  # None: the title matched
    role: str | None
    snippet: str
    highlights: tuple[tuple[int, int], ...]
    position: int | None  # the message's depth (0 = first message), for jumping to it
    updated_at: float


@dataclass(frozen=True, slots=True)
class SessionDetails:
    """A session with the fields only some callers need."""

    info: SessionInfo
    title_source: str
    params: dict[str, Any]
    head_id: int | None


def _session(row: sqlite3.Row) -> SessionInfo:
    return SessionInfo(
        id=row["id"], title=row["title"], created_at=row["created_at"], updated_at=row["updated_at"],
        profile_id=row["profile_id"], model=row["model"], pinned=bool(row["pinned"]), source=row["source"],
        prompt_tokens=row["prompt_tokens"], completion_tokens=row["completion_tokens"],
        active_skills=tuple(json.loads(row["active_skills"] or "[]")), deleted_at=row["deleted_at"],
    )


def _message(row: sqlite3.Row) -> StoredMessage:
    return StoredMessage(
        id=row["id"], session_id=row["session_id"], role=row["role"], content=row["content"],
        tool_calls=json.loads(row["tool_calls"]) if row["tool_calls"] else None,
        tool_call_id=row["tool_call_id"], name=row["name"], finish_reason=row["finish_reason"],
        interrupted=bool(row["interrupted"]), tokens=row["tokens"], created_at=row["created_at"],
        updated_at=row["updated_at"], parent_id=row["parent_id"],
        reasoning=row["reasoning"], reasoning_ms=row["reasoning_ms"], reasoning_tokens=row["reasoning_tokens"],
        model=row["model"],
    )


def connect(path: Path, *, read_only: bool = False, immutable: bool = False) -> sqlite3.Connection:
    """A connection set up for the store. `immutable`: read the file as it is, with no locks and no
    `-shm`/`-wal` files (for a database on a full disk or read-only media; see `_read_only_connection`)."""
    if read_only or immutable:
        db = sqlite3.connect(f"{path.as_uri()}?{'immutable=1' if immutable else 'mode=ro'}", uri=True,
                             check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_S)
    else:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_S)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    if not read_only:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
    fts.register_functions(db)
    return db


class SQLiteSessionStore:
    """Thread-safe (one connection, one lock per process); safe beside other processes (SQLite locking)."""

    def __init__(self, path: Path, *, read_only: bool = False, db: sqlite3.Connection | None = None,
                 owner: ProcessToken | None = None, read_only_reason: str | None = None) -> None:
        self.path = path
        self.attachments_dir = path.parent / "attachments"
        """Attached files, one per content hash (core/attachments.py); removed when no message refers to them."""
        self.read_only = read_only
        self.read_only_reason = read_only_reason if read_only else None
        """Why nothing can be saved (one line for the user), when the store is read-only."""
        self.read_only_code = ""
        """The same as a code (`storage_<fault>` or `newer_schema`) for the window's words; params in
        `read_only_params` (path, consequence; version and known)."""
        self.read_only_params: dict[str, Any] = {}
        self._owner = owner
        self._db = db or connect(path, read_only=read_only)
        self._lock = threading.RLock()
        self.search_available = (
            self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'messages_fts'").fetchone() is not None
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()
        if self._owner is not None:
            self._owner.release()

    # ------------------------------------------------------------------ plumbing
    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                if fault_of(exc, self.path) is Fault.OTHER:
                    raise
                raise error_for(exc, self.path, "the history could not be read") from exc

    def _write(self, work: Callable[[sqlite3.Connection], T], what: str = "the change was not saved") -> T:
        """Run `work` in one write transaction. A failure leaves the database as it was (SQLite rolls the
        transaction back) and raises a StorageError: for a full disk, I/O error, read-only file or
        permissions the StorageUnavailable subclass saying `what` was lost; a lock is waited for."""
        if self.read_only:
            raise ReadOnlyStoreError(self.read_only_reason or "The session database is open read-only; "
                                     "nothing can be saved.")
        for attempt in range(WRITE_ATTEMPTS):
            with self._lock:
                try:
                    self._db.execute("BEGIN IMMEDIATE")
                    try:
                        result = work(self._db)
                        self._db.execute("COMMIT")
                        return result
                    except BaseException:
                        self._rollback()
                        raise
                except sqlite3.Error as exc:
                    fault = fault_of(exc, self.path)
                    if fault is Fault.OTHER:
                        raise StorageError(f"Saving to the session database failed: {exc}") from exc
                    if fault is not Fault.BUSY:
                        log.error("write failed (%s): %s", fault.value, exc)
                        raise error_for(exc, self.path, what) from exc
            time.sleep(0.05 * (attempt + 1))  # locked by another process beyond busy_timeout: try again
        raise StorageBusyError(self.path, what)

    def _rollback(self) -> None:
        # SQLite has already rolled back after SQLITE_FULL and some I/O errors; a second ROLLBACK would
        # raise "no transaction is active" and hide the real error.
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("rollback failed")

    # ------------------------------------------------------------------ sessions
    def create_session(self, session_id: str | None = None, *, title: str = "", profile_id: str | None = None,
                       model: str | None = None, source: str = "app") -> SessionInfo:
        sid = validate_session_id(session_id) if session_id is not None else uuid.uuid4().hex
        now = time.time()

        def work(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO sessions (id, title, created_at, updated_at, profile_id, model, source, title_source) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (sid, title, now, now, profile_id, model, source, "user" if title else "none"),
                )
            except sqlite3.IntegrityError as exc:
                raise SessionExists(f"a session with id {sid!r} already exists") from exc

        self._write(work, "the new session was not saved")
        info = self.get_session(sid)
        assert info is not None
        return info

    def get_session(self, session_id: str) -> SessionInfo | None:
        rows = self._read(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,))
        return _session(rows[0]) if rows else None

    def session_details(self, session_id: str) -> SessionDetails | None:
        rows = self._read(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,))
        if not rows:
            return None
        row = rows[0]
        return SessionDetails(_session(row), row["title_source"], json.loads(row["params"] or "{}"), row["head_id"])

    def list_sessions(self, *, offset: int = 0, limit: int = 100, trash: bool = False) -> list[SessionInfo]:
        """Pinned first, then most recently updated. `trash=True` lists deleted sessions instead."""
        where = "deleted_at IS NOT NULL" if trash else "deleted_at IS NULL"
        rows = self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE {where} ORDER BY pinned DESC, updated_at DESC, id "
            "LIMIT ? OFFSET ?", (limit, offset))
        return [_session(r) for r in rows]

    def count_sessions(self, *, trash: bool = False) -> int:
        where = "deleted_at IS NOT NULL" if trash else "deleted_at IS NULL"
        return int(self._read(f"SELECT COUNT(*) FROM sessions WHERE {where}")[0][0])

    def _update_session(self, session_id: str, sql: str, params: tuple[Any, ...]) -> None:
        def work(db: sqlite3.Connection) -> None:
            if db.execute(f"UPDATE sessions SET {sql} WHERE id = ?", (*params, session_id)).rowcount == 0:
                raise SessionNotFound(f"no session {session_id!r}")

        self._write(work)

    def rename(self, session_id: str, title: str) -> None:
        self._update_session(session_id, "title = ?, title_source = 'user'", (title.strip(),))

    def set_title(self, session_id: str, title: str, *, source: str = "fallback") -> None:
        """An automatic title; never replaces one the user typed."""
        def work(db: sqlite3.Connection) -> None:
            db.execute("UPDATE sessions SET title = ?, title_source = ? WHERE id = ? AND title_source != 'user'",
                       (title, source, session_id))

        self._write(work)

    def set_pinned(self, session_id: str, pinned: bool) -> None:
        self._update_session(session_id, "pinned = ?", (int(pinned),))

    def delete_session(self, session_id: str) -> None:
        """Move to the trash (restorable for TRASH_DAYS days)."""
        self._update_session(session_id, "deleted_at = ?", (time.time(),))

    def restore_session(self, session_id: str) -> None:
        self._update_session(session_id, "deleted_at = NULL", ())

    def purge_session(self, session_id: str) -> None:
        """Delete for good (the trash's "delete now")."""
        def work(db: sqlite3.Connection) -> None:
            db.execute("UPDATE sessions SET head_id = NULL WHERE id = ?", (session_id,))
            db.execute("DELETE FROM messages WHERE session_id = ?", (session_id,))
            db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            return _drop_unreferenced_attachments(db)

        self._delete_attachment_files(self._write(work))

    def release_attachments(self, hashes: list[str]) -> None:
        """Delete these attachment files if no message refers to them (a message whose save failed)."""
        def work(db: sqlite3.Connection) -> list[str]:
            marks = ",".join("?" * len(hashes))
            referenced = {r[0] for r in db.execute(
                f"SELECT DISTINCT hash FROM message_attachments WHERE hash IN ({marks})", hashes)}
            db.execute(f"DELETE FROM attachments WHERE hash IN ({marks}) AND hash NOT IN "
                       "(SELECT hash FROM message_attachments)", hashes)
            return [h for h in hashes if h not in referenced]

        if hashes:
            self._delete_attachment_files(self._write(work))

    def _delete_attachment_files(self, hashes: list[str]) -> None:
        """After the commit: a file is removed only once no row refers to it any more."""
        from hermes_desktop.core.attachments import AttachmentFiles

        AttachmentFiles(self.attachments_dir).delete(hashes)

    def _with_attachments(self, messages: list[StoredMessage]) -> list[StoredMessage]:
        """`messages` with their attachments filled in (one query per 500 user messages)."""
        ids = [m.id for m in messages if m.role == "user"]
        if not ids:
            return messages
        found: dict[int, list[AttachmentRef]] = {}
        for chunk in _chunks(ids, 500):
            marks = ",".join("?" * len(chunk))
            for row in self._read(
                    "SELECT ma.message_id, ma.name, a.hash, a.kind, a.mime, a.size, a.width, a.height, a.text, a.note "
                    f"FROM message_attachments ma JOIN attachments a ON a.hash = ma.hash WHERE ma.message_id IN ({marks}) "
                    "ORDER BY ma.message_id, ma.position", tuple(chunk)):
                found.setdefault(row["message_id"], []).append(AttachmentRef(
                    row["hash"], row["name"], row["kind"], row["mime"], row["size"], row["width"], row["height"],
                    row["text"], row["note"]))
        if not found:
            return messages
        return [replace(m, attachments=tuple(found[m.id])) if m.id in found else m for m in messages]

    def purge_trash(self, *, older_than_days: float = TRASH_DAYS, now: float | None = None) -> int:
        cutoff = (now or time.time()) - older_than_days * 86400
        expired = [r[0] for r in self._read("SELECT id FROM sessions WHERE deleted_at IS NOT NULL AND deleted_at < ?",
                                            (cutoff,))]
        for session_id in expired:
            self.purge_session(session_id)
        return len(expired)

    def add_usage(self, session_id: str, prompt_tokens: int, completion_tokens: int) -> None:
        self._update_session(session_id, "prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?",
                             (prompt_tokens, completion_tokens))

    def set_model(self, session_id: str, profile_id: str | None, model: str | None,
                  params: dict[str, Any] | None = None) -> None:
        if params is None:
            self._update_session(session_id, "profile_id = ?, model = ?", (profile_id, model))
        else:
            self._update_session(session_id, "profile_id = ?, model = ?, params = ?",
                                 (profile_id, model, json.dumps(params)))

    def held_local(self, session_id: str) -> str | None:
        """The local-only provider holding this session (core/local_only.py), or None."""
        rows = self._read("SELECT held_local FROM sessions WHERE id = ?", (session_id,))
        return rows[0]["held_local"] if rows else None

    def hold_local(self, session_id: str, profile_id: str) -> None:
        """Mark the session held by a local-only provider; the first holder stays (set once, never cleared)."""
        self._update_session(session_id, "held_local = COALESCE(held_local, ?)", (profile_id,))

    def set_active_skills(self, session_id: str, skills: list[str]) -> None:
        self._update_session(session_id, "active_skills = ?", (json.dumps(sorted(set(skills))),))

    # ------------------------------------------------------------------ messages
    def append_message(self, session_id: str, message: NewMessage) -> int:
        now = time.time()

        def work(db: sqlite3.Connection) -> int:
            row = db.execute("SELECT head_id FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                raise SessionNotFound(f"no session {session_id!r}")
            return self._insert_message(db, session_id, message, row["head_id"], now)

        return self._write(work, _unsaved(message.role))

    def _insert_message(self, db: sqlite3.Connection, session_id: str, message: NewMessage, parent_id: int | None,
                        now: float) -> int:
        depth = 0
        if parent_id is not None:
            depth = db.execute("SELECT depth FROM messages WHERE id = ?", (parent_id,)).fetchone()["depth"] + 1
        streaming = message.role == "assistant" and message.finish_reason is None
        cursor = db.execute(
            "INSERT INTO messages (session_id, parent_id, depth, role, content, tool_calls, tool_call_id, name, "
            "finish_reason, interrupted, tokens, created_at, updated_at, stream_owner, reasoning, reasoning_ms, "
            "reasoning_tokens, model) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (session_id, parent_id, depth, message.role, message.content,
             json.dumps(message.tool_calls, ensure_ascii=False) if message.tool_calls else None,
             message.tool_call_id, message.name, message.finish_reason, int(message.interrupted), message.tokens,
             now, now, self._owner.token if streaming and self._owner else None,
             message.reasoning, message.reasoning_ms, message.reasoning_tokens, reply_model(message)),
        )
        message_id = int(cursor.lastrowid or 0)
        _link_attachments(db, message_id, message.attachments, now)
        db.execute("UPDATE sessions SET head_id = ?, updated_at = ? WHERE id = ?", (message_id, now, session_id))
        return message_id

    def update_message(self, message_id: int, *, content: str | None = None,
                       tool_calls: list[dict[str, Any]] | None = None, finish_reason: str | None = None,
                       interrupted: bool | None = None, tokens: int | None = None, reasoning: str | None = None,
                       reasoning_ms: int | None = None, reasoning_tokens: int | None = None) -> None:
        sets, params = ["updated_at = ?"], [time.time()]
        for column, value in (("content", content),
                              ("tool_calls", json.dumps(tool_calls, ensure_ascii=False) if tool_calls else None),
                              ("finish_reason", finish_reason),
                              ("interrupted", None if interrupted is None else int(interrupted)),
                              ("tokens", tokens), ("reasoning", reasoning), ("reasoning_ms", reasoning_ms),
                              ("reasoning_tokens", reasoning_tokens)):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)

        def work(db: sqlite3.Connection) -> None:
            db.execute(f"UPDATE messages SET {', '.join(sets)} WHERE id = ?", (*params, message_id))

        self._write(work, "the latest part of the reply was not saved")

    def record_tool_call(self, message_id: int, *, session_id: str, call_id: str, impact_code: str = "",
                         impact_params: dict[str, Any] | None = None, impact: str | None = None,
                         decision: str | None = None, decided_by: str | None = None, outcome: str,
                         duration_s: float | None = None) -> None:
        """Keep what the card of the call answered by tool message `message_id` showed (core/agent.py writes it
        right after the result, in a transaction of its own)."""
        params = json.dumps(impact_params or {}, ensure_ascii=False, default=str)
        now = time.time()

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR REPLACE INTO tool_call_records (message_id, session_id, call_id, impact_code, "
                "impact_params, impact, decision, decided_by, outcome, duration_s, created_at) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (message_id, session_id, call_id, impact_code or "", params, impact, decision, decided_by, outcome,
                 duration_s, now))

        self._write(work, "the record of what the tool call did was not saved")

    def tool_records(self, message_ids: list[int]) -> dict[int, ToolCallRecord]:
        """The records of these tool messages that have one, by message id (older sessions have none)."""
        records: dict[int, ToolCallRecord] = {}
        for chunk in _chunks(message_ids, 500):
            rows = self._read(
                "SELECT message_id, call_id, impact_code, impact_params, impact, decision, decided_by, outcome, "
                f"duration_s FROM tool_call_records WHERE message_id IN ({','.join('?' * len(chunk))})", tuple(chunk))
            for row in rows:
                records[int(row["message_id"])] = _tool_record(row)
        return records

    def message(self, message_id: int) -> StoredMessage | None:
        rows = self._read(f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE id = ?", (message_id,))
        return self._with_attachments([_message(rows[0])])[0] if rows else None

    def _path_rows(self, start_id: int | None, limit: int | None) -> list[sqlite3.Row]:
        """Messages from `start_id` up to the root (newest first), at most `limit` of them."""
        if start_id is None:
            return []
        sql = (
            "WITH RECURSIVE path(id, parent) AS ("
            "  SELECT id, parent_id FROM messages WHERE id = ?"
            "  UNION ALL SELECT m.id, m.parent_id FROM messages m JOIN path ON m.id = path.parent"
            f") SELECT id FROM path {'LIMIT ?' if limit is not None else ''}"
        )
        with self._lock:
            ids = [r[0] for r in self._db.execute(sql, (start_id,) if limit is None else (start_id, limit))]
            if not ids:
                return []
            rows: dict[int, sqlite3.Row] = {}
            for chunk in _chunks(ids, 500):
                marks = ",".join("?" * len(chunk))
                for row in self._db.execute(f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE id IN ({marks})", chunk):
                    rows[row["id"]] = row
        return [rows[i] for i in ids if i in rows]

    def messages(self, session_id: str) -> list[StoredMessage]:
        """The active history, oldest first."""
        return self.recent_messages(session_id, None)

    def recent_messages(self, session_id: str, limit: int | None) -> list[StoredMessage]:
        """The last `limit` messages of the active history, oldest first (all when None)."""
        head = self._read("SELECT head_id FROM sessions WHERE id = ?", (session_id,))
        if not head:
            return []
        return self._with_attachments([_message(r) for r in reversed(self._path_rows(head[0]["head_id"], limit))])

    def messages_range(self, session_id: str, start: int, count: int) -> list[StoredMessage]:
        """Messages `start` to `start + count - 1` (0 = the first) of the active history.

        Without branches (the common case) this is an index range scan on depth; with
        branches it walks the active path."""
        with self._lock:
            head = self._db.execute("SELECT m.depth FROM sessions s JOIN messages m ON m.id = s.head_id WHERE s.id = ?",
                                    (session_id,)).fetchone()
            if head is None:
                return []
            total = self._db.execute("SELECT COUNT(*) FROM messages WHERE session_id = ?", (session_id,)).fetchone()[0]
            if total == head[0] + 1:  # one straight line: depth is the position
                rows = self._db.execute(
                    f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND depth >= ? AND depth < ? "
                    "ORDER BY depth", (session_id, start, start + count)).fetchall()
                return self._with_attachments([_message(r) for r in rows])
        return self.messages(session_id)[start : start + count]

    def message_count(self, session_id: str) -> int:
        head = self._read("SELECT m.depth FROM sessions s JOIN messages m ON m.id = s.head_id WHERE s.id = ?",
                          (session_id,))
        return int(head[0][0]) + 1 if head else 0

    # ------------------------------------------------------------------ branches
    def rewind_to(self, session_id: str, message_id: int | None) -> None:
        """Continue the conversation from `message_id` (None: from the start). Later messages stay as a branch."""
        def work(db: sqlite3.Connection) -> None:
            if message_id is not None:
                owner = db.execute("SELECT session_id FROM messages WHERE id = ?", (message_id,)).fetchone()
                if owner is None or owner[0] != session_id:
                    raise StorageError(f"message {message_id} is not in session {session_id}")
            db.execute("UPDATE sessions SET head_id = ?, updated_at = ? WHERE id = ?", (message_id, time.time(), session_id))

        self._write(work)

    def edit_user_message(self, message_id: int, content: str) -> int:
        """A new version of a user message, as a sibling of the old one; the conversation continues from it."""
        now = time.time()

        def work(db: sqlite3.Connection) -> int:
            old = db.execute("SELECT session_id, parent_id, role FROM messages WHERE id = ?", (message_id,)).fetchone()
            if old is None or old["role"] != "user":
                raise StorageError("only a user message can be edited")
            new_id = self._insert_message(db, old["session_id"], NewMessage("user", content=content), old["parent_id"], now)
            # The new version keeps the old one's attachments (an edit changes the text).
            db.execute("INSERT INTO message_attachments (message_id, position, hash, name) "
                       "SELECT ?, position, hash, name FROM message_attachments WHERE message_id = ?", (new_id, message_id))
            return new_id

        return self._write(work, "your edited message was not saved")

    def siblings(self, message_id: int) -> list[int]:
        """Versions of this message (same parent and role), oldest first: the branches to switch between."""
        rows = self._read(
            "SELECT s.id FROM messages m JOIN messages s ON s.session_id = m.session_id AND s.role = m.role "
            "AND s.parent_id IS m.parent_id WHERE m.id = ? ORDER BY s.id", (message_id,))
        return [r[0] for r in rows]

    def versions_of(self, message_ids: list[int]) -> dict[int, tuple[int, ...]]:
        """For each message with more than one version (same parent and role), all versions' ids."""
        found: dict[int, tuple[int, ...]] = {}
        for message_id in message_ids:
            siblings = self.siblings(message_id)
            if len(siblings) > 1:
                found[message_id] = tuple(siblings)
        return found

    def switch_branch(self, message_id: int) -> None:
        """Make the branch through `message_id` active: head moves to its newest descendant leaf."""
        def work(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT session_id FROM messages WHERE id = ?", (message_id,)).fetchone()
            if row is None:
                raise StorageError(f"no message {message_id}")
            current = message_id
            while True:
                child = db.execute("SELECT id FROM messages WHERE parent_id = ? ORDER BY id DESC LIMIT 1",
                                   (current,)).fetchone()
                if child is None:
                    break
                current = child[0]
            db.execute("UPDATE sessions SET head_id = ? WHERE id = ?", (current, row[0]))

        self._write(work)

    def fork(self, session_id: str, message_id: int, *, title: str | None = None) -> SessionInfo:
        """A new session holding the active history up to and including `message_id`."""
        history = self.messages(session_id)
        ids = [m.id for m in history]
        if message_id not in ids:
            raise StorageError(f"message {message_id} is not in the conversation of session {session_id}")
        original = self.get_session(session_id)
        assert original is not None
        new_id = uuid.uuid4().hex
        now = time.time()
        copied = history[: ids.index(message_id) + 1]
        imported = self.imported_through(session_id)

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO sessions (id, title, created_at, updated_at, profile_id, model, source, title_source, "
                "active_skills) VALUES (?,?,?,?,?,?,?,?,?)",
                (new_id, title or f"{original.title or 'Untitled'} (fork)", now, now, original.profile_id,
                 original.model, "fork", "user", json.dumps(list(original.active_skills))),
            )
            # its assistant, MCP servers and local-only holder (a fork of a confidential talk stays confidential)
            db.execute("UPDATE sessions SET (assistant_id, mcp_servers, held_local) = (SELECT assistant_id, "
                       "mcp_servers, held_local FROM sessions WHERE id = ?) WHERE id = ?", (session_id, new_id))
            parent: int | None = None
            for m in copied:
                parent = self._insert_message(db, new_id, NewMessage(
                    m.role, m.content, m.tool_calls, m.tool_call_id, m.name, m.finish_reason, m.interrupted, m.tokens,
                    m.reasoning, m.reasoning_ms, m.reasoning_tokens, m.attachments, m.model,
                ), parent, now)
                if imported is not None and m.id <= imported:
                    _mark_imported(db, new_id, parent)
                if m.role == "tool":  # the card's record goes with its result
                    db.execute(
                        "INSERT INTO tool_call_records (message_id, session_id, call_id, impact_code, impact_params, "
                        "impact, decision, decided_by, outcome, duration_s, created_at) SELECT ?, ?, call_id, "
                        "impact_code, impact_params, impact, decision, decided_by, outcome, duration_s, created_at "
                        "FROM tool_call_records WHERE message_id = ?", (parent, new_id, m.id))
            # A fork of an incognito conversation is incognito (core/memory): in this transaction, so it never exists
            # without the flag.
            db.execute("INSERT OR IGNORE INTO memory_incognito (session_id, set_at) SELECT ?, ? FROM memory_incognito "
                       "WHERE session_id = ?", (new_id, now, session_id))

        self._write(work)
        info = self.get_session(new_id)
        assert info is not None
        return info

    def imported_through(self, session_id: str) -> int | None:
        """The id of the last message that came in with an import (this session's, or the session it was forked
        from): messages up to it are someone else's conversation. None when nothing in it was imported."""
        details = self.session_details(session_id)
        value = details.params.get(IMPORTED_THROUGH) if details is not None else None
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def import_session(self, *, session_id: str, fields: dict[str, Any],
                       messages: list[tuple[int, int | None, NewMessage, float | None, float | None]],
                       head: int | None) -> None:
        """Insert a whole session at once (one transaction): messages are (number, parent number, message,
        created_at, updated_at), numbers local to the import."""
        validate_session_id(session_id)
        now = time.time()

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO sessions (id, title, title_source, created_at, updated_at, profile_id, model, params, "
                "pinned, source, prompt_tokens, completion_tokens, active_skills) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (session_id, fields.get("title") or "", fields.get("title_source") or "user",
                 fields.get("created_at") or now, fields.get("updated_at") or now, fields.get("profile_id"),
                 fields.get("model"), json.dumps(fields.get("params") or {}), int(bool(fields.get("pinned"))),
                 fields.get("source") or "import", int(fields.get("prompt_tokens") or 0),
                 int(fields.get("completion_tokens") or 0), json.dumps(list(fields.get("active_skills") or []))),
            )
            ids: dict[int, int] = {}
            depths: dict[int, int] = {}
            for number, parent, message, created, updated in messages:
                if parent is not None and parent not in ids:
                    raise StorageError(f"message {number} refers to parent {parent}, which comes later or is missing")
                parent_id = ids.get(parent) if parent is not None else None
                depth = depths[parent] + 1 if parent is not None else 0
                cursor = db.execute(
                    "INSERT INTO messages (session_id, parent_id, depth, role, content, tool_calls, tool_call_id, name, "
                    "finish_reason, interrupted, tokens, created_at, updated_at, reasoning, reasoning_ms, "
                    "reasoning_tokens, model) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (session_id, parent_id, depth, message.role, message.content,
                     json.dumps(message.tool_calls, ensure_ascii=False) if message.tool_calls else None,
                     message.tool_call_id, message.name, message.finish_reason, int(message.interrupted),
                     message.tokens, created or now, updated or created or now,
                     message.reasoning, message.reasoning_ms, message.reasoning_tokens, reply_model(message)),
                )
                ids[number] = int(cursor.lastrowid or 0)
                _link_attachments(db, ids[number], message.attachments, now)
                depths[number] = depth
            head_id = ids.get(head) if head is not None else (ids[max(ids)] if ids else None)
            db.execute("UPDATE sessions SET head_id = ? WHERE id = ?", (head_id, session_id))
            if ids:  # someone else's conversation: its "user" messages are not this user's words (core/memory)
                _mark_imported(db, session_id, max(ids.values()))

        self._write(work)

    # ------------------------------------------------------------------ maintenance
    def mark_orphaned_streams_interrupted(self, lock_dir: Path) -> int:
        """Mark interrupted every still-"streaming" reply whose writing process has ended."""
        owners = [r[0] for r in self._read(
            "SELECT DISTINCT stream_owner FROM messages WHERE role = 'assistant' AND finish_reason IS NULL")]
        dead = [o for o in owners if o is None or not liveness.is_alive(lock_dir, o)]
        if not dead:
            return 0

        def work(db: sqlite3.Connection) -> int:
            count = 0
            for owner in dead:
                count += db.execute(
                    "UPDATE messages SET interrupted = 1, finish_reason = 'interrupted' WHERE role = 'assistant' "
                    "AND finish_reason IS NULL AND stream_owner IS ?", (owner,)).rowcount
            return count

        return self._write(work)

    def all_messages(self, session_id: str) -> list[StoredMessage]:
        """Every message of the session, all branches, in insertion order (for export)."""
        rows = self._read(f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY id", (session_id,))
        return self._with_attachments([_message(r) for r in rows])

    def head_id(self, session_id: str) -> int | None:
        rows = self._read("SELECT head_id FROM sessions WHERE id = ?", (session_id,))
        return rows[0][0] if rows else None

    # ------------------------------------------------------------------ search
    def search(self, query: str, *, limit: int = 50) -> list[SearchHit]:
        terms = fts.query_terms(query)
        if not terms:
            return []
        hits = self._search_titles(terms, limit) + self._search_messages(terms, limit)
        return hits[:limit]

    def _search_titles(self, terms: list[str], limit: int) -> list[SearchHit]:
        if self.search_available:
            expression = fts.match_expression(terms)
            rows = self._read(
                f"SELECT {_prefixed(_SESSION_COLUMNS, 's')} FROM titles_fts JOIN sessions s ON s.id = titles_fts.session_id "
                "WHERE titles_fts MATCH ? AND s.deleted_at IS NULL ORDER BY s.updated_at DESC LIMIT ?",
                (expression, limit))
        else:
            clause = " AND ".join("title LIKE ? ESCAPE '\\'" for _ in terms)
            rows = self._read(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE {clause} AND deleted_at IS NULL "
                              "ORDER BY updated_at DESC LIMIT ?", (*[fts.like_pattern(t) for t in terms], limit))
        hits = []
        for row in rows:
            snippet = fts.make_snippet(row["title"], terms)
            hits.append(SearchHit(row["id"], row["title"], None, None, snippet.text, snippet.highlights, None,
                                  row["updated_at"]))
        return hits

    def _search_messages(self, terms: list[str], limit: int) -> list[SearchHit]:
        columns = ("m.id, m.session_id, m.role, m.content, m.tool_calls, m.name, m.depth, s.title, s.updated_at")
        if self.search_available:
            rows = self._read(
                f"SELECT {columns} FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
                "JOIN sessions s ON s.id = m.session_id WHERE messages_fts MATCH ? AND s.deleted_at IS NULL "
                "ORDER BY messages_fts.rowid DESC LIMIT ?", (fts.match_expression(terms), limit))
        else:
            clause = " AND ".join("(m.content LIKE ? ESCAPE '\\' OR m.tool_calls LIKE ? ESCAPE '\\' OR m.name LIKE ? ESCAPE '\\')"
                                  for _ in terms)
            params: list[Any] = []
            for term in terms:
                params += [fts.like_pattern(term)] * 3
            rows = self._read(f"SELECT {columns} FROM messages m JOIN sessions s ON s.id = m.session_id "
                              f"WHERE {clause} AND s.deleted_at IS NULL ORDER BY m.id DESC LIMIT ?", (*params, limit))
        hits = []
        for row in rows:
            text = row["content"] or ""
            if row["role"] == "tool":
                text = fts.tool_result_text(text)
            if row["tool_calls"] or row["name"]:
                text = " ".join(p for p in (text, row["name"] or "", _calls_text(row["tool_calls"])) if p)
            snippet = fts.make_snippet(text, terms, markdown=row["role"] == "assistant")
            hits.append(SearchHit(row["session_id"], row["title"], row["id"], row["role"], snippet.text,
                                  snippet.highlights, row["depth"], row["updated_at"]))
        return hits

    def integrity_ok(self) -> bool:
        with self._lock:
            return self._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    def backup_to(self, target: Path) -> None:
        ensure_dir(target.parent)
        with self._lock:
            destination = sqlite3.connect(target)
            try:
                self._db.backup(destination)
            finally:
                destination.close()


def _link_attachments(db: sqlite3.Connection, message_id: int, refs: tuple[AttachmentRef, ...], now: float) -> None:
    """Record `refs` for the message, in order (the files were written before this transaction). Every ref is derived
    from its bytes (attaching and importing share core/attachments.prepare_bytes), so the newest one replaces the
    details of an existing row: a row planted by an older version's import that trusted a file's `text` cannot
    speak for the same bytes attached later."""
    for position, ref in enumerate(refs):
        db.execute("INSERT INTO attachments (hash, kind, mime, size, width, height, text, note, created_at) "
                   "VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(hash) DO UPDATE SET kind = excluded.kind, "
                   "mime = excluded.mime, size = excluded.size, width = excluded.width, height = excluded.height, "
                   "text = excluded.text, note = excluded.note",
                   (ref.hash, ref.kind, ref.mime, ref.size, ref.width, ref.height, ref.text, ref.note, now))
        db.execute("INSERT INTO message_attachments (message_id, position, hash, name) VALUES (?,?,?,?)",
                   (message_id, position, ref.hash, ref.name))


def _drop_unreferenced_attachments(db: sqlite3.Connection) -> list[str]:
    """Forget attachments no message refers to; returns their hashes (their files go after the commit)."""
    return [r[0] for r in db.execute(
        "DELETE FROM attachments WHERE hash NOT IN (SELECT hash FROM message_attachments) RETURNING hash").fetchall()]


def _tool_record(row: sqlite3.Row) -> ToolCallRecord:
    try:
        params = json.loads(row["impact_params"] or "{}")
    except (TypeError, ValueError):
        params = None
    if not isinstance(params, dict):
        params = None
    duration = row["duration_s"]
    return ToolCallRecord(int(row["message_id"]), str(row["call_id"] or ""), str(row["impact_code"] or ""), params,
                          row["impact"], row["decision"], row["decided_by"], str(row["outcome"] or ""),
                          float(duration) if isinstance(duration, (int, float)) else None)


def _unsaved(role: str) -> str:
    """What was lost when a message of this role could not be written."""
    return {"user": "your message was not saved", "assistant": "the reply was not saved",
            "tool": "the tool result was not saved"}.get(role, "the message was not saved")


def _prefixed(columns: str, alias: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


def _calls_text(tool_calls: str | None) -> str:
    if not tool_calls:
        return ""
    try:
        return " ".join(f"{c['function']['name']} {c['function'].get('arguments', '')}" for c in json.loads(tool_calls))
    except (ValueError, KeyError, TypeError):
        return tool_calls


def _chunks(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# ====================================================================== opening

BACKUP_HEADROOM_BYTES = 2 * 1024 * 1024
"""The daily backup is skipped when it would leave less than this free: Hermes never fills a disk itself."""
READ_ONLY_CONSEQUENCE = "the history is open read-only and nothing new can be saved"
UNAVAILABLE_CONSEQUENCE = "the history cannot be shown and nothing can be saved"


@dataclass
class OpenedStore:
    store: SQLiteSessionStore
    messages: list[str] = field(default_factory=list)  # what to tell the user (corruption, read-only, ...)
    search_available: bool = True
    read_only_reason: str | None = None
    """Set when nothing can be saved (newer schema, full disk, read-only media, ...): one line for the user."""


def open_store(paths: AppPaths, *, today: date | None = None) -> OpenedStore:
    """Open `hermes.db`: recover from corruption, migrate (with a copy first), back up daily.

    - A file SQLite reads and reports malformed (a failed `PRAGMA quick_check`,
      SQLITE_CORRUPT, SQLITE_NOTADB) is renamed aside, never deleted, and the newest
      daily backup that passes `PRAGMA integrity_check` is copied in its place (a
      damaged backup is skipped); with none, a new database starts. The user is told
      where the bad file is.
    - A file that cannot be read or written right now (full disk, I/O error,
      read-only media or file, permissions, a lock) is never renamed, moved or
      replaced: the history is opened read-only (`read_only_reason` says why, with
      the path) or, when even that fails, an empty read-only store stands in.
    - A database newer than this app is opened read-only, never modified.
    - Before any migration of an existing database, a copy is made next to it. When
      the copy or the migration cannot be written, the database is left as it was
      and a migrated copy in memory is shown read-only.
    - Start-up housekeeping and the daily backup never fail the start: a full disk
      postpones them with a notice.
    """
    path = paths.database
    messages: list[str] = []
    try:
        ensure_dir(paths.data_dir)
    except OSError as exc:
        log.error("data folder %s unusable: %s", paths.data_dir, exc)
        return _unavailable(path, fault_of(exc, path), messages, str(exc))
    special = _not_a_regular_file(path)
    if special:
        # SQLite would open a FIFO and wait for a writer forever; a device or socket is no database either.
        log.error("database %s is %s", path, special)
        return _unavailable(path, Fault.OTHER, messages, f"it is {special}, not a regular file")
    if path.exists():
        fault, detail = _health(path)
        if fault is Fault.CORRUPT:
            substitute = _recover(path, paths.data_dir / "backups", detail, messages)
            if substitute is not None:
                return substitute
        elif fault is not None:
            log.error("database %s cannot be read normally (%s): %s", path, fault.value, detail)
            return _open_read_only(path, fault, messages, detail)
    fault = access_fault(path)
    if fault is not None:
        log.error("database %s cannot be written (%s)", path, fault.value)
        return _open_read_only(path, fault, messages)
    try:
        opened = _open_writable(paths, messages)
    except (sqlite3.Error, OSError, StorageUnavailable) as exc:
        log.error("opening %s for writing failed: %s", path, exc)
        return _open_read_only(path, fault_of(exc, path), messages, str(exc))
    if not opened.store.read_only:
        _daily_backup(opened.store, paths.data_dir / "backups", today or date.today(), messages)
    return opened


def _open_writable(paths: AppPaths, messages: list[str]) -> OpenedStore:
    path = paths.database
    db = connect(path)
    try:
        version = schema_version(db)
        if version > LATEST_VERSION:
            db.close()
            reason = coded(f"The session database was made by a newer version of Hermes Desktop (schema {version}, "
                           f"this app knows {LATEST_VERSION}). It is open read-only: update Hermes Desktop to keep "
                           "chatting.", "newer_schema", version=version, known=LATEST_VERSION)
            messages.append(reason)
            store = SQLiteSessionStore(path, read_only=True, read_only_reason=reason)
            store.read_only_code, store.read_only_params = "newer_schema", {"version": version, "known": LATEST_VERSION}
            return OpenedStore(store, messages, store.search_available, reason)
        if 0 < version < LATEST_VERSION:
            _migrate_with_copy(db, path, version)
        elif version == 0:
            migrate(db)
        search_available = fts.ensure_search_index(db)
        lock_dir = paths.data_dir / "locks"
        store = SQLiteSessionStore(path, db=db, owner=ProcessToken(lock_dir))
    except BaseException:
        db.close()
        raise
    if not search_available:
        messages.append(coded("This Python's SQLite has no FTS5; search uses a slower plain-text scan.", "no_fts5"))
    store.search_available = search_available
    _housekeeping(store, lock_dir, messages)
    return OpenedStore(store, messages, search_available)


def _migrate_with_copy(db: sqlite3.Connection, path: Path, version: int) -> None:
    copy = path.with_name(f"{path.name}.pre-v{LATEST_VERSION}-{datetime.now():%Y%m%d-%H%M%S}.bak")
    try:
        _backup_connection(db, copy)
    except BaseException:
        copy.unlink(missing_ok=True)  # a partial copy only takes space (it may be what filled the disk)
        raise
    messages_before = db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    migrate(db)  # each step is one transaction: a failed step leaves the database as it was before it
    messages_after = db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    if messages_after != messages_before:  # pragma: no cover - a migration bug; refuse to continue silently
        raise StorageError(f"migration changed the message count ({messages_before} -> {messages_after}); "
                           f"the pre-migration copy is {copy}")
    log.info("migrated %s from v%s to v%s (copy at %s)", path, version, LATEST_VERSION, copy)


def _housekeeping(store: SQLiteSessionStore, lock_dir: Path, messages: list[str]) -> None:
    """Mark orphaned streams interrupted, tidy lock files, empty the expired trash. These write; when
    the disk is full (or the file locked) they wait for the next start instead of failing this one."""
    try:
        store.mark_orphaned_streams_interrupted(lock_dir)
        liveness.sweep(lock_dir)
        store.purge_trash()
        from hermes_desktop.core.storage.import_journal import sweep_killed_imports

        sweep_killed_imports(store)  # attachment files of an import that was killed
    except StorageUnavailable as exc:
        log.warning("start-up housekeeping postponed: %s", exc)
        messages.append(str(exc.about("start-up housekeeping (interrupted replies, the expired trash) was "
                                      "postponed")))
    except OSError as exc:
        log.warning("start-up housekeeping postponed: %s", exc)


def _not_a_regular_file(path: Path) -> str | None:
    """What `path` is when it exists but is not a regular file (a link is followed), else None."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # missing or unreadable: the normal checks say why
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def _health(path: Path) -> tuple[Fault | None, str]:
    """(None, "") when SQLite reads the file and finds it sound; (CORRUPT, what) when SQLite read it and
    reports it malformed; otherwise the fault that kept SQLite from reading it, and its message."""
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
        try:
            result = db.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            db.close()
    except (sqlite3.Error, OSError) as exc:
        return fault_of(exc, path), str(exc)
    return (None, "") if result == "ok" else (Fault.CORRUPT, f"quick_check: {result}")


def _recover(path: Path, backups: Path, problem: str, messages: list[str]) -> OpenedStore | None:
    """Set the damaged `path` aside and copy the newest verified backup in its place.

    None when the start can go on with `path` (restored, or absent: a new database starts).
    An OpenedStore when it cannot: the file could not be moved (an empty read-only store), or
    the backup could not be copied (that backup itself, read-only)."""
    candidate = _newest_verified_backup(backups)
    try:
        kept = _move_aside(path)  # a rename: needs no free space
    except OSError as exc:
        log.error("damaged database %s could not be set aside: %s", path, exc)
        return _unavailable(path, fault_of(exc, path), messages, str(exc))
    damaged = f"The session database could not be read: SQLite reports it damaged ({problem}). It was kept as {kept}"
    log.error("database damaged (%s); kept as %s; backup=%s", problem, kept, candidate)
    if candidate is None:
        messages.append(coded(f"{damaged}; Hermes started with an empty history (no backup passed its integrity "
                              "check).", "database_damaged_new", kept=str(kept), detail=problem))
        return None
    day = candidate.stem.removeprefix("hermes-")
    try:
        _copy_into_place(candidate, path)
    except OSError as exc:
        messages.append(coded(f"{damaged}; the backup of {day} could not be copied in its place and is shown "
                              "instead.", "database_damaged_backup_shown", kept=str(kept), detail=problem, day=day))
        return _open_read_only(path, fault_of(exc, path), messages, str(exc), source=candidate)
    messages.append(coded(f"{damaged}; Hermes started from the backup of {day}.", "database_damaged_restored",
                          kept=str(kept), detail=problem, day=day))
    return None


def _move_aside(path: Path) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    path.replace(target)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.replace(target.with_name(target.name + suffix))
    return target


def _newest_verified_backup(backups: Path) -> Path | None:
    """The newest daily backup that passes a full `PRAGMA integrity_check`; damaged ones are skipped."""
    if not backups.is_dir():
        return None
    for candidate in sorted(backups.glob("hermes-*.db"), reverse=True):
        if _verified(candidate):
            return candidate
        log.warning("backup %s failed its integrity check; skipped", candidate)
    return None


def _verified(path: Path) -> bool:
    try:
        # immutable: checking a backup must not create -wal/-shm files beside it (or need space for them)
        db = sqlite3.connect(f"{path.as_uri()}?immutable=1", uri=True)
        try:
            return db.execute("PRAGMA integrity_check").fetchone()[0] == "ok" and schema_version(db) > 0
        finally:
            db.close()
    except sqlite3.Error:
        return False


def _copy_into_place(source: Path, path: Path) -> None:
    """Copy `source` to `path` so that `path` is either absent or complete, never half-written."""
    partial = path.with_name(f"{path.name}.restoring")
    try:
        shutil.copyfile(source, partial)
        partial.replace(path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def _open_read_only(path: Path, fault: Fault, messages: list[str], detail: str = "", *,
                    source: Path | None = None) -> OpenedStore:
    """The history of `source` (default `path`) opened so that nothing can be written, with the reason."""
    reason = describe(fault, path, READ_ONLY_CONSEQUENCE, detail if fault is Fault.OTHER else "")
    source = source or path
    try:
        db, stale = _read_only_connection(source)
    except (sqlite3.Error, OSError) as exc:
        log.error("%s cannot be read either: %s", source, exc)
        return _unavailable(path, fault, messages, detail)
    messages.append(reason)
    if stale:
        messages.append(coded("The newest changes (kept in the -wal file beside the database) cannot be shown until "
                              "the database can be opened normally; they are not lost.", "wal_not_shown"))
    store = SQLiteSessionStore(path, read_only=True, db=db, read_only_reason=reason)
    store.read_only_code = f"storage_{fault.value}"
    store.read_only_params = {"path": str(path), "consequence": READ_ONLY_CONSEQUENCE}
    return OpenedStore(store, messages, store.search_available, reason)


def _read_only_connection(path: Path) -> tuple[sqlite3.Connection, bool]:
    """A connection that reads `path` and never writes anything, and whether it may miss the newest changes.

    A normal read-only connection needs the `-shm` file (creating or growing it fails on a
    full disk or read-only media); then the file is read as it is (`immutable`), which
    misses only changes still in a non-empty `-wal` file. An older schema is migrated in
    memory, so the current queries work; the file is not touched."""
    if not path.exists():
        raise FileNotFoundError(path)
    stale = False
    try:
        db = connect(path, read_only=True)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # the first read opens the -shm file
        except BaseException:
            db.close()
            raise
    except sqlite3.Error as exc:
        log.info("normal read-only open of %s failed (%s); reading the file as it is", path, exc)
        wal = path.with_name(path.name + "-wal")
        stale = wal.exists() and wal.stat().st_size > 0
        db = connect(path, immutable=True)
    try:
        version = schema_version(db)
        if version < LATEST_VERSION:
            db = _migrated_in_memory(db)
        else:
            db.execute("SELECT COUNT(*) FROM messages").fetchone()
    except BaseException:
        db.close()
        raise
    return db, stale


def _memory_connection() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys = ON")
    fts.register_functions(db)
    return db


def _migrated_in_memory(db: sqlite3.Connection) -> sqlite3.Connection:
    """A copy of `db` in memory at the current schema (with its search index); `db` is closed, untouched."""
    memory = _memory_connection()
    try:
        db.backup(memory)
        migrate(memory)
        fts.ensure_search_index(memory)
    finally:
        db.close()
    return memory


def _unavailable(path: Path, fault: Fault, messages: list[str], detail: str = "") -> OpenedStore:
    """An empty, read-only store standing in for a database that cannot be read at all."""
    reason = describe(fault, path, UNAVAILABLE_CONSEQUENCE, detail if fault is Fault.OTHER else "")
    memory = _memory_connection()
    migrate(memory)
    fts.ensure_search_index(memory)
    messages.append(reason)
    store = SQLiteSessionStore(path, read_only=True, db=memory, read_only_reason=reason)
    store.read_only_code = f"storage_{fault.value}"
    store.read_only_params = {"path": str(path), "consequence": UNAVAILABLE_CONSEQUENCE}
    return OpenedStore(store, messages, store.search_available, reason)


def _backup_connection(db: sqlite3.Connection, target: Path) -> None:
    destination = sqlite3.connect(target)
    try:
        db.backup(destination)
    finally:
        destination.close()


def _daily_backup(store: SQLiteSessionStore, backups: Path, today: date, messages: list[str]) -> None:
    """Copy the database to `backups/hermes-<today>.db` once a day, keeping DAILY_BACKUPS_KEPT.

    Skipped with a notice when it would leave less than BACKUP_HEADROOM_BYTES free or cannot be
    written; a partial copy is removed (on a full disk it is what took the last space)."""
    target = backups / f"hermes-{today.isoformat()}.db"
    if target.exists():
        return
    temporary = target.with_suffix(".tmp")
    try:
        ensure_dir(backups)
        for stale in backups.glob("hermes-*.tmp"):  # left by a start that was killed mid-backup
            stale.unlink(missing_ok=True)
        needed = sum(p.stat().st_size for p in (store.path, store.path.with_name(store.path.name + "-wal"))
                     if p.exists())
        free = free_bytes(backups)
        if free is not None and free < needed + BACKUP_HEADROOM_BYTES:
            messages.append(coded(f"Today's backup of the session database was skipped: the disk holding {backups} "
                                  f"has {free // 1024:,} KiB free and the backup needs about {needed // 1024:,} KiB. "
                                  "Free some space; the next start makes it.", "backup_skipped_space",
                                  folder=str(backups), free_kib=free // 1024, needed_kib=needed // 1024))
            log.warning("daily backup skipped: %s bytes free, %s needed", free, needed)
            return
        store.backup_to(temporary)
        temporary.replace(target)
        for old in sorted(backups.glob("hermes-*.db"))[:-DAILY_BACKUPS_KEPT]:
            old.unlink(missing_ok=True)
    except (OSError, sqlite3.Error) as exc:
        temporary.unlink(missing_ok=True)
        log.warning("daily backup failed: %s", exc)
        fault = fault_of(exc, target)
        messages.append(describe(fault, target, "today's backup of the session database was skipped",
                                 str(exc) if fault is Fault.OTHER else ""))


def with_session(store: SQLiteSessionStore, session_id: str) -> SessionInfo:
    info = store.get_session(session_id)
    if info is None:
        raise SessionNotFound(f"no session {session_id!r}")
    return info



IMPORTED_THROUGH = "imported_through"
"""The session params key naming the last imported message (SQLiteSessionStore.imported_through)."""


def _mark_imported(db: sqlite3.Connection, session_id: str, message_id: int) -> None:
    row = db.execute("SELECT params FROM sessions WHERE id = ?", (session_id,)).fetchone()
    try:
        params = json.loads(row[0] or "{}") if row is not None else {}
    except ValueError:
        params = {}
    params = params if isinstance(params, dict) else {}
    params[IMPORTED_THROUGH] = int(message_id)  # set, never kept from a file: an import's own ids are other ids
    db.execute("UPDATE sessions SET params = ? WHERE id = ?", (json.dumps(params), session_id))

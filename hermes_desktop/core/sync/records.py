"""What a device tells the others, and how it takes in what they told it: change records and merging.

A record is `{"k": kind, "g": global id, "h": stamp, "f": {field: value}, "c": {constants}}` for one session,
message or memory. Each field is a last-writer-wins register ordered by its hybrid-clock stamp, except:
- a session purged for good (`purged`) or a memory deleted (`deleted`) is a tombstone: it wins over everything
  and the entity never comes back from an older record;
- a memory's `state` forgotten always wins (privacy first: forgetting on one device forgets everywhere);
- a message is immutable in its place in the tree: a message new to this device is added under its parent (same
  global id), so the same session continued on two devices keeps both continuations as sibling branches, and the
  conversation's current head moves only when the new message continues it.
`sync_fields` holds, for every field of every entity, the hash of the value last sent or taken in and its stamp;
`scan` compares today's values with it to find what changed here, so nothing in store.py has to report changes
and a change made by the command line is found just like one made in the window.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import time
from typing import Any, Callable, Iterator

from hermes_desktop.core.reply_model import clean_model_name
from hermes_desktop.core.session_types import InvalidSessionId, validate_session_id
from hermes_desktop.core.sync import library_records

Record = dict[str, Any]
STREAMING = "assistant"


def value_hash(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:32]


# ---------------------------------------------------------------------------------------------- reading this device
def session_fields(row: sqlite3.Row) -> dict[str, Any]:
    fields = {"title": [row["title"], row["title_source"]], "pinned": bool(row["pinned"]),
              "deleted": row["deleted_at"],
              "model": [row["profile_id"], row["model"], json.loads(row["params"] or "{}"),
                        json.loads(row["active_skills"] or "[]")]}
    # The session's assistant (v9). Sent once for every session when this field was new (a few bytes each), so a
    # change back to Hermes (None) reaches the other devices too.
    fields["assistant"] = row["assistant_id"] if "assistant_id" in row.keys() else None
    # The local-only provider holding it (v14, core/local_only.py): sent only when set, so the other sessions'
    # records stay as they were; on arrival it is set once and never cleared, so no device can release it.
    if "held_local" in row.keys() and row["held_local"]:
        fields["held_local"] = row["held_local"]
    return fields


def memory_fields(row: sqlite3.Row) -> dict[str, Any]:
    body = {name: row[name] for name in ("profile_id", "layer", "statement", "quote", "created_at", "expires_at",
                                         "pinned", "subject", "entities", "kind", "origin")}
    return {"body": body, "state": [row["state"], row["prior_state"], row["state_changed_at"]]}


_MESSAGE_BODY = ("role", "content", "tool_calls", "tool_call_id", "name", "finish_reason", "interrupted", "tokens",
                 "created_at", "reasoning", "reasoning_ms", "reasoning_tokens")
_ATTACHMENT = ("hash", "name", "kind", "mime", "size", "width", "height", "text", "note")
_TOOL_RECORD = ("call_id", "impact_code", "impact_params", "impact", "decision", "decided_by", "outcome",
                "duration_s", "created_at")


def _known(db: sqlite3.Connection, kind: str) -> dict[tuple[str, str], tuple[str, str]]:
    return {(r[0], r[1]): (r[2], r[3]) for r in db.execute(
        "SELECT gid, field, value_hash, hlc FROM sync_fields WHERE kind = ?", (kind,))}


def scan(db: sqlite3.Connection, stamp: Callable[[], str], *, messages_since: float | None = None) -> Iterator[Record]:
    """The records of everything that changed here since the last scan; updates `sync_fields` as it goes (the
    caller runs this in the transaction that also stores the records in the outbox). `messages_since`: only
    messages never synced or updated at or after this time are looked at (the engine passes its last scan time less
    a margin, and None for a periodic full scan); sessions and memories are always compared whole."""
    yield from _scan_sessions(db, stamp)
    yield from _scan_messages(db, stamp, messages_since)
    yield from _scan_memories(db, stamp)
    yield from library_records.scan(db, stamp, _changed, _known, _remember_value, bases)


def _remember_value(db: sqlite3.Connection, kind: str, gid: str, name: str, value: Any, stamp: str) -> None:
    _remember(db, kind, gid, name, value_hash(value), stamp)


def _changed(db: sqlite3.Connection, kind: str, gid: str, fields: dict[str, Any],
             known: dict[tuple[str, str], tuple[str, str]], stamp: Callable[[], str]) -> tuple[str, dict[str, Any]]:
    changed: dict[str, Any] = {}
    for name, value in fields.items():
        digest = value_hash(value)
        if known.get((gid, name), ("", ""))[0] != digest:
            changed[name] = (value, digest)
    if not changed:
        return "", {}
    now = stamp()
    for name, (_, digest) in changed.items():
        _remember(db, kind, gid, name, digest, now)
    return now, {name: value for name, (value, _) in changed.items()}


def bases(known: dict[tuple[str, str], tuple[str, str]], gid: str, fields: dict[str, Any]) -> dict[str, str]:
    """For each changed field, the hash of the value it was changed from (what this device last synced): the
    receiver compares it with its own to tell a plain later edit from two devices editing the same field."""
    return {name: known[(gid, name)][0] for name in fields if (gid, name) in known}


def _remember(db: sqlite3.Connection, kind: str, gid: str, name: str, digest: str, stamp: str) -> None:
    db.execute("INSERT INTO sync_fields (kind, gid, field, value_hash, hlc) VALUES (?,?,?,?,?) ON CONFLICT(kind, "
               "gid, field) DO UPDATE SET value_hash = excluded.value_hash, hlc = excluded.hlc",
               (kind, gid, name, digest, stamp))


def _tombstones(db: sqlite3.Connection, kind: str, table: str, mark: str,
                known: dict[tuple[str, str], tuple[str, str]], stamp: Callable[[], str]) -> Iterator[Record]:
    gids = {g for g, f in known if f != mark and (g, mark) not in known}
    if not gids:
        return
    present = {r[0] for r in db.execute(f"SELECT gid FROM {table} WHERE gid IS NOT NULL")}
    for gid in sorted(gids - present):
        now = stamp()
        _remember(db, kind, gid, mark, value_hash(True), now)
        yield {"k": kind, "g": gid, "h": now, "f": {mark: True}}


def _scan_sessions(db: sqlite3.Connection, stamp: Callable[[], str]) -> Iterator[Record]:
    known = _known(db, "session")
    for row in db.execute("SELECT * FROM sessions ORDER BY created_at, id").fetchall():
        if (row["gid"], "purged") in known:
            continue
        now, fields = _changed(db, "session", row["gid"], session_fields(row), known, stamp)
        if fields:
            yield {"k": "session", "g": row["gid"], "h": now, "f": fields, "b": bases(known, row["gid"], fields),
                   "c": {"id": row["id"], "created_at": row["created_at"], "source": row["source"]}}
    yield from _tombstones(db, "session", "sessions", "purged", known, stamp)


def _candidates(db: sqlite3.Connection, since: float | None) -> list[int] | None:
    """The ids of messages that may have changed (None: all of them): updated since `since`, or never synced."""
    if since is None:
        return None
    return [r[0] for r in db.execute(
        "SELECT m.id FROM messages m LEFT JOIN sync_fields f ON f.kind = 'message' AND f.gid = m.gid AND "
        "f.field = 'body' WHERE f.gid IS NULL OR m.updated_at >= ?", (since,))]


def _scan_messages(db: sqlite3.Connection, stamp: Callable[[], str], since: float | None) -> Iterator[Record]:
    ids = _candidates(db, since)
    if ids is not None and not ids:
        return
    scope, params = ("", ()) if ids is None else (" WHERE m.id IN (SELECT value FROM json_each(?))",
                                                  (json.dumps(ids),))
    attachments: dict[int, list[dict[str, Any]]] = {}
    for row in db.execute("SELECT ma.message_id, ma.name, a.hash, a.kind, a.mime, a.size, a.width, a.height, a.text, "
                          "a.note FROM message_attachments ma JOIN attachments a ON a.hash = ma.hash "
                          + scope.replace("m.id", "ma.message_id") + " ORDER BY ma.message_id, ma.position", params):
        attachments.setdefault(row["message_id"], []).append({k: row[k] for k in _ATTACHMENT})
    tool_records = {r["message_id"]: {k: r[k] for k in _TOOL_RECORD}
                    for r in db.execute("SELECT * FROM tool_call_records m" + scope.replace("m.id", "m.message_id"),
                                        params)}
    rows = db.execute(
        "SELECT m.*, s.gid AS session_gid, p.gid AS parent_gid FROM messages m JOIN sessions s ON s.id = m.session_id "
        "LEFT JOIN messages p ON p.id = m.parent_id" + scope + " ORDER BY m.depth, m.id", params).fetchall()
    if ids is None:
        known = _known(db, "message")
    else:
        known = {(r[0], r[1]): (r[2], r[3]) for r in db.execute(
            "SELECT gid, field, value_hash, hlc FROM sync_fields WHERE kind = 'message' AND gid IN "
            "(SELECT value FROM json_each(?))", (json.dumps([row["gid"] for row in rows]),))}
    for row in rows:
        if row["role"] == STREAMING and row["finish_reason"] is None and not row["interrupted"]:
            continue  # still being written: sent once it is finished
        body = {k: row[k] for k in _MESSAGE_BODY}
        if row["model"]:  # only when there is one: the bodies (and hashes) of replies from before v11 stay as sent
            body["model"] = row["model"]
        body["attachments"] = attachments.get(row["id"], [])
        body["tool_record"] = tool_records.get(row["id"])
        now, fields = _changed(db, "message", row["gid"], {"body": body}, known, stamp)
        if fields:
            yield {"k": "message", "g": row["gid"], "h": now, "f": fields,
                   "c": {"session": row["session_gid"], "parent": row["parent_gid"], "depth": row["depth"]}}


def _scan_memories(db: sqlite3.Connection, stamp: Callable[[], str]) -> Iterator[Record]:
    known = _known(db, "memory")
    for row in db.execute("SELECT * FROM memories ORDER BY id").fetchall():
        if (row["gid"], "deleted") in known:
            continue
        now, fields = _changed(db, "memory", row["gid"], memory_fields(row), known, stamp)
        if fields:
            yield {"k": "memory", "g": row["gid"], "h": now, "f": fields, "b": bases(known, row["gid"], fields)}
    yield from _tombstones(db, "memory", "memories", "deleted", known, stamp)


# ---------------------------------------------------------------------------------------------- taking records in
class Deferred(Exception):
    """The record needs something that has not arrived yet (its session or parent message)."""


class Merger:
    """Applies remote records to one database inside the caller's transaction."""

    def __init__(self, db: sqlite3.Connection, *, reindex_memory: Callable[[sqlite3.Connection, int], None]) -> None:
        self.db = db
        self.reindex_memory = reindex_memory
        self.purged_attachments: list[str] = []
        self.changed = 0
        self.branched: set[str] = set()
        """Sessions where a message from another device became a second branch beside one made here (the same
        conversation continued on two devices): the caller tells the user."""
        self.conflicts: list[dict[str, Any]] = []
        """Fields changed on two devices from the same value (the record's base is not what this device has):
        last writer wins, and each one is listed for the user (Settings › Backup & sync)."""
        self._record: Record = {}

    def conflict_check(self, kind: str, gid: str, name: str, stamp: str, value: Any) -> bool:
        """Whether the remote value wins (`_wins`), noting a conflict when both devices changed the field: the
        sender's base (what it changed from) is not what this device holds, and the values differ."""
        wins = self._wins(kind, gid, name, stamp)
        base = (self._record.get("b") or {}).get(name)
        row = self.db.execute("SELECT value_hash FROM sync_fields WHERE kind = ? AND gid = ? AND field = ?",
                              (kind, gid, name)).fetchone()
        if base is not None and row is not None and row[0] != base and row[0] != value_hash(value):
            self.conflicts.append({"kind": kind, "gid": gid, "field": name, "kept": "theirs" if wins else "yours",
                                   "label": self._label(kind, gid), "device": stamp.split("-", 2)[-1],
                                   "at": time.time()})
        return wins

    def _label(self, kind: str, gid: str) -> str:
        """What the user knows the entity by (a session's title, a memory's statement, an assistant's name)."""
        if kind == "session":
            row = self.db.execute("SELECT title FROM sessions WHERE gid = ?", (gid,)).fetchone()
        elif kind == "memory":
            row = self.db.execute("SELECT statement FROM memories WHERE gid = ?", (gid,)).fetchone()
        else:
            row = library_records.label(self.db, kind, gid)
        return str(row[0] if row else "")[:120]

    def _stamp_of(self, kind: str, gid: str, name: str) -> str | None:
        row = self.db.execute("SELECT hlc FROM sync_fields WHERE kind = ? AND gid = ? AND field = ?",
                              (kind, gid, name)).fetchone()
        return row[0] if row else None

    def _wins(self, kind: str, gid: str, name: str, stamp: str) -> bool:
        local = self._stamp_of(kind, gid, name)
        return local is None or stamp > local

    def apply(self, record: Record) -> None:
        if not isinstance(record.get("g"), str) or not re.fullmatch(r"[0-9a-f]{32}", record["g"]) or not isinstance(
                record.get("h"), str):
            raise ValueError("a record without a valid global id or stamp")
        kind = record.get("k")
        self._record = record
        if kind == "session":
            self._session(record)
        elif kind == "message":
            self._message(record)
        elif kind == "memory":
            self._memory(record)
        elif kind in library_records.KINDS:
            library = library_records.LibraryMerger(
                self.db, lambda k, g, name, stamp: self.conflict_check(k, g, name, stamp,
                                                                      record.get("f", {}).get(name)), self._stamp_of,
                lambda k, g, name, value, stamp: _remember(self.db, k, g, name, value_hash(value), stamp))
            library.apply(record)
            self.changed += library.changed

    # ------------------------------------------------------------------ sessions
    def _session(self, record: Record) -> None:
        gid, stamp, fields = str(record["g"]), str(record["h"]), dict(record.get("f", {}))
        if self._stamp_of("session", gid, "purged") is not None:
            return
        row = self.db.execute("SELECT id FROM sessions WHERE gid = ?", (gid,)).fetchone()
        if fields.get("purged"):
            _remember(self.db, "session", gid, "purged", value_hash(True), stamp)
            if row is not None:
                self.db.execute("UPDATE sessions SET head_id = NULL WHERE id = ?", (row[0],))
                self.db.execute("DELETE FROM messages WHERE session_id = ?", (row[0],))
                self.db.execute("DELETE FROM sessions WHERE id = ?", (row[0],))
                dropped = [r[0] for r in self.db.execute(
                    "SELECT hash FROM attachments WHERE hash NOT IN (SELECT hash FROM message_attachments)")]
                self.db.execute("DELETE FROM attachments WHERE hash NOT IN (SELECT hash FROM message_attachments)")
                self.purged_attachments.extend(dropped)
                self.changed += 1
            return
        if row is None:
            constants = record.get("c")
            if not constants:
                raise Deferred(gid)
            wanted = str(constants.get("id") or gid)
            try:
                validate_session_id(wanted)  # ids are typed in `ask --session`: only the safe shapes come in
            except InvalidSessionId:
                wanted = gid
            taken = self.db.execute("SELECT 1 FROM sessions WHERE id = ?", (wanted,)).fetchone()
            local_id = gid if taken else wanted
            created = float(constants.get("created_at") or time.time())
            self.db.execute("INSERT INTO sessions (id, gid, title, created_at, updated_at, source, title_source) "
                            "VALUES (?, ?, '', ?, ?, ?, 'none')",
                            (local_id, gid, created, created, str(constants.get("source") or "sync")))
            self.changed += 1
        else:
            local_id = row[0]
        for name, value in fields.items():
            if name not in ("title", "pinned", "deleted", "model", "assistant", "held_local") or not self.conflict_check(
                    "session", gid, name, stamp, value):
                continue
            if name == "title":
                self.db.execute("UPDATE sessions SET title = ?, title_source = ? WHERE id = ?",
                                (str(value[0]), str(value[1]), local_id))
            elif name == "pinned":
                self.db.execute("UPDATE sessions SET pinned = ? WHERE id = ?", (int(bool(value)), local_id))
            elif name == "deleted":
                self.db.execute("UPDATE sessions SET deleted_at = ? WHERE id = ?", (value, local_id))
            elif name == "assistant":
                self.db.execute("UPDATE sessions SET assistant_id = ? WHERE id = ?", (value or None, local_id))
            elif name == "held_local":
                if isinstance(value, str) and value:
                    self.db.execute("UPDATE sessions SET held_local = COALESCE(held_local, ?) WHERE id = ?",
                                    (value[:200], local_id))
            else:
                self.db.execute("UPDATE sessions SET profile_id = ?, model = ?, params = ?, active_skills = ? "
                                "WHERE id = ?", (value[0], value[1], json.dumps(value[2]), json.dumps(value[3]),
                                                 local_id))
            _remember(self.db, "session", gid, name, value_hash(value), stamp)
            self.changed += 1

    # ------------------------------------------------------------------ messages
    def _message(self, record: Record) -> None:
        gid, stamp = str(record["g"]), str(record["h"])
        body = record.get("f", {}).get("body")
        constants = record.get("c") or {}
        if body is None:
            return
        if not isinstance(body, dict) or not isinstance(constants, dict):
            raise ValueError("a message record of the wrong shape")
        session_gid = constants.get("session")
        if session_gid and self._stamp_of("session", str(session_gid), "purged") is not None:
            return
        existing = self.db.execute("SELECT id, session_id FROM messages WHERE gid = ?", (gid,)).fetchone()
        if existing is not None:
            if self._wins("message", gid, "body", stamp):
                self._write_body(existing[0], existing[1], body, update=True)
                _remember(self.db, "message", gid, "body", value_hash(body), stamp)
                self.changed += 1
            return
        session = self.db.execute("SELECT id, head_id FROM sessions WHERE gid = ?", (session_gid,)).fetchone()
        if session is None:
            raise Deferred(gid)
        parent_id = None
        if constants.get("parent"):
            parent = self.db.execute("SELECT id FROM messages WHERE gid = ?", (constants["parent"],)).fetchone()
            if parent is None:
                raise Deferred(gid)
            parent_id = parent[0]
        sibling = self.db.execute("SELECT 1 FROM messages WHERE session_id = ? AND parent_id IS ? LIMIT 1",
                                  (session[0], parent_id)).fetchone()
        depth = 0 if parent_id is None else self.db.execute(
            "SELECT depth FROM messages WHERE id = ?", (parent_id,)).fetchone()[0] + 1
        created = float(body.get("created_at") or time.time())
        cursor = self.db.execute(
            "INSERT INTO messages (session_id, gid, parent_id, depth, role, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", (session[0], gid, parent_id, depth, str(body.get("role")), created, created))
        message_id = int(cursor.lastrowid or 0)
        self._write_body(message_id, session[0], body, update=False)
        if session[1] == parent_id:  # it continues the conversation where this device stands: follow it
            self.db.execute("UPDATE sessions SET head_id = ? WHERE id = ?", (message_id, session[0]))
        elif sibling is not None:
            self.branched.add(session[0])
        self.db.execute("UPDATE sessions SET updated_at = MAX(updated_at, ?) WHERE id = ?", (created, session[0]))
        _remember(self.db, "message", gid, "body", value_hash(body), stamp)
        self.changed += 1

    def _write_body(self, message_id: int, session_id: str, body: dict[str, Any], *, update: bool) -> None:
        self.db.execute(
            "UPDATE messages SET role = ?, content = ?, tool_calls = ?, tool_call_id = ?, name = ?, finish_reason = ?, "
            "interrupted = ?, tokens = ?, reasoning = ?, reasoning_ms = ?, reasoning_tokens = ?, model = ?, "
            "updated_at = ?, stream_owner = NULL WHERE id = ?",
            (body.get("role"), body.get("content"), body.get("tool_calls"), body.get("tool_call_id"), body.get("name"),
             body.get("finish_reason"), int(body.get("interrupted") or 0), body.get("tokens"), body.get("reasoning"),
             body.get("reasoning_ms"), body.get("reasoning_tokens"),
             clean_model_name(body.get("model")) if body.get("role") == "assistant" else None, time.time(),
             message_id))
        if update:
            self.db.execute("DELETE FROM message_attachments WHERE message_id = ?", (message_id,))
            self.db.execute("DELETE FROM tool_call_records WHERE message_id = ?", (message_id,))
        for position, item in enumerate(body.get("attachments") or []):
            self.db.execute(
                "INSERT INTO attachments (hash, kind, mime, size, width, height, text, note, created_at) "
                "VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(hash) DO NOTHING",
                (item["hash"], item["kind"], item["mime"], item["size"], item.get("width"), item.get("height"),
                 item.get("text"), item.get("note") or "", time.time()))
            self.db.execute("INSERT INTO message_attachments (message_id, position, hash, name) VALUES (?,?,?,?)",
                            (message_id, position, item["hash"], item["name"]))
        record = body.get("tool_record")
        if record:
            self.db.execute(
                "INSERT OR REPLACE INTO tool_call_records (message_id, session_id, call_id, impact_code, "
                "impact_params, impact, decision, decided_by, outcome, duration_s, created_at) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (message_id, session_id, *(record.get(k) for k in _TOOL_RECORD)))

    # ------------------------------------------------------------------ memories
    def _memory(self, record: Record) -> None:
        gid, stamp, fields = str(record["g"]), str(record["h"]), dict(record.get("f", {}))
        if self._stamp_of("memory", gid, "deleted") is not None:
            return
        row = self.db.execute("SELECT id, state FROM memories WHERE gid = ?", (gid,)).fetchone()
        if fields.get("deleted"):
            _remember(self.db, "memory", gid, "deleted", value_hash(True), stamp)
            if row is not None:
                self.db.execute("DELETE FROM memories WHERE id = ?", (row[0],))
                self.reindex_memory(self.db, row[0])
                self.changed += 1
            return
        if row is None:
            body, state = fields.get("body"), fields.get("state")
            if body is None or state is None:
                raise Deferred(gid)
            now = time.time()
            cursor = self.db.execute(
                "INSERT INTO memories (gid, profile_id, layer, statement, quote, created_at, updated_at, state) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (gid, body["profile_id"], body["layer"], body["statement"], body["quote"], body["created_at"], now,
                 state[0]))
            memory_id, current_state = int(cursor.lastrowid or 0), state[0]
            self.changed += 1
        else:
            memory_id, current_state = row[0], row[1]
        if "body" in fields and self.conflict_check("memory", gid, "body", stamp, fields["body"]):
            body = fields["body"]
            self.db.execute(
                "UPDATE memories SET profile_id = ?, layer = ?, statement = ?, quote = ?, created_at = ?, "
                "expires_at = ?, pinned = ?, subject = ?, entities = ?, kind = ?, origin = ?, updated_at = ? "
                "WHERE id = ?",
                (*(body[k] for k in ("profile_id", "layer", "statement", "quote", "created_at", "expires_at",
                                     "pinned", "subject", "entities", "kind", "origin")), time.time(), memory_id))
            _remember(self.db, "memory", gid, "body", value_hash(body), stamp)
            self.reindex_memory(self.db, memory_id)
            self.changed += 1
        if "state" in fields:
            state = fields["state"]
            forget_wins = state[0] == "forgotten" and current_state != "forgotten"
            kept_forgotten = current_state == "forgotten" and state[0] != "forgotten"
            if forget_wins or (not kept_forgotten and self._wins("memory", gid, "state", stamp)):
                self.db.execute("UPDATE memories SET state = ?, prior_state = ?, state_changed_at = ? WHERE id = ?",
                                (state[0], state[1], state[2], memory_id))
                _remember(self.db, "memory", gid, "state", value_hash(state), stamp)
                self.changed += 1

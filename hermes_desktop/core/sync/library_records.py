"""Assistants and the prompt library in two-way sync (issue 26), beside sessions, messages and memories.

Same record shape and rules as core/sync/records.py (last writer wins per field by hybrid-clock stamp; a tombstone
wins over everything). What is particular here:
- **Identity.** Migration 9's tables have no global id column, so one is derived: an assistant's id is already
  random ("a-" + 64 random bits), so its global id is a hash of it; a prompt's id is a local number, so a prompt is
  identified by its name (case-folded, unique among live prompts). The same prompt name on two devices is the same
  prompt, and the later edit wins; renaming a prompt is, to sync, a new prompt (the old name's row stays deleted).
- **Fields.** `body` (an assistant's name, data, origin and source; a prompt's name, body and description) and
  `deleted` (the soft delete, so Undo on one device brings it back everywhere). A row purged for good here becomes
  a `purged` tombstone.
- **Name clashes.** Assistant names are unique among live rows: an assistant arriving with a name another live
  assistant here already has is stored as "Name (2)" (then "(3)"…), never dropped and never overwriting.
- A session's assistant (`sessions.assistant_id`) is a session field in records.py.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from typing import Any, Callable, Iterator

Record = dict[str, Any]
KINDS = ("assistant", "prompt")


def assistant_gid(assistant_id: str) -> str:
    return hashlib.sha256(f"assistant:{assistant_id}".encode()).hexdigest()[:32]


def prompt_gid(name: str) -> str:
    return hashlib.sha256(f"prompt:{name.strip().casefold()}".encode()).hexdigest()[:32]


def label(db: sqlite3.Connection, kind: str, gid: str) -> tuple[str] | None:
    """An assistant's or prompt's name for the conflicts list (by its derived global id)."""
    if not _has_tables(db):
        return None
    table, ident = ("assistants", assistant_gid) if kind == "assistant" else ("prompts", prompt_gid)
    for key, name in db.execute(f"SELECT {'id' if kind == 'assistant' else 'name'}, name FROM {table}"):
        if ident(str(key)) == gid:
            return (str(name),)
    return None


def _has_tables(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'assistants'").fetchone() is not None


Known = dict[tuple[str, str], tuple[str, str]]


def _tombstones(db: sqlite3.Connection, kind: str, present: set[str], known: Known, stamp: Callable[[], str],
                remember: Callable[..., None]) -> Iterator[Record]:
    """A `purged` record for each entity synced before and no longer here (purged after its Undo time)."""
    for gid in sorted({g for g, f in known if f != "purged" and (g, "purged") not in known} - present):
        now = stamp()
        remember(db, kind, gid, "purged", True, now)
        yield {"k": kind, "g": gid, "h": now, "f": {"purged": True}}


def scan(db: sqlite3.Connection, stamp: Callable[[], str], changed: Callable[..., tuple[str, dict[str, Any]]],
         known: Callable[[sqlite3.Connection, str], Known], remember: Callable[..., None],
         bases: Callable[[Known, str, dict[str, Any]], dict[str, str]]) -> Iterator[Record]:
    """Records of the assistants and prompts that changed here (records.py's helpers passed in, so the rules
    for hashing and remembering are the same ones)."""
    if not _has_tables(db):
        return
    assistants_known = known(db, "assistant")
    present: set[str] = set()
    for row in db.execute("SELECT id, name, data, origin, source, created_at, deleted_at FROM assistants "
                          "ORDER BY created_at, id").fetchall():
        gid = assistant_gid(row[0])
        present.add(gid)
        if (gid, "purged") in assistants_known:
            continue
        fields = {"body": {"name": row[1], "data": row[2], "origin": row[3], "source": row[4]}, "deleted": row[6]}
        now, values = changed(db, "assistant", gid, fields, assistants_known, stamp)
        if values:
            yield {"k": "assistant", "g": gid, "h": now, "f": values, "b": bases(assistants_known, gid, values),
                   "c": {"id": row[0], "created_at": row[5]}}
    yield from _tombstones(db, "assistant", present, assistants_known, stamp, remember)

    prompts_known = known(db, "prompt")
    chosen: dict[str, sqlite3.Row | tuple[Any, ...]] = {}
    # One row per name: the live one, else the newest deleted one (a deleted and a re-made prompt share a name).
    for row in db.execute("SELECT name, body, description, created_at, deleted_at, id FROM prompts "
                          "ORDER BY (deleted_at IS NULL), updated_at, id").fetchall():
        chosen[prompt_gid(row[0])] = row
    for gid, row in chosen.items():
        if (gid, "purged") in prompts_known:
            continue
        fields = {"body": {"name": row[0], "body": row[1], "description": row[2]}, "deleted": row[4]}
        now, values = changed(db, "prompt", gid, fields, prompts_known, stamp)
        if values:
            yield {"k": "prompt", "g": gid, "h": now, "f": values, "b": bases(prompts_known, gid, values),
                   "c": {"created_at": row[3]}}
    yield from _tombstones(db, "prompt", set(chosen), prompts_known, stamp, remember)


class LibraryMerger:
    """Applies assistant and prompt records inside the caller's transaction (records.Merger hands them over)."""

    def __init__(self, db: sqlite3.Connection, wins: Callable[[str, str, str, str], bool],
                 stamp_of: Callable[[str, str, str], str | None], remember: Callable[[str, str, str, Any, str], None]):
        self.db, self._wins, self._stamp_of, self._remember = db, wins, stamp_of, remember
        self.changed = 0

    def apply(self, record: Record) -> None:
        if not _has_tables(self.db):
            return
        if record["k"] == "assistant":
            self._assistant(record)
        else:
            self._prompt(record)

    def _assistant(self, record: Record) -> None:
        gid, stamp, fields = str(record["g"]), str(record["h"]), dict(record.get("f", {}))
        if self._stamp_of("assistant", gid, "purged") is not None:
            return
        constants = record.get("c") or {}
        row = self._assistant_row(gid, constants)
        if fields.get("purged"):
            self._remember("assistant", gid, "purged", True, stamp)
            if row is not None:
                self.db.execute("DELETE FROM assistants WHERE id = ?", (row,))
                self.changed += 1
            return
        body = fields.get("body")
        if row is None:
            if not isinstance(body, dict) or not constants.get("id"):
                return  # only a `deleted` change for an assistant never seen here: nothing to delete
            now = time.time()
            row = str(constants["id"])
            created = float(constants.get("created_at") or now)
            name, data = self._named(body, row, created)
            self.db.execute("INSERT INTO assistants (id, name, data, origin, source, created_at, updated_at, "
                            "deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            (row, name, data, str(body.get("origin") or "user"), str(body.get("source") or ""),
                             created, now, fields.get("deleted")))
            for name in ("body", "deleted"):
                if name in fields:
                    self._remember("assistant", gid, name, fields[name], stamp)
            self.changed += 1
            return
        if isinstance(body, dict) and self._wins("assistant", gid, "body", stamp):
            name, data = self._named(body, row, self._created(row))
            self.db.execute("UPDATE assistants SET name = ?, data = ?, origin = ?, source = ?, updated_at = ? "
                            "WHERE id = ?", (name, data, str(body.get("origin") or "user"),
                                             str(body.get("source") or ""), time.time(), row))
            self._remember("assistant", gid, "body", body, stamp)
            self.changed += 1
        if "deleted" in fields and self._wins("assistant", gid, "deleted", stamp):
            deleted = fields["deleted"]
            if deleted is None:  # an Undo elsewhere: its name must still be free here
                name, data = self.db.execute("SELECT name, data FROM assistants WHERE id = ?", (row,)).fetchone()
                name, data = self._named({"name": name, "data": data}, row, self._created(row))
                self.db.execute("UPDATE assistants SET name = ?, data = ? WHERE id = ?", (name, data, row))
            self.db.execute("UPDATE assistants SET deleted_at = ? WHERE id = ?", (deleted, row))
            self._remember("assistant", gid, "deleted", deleted, stamp)
            self.changed += 1

    def _created(self, assistant_id: str) -> float:
        return float(self.db.execute("SELECT created_at FROM assistants WHERE id = ?", (assistant_id,)).fetchone()[0])

    def _assistant_row(self, gid: str, constants: dict[str, Any]) -> str | None:
        wanted = constants.get("id")
        if wanted and assistant_gid(str(wanted)) == gid:
            found = self.db.execute("SELECT id FROM assistants WHERE id = ?", (str(wanted),)).fetchone()
            return found[0] if found else None
        for (ident,) in self.db.execute("SELECT id FROM assistants"):  # a record without constants (a tombstone)
            if assistant_gid(ident) == gid:
                return str(ident)
        return None

    def _named(self, body: dict[str, Any], own_id: str, created_at: float) -> tuple[str, str]:
        """The name to store and the data with it. When another live assistant here has the name, the older of
        the two (by creation time, then id: the same choice on every device, so they converge) keeps it and the
        newer one becomes "Name (2)"… (in the data too: its `name` is what the app shows)."""
        wanted = str(body.get("name") or "Assistant")
        name = wanted
        for other_id, other_created in self.db.execute(
                "SELECT id, created_at FROM assistants WHERE deleted_at IS NULL AND id != ? AND name = ? "
                "COLLATE NOCASE", (own_id, wanted)).fetchall():
            if (float(other_created), str(other_id)) > (created_at, own_id):  # the one here is newer: it yields
                self._rename(str(other_id), self._free_name(wanted, str(other_id), also_taken=wanted))
            else:
                name = self._free_name(wanted, own_id)
        return name, self._with_name(str(body.get("data") or "{}"), name, wanted)

    def _rename(self, assistant_id: str, name: str) -> None:
        data = self.db.execute("SELECT data FROM assistants WHERE id = ?", (assistant_id,)).fetchone()[0]
        self.db.execute("UPDATE assistants SET name = ?, data = ?, updated_at = ? WHERE id = ?",
                        (name, self._with_name(data, name, ""), time.time(), assistant_id))
        self.changed += 1

    @staticmethod
    def _with_name(data: str, name: str, was: str) -> str:
        if name == was:
            return data
        try:
            parsed = json.loads(data)
        except ValueError:
            return data
        if isinstance(parsed, dict):
            parsed["name"] = name
            return json.dumps(parsed, ensure_ascii=False)
        return data

    def _free_name(self, name: str, own_id: str, *, also_taken: str = "") -> str:
        """`name`, or "name (2)"… when another live assistant here has it (names are unique among live ones)."""
        candidate, n = name, 1
        while candidate.casefold() == also_taken.casefold() or self.db.execute(
                "SELECT 1 FROM assistants WHERE deleted_at IS NULL AND id != ? AND name = ? COLLATE NOCASE",
                (own_id, candidate)).fetchone():
            n += 1
            candidate = f"{name} ({n})"
        return candidate

    def _prompt(self, record: Record) -> None:
        gid, stamp, fields = str(record["g"]), str(record["h"]), dict(record.get("f", {}))
        if self._stamp_of("prompt", gid, "purged") is not None:
            return
        rows = [r for r in self.db.execute("SELECT id, name, deleted_at FROM prompts ORDER BY (deleted_at IS NULL), "
                                           "updated_at, id") if prompt_gid(r[1]) == gid]
        row = rows[-1][0] if rows else None
        if fields.get("purged"):
            self._remember("prompt", gid, "purged", True, stamp)
            for found in rows:
                self.db.execute("DELETE FROM prompts WHERE id = ?", (found[0],))
                self.changed += 1
            return
        body = fields.get("body")
        now = time.time()
        if row is None:
            if not isinstance(body, dict) or prompt_gid(str(body.get("name") or "")) != gid:
                return
            self.db.execute("INSERT INTO prompts (name, body, description, created_at, updated_at, deleted_at) "
                            "VALUES (?, ?, ?, ?, ?, ?)",
                            (str(body["name"]), str(body.get("body") or ""), str(body.get("description") or ""),
                             float((record.get("c") or {}).get("created_at") or now), now, fields.get("deleted")))
            for name in ("body", "deleted"):
                if name in fields:
                    self._remember("prompt", gid, name, fields[name], stamp)
            self.changed += 1
            return
        if isinstance(body, dict) and prompt_gid(str(body.get("name") or "")) == gid and self._wins(
                "prompt", gid, "body", stamp):
            self.db.execute("UPDATE prompts SET name = ?, body = ?, description = ?, updated_at = ? WHERE id = ?",
                            (str(body["name"]), str(body.get("body") or ""), str(body.get("description") or ""),
                             now, row))
            self._remember("prompt", gid, "body", body, stamp)
            self.changed += 1
        if "deleted" in fields and self._wins("prompt", gid, "deleted", stamp):
            self.db.execute("UPDATE prompts SET deleted_at = ? WHERE id = ?", (fields["deleted"], row))
            self._remember("prompt", gid, "deleted", fields["deleted"], stamp)
            self.changed += 1

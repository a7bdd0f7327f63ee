"""AssistantStore: the user's assistants, the prompt library and each session's assistant, in hermes.db.

Tables from migration 9 (core/storage/migrations.py): `assistants` (fields as JSON in `data`, model.py's format),
`prompts`, and `sessions.assistant_id`. It shares the session store's connection and lock (as MemoryStore does),
so it is thread-safe; every method blocks (SQLite): call it from a worker thread, never on the event loop.
Writes fail as the session store's do (StorageError / StorageUnavailable, ReadOnlyStoreError).

Gallery assistants (gallery.py) are not rows: `get` looks in the gallery, then here. A row that no longer reads
(hand-edited JSON) is skipped by `list` and logged, never a reason for the tab or a turn to fail; a session whose
assistant is gone (deleted, unreadable) gets Hermes, the default.

Delete is soft (`deleted_at`) so the tab's Undo brings it back; `purge_deleted` removes rows deleted earlier.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import uuid
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

from hermes_desktop.core.assistants import gallery
from hermes_desktop.core.assistants.model import DEFAULT_ID, HERMES, Assistant, AssistantFormatError, from_json
from hermes_desktop.core.assistants.prompt_library import SavedPrompt

log = logging.getLogger(__name__)


class AssistantNotFound(LookupError):
    """No assistant (or prompt) by that name or id."""


class NameTaken(ValueError):
    """Another assistant (or prompt) already has this name."""


@dataclass(frozen=True, slots=True)
class SessionAssistant:
    """A session's assistant, and whether the one it named is gone (then `assistant` is Hermes)."""

    assistant: Assistant
    missing_id: str | None = None


class AssistantStore:
    def __init__(self, sessions: Any, *, clock: Callable[[], float] = time.time) -> None:
        self.sessions = sessions
        self.clock = clock

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        return self.sessions._read(sql, params)

    def _write(self, work: Callable[[sqlite3.Connection], Any], what: str = "the assistant was not saved") -> Any:
        return self.sessions._write(work, what)

    # ------------------------------------------------------------------ assistants
    def mine(self) -> list[Assistant]:
        """The user's and imported assistants, by name."""
        rows = self._read("SELECT id, data, origin FROM assistants WHERE deleted_at IS NULL ORDER BY name COLLATE NOCASE")
        return [a for a in (self._assistant(row) for row in rows) if a is not None]

    def all(self) -> list[Assistant]:
        """Hermes, the gallery, then the user's own."""
        return [HERMES, *gallery.assistants(), *self.mine()]

    def _assistant(self, row: sqlite3.Row) -> Assistant | None:
        try:
            found = from_json(json.loads(row["data"]), f"assistant {row['id']}", origin=row["origin"])
        except (ValueError, AssistantFormatError) as exc:
            log.warning("a stored assistant does not read and is left out: %s", exc)
            return None
        return replace(found, id=row["id"])

    def get(self, key: str) -> Assistant:
        """By id, else by name (any case; a gallery assistant also by its Chinese name)."""
        key = key.strip()
        if key in ("", DEFAULT_ID) or key.casefold() == HERMES.name.casefold():
            return HERMES
        built = gallery.find(key)
        if built is not None:
            return built
        rows = self._read("SELECT id, data, origin FROM assistants WHERE deleted_at IS NULL AND (id = ? OR "
                          "name = ? COLLATE NOCASE)", (key, key))
        for row in rows:
            found = self._assistant(row)
            if found is not None:
                return found
        raise AssistantNotFound(f"No assistant named {key!r}. See `hermes-desktop assistants list`.")

    def name_taken(self, name: str, *, except_id: str = "") -> bool:
        folded = name.strip().casefold()
        if folded == HERMES.name.casefold() or any(folded in (a.name.casefold(), a.shown_name("zh_CN").casefold())
                                                   and a.id != except_id for a in gallery.assistants()):
            return True
        rows = self._read("SELECT id FROM assistants WHERE deleted_at IS NULL AND name = ? COLLATE NOCASE", (name.strip(),))
        return any(row["id"] != except_id for row in rows)

    def free_name(self, name: str) -> str:
        """`name`, or `name (2)`, `name (3)`… when it is taken."""
        if not self.name_taken(name):
            return name
        number = 2
        while self.name_taken(f"{name} ({number})"):
            number += 1
        return f"{name} ({number})"

    def save(self, assistant: Assistant, *, origin: str | None = None, source: str = "") -> Assistant:
        """Add or update one (a gallery assistant is saved as a new copy). Returns it as stored."""
        if assistant.builtin or not assistant.id or gallery.find(assistant.id) is not None or assistant.id == DEFAULT_ID:
            assistant = assistant.with_id(new_id(), origin=origin or "user")
        elif origin:
            assistant = replace(assistant, origin=origin)
        if self.name_taken(assistant.name, except_id=assistant.id):
            raise NameTaken(f"An assistant named {assistant.name!r} already exists.")
        self.save_many([assistant], source=source)
        return assistant

    def save_many(self, assistants: Iterable[Assistant], *, source: str = "") -> int:
        """Write several in one transaction (an import of hundreds). Names must already be free."""
        now = self.clock()
        rows = [(a.id, a.name, json.dumps(a.to_json(), ensure_ascii=False), a.origin, source, now, now)
                for a in assistants]

        def work(db: sqlite3.Connection) -> None:
            db.executemany(
                "INSERT INTO assistants (id, name, data, origin, source, created_at, updated_at) VALUES (?,?,?,?,?,?,?) "
                "ON CONFLICT(id) DO UPDATE SET name = excluded.name, data = excluded.data, "
                "updated_at = excluded.updated_at, deleted_at = NULL", rows)

        self._write(work)
        return len(rows)

    def delete(self, assistant_id: str) -> None:
        """Soft delete (Undo: `restore`). Sessions that use it get Hermes from their next message."""
        def work(db: sqlite3.Connection) -> int:
            return db.execute("UPDATE assistants SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
                              (self.clock(), assistant_id)).rowcount

        if not self._write(work, "the assistant was not deleted"):
            raise AssistantNotFound(f"No assistant {assistant_id!r} to delete (a gallery assistant cannot be deleted).")

    def restore(self, assistant_id: str) -> None:
        row = self._read("SELECT name FROM assistants WHERE id = ?", (assistant_id,))
        if not row:
            raise AssistantNotFound(f"No assistant {assistant_id!r} to restore.")
        if self.name_taken(row[0]["name"], except_id=assistant_id):
            raise NameTaken(f"An assistant named {row[0]['name']!r} exists again; rename it first.")
        self._write(lambda db: db.execute("UPDATE assistants SET deleted_at = NULL WHERE id = ?", (assistant_id,)),
                    "the assistant was not restored")

    def purge_deleted(self, before: float) -> int:
        return self._write(lambda db: db.execute("DELETE FROM assistants WHERE deleted_at IS NOT NULL AND "
                                                 "deleted_at < ?", (before,)).rowcount)

    # ------------------------------------------------------------------ sessions
    def session_assistant(self, session_id: str) -> SessionAssistant:
        rows = self._read("SELECT assistant_id FROM sessions WHERE id = ?", (session_id,))
        chosen = rows[0]["assistant_id"] if rows else None
        if not chosen or chosen == DEFAULT_ID:
            return SessionAssistant(HERMES)
        try:
            return SessionAssistant(self.get(chosen))
        except AssistantNotFound:
            return SessionAssistant(HERMES, missing_id=chosen)

    def set_session_assistant(self, session_id: str, assistant_id: str | None) -> None:
        """Give a session its assistant (None or "hermes": the default), creating the session if it is new.
        It applies from the session's next message."""
        if self.sessions.get_session(session_id) is None:
            from hermes_desktop.core.storage.errors import SessionExists

            try:
                self.sessions.create_session(session_id)
            except SessionExists:
                pass
        value = None if assistant_id in (None, "", DEFAULT_ID) else assistant_id
        self._write(lambda db: db.execute("UPDATE sessions SET assistant_id = ? WHERE id = ?", (value, session_id)),
                    "the session's assistant was not saved")

    # ------------------------------------------------------------------ prompts
    def prompts(self) -> list[SavedPrompt]:
        rows = self._read("SELECT id, name, body, description FROM prompts WHERE deleted_at IS NULL "
                          "ORDER BY name COLLATE NOCASE")
        return [*gallery.prompts(), *(SavedPrompt(r["name"], r["body"], r["description"], str(r["id"])) for r in rows)]

    def prompt(self, key: str) -> SavedPrompt:
        folded = key.strip().casefold()
        for prompt in self.prompts():
            if folded in (prompt.name.casefold(), prompt.id.casefold()):
                return prompt
        raise AssistantNotFound(f"No saved prompt named {key!r}. See `hermes-desktop prompts list`.")

    def save_prompt(self, name: str, body: str, description: str = "", *, prompt_id: str = "") -> SavedPrompt:
        name, body = name.strip(), body.strip()
        if not name or not body:
            raise ValueError("A prompt needs a name and a text.")
        if any(p.name.casefold() == name.casefold() and p.id != prompt_id for p in self.prompts()):
            raise NameTaken(f"A prompt named {name!r} already exists.")
        now = self.clock()

        def work(db: sqlite3.Connection) -> int:
            if prompt_id.isdigit():
                db.execute("UPDATE prompts SET name = ?, body = ?, description = ?, updated_at = ? WHERE id = ?",
                           (name, body, description, now, int(prompt_id)))
                return int(prompt_id)
            return int(db.execute("INSERT INTO prompts (name, body, description, created_at, updated_at) "
                                  "VALUES (?,?,?,?,?)", (name, body, description, now, now)).lastrowid)

        return SavedPrompt(name, body, description, str(self._write(work, "the prompt was not saved")))

    def delete_prompt(self, prompt_id: str) -> None:
        if not prompt_id.isdigit():
            raise AssistantNotFound("A built-in prompt cannot be deleted.")
        self._write(lambda db: db.execute("UPDATE prompts SET deleted_at = ? WHERE id = ?",
                                          (self.clock(), int(prompt_id))), "the prompt was not deleted")


def new_id() -> str:
    return "a-" + uuid.uuid4().hex[:16]

"""MemoryStore: the memories in hermes.db (table `memories`, migration v6) and their search index.

This is the one API the Memory tab, the CLI (`hermes-desktop memory …`), the memory tools and the after-turn
extraction use. Every method is synchronous and blocking (SQLite): call it from a worker thread
(`core.executors.run_store`, or `asyncio.to_thread` in the UI), never on the event loop. It shares the session
store's connection and lock (one connection per process), so it is thread-safe, and its writes fail the same way
(StorageError / StorageUnavailable, ReadOnlyStoreError for a read-only history).

Profiles: a memory records the provider profile it was made with (`profile_id`: where the user said it), but it is
the user's, not that provider's: the recall and dedup methods take the profile a request goes to and see every
memory made with any saved profile (or by hand), so what was said to a local model is recalled when DeepSeek
answers (`seen_by`). The exception is the ephemeral profile of HERMES_BASE_URL (settings.ENV_PROFILE_ID: a server
other than the saved profile's, its key only from the environment): it sees only memories made with it, and they
are seen by no saved profile, so a server pointed at once neither receives the user's memories nor plants any.
Which saved providers receive memories at all is the user's choice (Settings.memory_excluded_profiles, applied by
MemoryService). `list()`/`count()` with `profile_id=None` show all (the Memory tab and the CLI show everything the
app keeps; `memory export` too).

States: nothing is deleted behind the user's back. `forget()` marks memories FORGOTTEN (kept, `undo_forget()`
restores them); a newer memory with the same `subject` marks the older SUPERSEDED (`history()` shows the chain);
an active memory past `expires_at` reads as EXPIRED (unless pinned). Only `delete()` and `wipe()` remove rows.

Secrets: a statement or quote is stored with the key formats of the major providers and hosts (core/redact.py
redact_stored: sk-…, sk-ant-…, hf_…, glpat-…, ghp_/gho_/github_pat_…, xox…-, AKIA… and AWS secret keys, AIza…,
JWTs, Bearer …), the password of a URL, and every secret the app holds (`secrets`: the keyring's values under every
configured name, core/held_secrets.py, whatever they look like) replaced by "[redacted]", in `add` and `edit`,
whoever calls them ("my key is sk-…" said in a chat, `memory add`, the tab's Add… and Edit…). The memory table, its
index and `memory export` never hold one.

Wipes: `wipe()` counts up a generation kept in the database (WIPES_KEY), in the same transaction; `add(...,
wipe_generation=n)` refuses (Wiped) when it moved, so an extraction begun before a Wipe by any process stores
nothing after it.

Search index: `memories_fts` (FTS5, CJK characters as single tokens like the session index,
core/storage/search.py) holds each memory's statement, quote and entity keys under the memory's id. It is
written in the same transaction as the memory (no triggers: a connection without Hermes' SQL functions can
still write). Without FTS5, search and recall fall back to LIKE.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from typing import Any, Callable, Collection, Iterable

from hermes_desktop.core.memory.model import Kind, Layer, Memory, MemoryState, Origin, layer_for
from hermes_desktop.core.memory.text import (
    claim_key, content_words, entity_keys, or_expression, overlaps, recall_terms, same_claim, subject_key,
)
from hermes_desktop.core.logging_setup import REDACTION
from hermes_desktop.core.redact import redact_stored
from hermes_desktop.core.settings import ENV_PROFILE_ID
from hermes_desktop.core.storage import search as fts

log = logging.getLogger(__name__)


def seen_by(profile_id: str, column: str = "profile_id", private: Collection[str] = ()) -> tuple[str, str]:
    """The SQL condition (one parameter) for the memories a request to `profile_id` may see (module docstring).
    `private`: the local-only providers (core/local_only.py), whose memories only they see."""
    if profile_id == ENV_PROFILE_ID:
        return f"{column} = ?", ENV_PROFILE_ID
    hidden = [ENV_PROFILE_ID, *([] if profile_id in private else sorted(private))]
    if len(hidden) == 1:
        return f"{column} != ?", ENV_PROFILE_ID
    return f"{column} NOT IN (SELECT value FROM json_each(?))", json.dumps(hidden)


def visible_to(memory: Memory, profile_id: str, private: Collection[str] = ()) -> bool:
    """`seen_by` for one memory in hand."""
    if memory.profile_id in private and profile_id not in private:
        return False
    return (memory.profile_id == ENV_PROFILE_ID) == (profile_id == ENV_PROFILE_ID)

_COLUMNS = ("id, profile_id, layer, statement, quote, source_session_id, source_message_id, created_at, updated_at, "
            "expires_at, state, superseded_by, pinned, subject, entities, kind, origin, embedding_model")
ALL_STATES = tuple(MemoryState)
PREFILTER = 200  # recall ranks this many best FTS matches before filtering them (see `candidates`)
# The wipe generation lives in the memory_incognito table under a key no session id can have (session ids start
# with a letter or digit, core/session_types.py), its count in `set_at`: every process sees a Wipe at its next
# save without a schema change. (A table of its own would be cleaner; that needs a migration.)
WIPES_KEY = "#memory-wipes"
WIPED_AT_KEY = "#memory-wiped-at"  # when the latest Wipe ran (Unix seconds, real time: messages' times are)


class Wiped(Exception):
    """`add(..., wipe_generation=n)`: the memories were wiped (by this or another process) since generation n was
    read, so what was extracted before the wipe is not stored."""


class MemoryNotFound(LookupError):
    """No memory with that id (deleted, or never made)."""


def _memory(row: sqlite3.Row, now: float) -> Memory:
    state = MemoryState(row["state"])
    expires = row["expires_at"]
    if state is MemoryState.ACTIVE and expires is not None and expires <= now and not row["pinned"]:
        state = MemoryState.EXPIRED
    return Memory(
        id=row["id"], profile_id=row["profile_id"], layer=Layer(row["layer"]), statement=row["statement"],
        quote=row["quote"], session_id=row["source_session_id"], message_id=row["source_message_id"],
        created_at=row["created_at"], updated_at=row["updated_at"], expires_at=expires, state=state,
        superseded_by=row["superseded_by"], pinned=bool(row["pinned"]), subject=row["subject"],
        entities=tuple(e for e in (row["entities"] or "").split("\n") if e), kind=row["kind"], origin=row["origin"],
        embedding_model=row["embedding_model"],
    )


def _index_body(statement: str, quote: str, entities: Iterable[str]) -> str:
    return fts.segment("\n".join([statement, quote, *entities]))


class MemoryStore:
    """Memories over a SQLiteSessionStore's connection (see the module docstring). `clock` gives Unix seconds
    (injectable: tests move time forward instead of sleeping)."""

    def __init__(self, store: Any, *, clock: Callable[[], float] = time.time,
                 secrets: Callable[[], Iterable[str]] | None = None,
                 private: Callable[[], Collection[str]] | None = None) -> None:
        """`secrets`: every secret value the app holds (core/held_secrets.HeldSecrets: its keyring's values),
        redacted from what is stored; default the values this process knows (logging_setup.REDACTION)."""
        self.sessions = store
        self.clock = clock
        self.secrets: Callable[[], Iterable[str]] = secrets or (lambda: tuple(REDACTION.known_secrets))
        # The local-only providers now (core/local_only.py): their memories are recalled only for them.
        self.private: Callable[[], Collection[str]] = private or (lambda: ())
        self.search_available = False
        try:
            self.search_available = self._ensure_index()
        except Exception as exc:  # a read-only history: LIKE search; never a reason not to start
            log.info("memory search index unavailable: %s", exc)

    # ------------------------------------------------------------------ plumbing
    def _seen_by(self, profile_id: str, column: str = "profile_id") -> tuple[str, str]:
        return seen_by(profile_id, column, frozenset(self.private()))

    def visible(self, memory: Memory, profile_id: str) -> bool:
        """Whether a request to `profile_id` may see `memory` (`seen_by` for one memory in hand)."""
        return visible_to(memory, profile_id, frozenset(self.private()))

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        return self.sessions._read(sql, params)

    def _write(self, work: Callable[[sqlite3.Connection], Any], what: str = "the memory change was not saved") -> Any:
        return self.sessions._write(work, what)

    def _ensure_index(self) -> bool:
        db: sqlite3.Connection = self.sessions._db
        with self.sessions._lock:
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'memories_fts'").fetchone() is not None:
                return True
            if getattr(self.sessions, "read_only", False) or not fts.fts5_available(db):
                return False

        def work(db: sqlite3.Connection) -> None:
            db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(body, "
                       "tokenize = 'unicode61 remove_diacritics 2')")
            for row in db.execute("SELECT id, statement, quote, entities FROM memories").fetchall():
                db.execute("INSERT INTO memories_fts (rowid, body) VALUES (?, ?)",
                           (row["id"], _index_body(row["statement"], row["quote"], row["entities"].split("\n"))))

        self._write(work, "the memory search index was not made")
        return True

    def _reindex(self, db: sqlite3.Connection, memory_id: int) -> None:
        if not self.search_available:
            return
        row = db.execute("SELECT statement, quote, entities FROM memories WHERE id = ?", (memory_id,)).fetchone()
        db.execute("DELETE FROM memories_fts WHERE rowid = ?", (memory_id,))
        if row is not None:
            db.execute("INSERT INTO memories_fts (rowid, body) VALUES (?, ?)",
                       (memory_id, _index_body(row["statement"], row["quote"], row["entities"].split("\n"))))

    def _unindex(self, db: sqlite3.Connection, ids: Collection[int]) -> None:
        if self.search_available:
            for memory_id in ids:
                db.execute("DELETE FROM memories_fts WHERE rowid = ?", (memory_id,))

    # ------------------------------------------------------------------ reading
    def get(self, memory_id: int) -> Memory | None:
        rows = self._read(f"SELECT {_COLUMNS} FROM memories WHERE id = ?", (memory_id,))
        return _memory(rows[0], self.clock()) if rows else None

    def _filters(self, profile_id: str | None, layer: Layer | None, states: Collection[MemoryState] | None,
                 now: float, viewer: str | None = None) -> tuple[list[str], list[Any]]:
        where: list[str] = []
        params: list[Any] = []
        if profile_id is not None:
            where.append("m.profile_id = ?")
            params.append(profile_id)
        if viewer is not None:
            condition, param = self._seen_by(viewer, "m.profile_id")
            where.append(condition)
            params.append(param)
        if layer is not None:
            where.append("m.layer = ?")
            params.append(Layer(layer).value)
        if states is not None:
            parts = []
            wanted = {MemoryState(s) for s in states}
            due = "(m.expires_at IS NOT NULL AND m.expires_at <= ? AND m.pinned = 0)"
            if MemoryState.ACTIVE in wanted:
                parts.append(f"(m.state = 'active' AND NOT {due})")
                params.append(now)
            if MemoryState.EXPIRED in wanted:
                parts.append(f"(m.state = 'expired' OR (m.state = 'active' AND {due}))")
                params.append(now)
            for state in wanted - {MemoryState.ACTIVE, MemoryState.EXPIRED}:
                parts.append("m.state = ?")
                params.append(state.value)
            where.append("(" + (" OR ".join(parts) or "0") + ")")
        return where, params

    def list(self, *, profile_id: str | None = None, layer: Layer | None = None,
             states: Collection[MemoryState] | None = (MemoryState.ACTIVE,), query: str = "",
             limit: int = 500, offset: int = 0, seen_by: str | None = None) -> list[Memory]:
        """Memories, newest first (pinned first). `profile_id`: only those made with it; `seen_by`: only those a
        request to that profile may see (module docstring). `states=None`: every state. `query`: search statement,
        quote and entities (all words must match, CJK-aware, like session search)."""
        now = self.clock()
        where, params = self._filters(profile_id, layer, states, now, seen_by)
        join = ""
        terms = fts.query_terms(query) if query.strip() else []
        if terms:
            expression = fts.match_expression(terms) if self.search_available else None
            if expression is not None:
                join = "JOIN memories_fts f ON f.rowid = m.id"
                where.append("memories_fts MATCH ?")
                params.append(expression)
            else:
                for term in terms:
                    where.append("(m.statement LIKE ? ESCAPE '\\' OR m.quote LIKE ? ESCAPE '\\')")
                    params += [fts.like_pattern(term)] * 2
        sql = (f"SELECT {', '.join('m.' + c.strip() for c in _COLUMNS.split(','))} FROM memories m {join} "
               f"{'WHERE ' + ' AND '.join(where) if where else ''} "
               "ORDER BY m.pinned DESC, m.updated_at DESC, m.id DESC LIMIT ? OFFSET ?")
        return [_memory(r, now) for r in self._read(sql, (*params, limit, offset))]

    def count(self, *, profile_id: str | None = None, layer: Layer | None = None,
              states: Collection[MemoryState] | None = (MemoryState.ACTIVE,)) -> int:
        where, params = self._filters(profile_id, layer, states, self.clock())
        sql = f"SELECT COUNT(*) FROM memories m {'WHERE ' + ' AND '.join(where) if where else ''}"
        return int(self._read(sql, tuple(params))[0][0])

    def history(self, memory_id: int) -> list[Memory]:
        """The memory and every memory on its subject chain (what it replaced and what replaced it), newest first."""
        now = self.clock()
        seen: dict[int, Memory] = {}
        todo = [memory_id]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            rows = self._read(f"SELECT {_COLUMNS} FROM memories WHERE id = ? OR superseded_by = ?", (current, current))
            for row in rows:
                memory = _memory(row, now)
                if memory.id == current:
                    seen[current] = memory
                    if memory.superseded_by is not None:
                        todo.append(memory.superseded_by)
                elif memory.id not in seen:
                    todo.append(memory.id)
        return sorted(seen.values(), key=lambda m: (m.created_at, m.id), reverse=True)

    def for_message(self, message_id: int) -> list[Memory]:
        """Memories made from this message (any state), oldest first."""
        now = self.clock()
        return [_memory(r, now) for r in self._read(
            f"SELECT {_COLUMNS} FROM memories WHERE source_message_id = ? ORDER BY id", (message_id,))]

    def active_with_subject(self, profile_id: str, subject: str) -> list[Memory]:
        """The active memories a new memory with this subject would supersede."""
        key = subject_key(subject)
        if not key:
            return []
        now = self.clock()
        condition, param = self._seen_by(profile_id)
        rows = self._read(f"SELECT {_COLUMNS} FROM memories WHERE {condition} AND subject = ? AND state = 'active'",
                          (param, key))
        return [m for m in (_memory(r, now) for r in rows) if m.active]

    def same_as(self, profile_id: str, statement: str, quote: str = "", message_id: int | None = None) -> Memory | None:
        """An active memory the profile sees that already says this (same statement, any case and spacing), or that
        was made from the same words of the same message: remembering it again adds nothing."""
        now = self.clock()
        condition, param = self._seen_by(profile_id)
        rows = self._read(f"SELECT {_COLUMNS} FROM memories WHERE {condition} AND state = 'active' AND "
                          "(lower(statement) = lower(?) OR (source_message_id = ? AND quote = ? AND quote != '')) "
                          "LIMIT 1", (param, " ".join(statement.split()), message_id, quote))
        return _memory(rows[0], now) if rows else None

    def same_fact(self, profile_id: str, statement: str, quote: str = "",
                  message_id: int | None = None) -> Memory | None:
        """A memory that already says this: an active one the profile sees with the same statement (any case and
        spacing), or one of any state made from the same message whose quote contains this quote or is contained in
        it and says the same (text.same_claim): "Prefers answers as bullet points" from "I prefer bullet points"
        and "I prefer bullet points" from "Please remember this: I prefer bullet points" are one fact; or an active
        one from any message that claims exactly this (the same content words and polarity). An active one is
        returned first; a forgotten one means the user had it forgotten."""
        found = self.same_as(profile_id, statement, quote, message_id)
        if found is not None:
            return found
        if message_id is not None:
            now = self.clock()
            condition, param = self._seen_by(profile_id)
            rows = self._read(f"SELECT {_COLUMNS} FROM memories WHERE source_message_id = ? AND {condition} "
                              "ORDER BY state = 'active' DESC, id", (message_id, param))
            for memory in (_memory(r, now) for r in rows):
                if quote and memory.quote and overlaps(quote, memory.quote) and \
                        (same_claim(statement, memory.statement) or same_claim(quote, memory.quote)):
                    return memory
        return self._same_claim_active(profile_id, statement)

    def _same_claim_active(self, profile_id: str, statement: str) -> Memory | None:
        """An active memory the profile sees, from any message, that claims exactly this (text.claim_key: the same
        content words, the same polarity): "I prefer bullet points" said again is the fact already kept."""
        key = claim_key(statement)
        words = content_words(statement)
        if key is None or not words:
            return None
        for memory in self.list(seen_by=profile_id, query=" ".join(words[:8]), limit=50):
            if claim_key(memory.statement) == key:
                return memory
        return None

    @property
    def wipes(self) -> int:
        """How many times the memories were wiped, by any process (an extraction begun before one is dropped)."""
        rows = self._read("SELECT set_at FROM memory_incognito WHERE session_id = ?", (WIPES_KEY,))
        return int(rows[0][0]) if rows else 0

    def wiped_after(self, moment: float) -> bool:
        """Whether the memories were wiped (by any process) at or after `moment` (Unix seconds): a message sent
        before a Wipe is not remembered after it, even when its extraction only starts later."""
        rows = self._read("SELECT set_at FROM memory_incognito WHERE session_id = ?", (WIPED_AT_KEY,))
        return bool(rows) and float(rows[0][0]) >= moment

    # ------------------------------------------------------------------ writing
    def add(self, statement: str, *, profile_id: str = "", quote: str = "", layer: Layer | None = None,
            kind: str = Kind.FACT, subject: str = "", entities: Iterable[str] | None = None,
            session_id: str | None = None, message_id: int | None = None, expires_at: float | None = None,
            origin: str = Origin.USER, pinned: bool = False, wipe_generation: int | None = None) -> Memory:
        """Store a new active memory and return it. `layer` defaults from `kind` (preferences, identities, projects,
        explicit requests: long-term; the rest short-term). With a `subject`, active memories the profile sees with
        the same subject become SUPERSEDED by it (`superseded_by` = the new id). `entities` default to the names found
        in the statement and quote. `wipe_generation`: raise Wiped instead when `wipes` is no longer that (checked
        in the write transaction, so a Wipe by another process is never undone by a memory begun before it)."""
        held = tuple(self.secrets())
        statement = " ".join(redact_stored(statement, held).split())
        quote = redact_stored(quote, held)
        if not statement:
            raise ValueError("a memory needs a statement")
        now = self.clock()
        key = subject_key(subject)
        names = sorted({e.strip().lower() for e in entities if e.strip()} if entities is not None
                       else entity_keys(statement) | entity_keys(quote))
        chosen = Layer(layer) if layer is not None else layer_for(kind)

        def work(db: sqlite3.Connection) -> int:
            if wipe_generation is not None:
                row = db.execute("SELECT set_at FROM memory_incognito WHERE session_id = ?", (WIPES_KEY,)).fetchone()
                if (int(row[0]) if row else 0) != wipe_generation:
                    raise Wiped(wipe_generation)
            cursor = db.execute(
                "INSERT INTO memories (profile_id, layer, statement, quote, source_session_id, source_message_id, "
                "created_at, updated_at, expires_at, state, pinned, subject, entities, kind, origin) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)",
                (profile_id, chosen.value, statement, quote, session_id, message_id, now, now, expires_at,
                 int(pinned), key, "\n".join(names), str(kind), str(origin)))
            new_id = int(cursor.lastrowid)
            if key:
                condition, param = self._seen_by(profile_id)
                db.execute("UPDATE memories SET state = 'superseded', prior_state = state, superseded_by = ?, "
                           f"state_changed_at = ? WHERE {condition} AND subject = ? AND state = 'active' AND id != ?",
                           (new_id, now, param, key, new_id))
            self._reindex(db, new_id)
            return new_id

        memory = self.get(self._write(work, "the memory was not saved"))
        assert memory is not None
        return memory

    def edit(self, memory_id: int, statement: str) -> Memory:
        """Change what a memory says (the quote, its source, stays as the user said it)."""
        statement = " ".join(redact_stored(statement, tuple(self.secrets())).split())
        if not statement:
            raise ValueError("a memory needs a statement")

        def work(db: sqlite3.Connection) -> None:
            if db.execute("UPDATE memories SET statement = ?, updated_at = ? WHERE id = ?",
                          (statement, self.clock(), memory_id)).rowcount == 0:
                raise MemoryNotFound(memory_id)
            self._reindex(db, memory_id)

        self._write(work)
        memory = self.get(memory_id)
        assert memory is not None
        return memory

    def set_pinned(self, memory_id: int, pinned: bool) -> None:
        """Pinned memories are offered first in every recall, never decay and never expire."""
        def work(db: sqlite3.Connection) -> None:
            if db.execute("UPDATE memories SET pinned = ? WHERE id = ?", (int(pinned), memory_id)).rowcount == 0:
                raise MemoryNotFound(memory_id)

        self._write(work)

    def forget(self, memory_ids: Iterable[int]) -> list[int]:
        """Mark memories FORGOTTEN (never recalled; kept for `undo_forget`). Returns the ids that changed."""
        ids = [int(i) for i in memory_ids]
        now = self.clock()

        def work(db: sqlite3.Connection) -> list[int]:
            changed = []
            for memory_id in ids:
                if db.execute("UPDATE memories SET prior_state = state, state = 'forgotten', state_changed_at = ? "
                              "WHERE id = ? AND state != 'forgotten'", (now, memory_id)).rowcount:
                    changed.append(memory_id)
            return changed

        return self._write(work, "the memory was not forgotten")

    def undo_forget(self, memory_ids: Iterable[int]) -> list[int]:
        """Bring forgotten memories back to the state they had. Returns the ids that changed."""
        ids = [int(i) for i in memory_ids]

        def work(db: sqlite3.Connection) -> list[int]:
            changed = []
            for memory_id in ids:
                if db.execute("UPDATE memories SET state = COALESCE(prior_state, 'active'), prior_state = NULL, "
                              "state_changed_at = ? WHERE id = ? AND state = 'forgotten'",
                              (self.clock(), memory_id)).rowcount:
                    changed.append(memory_id)
            return changed

        return self._write(work)

    def undo_add(self, memory_ids: Iterable[int]) -> list[int]:
        """Undo of "Remembered: …": delete these new memories and make the memories they superseded active again.
        Returns the ids deleted."""
        ids = [int(i) for i in memory_ids]

        def work(db: sqlite3.Connection) -> list[int]:
            done = []
            for memory_id in ids:
                row = db.execute("SELECT state, superseded_by FROM memories WHERE id = ?", (memory_id,)).fetchone()
                if row is not None and row["state"] == "superseded" and row["superseded_by"] is not None:
                    # Already replaced by a newer memory: what it replaced now hangs off that one and stays
                    # superseded (bringing it back would leave two memories in use on one subject).
                    db.execute("UPDATE memories SET superseded_by = ? WHERE superseded_by = ?",
                               (row["superseded_by"], memory_id))
                else:
                    db.execute("UPDATE memories SET state = 'active', prior_state = NULL, superseded_by = NULL "
                               "WHERE superseded_by = ? AND state = 'superseded'", (memory_id,))
                if db.execute("DELETE FROM memories WHERE id = ?", (memory_id,)).rowcount:
                    done.append(memory_id)
            self._unindex(db, done)
            return done

        return self._write(work, "the memory was not removed")

    def delete(self, memory_ids: Iterable[int]) -> int:
        """Remove memories for good (no undo). Returns how many were removed."""
        ids = [int(i) for i in memory_ids]

        def work(db: sqlite3.Connection) -> int:
            removed = sum(db.execute("DELETE FROM memories WHERE id = ?", (i,)).rowcount for i in ids)
            self._unindex(db, ids)
            return removed

        return self._write(work, "the memory was not deleted")

    def wipe(self, *, profile_id: str | None = None) -> int:
        """Remove every memory (of one profile, or all). No undo: the UI confirms first. The wipe generation goes up
        in the same transaction: an extraction running in any process, begun before, stores nothing after it."""
        def work(db: sqlite3.Connection) -> int:
            db.execute("INSERT INTO memory_incognito (session_id, set_at) VALUES (?, 1) "
                       "ON CONFLICT(session_id) DO UPDATE SET set_at = set_at + 1", (WIPES_KEY,))
            db.execute("INSERT INTO memory_incognito (session_id, set_at) VALUES (?, ?) "
                       "ON CONFLICT(session_id) DO UPDATE SET set_at = excluded.set_at", (WIPED_AT_KEY, time.time()))
            if profile_id is None:
                removed = db.execute("DELETE FROM memories").rowcount
                if self.search_available:
                    db.execute("DELETE FROM memories_fts")
                return removed
            ids = [r[0] for r in db.execute("SELECT id FROM memories WHERE profile_id = ?", (profile_id,))]
            db.execute("DELETE FROM memories WHERE profile_id = ?", (profile_id,))
            self._unindex(db, ids)
            return len(ids)

        return self._write(work, "the memories were not wiped")

    def set_embedding(self, memory_id: int, vector: bytes, model: str) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute("UPDATE memories SET embedding = ?, embedding_model = ? WHERE id = ?",
                       (vector, model, memory_id))

        self._write(work, "the memory's embedding was not saved")

    def embeddings(self, ids: Collection[int], model: str) -> dict[int, bytes]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._read(f"SELECT id, embedding FROM memories WHERE id IN ({marks}) AND embedding_model = ? "
                          "AND embedding IS NOT NULL", (*ids, model))
        return {r[0]: r[1] for r in rows}

    def embedded_ids(self, profile_id: str, model: str, limit: int) -> list[int]:
        """The newest active memories the profile sees that have a vector of `model`."""
        now = self.clock()
        condition, param = self._seen_by(profile_id)
        rows = self._read(f"SELECT id FROM memories WHERE {condition} AND state = 'active' AND embedding_model = ? "
                          "AND (expires_at IS NULL OR expires_at > ? OR pinned = 1) ORDER BY updated_at DESC LIMIT ?",
                          (param, model, now, limit))
        return [r[0] for r in rows]

    def get_many(self, ids: Collection[int]) -> list[Memory]:
        if not ids:
            return []
        now = self.clock()
        marks = ",".join("?" * len(ids))
        return [_memory(r, now) for r in self._read(f"SELECT {_COLUMNS} FROM memories WHERE id IN ({marks})",
                                                    tuple(ids))]

    # ------------------------------------------------------------------ incognito
    def set_incognito(self, session_id: str, on: bool) -> None:
        """A session that neither records nor recalls memories (may be set before the session exists)."""
        def work(db: sqlite3.Connection) -> None:
            if on:
                db.execute("INSERT OR IGNORE INTO memory_incognito (session_id, set_at) VALUES (?, ?)",
                           (session_id, self.clock()))
            else:
                db.execute("DELETE FROM memory_incognito WHERE session_id = ?", (session_id,))

        self._write(work, "the session's memory switch was not saved")

    def is_incognito(self, session_id: str) -> bool:
        return bool(self._read("SELECT 1 FROM memory_incognito WHERE session_id = ?", (session_id,)))

    def incognito_sessions(self, session_ids: Iterable[str]) -> list[str]:
        """Which of `session_ids` are incognito, in their order: one query for a whole session list (the table holds
        only the sessions switched off, so it is read whole instead of binding thousands of ids)."""
        flagged = {row[0] for row in self._read("SELECT session_id FROM memory_incognito")} - {WIPES_KEY, WIPED_AT_KEY}
        return [s for s in session_ids if s in flagged]

    # ------------------------------------------------------------------ recall support
    def candidates(self, profile_id: str, text: str, *, limit: int = 32) -> list[tuple[Memory, float]]:
        """Active memories a request to `profile_id` sees matching any word of `text`, best first, with their BM25
        relevance (positive, higher is better); then the pinned ones (relevance 0) not already there."""
        now = self.clock()
        terms = recall_terms(text)
        found: list[tuple[Memory, float]] = []
        condition, profile_id = self._seen_by(profile_id, "m.profile_id")  # the parameter the queries below bind
        alive = (f"{condition} AND m.state = 'active' AND "
                 "(m.expires_at IS NULL OR m.expires_at > ? OR m.pinned = 1)")
        columns = ", ".join("m." + c.strip() for c in _COLUMNS.split(","))
        expression = or_expression(terms) if self.search_available else None
        if expression is not None:
            # The best FTS matches first (cheap: the index alone), then their rows filtered to this profile's live
            # memories; only when too few survive, every match is joined (CROSS JOIN: the index drives the join).
            base = (f"SELECT {columns}, f.rank FROM (SELECT rowid, bm25(memories_fts) AS rank FROM memories_fts "
                    "WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?) f CROSS JOIN memories m ON m.id = f.rowid "
                    f"WHERE {alive} ORDER BY f.rank LIMIT ?")
            rows = self._read(base, (expression, PREFILTER, profile_id, now, limit))
            if len(rows) < limit:
                rows = self._read(base, (expression, -1, profile_id, now, limit))
            found = [(_memory(r, now), -float(r["rank"])) for r in rows]
        elif terms:  # no FTS5: count the words found
            rows = self._read(f"SELECT {columns} FROM memories m WHERE {alive} ORDER BY m.updated_at DESC LIMIT 2000",
                              (profile_id, now))
            scored = []
            for row in rows:
                body = f"{row['statement']}\n{row['quote']}\n{row['entities']}".lower()
                hits = sum(1 for t in terms if t in body)
                if hits:
                    scored.append((_memory(row, now), float(hits)))
            found = sorted(scored, key=lambda pair: -pair[1])[:limit]
        have = {m.id for m, _ in found}
        pinned = alive.replace("m.state =", "+m.state =")  # `+`: so the partial index of pinned memories is used
        for row in self._read(f"SELECT {columns} FROM memories m WHERE m.pinned = 1 AND {pinned} "
                              "ORDER BY m.updated_at DESC LIMIT 20", (profile_id, now)):
            if row["id"] not in have:
                found.append((_memory(row, now), 0.0))
        return found

    def recent_long_term(self, profile_id: str, *, limit: int = 5) -> list[Memory]:
        """The newest active long-term memories the profile sees: offered when nothing in the message matches."""
        now = self.clock()
        condition, param = self._seen_by(profile_id)
        rows = self._read(f"SELECT {_COLUMNS} FROM memories WHERE {condition} AND state = 'active' AND layer = ? "
                          "AND (expires_at IS NULL OR expires_at > ? OR pinned = 1) ORDER BY updated_at DESC LIMIT ?",
                          (param, Layer.LONG_TERM.value, now, limit))
        return [_memory(r, now) for r in rows]

    def export(self, *, profile_id: str | None = None) -> list[dict[str, Any]]:
        """Every memory (all states) as JSON-ready dicts, oldest first (`memory export`)."""
        return [m.to_json() for m in reversed(self.list(profile_id=profile_id, states=None, limit=1_000_000))]

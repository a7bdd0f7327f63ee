"""The database schema as an append-only list of numbered migrations.

Never edit a migration that has shipped: add a new one. The version is kept in
`PRAGMA user_version` and each applied step is recorded in `schema_migrations`.
Tests keep a database at every earlier version (tests/core/fixtures) to prove a
populated database migrates without losing a message.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Callable

Migration = Callable[[sqlite3.Connection], None]


def _run(db: sqlite3.Connection, script: str) -> None:
    """Run `;`-separated statements inside the caller's transaction (executescript would commit it)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _v1_sessions_and_messages(db: sqlite3.Connection) -> None:
    _run(
        db,
        """
        CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL);
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            profile_id TEXT,
            model TEXT,
            source TEXT NOT NULL DEFAULT 'app',
            prompt_tokens INTEGER NOT NULL DEFAULT 0,
            completion_tokens INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            role TEXT NOT NULL,
            content TEXT,
            tool_calls TEXT,
            tool_call_id TEXT,
            name TEXT,
            finish_reason TEXT,
            interrupted INTEGER NOT NULL DEFAULT 0,
            tokens INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        );
        CREATE INDEX messages_by_session ON messages(session_id, id);
        """
    )


def _v2_branches_trash_pins_search(db: sqlite3.Connection) -> None:
    """Branching (parent/head), pins, trash, title source, active skills, model parameters, stream owner."""
    _run(
        db,
        """
        ALTER TABLE sessions ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN deleted_at REAL;
        ALTER TABLE sessions ADD COLUMN title_source TEXT NOT NULL DEFAULT 'user';
        ALTER TABLE sessions ADD COLUMN active_skills TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE sessions ADD COLUMN params TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE sessions ADD COLUMN head_id INTEGER;
        ALTER TABLE messages ADD COLUMN parent_id INTEGER REFERENCES messages(id) ON DELETE CASCADE;
        ALTER TABLE messages ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN stream_owner TEXT;
        CREATE INDEX messages_by_parent ON messages(parent_id);
        CREATE INDEX messages_by_depth ON messages(session_id, depth);
        CREATE INDEX sessions_by_order ON sessions(deleted_at, pinned DESC, updated_at DESC);
        """
    )
    # Version 1 stored each session as one straight line: link every message to the one before.
    _run(
        db,
        """
        CREATE TEMP TABLE v2_links (id INTEGER PRIMARY KEY, prev INTEGER, pos INTEGER);
        INSERT INTO v2_links (id, prev, pos)
            SELECT id, LAG(id) OVER (PARTITION BY session_id ORDER BY id),
                   ROW_NUMBER() OVER (PARTITION BY session_id ORDER BY id) - 1
            FROM messages;
        UPDATE messages SET parent_id = (SELECT prev FROM v2_links WHERE v2_links.id = messages.id),
                            depth = (SELECT pos FROM v2_links WHERE v2_links.id = messages.id);
        UPDATE sessions SET head_id = (SELECT MAX(id) FROM messages m WHERE m.session_id = sessions.id);
        DROP TABLE v2_links
        """,
    )


# The note that began a session continued from a summary, as versions before v3 stored it (role "system").
_OLD_SUMMARY_PREFIX = "Summary of the earlier conversation \u201c"


def _v3_summaries_get_their_own_role(db: sqlite3.Connection) -> None:
    """Stored `system` messages are notes from v3 on: never sent to the model (an imported file could put any
    instructions there). The one kind the app wrote itself, the summary at the start of a continued session, keeps
    working: it becomes role `summary`, which the request builder adds to the system message."""
    db.execute(
        "UPDATE messages SET role = 'summary' WHERE role = 'system' AND parent_id IS NULL AND substr(content, 1, ?) = ?",
        (len(_OLD_SUMMARY_PREFIX), _OLD_SUMMARY_PREFIX),
    )


def _v4_reasoning(db: sqlite3.Connection) -> None:
    """A reply's reasoning ("thinking"), kept beside its content and never indexed for search: how long the model
    thought (for "Thought for 12 s" after a restart) and the reasoning tokens the server reported."""
    _run(
        db,
        """
        ALTER TABLE messages ADD COLUMN reasoning TEXT;
        ALTER TABLE messages ADD COLUMN reasoning_ms INTEGER;
        ALTER TABLE messages ADD COLUMN reasoning_tokens INTEGER
        """,
    )


def _v5_attachments(db: sqlite3.Connection) -> None:
    """Files attached to user messages (core/attachments.py). The bytes live once per content hash under
    `<data>/attachments/`; `attachments` describes each stored file (a text/PDF file's extracted text within budget
    and its note), `message_attachments` says which message uses which, in order. A file is deleted when no row
    here refers to it any more (store.purge_session); deleting a message deletes its rows (cascade)."""
    _run(
        db,
        """
        CREATE TABLE attachments (
            hash TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            mime TEXT NOT NULL,
            size INTEGER NOT NULL,
            width INTEGER,
            height INTEGER,
            text TEXT,
            note TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL
        );
        CREATE TABLE message_attachments (
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            hash TEXT NOT NULL REFERENCES attachments(hash),
            name TEXT NOT NULL,
            PRIMARY KEY (message_id, position)
        );
        CREATE INDEX message_attachments_by_hash ON message_attachments(hash)
        """,
    )


def _v6_memories(db: sqlite3.Connection) -> None:
    """Memory (core/memory): what Hermes remembers about the user across sessions, per provider profile, each
    memory with the user's own words (`quote`) and where they were said. Soft states (superseded, forgotten,
    expired) keep a memory for undo and history. No foreign key to sessions or messages: a memory outlives the
    conversation it came from (its source is then shown as deleted). The search index (memories_fts) is made by
    core/memory/store.py beside this table, as the session index is (it needs FTS5). `memory_incognito` lists the
    sessions that neither record nor recall memories (a session may be marked before its first message)."""
    _run(
        db,
        """
        CREATE TABLE memories (
            id INTEGER PRIMARY KEY,
            profile_id TEXT NOT NULL DEFAULT '',
            layer TEXT NOT NULL DEFAULT 'short_term',
            statement TEXT NOT NULL,
            quote TEXT NOT NULL DEFAULT '',
            source_session_id TEXT,
            source_message_id INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            expires_at REAL,
            state TEXT NOT NULL DEFAULT 'active',
            prior_state TEXT,
            state_changed_at REAL,
            superseded_by INTEGER REFERENCES memories(id) ON DELETE SET NULL,
            pinned INTEGER NOT NULL DEFAULT 0,
            subject TEXT NOT NULL DEFAULT '',
            entities TEXT NOT NULL DEFAULT '',
            kind TEXT NOT NULL DEFAULT 'fact',
            origin TEXT NOT NULL DEFAULT 'auto',
            embedding BLOB,
            embedding_model TEXT
        );
        CREATE INDEX memories_by_subject ON memories(profile_id, subject, state);
        CREATE INDEX memories_by_recency ON memories(profile_id, state, layer, updated_at);
        CREATE INDEX memories_pinned ON memories(profile_id) WHERE pinned = 1;
        CREATE INDEX memories_by_source ON memories(source_message_id);
        CREATE INDEX memories_by_superseded ON memories(superseded_by);
        CREATE TABLE memory_incognito (session_id TEXT PRIMARY KEY, set_at REAL NOT NULL)
        """,
    )


def _v7_context_summaries(db: sqlite3.Connection) -> None:
    """A long conversation's running summary (core/conversation_summary.py): the text the model is sent in place of
    the path's messages `covered_from`..`covered_to`, its token estimate, when and by which model it was made. The
    messages themselves are never changed; deleting a message or a session deletes its summaries (cascade)."""
    _run(
        db,
        """
        CREATE TABLE context_summaries (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            covered_from INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            covered_to INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            covered_messages INTEGER NOT NULL,
            text TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            created_at REAL NOT NULL,
            model TEXT
        );
        CREATE INDEX context_summaries_by_session ON context_summaries(session_id, covered_to)
        """,
    )


def _v8_tool_call_records(db: sqlite3.Connection) -> None:
    """What a tool card showed while its call ran, for the card after a restart: the impact (as a code and
    parameters for the window's language, and the English sentence), who decided and how, the outcome and how long
    it took. One row per stored tool result (`message_id`, its `call_id` and session beside it); written by the
    engine right after the result (core/agent.py), in its own transaction, so a failure here never loses the result.
    Deleting the message or the session deletes the row (cascade); forks copy it; exports leave it out."""
    _run(
        db,
        """
        CREATE TABLE tool_call_records (
            message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            call_id TEXT NOT NULL,
            impact_code TEXT NOT NULL DEFAULT '',
            impact_params TEXT NOT NULL DEFAULT '{}',
            impact TEXT,
            decision TEXT,
            decided_by TEXT,
            outcome TEXT NOT NULL,
            duration_s REAL,
            created_at REAL NOT NULL
        );
        CREATE INDEX tool_call_records_by_session ON tool_call_records(session_id)
        """,
    )


def _v9_assistants_and_prompts(db: sqlite3.Connection) -> None:
    """Assistants (core/assistants): the user's own and imported ones (the gallery's live in the package), each
    its fields as JSON in `data` (core/assistants/model.py's format, validated on every read); a deleted one keeps
    its row (`deleted_at`) for Undo until purged. `prompts` is the prompt library (bodies with {{variables}}).
    `sessions.assistant_id` names the session's assistant (NULL: Hermes, the default); a session whose assistant
    is deleted falls back to Hermes. Names are unique among the live rows (case-insensitive)."""
    _run(
        db,
        """
        CREATE TABLE assistants (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            data TEXT NOT NULL DEFAULT '{}',
            origin TEXT NOT NULL DEFAULT 'user',
            source TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            deleted_at REAL
        );
        CREATE UNIQUE INDEX assistants_by_name ON assistants(name COLLATE NOCASE) WHERE deleted_at IS NULL;
        CREATE TABLE prompts (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            body TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            deleted_at REAL
        );
        CREATE UNIQUE INDEX prompts_by_name ON prompts(name COLLATE NOCASE) WHERE deleted_at IS NULL;
        ALTER TABLE sessions ADD COLUMN assistant_id TEXT
        """,
    )


def _v10_sync_ids_and_state(db: sqlite3.Connection) -> None:
    """Sync (core/sync): a stable global id (`gid`, 32 hex characters) for every session, message and memory, so
    two devices can tell "the same thing" from "a thing with the same local number"; existing rows are filled and
    new rows get one from a trigger (store.py stays unchanged). `sync_meta` keeps this device's id and hybrid
    logical clock, `sync_fields` the last synced value (hash) and clock of every field of every synced entity,
    `sync_cursors` how far each other device's log has been applied, `sync_outbox` the change batches written but
    not yet uploaded (kept until the upload is published: an interrupted sync resumes with them), `sync_deferred`
    remote records whose parent has not arrived yet. Self-contained: no v9 table is used."""
    _run(
        db,
        """
        ALTER TABLE sessions ADD COLUMN gid TEXT;
        ALTER TABLE messages ADD COLUMN gid TEXT;
        ALTER TABLE memories ADD COLUMN gid TEXT;
        UPDATE sessions SET gid = lower(hex(randomblob(16))) WHERE gid IS NULL;
        UPDATE messages SET gid = lower(hex(randomblob(16))) WHERE gid IS NULL;
        UPDATE memories SET gid = lower(hex(randomblob(16))) WHERE gid IS NULL;
        CREATE UNIQUE INDEX sessions_by_gid ON sessions(gid);
        CREATE UNIQUE INDEX messages_by_gid ON messages(gid);
        CREATE UNIQUE INDEX memories_by_gid ON memories(gid);
        CREATE TABLE sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE sync_fields (
            kind TEXT NOT NULL,
            gid TEXT NOT NULL,
            field TEXT NOT NULL,
            value_hash TEXT NOT NULL,
            hlc TEXT NOT NULL,
            PRIMARY KEY (kind, gid, field)
        );
        CREATE TABLE sync_cursors (device TEXT PRIMARY KEY, seq INTEGER NOT NULL);
        CREATE TABLE sync_outbox (seq INTEGER PRIMARY KEY, payload BLOB NOT NULL, created_at REAL NOT NULL);
        CREATE TABLE sync_deferred (gid TEXT PRIMARY KEY, record TEXT NOT NULL, since REAL NOT NULL)
        """,
    )
    # One statement each: a trigger's body has its own `;` (which _run splits on).
    for table, key in (("sessions", "rowid"), ("messages", "id"), ("memories", "id")):
        db.execute(f"CREATE TRIGGER {table}_gid AFTER INSERT ON {table} WHEN NEW.gid IS NULL BEGIN "
                   f"UPDATE {table} SET gid = lower(hex(randomblob(16))) WHERE {key} = NEW.{key}; END")


def _v11_usage_records_and_reply_models(db: sqlite3.Connection) -> None:
    """Usage (core/usage): one row per request the app made to a model, side requests included (`purpose`: chat,
    title, summary, memory, ...), with the server's own figures (`estimated` = 1 where the server sent none and the
    app counted). `session_id` is not a foreign key on purpose: deleting a conversation does not take back what it
    cost, so the month's spend stays true. No conversation text is kept here. `messages.model` names the model that
    wrote an assistant message (shown in its header and exports; NULL for rows written before v11).
    `sessions.mcp_servers`: the MCP servers on for this session, a JSON list of names (NULL: every enabled server,
    the default), so a chat about drinks does not carry four servers' tool lists on every request."""
    _run(
        db,
        """
        CREATE TABLE usage_records (
            id INTEGER PRIMARY KEY,
            at REAL NOT NULL,
            session_id TEXT,
            assistant_id TEXT,
            profile_id TEXT,
            model TEXT NOT NULL DEFAULT '',
            purpose TEXT NOT NULL DEFAULT 'chat',
            input_tokens INTEGER NOT NULL DEFAULT 0,
            cached_input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            reasoning_tokens INTEGER NOT NULL DEFAULT 0,
            estimated INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX usage_records_by_time ON usage_records(at);
        CREATE INDEX usage_records_by_session ON usage_records(session_id);
        ALTER TABLE messages ADD COLUMN model TEXT;
        ALTER TABLE sessions ADD COLUMN mcp_servers TEXT
        """,
    )


def _v12_turn_failures(db: sqlite3.Connection) -> None:
    """The error of a session's latest turn, when it failed after its user message was stored (core/turn_failures.py):
    its card ("not sent", with Retry) is shown again when the session is opened after a restart. One row per session,
    removed when the next turn starts; `error` is JSON (kind, code, parameters, message), redacted."""
    _run(
        db,
        """
        CREATE TABLE turn_failures (
            session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            error TEXT NOT NULL,
            at REAL NOT NULL
        )
        """,
    )


def _v13_memories_shared_across_profiles(db: sqlite3.Connection) -> None:
    """Recall for a saved profile reads the memories of every saved profile (core/memory/store.py `seen_by`: profile
    != 'env'), which the v6 indexes, led by profile_id, cannot seek: the newest long-term memories took a scan and a
    sort of all of them (5 ms at 12,000 memories, most of a recall). These indexes walk them newest first."""
    _run(
        db,
        """
        CREATE INDEX memories_live_by_layer ON memories(state, layer, updated_at);
        CREATE INDEX memories_pinned_by_recency ON memories(updated_at) WHERE pinned = 1;
        """,
    )


def _v14_sessions_held_local(db: sqlite3.Connection) -> None:
    """`sessions.held_local`: the id of the local-only provider (ProviderProfile.local_only) that answered in this
    session, set at its first such turn and never cleared (core/local_only.py): from then on the conversation is
    sent only to local-only providers. NULL: no local-only provider has answered here."""
    _run(db, "ALTER TABLE sessions ADD COLUMN held_local TEXT")


MIGRATIONS: list[Migration] = [_v1_sessions_and_messages, _v2_branches_trash_pins_search,
                               _v3_summaries_get_their_own_role, _v4_reasoning, _v5_attachments,
                               _v6_memories, _v7_context_summaries, _v8_tool_call_records,
                               _v9_assistants_and_prompts, _v10_sync_ids_and_state,
                               _v11_usage_records_and_reply_models, _v12_turn_failures,
                               _v13_memories_shared_across_profiles, _v14_sessions_held_local]
LATEST_VERSION = len(MIGRATIONS)


def schema_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, *, up_to: int = LATEST_VERSION) -> list[int]:
    """Apply the missing migrations, each in its own transaction. Returns the versions applied."""
    applied = []
    version = schema_version(db)
    for number in range(version + 1, up_to + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[number - 1](db)
            db.execute("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", (number, time.time()))
            db.execute(f"PRAGMA user_version = {number}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # SQLite already rolled back after SQLITE_FULL and some I/O errors
                db.execute("ROLLBACK")
            raise
        applied.append(number)
    return applied

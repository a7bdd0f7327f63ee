"""Migration 10 on a populated database: every existing session, message and memory gets a distinct global id,
nothing else changes, rows made afterwards (by store.py, which knows nothing of gids) get one from the trigger,
and the v9 placeholder does nothing."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from hermes_desktop.core.storage.migrations import LATEST_VERSION, MIGRATIONS, migrate


def test_v10_gives_every_row_a_global_id_and_keeps_the_rows(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "hermes.db", isolation_level=None)
    migrate(db, up_to=8)
    now = time.time()
    for n in range(3):
        db.execute("INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                   (f"s{n}", f"title {n}", now, now))
        for m in range(4):
            db.execute("INSERT INTO messages (session_id, role, content, created_at, updated_at) VALUES (?,?,?,?,?)",
                       (f"s{n}", "user", f"text {n}.{m}", now, now))
    db.execute("INSERT INTO memories (statement, created_at, updated_at) VALUES ('likes tea', ?, ?)", (now, now))
    before = db.execute("SELECT id, session_id, content FROM messages ORDER BY id").fetchall()
    assert MIGRATIONS[8].__name__ == "_v9_assistants_and_prompts" and LATEST_VERSION >= 10
    assert migrate(db)[:2] == [9, 10]
    assert db.execute("SELECT id, session_id, content FROM messages ORDER BY id").fetchall() == before
    for table, count in (("sessions", 3), ("messages", 12), ("memories", 1)):
        gids = [r[0] for r in db.execute(f"SELECT gid FROM {table}")]
        assert len(gids) == count and len(set(gids)) == count and all(len(g) == 32 for g in gids)
    db.execute("INSERT INTO sessions (id, created_at, updated_at) VALUES ('later', ?, ?)", (now, now))
    db.execute("INSERT INTO messages (session_id, role, created_at, updated_at) VALUES ('later', 'user', ?, ?)",
               (now, now))
    assert db.execute("SELECT gid FROM sessions WHERE id = 'later'").fetchone()[0]
    assert db.execute("SELECT COUNT(*) FROM messages WHERE gid IS NULL").fetchone()[0] == 0
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"sync_meta", "sync_fields", "sync_cursors", "sync_outbox", "sync_deferred"} <= tables

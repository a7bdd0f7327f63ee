"""A history as an older version wrote it, for the migration tests: plain SQL with the columns every schema since v2
has, so filling a v4-v10 database never depends on what the current store's INSERT names (the store only ever
writes a database it has migrated to the latest version)."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from hermes_desktop.core.session_types import NewMessage


def write_old_history(path: Path, session_id: str, messages: list[NewMessage], *, title: str = "",
                      profile_id: str | None = None, model: str | None = None) -> None:
    """One session with `messages` in order (each the child of the one before), into the database at `path`."""
    now = time.time()
    db = sqlite3.connect(path)
    try:
        with db:
            db.execute("INSERT INTO sessions (id, title, created_at, updated_at, profile_id, model) "
                       "VALUES (?, ?, ?, ?, ?, ?)", (session_id, title, now, now, profile_id, model))
            parent: int | None = None
            for depth, message in enumerate(messages):
                cursor = db.execute(
                    "INSERT INTO messages (session_id, parent_id, depth, role, content, tool_calls, tool_call_id, "
                    "name, finish_reason, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (session_id, parent, depth, message.role, message.content,
                     json.dumps(message.tool_calls) if message.tool_calls else None, message.tool_call_id,
                     message.name, message.finish_reason, now, now))
                parent = cursor.lastrowid
            db.execute("UPDATE sessions SET head_id = ? WHERE id = ?", (parent, session_id))
    finally:
        db.close()

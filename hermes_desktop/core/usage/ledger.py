"""The `usage_records` table (migration 11) over the session store's database: one row per request.

Reads group in SQL (by local day, model, purpose, session and assistant) so a report reads a few hundred rows
for a month, not one per request; prices are applied afterwards in Python (report.py), because a price can be
edited at any time and a cost must follow the table as it is now. `assistant_id` is taken from the session when
the row is written (the assistant that session had then), so changing a session's assistant later does not move
what it cost. No conversation text is stored here.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from hermes_desktop.core.usage.counts import RequestUsage


@dataclass(frozen=True, slots=True)
class UsageRow:
    """Requests grouped by (day, model, purpose, session, assistant), with their token sums."""

    day: str  # YYYY-MM-DD, local time
    model: str
    purpose: str
    session_id: str | None
    session_title: str | None  # None: the session is gone (its cost stays)
    assistant_id: str | None
    assistant_name: str | None
    requests: int
    input_tokens: int
    cached_input_tokens: int
    output_tokens: int
    reasoning_tokens: int
    estimated_requests: int


class UsageLedger:
    """Reads and writes usage rows through the session store's connection, lock and error handling."""

    def __init__(self, sessions: Any) -> None:
        self.sessions = sessions  # SQLiteSessionStore

    def add(self, usage: RequestUsage) -> None:
        """Blocking: one small write transaction."""
        c = usage.counts

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO usage_records (at, session_id, assistant_id, profile_id, model, purpose, input_tokens, "
                "cached_input_tokens, output_tokens, reasoning_tokens, estimated) VALUES (?, ?, "
                "(SELECT assistant_id FROM sessions WHERE id = ?), ?, ?, ?, ?, ?, ?, ?, ?)",
                (usage.at, usage.session_id, usage.session_id, usage.profile_id, usage.model, usage.purpose,
                 c.input, c.cached_input, c.output, c.reasoning, int(c.estimated)))

        self.sessions._write(work, "the usage record was not saved")

    def rows(self, since: float | None = None, until: float | None = None) -> list[UsageRow]:
        """Grouped rows for requests at `since` <= at < `until` (epoch seconds; None: unbounded)."""
        where, params = [], []
        if since is not None:
            where.append("u.at >= ?")
            params.append(since)
        if until is not None:
            where.append("u.at < ?")
            params.append(until)
        sql = (
            "SELECT date(u.at, 'unixepoch', 'localtime') AS day, u.model, u.purpose, u.session_id, "
            "s.title AS session_title, s.id AS session_found, u.assistant_id, a.name AS assistant_name, "
            "COUNT(*) AS requests, SUM(u.input_tokens) AS input_tokens, "
            "SUM(u.cached_input_tokens) AS cached_input_tokens, SUM(u.output_tokens) AS output_tokens, "
            "SUM(u.reasoning_tokens) AS reasoning_tokens, SUM(u.estimated) AS estimated_requests "
            "FROM usage_records u LEFT JOIN sessions s ON s.id = u.session_id "
            "LEFT JOIN assistants a ON a.id = u.assistant_id "
            + (f"WHERE {' AND '.join(where)} " if where else "")
            + "GROUP BY day, u.model, u.purpose, u.session_id, u.assistant_id ORDER BY day")
        return [UsageRow(
            r["day"], r["model"], r["purpose"], r["session_id"],
            (r["session_title"] or "") if r["session_found"] is not None else None,
            r["assistant_id"], r["assistant_name"], r["requests"], r["input_tokens"], r["cached_input_tokens"],
            r["output_tokens"], r["reasoning_tokens"], r["estimated_requests"],
        ) for r in self.sessions._read(sql, tuple(params))]

    def first_at(self) -> float | None:
        rows = self.sessions._read("SELECT MIN(at) FROM usage_records")
        return rows[0][0] if rows and rows[0][0] is not None else None

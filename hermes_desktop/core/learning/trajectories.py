"""Task trajectories and workflow memory (issue 27).

For each finished turn that answered a new user message, `WorkflowMemory.record_turn` keeps the user's request, the
tool path (from the messages and the tool call records the agent already writes: tool, arguments, outcome), whether
the turn ended well, and the skills it activated. "Ended well" means: it finished (no guard stop, no error, no
Stop), no call was denied, every tool that failed succeeded later in the turn (no error left unresolved), and it
was not followed by a regenerate or by a next message that says it was wrong ("that's wrong", "不对", "undo"…):
those mark it undone afterwards (a regenerate: the paths of the user message it answers again). Turns without a tool call are not kept (there is no path to learn).

Before a turn, `prepare(session_id, text)` looks for a past successful path with a similar request (BM25 through
SQLite FTS5 over the request's terms, Chinese split into character pairs; "similar" also needs half of the request's words in the stored one) and, when
found, the next requests carry one short hint line in their memory layer (at most HINT_CHARS characters) and
the agent emits `WorkflowHintOffered` for the Activity tab. Failed, denied, undone or forgotten paths are never
offered. Incognito sessions record nothing and get no hint. `Settings.workflow_memory` turns it all off.

Where: its own SQLite file, `learning.db` in the data directory, not hermes.db: trajectories are data of this
machine only. They are never synced, exported or backed up with the sessions (those read hermes.db), and no
hermes.db migration was needed. `forget(id)` deletes a path.

Embeddings, when the session's provider has an embedding model (`embedder_for(session_id)`): a path that ended well
has its request embedded after it is recorded (in a background thread, so the turn's end never waits for it), and
when BM25 finds nothing close enough, the new request is embedded and compared with the stored vectors of the same
embedding model (cosine >= EMBED_MIN: all-MiniLM-L6-v2 measured 0.78-0.83 for paraphrases such as "Move the pdf
reports from Downloads to the Desktop" / "put my downloaded PDF files on the desktop", 0.37 and below for unrelated
requests). A request is only ever sent to its own session's provider (no other session's text goes anywhere). Any
failure means BM25 alone, and the endpoint rests for EMBED_REST_S.
"""

from __future__ import annotations

import json
import logging
import math
import re
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from array import array
from typing import Any, Callable, Protocol

from hermes_desktop.core.events import WorkflowHintOffered

log = logging.getLogger(__name__)

HINT_CHARS = 360  # about 90 tokens: a hint, not a second prompt
MIN_OVERLAP = 0.5
EMBED_MIN = 0.7
EMBED_POOL = 500  # the newest good paths compared by meaning
EMBED_REST_S = 600.0
_WORD = re.compile(r"[\w]{2,}", re.UNICODE)
_WRONG = re.compile(r"^\s*(that'?s (wrong|not right|incorrect)|wrong\b|no,? that|undo\b|revert\b|不对|错了|撤销)",
                    re.I)
_STOP_WORDS = {"the", "a", "an", "to", "of", "and", "in", "on", "my", "me", "please", "into", "for", "it", "is"}
_SCHEMA = """
CREATE TABLE IF NOT EXISTS trajectories (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    request TEXT NOT NULL,
    path TEXT NOT NULL,          -- JSON list of {"tool", "arguments", "outcome"}
    path_text TEXT NOT NULL,     -- list_directory(Downloads) → read_file(a.pdf)
    good INTEGER NOT NULL,
    why TEXT NOT NULL,           -- why it did not end well ('' when it did)
    skills TEXT NOT NULL,        -- JSON list
    created_at REAL NOT NULL,
    embedding BLOB,              -- the request's unit vector (float32), from embedding_model
    embedding_model TEXT
);
CREATE INDEX IF NOT EXISTS trajectories_by_session ON trajectories(session_id, id);
CREATE VIRTUAL TABLE IF NOT EXISTS trajectories_fts USING fts5(request);  -- the request's terms (_terms)
CREATE TRIGGER IF NOT EXISTS trajectories_ad AFTER DELETE ON trajectories BEGIN
    DELETE FROM trajectories_fts WHERE rowid = old.id;
END;
"""


class Embedder(Protocol):
    """Vectors from a session's own provider (core/runtime.py gives one per session, or None)."""

    model: str

    def vectors(self, texts: list[str]) -> list[list[float]]: ...  # raises on any failure


def _unit(vector: list[float]) -> array:
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return array("f", (v / norm for v in vector))


@dataclass(frozen=True, slots=True)
class Trajectory:
    id: int
    session_id: str
    message_id: int
    request: str
    path: list[dict[str, Any]]
    path_text: str
    good: bool
    why: str
    skills: list[str]


def _short_value(value: Any) -> str:
    text = str(value)
    if "/" in text or "\\" in text:
        text = re.split(r"[\\/]", text.rstrip("/\\"))[-1] or text
    return text if len(text) <= 30 else text[:29] + "…"


def step_text(tool: str, arguments: dict[str, Any]) -> str:
    shown = [_short_value(v) for v in arguments.values() if isinstance(v, (str, int, float)) and str(v)][:2]
    return f"{tool}({', '.join(shown)})"


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")


def _words(text: str) -> list[str]:
    """The request's search terms: words, and for Chinese, Japanese and Korean runs (written without spaces, which
    FTS5's tokenizer would keep as one long token) their overlapping character pairs, so 整理桌面 matches 桌面整理."""
    found: list[str] = []
    for word in _WORD.findall(text):
        word = word.lower()
        runs = _CJK.findall(word)
        if runs:
            found += [run[i:i + 2] for run in runs for i in range(max(1, len(run) - 1))]
            rest = _CJK.sub(" ", word).split()
            found += [r for r in rest if len(r) >= 2]
        else:
            found.append(word)
    return [w for w in dict.fromkeys(found) if w not in _STOP_WORDS]


def _terms(text: str) -> str:
    """What the FTS index holds for a request: its search terms separated by spaces (see _words)."""
    return " ".join(_words(text))


def turn_path(store: Any, session_id: str, user_id: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The turn's tool calls in order, each with its outcome, and the skills it activated."""
    messages = [m for m in store.messages(session_id) if m.id > user_id]
    records = store.tool_records([m.id for m in messages if m.role == "tool"])
    outcome_by_call = {m.tool_call_id: records[m.id].outcome for m in messages
                       if m.role == "tool" and m.id in records and m.tool_call_id}
    path: list[dict[str, Any]] = []
    skills: list[str] = []
    for message in messages:
        for call in message.tool_calls or () if message.role == "assistant" else ():
            function = call.get("function") or {}
            try:
                arguments = json.loads(function.get("arguments") or "{}")
            except ValueError:
                arguments = {}
            arguments = arguments if isinstance(arguments, dict) else {}
            name = str(function.get("name") or "")
            if name == "activate_skill" and isinstance(arguments.get("name"), str):
                skills.append(arguments["name"])
            path.append({"tool": name, "arguments": arguments,
                         "outcome": outcome_by_call.get(call.get("id"), "unknown")})
    return path, skills


def judge(path: list[dict[str, Any]], finish_reason: str) -> str:
    """'' when the turn ended well, else why not."""
    if finish_reason != "completed":
        return f"finished: {finish_reason}"
    if any(step["outcome"] == "denied" for step in path):
        return "a call was denied"
    last: dict[str, str] = {}
    for step in path:
        last[step["tool"]] = step["outcome"]
    failed = [tool for tool, outcome in last.items() if outcome not in ("ok", "dry_run")]
    return f"unresolved: {', '.join(failed)}" if failed else ""


class WorkflowMemory:
    """learning.db: record finished turns, offer a successful similar path, forget one. Thread-safe (one lock)."""

    def __init__(self, path: Path, store: Any, *, enabled: bool = True,
                 incognito: Callable[[str], bool] = lambda session_id: False,
                 embedder_for: Callable[[str], Embedder | None] = lambda session_id: None) -> None:
        self.path = path
        self.store = store  # the session store (messages, tool call records), read only
        self.enabled = enabled
        self.incognito = incognito  # the session's incognito switch (kept by memory: core/memory/store.py)
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._hints: dict[str, str] = {}  # session id -> the hint its requests carry this turn
        self.embedder_for = embedder_for
        self._rest_until = 0.0  # after an embeddings failure: BM25 only until then
        self._closed_for_good = False
        self._embedding: list[threading.Thread] = []

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.executescript(_SCHEMA)
            columns = {r[1] for r in db.execute("PRAGMA table_info(trajectories)")}
            for column, kind in (("embedding", "BLOB"), ("embedding_model", "TEXT")):  # a learning.db from before
                if column not in columns:
                    db.execute(f"ALTER TABLE trajectories ADD COLUMN {column} {kind}")
            self._db = db
        return self._db

    def close(self) -> None:
        with self._lock:
            self._closed_for_good = True  # a late background embedding does not reopen the file
            if self._db is not None:
                self._db.close()
                self._db = None

    def _active(self, session_id: str) -> bool:
        return self.enabled and not self.incognito(session_id)

    # ------------------------------------------------------------------ recording
    def record_turn(self, session_id: str, user_id: int | None, text: str | None, finish_reason: str) -> int | None:
        """Keep the finished turn's path (None: nothing kept).

        A regenerate (or a retry) answers a stored user message again, and the agent hands over that message's own
        text, so it is recognised here by the message id: paths already recorded for this user message were
        replaced by this answer and are marked undone, whether or not the new answer used tools. The new answer's
        path is then judged like any other (it may be the one that worked)."""
        if not self._active(session_id) or text is None or user_id is None:
            return None
        self.mark_undone(session_id, "regenerated", message_id=user_id)
        path, skills = turn_path(self.store, session_id, user_id)
        if not path:
            return None
        why = judge(path, finish_reason)
        steps = " → ".join(step_text(s["tool"], s["arguments"]) for s in path)
        with self._lock:
            db = self._conn()
            cursor = db.execute(
                "INSERT INTO trajectories (session_id, message_id, request, path, path_text, good, why, skills, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (session_id, user_id, text[:4000], json.dumps(path, ensure_ascii=False, default=str), steps,
                 int(not why), why, json.dumps(skills, ensure_ascii=False), time.time()))
            row = int(cursor.lastrowid or 0)
            db.execute("INSERT INTO trajectories_fts(rowid, request) VALUES (?, ?)", (row, _terms(text[:4000])))
        if not why:
            self._embed_later(session_id, row, text[:4000])
        return row

    # ------------------------------------------------------------------ embeddings
    def _embedder(self, session_id: str) -> Embedder | None:
        if time.monotonic() < self._rest_until:
            return None
        try:
            return self.embedder_for(session_id)
        except Exception:
            log.warning("workflow memory: no embedder for the session", exc_info=True)
            return None

    def _vectors(self, embedder: Embedder, texts: list[str]) -> list[array] | None:
        try:
            return [_unit(v) for v in embedder.vectors(texts)]
        except Exception as exc:  # any failure: BM25 alone, and the endpoint rests
            self._rest_until = time.monotonic() + EMBED_REST_S
            log.warning("workflow memory: embeddings unavailable (%s); BM25 only for %.0f s", exc, EMBED_REST_S)
            return None

    def _embed_later(self, session_id: str, row: int, text: str) -> None:
        embedder = self._embedder(session_id)
        if embedder is None:
            return

        def work() -> None:
            found = self._vectors(embedder, [text])
            if found:
                with self._lock:
                    if not self._closed_for_good:
                        self._conn().execute("UPDATE trajectories SET embedding = ?, embedding_model = ? WHERE id = ?",
                                             (found[0].tobytes(), embedder.model, row))

        thread = threading.Thread(target=work, name="workflow-embedding", daemon=True)
        self._embedding = [t for t in self._embedding if t.is_alive()] + [thread]
        thread.start()

    def settle(self, timeout: float = 30.0) -> None:
        """Wait for the background embeddings of recorded paths (tests; shutdown does not wait)."""
        for thread in list(self._embedding):
            thread.join(timeout)

    def _similar_by_meaning(self, text: str, session_id: str) -> Trajectory | None:
        embedder = self._embedder(session_id)
        if embedder is None:
            return None
        with self._lock:
            rows = self._conn().execute(
                "SELECT id, embedding FROM trajectories WHERE good = 1 AND session_id != ? AND embedding_model = ? "
                "ORDER BY id DESC LIMIT ?", (session_id, embedder.model, EMBED_POOL)).fetchall()
        if not rows:
            return None
        found = self._vectors(embedder, [text[:4000]])
        if not found:
            return None
        query = found[0]
        best, best_id = 0.0, 0
        for ident, blob in rows:
            stored = array("f")
            stored.frombytes(blob)
            if len(stored) == len(query):
                score = sum(a * b for a, b in zip(query, stored))
                if score > best:
                    best, best_id = score, ident
        if best < EMBED_MIN:
            return None
        with self._lock:
            row = self._conn().execute("SELECT * FROM trajectories WHERE id = ?", (best_id,)).fetchone()
        return self._row(row) if row else None

    def mark_undone(self, session_id: str, why: str, *, message_id: int | None = None) -> None:
        """Mark the session's latest path undone, or with `message_id` every path that answered that user message
        (a regenerate must not undo an earlier, unrelated turn of the session when the replaced one had no tools)."""
        with self._lock:
            db = self._conn()
            if message_id is None:
                db.execute("UPDATE trajectories SET good = 0, why = ? WHERE id = (SELECT max(id) FROM trajectories "
                           "WHERE session_id = ?)", (why, session_id))
            else:
                db.execute("UPDATE trajectories SET good = 0, why = ? WHERE session_id = ? AND message_id = ? "
                           "AND good = 1", (why, session_id, message_id))

    def forget(self, trajectory_id: int) -> bool:
        with self._lock:
            return self._conn().execute("DELETE FROM trajectories WHERE id = ?", (trajectory_id,)).rowcount > 0

    def all(self) -> list[Trajectory]:
        with self._lock:
            rows = self._conn().execute("SELECT * FROM trajectories ORDER BY id").fetchall()
        return [self._row(r) for r in rows]

    def latest(self, session_id: str) -> tuple[Trajectory, float] | None:
        """The session's newest recorded path and when it was recorded (the chat's "Save as skill…" offer)."""
        with self._lock:
            row = self._conn().execute("SELECT * FROM trajectories WHERE session_id = ? ORDER BY id DESC LIMIT 1",
                                       (session_id,)).fetchone()
        return (self._row(row), float(row[9])) if row else None

    @staticmethod
    def _row(r: tuple[Any, ...]) -> Trajectory:
        return Trajectory(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], bool(r[6]), r[7], json.loads(r[8]))

    # ------------------------------------------------------------------ offering
    def similar(self, text: str, *, exclude_session: str = "") -> Trajectory | None:
        """The best successful past path for a request like `text`, or None when none is close enough."""
        words = _words(text)
        if not words:
            return None
        query = " OR ".join('"' + w.replace('"', '""') + '"' for w in words[:32])
        with self._lock:
            rows = self._conn().execute(
                "SELECT t.* FROM trajectories_fts f JOIN trajectories t ON t.id = f.rowid WHERE trajectories_fts "
                "MATCH ? AND t.good = 1 AND t.session_id != ? ORDER BY bm25(trajectories_fts) LIMIT 5",
                (query, exclude_session)).fetchall()
        for row in rows:
            found = self._row(row)
            stored = set(_words(found.request))
            if sum(w in stored for w in words) / len(words) >= MIN_OVERLAP:
                return found
        return self._similar_by_meaning(text, exclude_session)

    def prepare(self, session_id: str, text: str) -> WorkflowHintOffered | None:
        """Before a turn's first request (worker thread): choose the hint; the event for Activity, or None. A
        message saying the previous answer was wrong marks the previous path undone first. A learning.db that
        cannot be opened or read (full disk, a folder in its place) means no hint, never a failed turn."""
        self._hints.pop(session_id, None)
        if not self._active(session_id) or not text:
            return None
        try:
            return self._prepare(session_id, text)
        except (sqlite3.Error, OSError) as exc:
            log.warning("workflow memory unavailable (%s): no hint this turn", exc)
            return None

    def _prepare(self, session_id: str, text: str) -> WorkflowHintOffered | None:
        if _WRONG.match(text):
            self.mark_undone(session_id, "the user said it was wrong")
        found = self.similar(text, exclude_session=session_id)
        if found is None:
            return None
        hint = f"A similar task succeeded before: {found.path_text}"
        if len(hint) > HINT_CHARS:
            hint = hint[: HINT_CHARS - 1] + "…"
        self._hints[session_id] = hint + " (a hint from an earlier session; adapt it to this request)"
        info = self.store.get_session(found.session_id)
        return WorkflowHintOffered(found.id, found.session_id, getattr(info, "title", "") or "", found.request[:200],
                                   found.path_text[:HINT_CHARS])

    def layer(self, session_id: str) -> str:
        return self._hints.get(session_id, "")

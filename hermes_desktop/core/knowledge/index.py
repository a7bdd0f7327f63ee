"""One knowledge base = one SQLite file under `<data>/knowledge/` (the contract), holding its definition too.

Tables: `meta` (name, folders, embedding model and endpoint, chunk settings, last sync), `documents` (one row per
file seen: relative path, size, mtime, SHA-256, status, reason code and text for a file that could not be read,
pages, chunk count), `chunks` (text, page, heading path), `chunks_fts` (FTS5, the same CJK-aware tokenisation as
session search, rowid = chunk id) and `vectors` (float32 BLOBs per chunk and model).

Crash safety: WAL, and one transaction per file: its old chunks, FTS rows and vectors are deleted and the new ones
written together with the document row's new hash. A kill -9 in the middle rolls the file's transaction back, so the
document row still has its old hash (or none) and the next sync reads it again: never half a file, never a chunk
twice. A full disk (SQLITE_FULL) rolls back the same way and raises `IndexFull`; what was indexed stays.

Why the definition lives in the file and not in a registry: a base is then one file to copy, rebuild or delete,
and a half-made base cannot be listed (a new file is made under a temporary name and renamed into place).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from hermes_desktop.core.knowledge.chunking import Chunk
from hermes_desktop.core.knowledge.query import fast_segment as segment, match_expression, phrases_expression, term_tokens

SCHEMA_VERSION = 1
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS documents (
        id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER, mtime_ns INTEGER, sha256 TEXT,
        kind TEXT, status TEXT NOT NULL, code TEXT, problem TEXT, note TEXT, pages INTEGER,
        chunks INTEGER NOT NULL DEFAULT 0, indexed_at REAL)""",
    """CREATE TABLE IF NOT EXISTS chunks (
        id INTEGER PRIMARY KEY, doc_id INTEGER NOT NULL, ord INTEGER NOT NULL, page INTEGER, heading TEXT,
        text TEXT NOT NULL, tokens INTEGER NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS chunks_doc ON chunks (doc_id)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')",
    "CREATE TABLE IF NOT EXISTS vectors (chunk_id INTEGER NOT NULL, model TEXT NOT NULL, vector BLOB NOT NULL, "
    "PRIMARY KEY (chunk_id, model))",
)
INDEXED, PROBLEM = "indexed", "problem"
COMMON_TERMS_FROM = 20_000  # chunks: below this every term is searched
COMMON_SHARE = 0.2  # a term in more than this share of the chunks is left out of a large base's query
STOP_SHARE = 0.5  # a term in more than half the chunks filters nothing: not even in that AND (its postings cost)
OR_MATCHES_FROM = 5_000  # a large base's OR that would match more chunks tries the AND of its terms first


_DF_CACHE: dict[str, tuple[bytes, dict[str, int]]] = {}  # file -> (FTS structure record, token -> chunks)
_DF_LOCK = threading.Lock()


def _varint(data: bytes) -> int:
    """SQLite's varint (the first value of FTS5's averages record is the number of rows)."""
    value = 0
    for i, byte in enumerate(data[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    return value


class IndexError_(Exception):
    """The knowledge base's file cannot be used (damaged, newer schema, unwritable); one line."""


class IndexFull(IndexError_):
    """The disk is full: indexing stopped; what was indexed before is intact."""


@dataclass(frozen=True, slots=True)
class DocumentRow:
    id: int
    path: str
    size: int | None
    mtime_ns: int | None
    sha256: str | None
    kind: str | None
    status: str
    code: str | None
    problem: str | None
    note: str | None
    pages: int | None
    chunks: int
    indexed_at: float | None


@dataclass(frozen=True, slots=True)
class Passage:
    """A chunk found by a search."""

    chunk_id: int
    document: str  # the file's path relative to its folder (as listed)
    page: int | None
    heading: tuple[str, ...]
    text: str
    score: float


@dataclass
class BaseInfo:
    """A knowledge base's definition and state, as stored in its file."""

    name: str
    paths: list[str]
    embedding_model: str = ""
    embedding_url: str = ""  # empty: the active provider's endpoint
    chunk_tokens: int = 350
    overlap_tokens: int = 60
    top_k: int = 5
    created: float = 0.0
    last_sync: float | None = None
    last_result: str = ""  # one line: what the last sync did or why it stopped
    documents: int = 0
    chunks: int = 0
    problems: int = 0
    vectors: int = 0
    file: Path | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "paths": self.paths, "embedding_model": self.embedding_model or None,
                "embedding_url": self.embedding_url or None, "chunk_tokens": self.chunk_tokens,
                "overlap_tokens": self.overlap_tokens, "top_k": self.top_k, "created": self.created,
                "last_sync": self.last_sync, "last_result": self.last_result, "documents": self.documents,
                "chunks": self.chunks, "problems": self.problems, "vectors": self.vectors,
                "file": str(self.file) if self.file else None}


def _is_full(exc: BaseException, where: Path | None = None) -> bool:
    """SQLITE_FULL, or an I/O error (the WAL's shared memory cannot grow) on a disk with no space left."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code == 13 or "full" in str(exc).lower():
        return True
    if where is not None and code is not None and code & 0xFF == 10:  # SQLITE_IOERR and its extended codes
        try:
            return os.statvfs(where).f_bavail == 0
        except (OSError, AttributeError):
            return False
    return False


class KnowledgeIndex:
    """An open knowledge base file. Not thread-safe: one per thread (the sync worker opens its own)."""

    def __init__(self, path: Path, *, create: bool = False) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise IndexError_(f"the knowledge base file {self.path} does not exist")
        try:
            self.db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")  # WAL: a kill -9 loses nothing committed
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise IndexError_(f"{self.path.name} was made by a newer Hermes (schema {version})")
            for statement in _SCHEMA:
                self.db.execute(statement)
            if version < SCHEMA_VERSION:
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            if _is_full(exc, self.path.parent):
                raise IndexFull("the disk is full, so the knowledge base cannot be written; what was indexed before "
                                "is kept. Free some space and sync again.") from exc
            raise IndexError_(f"the knowledge base file {self.path.name} cannot be used ({exc})") from exc

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "KnowledgeIndex":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ definition
    def meta(self) -> dict[str, Any]:
        return {key: json.loads(value) for key, value in self.db.execute("SELECT key, value FROM meta")}

    def set_meta(self, **values: Any) -> None:
        with self.transaction():
            for key, value in values.items():
                self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET "
                                "value = excluded.value", (key, json.dumps(value, ensure_ascii=False)))

    def info(self) -> BaseInfo:
        meta = self.meta()
        documents, problems, chunks = self.db.execute(
            "SELECT COALESCE(SUM(status = 'indexed'), 0), COALESCE(SUM(status = 'problem'), 0), "
            "COALESCE(SUM(chunks), 0) FROM documents").fetchone()
        model = str(meta.get("embedding_model") or "")
        vectors = self.db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0] \
            if model else 0
        return BaseInfo(name=str(meta.get("name", self.path.stem)), paths=[str(p) for p in meta.get("paths", [])],
                        embedding_model=model, embedding_url=str(meta.get("embedding_url") or ""),
                        chunk_tokens=int(meta.get("chunk_tokens", 350)),
                        overlap_tokens=int(meta.get("overlap_tokens", 60)), top_k=int(meta.get("top_k", 5)),
                        created=float(meta.get("created", 0.0)), last_sync=meta.get("last_sync"),
                        last_result=str(meta.get("last_result", "")), documents=int(documents), chunks=int(chunks),
                        problems=int(problems), vectors=int(vectors), file=self.path)

    # ------------------------------------------------------------------ writing
    class _Tx:
        def __init__(self, db: sqlite3.Connection, where: Path) -> None:
            self.db = db
            self.where = where

        def __enter__(self) -> sqlite3.Connection:
            self.db.execute("BEGIN IMMEDIATE")
            return self.db

        def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
            if kind is None:
                try:
                    self.db.execute("COMMIT")
                    return
                except sqlite3.DatabaseError as error:
                    exc = error
            if self.db.in_transaction:  # SQLite already rolled back after SQLITE_FULL and some I/O errors
                self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.DatabaseError) and _is_full(exc, self.where):
                raise IndexFull("the disk is full, so indexing stopped; what was indexed before is kept. Free some "
                                "space and sync again.") from exc
            if isinstance(exc, sqlite3.DatabaseError):
                raise IndexError_(f"the knowledge base could not be written ({exc})") from exc

    def transaction(self) -> "KnowledgeIndex._Tx":
        return KnowledgeIndex._Tx(self.db, self.path.parent)

    def documents(self) -> list[DocumentRow]:
        rows = self.db.execute("SELECT id, path, size, mtime_ns, sha256, kind, status, code, problem, note, pages, "
                               "chunks, indexed_at FROM documents ORDER BY path").fetchall()
        return [DocumentRow(*row) for row in rows]

    def problems(self) -> list[DocumentRow]:
        return [d for d in self.documents() if d.status == PROBLEM]

    def _delete_chunks(self, db: sqlite3.Connection, doc_id: int) -> None:
        db.execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ?)", (doc_id,))
        if db.execute("DELETE FROM vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE doc_id = ?)",
                      (doc_id,)).rowcount:
            self._bump_vectors(db)
        db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))

    def _doc_id(self, db: sqlite3.Connection, path: str) -> int:
        row = db.execute("SELECT id FROM documents WHERE path = ?", (path,)).fetchone()
        if row is not None:
            return int(row[0])
        return int(db.execute("INSERT INTO documents (path, status) VALUES (?, 'new')", (path,)).lastrowid)

    def store_document(self, path: str, *, size: int, mtime_ns: int, sha256: str, kind: str, pages: int | None,
                       note: str, chunks: list[Chunk]) -> list[int]:
        """Replace the file's chunks in one transaction; the new chunks' ids."""
        with self.transaction() as db:
            doc_id = self._doc_id(db, path)
            self._delete_chunks(db, doc_id)
            ids = []
            for order, chunk in enumerate(chunks):
                heading = json.dumps(list(chunk.heading), ensure_ascii=False)
                chunk_id = int(db.execute("INSERT INTO chunks (doc_id, ord, page, heading, text, tokens) VALUES "
                                          "(?, ?, ?, ?, ?, ?)", (doc_id, order, chunk.page, heading, chunk.text,
                                                                 chunk.tokens)).lastrowid)
                body = segment(" / ".join(chunk.heading) + "\n" + chunk.text)
                db.execute("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)", (chunk_id, body))
                ids.append(chunk_id)
            db.execute("UPDATE documents SET size = ?, mtime_ns = ?, sha256 = ?, kind = ?, status = 'indexed', "
                       "code = NULL, problem = NULL, note = ?, pages = ?, chunks = ?, indexed_at = ? WHERE id = ?",
                       (size, mtime_ns, sha256, kind, note or None, pages, len(chunks), time.time(), doc_id))
        return ids

    def store_problem(self, path: str, *, size: int | None, mtime_ns: int | None, code: str, problem: str) -> None:
        """The file cannot be read: its old chunks go (they no longer say what the file says) and the reason stays."""
        with self.transaction() as db:
            doc_id = self._doc_id(db, path)
            self._delete_chunks(db, doc_id)
            db.execute("UPDATE documents SET size = ?, mtime_ns = ?, sha256 = NULL, status = 'problem', code = ?, "
                       "problem = ?, chunks = 0, indexed_at = ? WHERE id = ?",
                       (size, mtime_ns, code, problem, time.time(), doc_id))

    def touch(self, path: str, size: int, mtime_ns: int) -> None:
        """Same content, new timestamp (a `touch`, a copy): only the row's stat changes."""
        with self.transaction() as db:
            db.execute("UPDATE documents SET size = ?, mtime_ns = ? WHERE path = ?", (size, mtime_ns, path))

    def remove_documents(self, paths: Iterable[str]) -> int:
        removed = 0
        with self.transaction() as db:
            for path in paths:
                row = db.execute("SELECT id FROM documents WHERE path = ?", (path,)).fetchone()
                if row is None:
                    continue
                self._delete_chunks(db, int(row[0]))
                db.execute("DELETE FROM documents WHERE id = ?", (row[0],))
                removed += 1
        return removed

    # ------------------------------------------------------------------ vectors
    def chunks_without_vectors(self, model: str, limit: int = 64) -> list[tuple[int, str]]:
        return self.db.execute("SELECT c.id, c.text FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id AND "
                               "v.model = ? WHERE v.chunk_id IS NULL ORDER BY c.id LIMIT ?", (model, limit)).fetchall()

    def store_vectors(self, model: str, items: list[tuple[int, list[float]]]) -> None:
        with self.transaction() as db:
            for chunk_id, vector in items:
                db.execute("INSERT OR REPLACE INTO vectors (chunk_id, model, vector) SELECT ?, ?, ? WHERE EXISTS "
                           "(SELECT 1 FROM chunks WHERE id = ?)", (chunk_id, model, pack(normalised(vector)),
                                                                   chunk_id))
            self._bump_vectors(db)

    def iter_vectors(self, model: str) -> Iterator[tuple[int, bytes]]:
        """(chunk id, float32 BLOB) of every vector of `model`."""
        yield from self.db.execute("SELECT chunk_id, vector FROM vectors WHERE model = ?", (model,))

    # ------------------------------------------------------------------ reading
    def bm25(self, question: str, limit: int) -> list[tuple[int, float]]:
        """(chunk id, score) best first; score = -bm25 (higher is better).

        FTS5 scores every chunk that matches any term, so in a large base a term found in many chunks (a common
        word the stop lists do not know, a frequent character pair) costs most of the time and adds almost nothing
        to the ranking (its IDF is near zero). Above COMMON_TERMS_FROM chunks, terms whose rarest token is in more
        than COMMON_SHARE of the chunks are left out; when every term is that common, only the rarest one is
        searched (all of them cost up to 10x: profiled at 200,000 chunks, docs/knowledge.md)."""
        terms = term_tokens(question)
        if not terms:
            return []
        total = self._chunk_count()
        if total >= COMMON_TERMS_FROM and len(terms) > 1:
            counts = self._document_counts([token for tokens in terms for token in tokens])
            rarest = [min(counts.get(token.lower(), 0) for token in tokens) for tokens in terms]
            kept = [(tokens, count) for tokens, count in zip(terms, rarest) if count <= total * COMMON_SHARE]
            if not kept:
                kept = [(terms[rarest.index(min(rarest))], min(rarest))]
            if sum(count for _, count in kept) > OR_MATCHES_FROM:
                # Many chunks would match the OR: first the chunks holding every term of the question (an AND
                # is answered by skipping through the postings, 5-20x faster here); they are what the OR ranks
                # first (a term in most chunks left out). Then those holding every kept term. Only when fewer than `limit` hold them is the OR run.
                every = [t for t, count in zip(terms, rarest) if count <= total * STOP_SHARE]
                for anded in dict.fromkeys([phrases_expression(every, "AND"),
                                            phrases_expression([t for t, _ in kept], "AND")]):
                    if anded is not None and " AND " in anded:
                        rows = self._rank(anded, limit)
                        if len(rows) >= limit:
                            return rows
            terms = [tokens for tokens, _ in kept]
        return self._rank(phrases_expression(terms), limit)

    def _rank(self, expression: str | None, limit: int) -> list[tuple[int, float]]:
        if expression is None:
            return []
        # FTS5's own `rank` column (bm25 by default) sorted inside FTS5, not bm25() called per row from SQL.
        rows = self.db.execute("SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?",
                               (expression, limit)).fetchall()
        return [(int(rowid), -float(rank)) for rowid, rank in rows]

    def _chunk_count(self) -> int:
        """The FTS index's row count from its averages record (O(1); COUNT(*) read 200,000 rows: ~6 ms a query)."""
        row = self.db.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
        if row is not None and row[0]:
            return _varint(bytes(row[0]))
        return int(self.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])

    def _document_counts(self, tokens: list[str]) -> dict[str, int]:
        """In how many chunks each token is. fts5vocab counts by walking the token's postings (~4 ms for a common
        one at 200,000 chunks), so counts are kept per file while its FTS index is unchanged (the structure
        record, rewritten by every write, is the key)."""
        structure = self.db.execute("SELECT block FROM chunks_fts_data WHERE id = 10").fetchone()
        key = (str(self.path), bytes(structure[0]) if structure and structure[0] else b"")
        with _DF_LOCK:
            cache = _DF_CACHE.get(key[0])
            if cache is None or cache[0] != key[1]:
                cache = _DF_CACHE[key[0]] = (key[1], {})
            known = dict(cache[1])
        missing = [t.lower() for t in tokens if t.lower() not in known]
        if missing:
            self.db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_vocab USING "
                            "fts5vocab(main, chunks_fts, 'row')")
            for token in dict.fromkeys(missing):
                row = self.db.execute("SELECT doc FROM temp.chunks_vocab WHERE term = ?", (token,)).fetchone()
                known[token] = int(row[0]) if row else 0
            with _DF_LOCK:
                if len(cache[1]) < 100_000:
                    cache[1].update(known)
        return known

    def _selective_terms(self) -> "Callable[[list[str]], bool]":
        """keep(tokens) for query.match_expression: the same rule as bm25()."""
        limit = self._chunk_count() * COMMON_SHARE

        def keep(tokens: list[str]) -> bool:
            counts = self._document_counts(tokens)
            return min(counts.get(t.lower(), 0) for t in tokens) <= limit

        return keep

    def vector_search(self, model: str, query: list[float], limit: int) -> list[tuple[int, float]]:
        """Cosine similarity over every stored vector (normalised at storage: a dot product), best first; numpy over
        a matrix cached per file and model while the vectors are unchanged (vectors.py)."""
        from hermes_desktop.core.knowledge import vectors

        return vectors.search(self.db, str(self.path.resolve()), model, normalised(query), limit)

    def _bump_vectors(self, db: sqlite3.Connection) -> None:
        """In the transaction that changes vectors: cached matrices of this file are stale (vectors.py)."""
        db.execute("INSERT INTO meta (key, value) VALUES ('vectors_version', '1') ON CONFLICT (key) DO UPDATE SET "
                   "value = CAST(value AS INTEGER) + 1")

    def passages(self, scored: list[tuple[int, float]]) -> list[Passage]:
        if not scored:
            return []
        ids = [chunk_id for chunk_id, _ in scored]
        marks = ",".join("?" * len(ids))
        rows = {int(r[0]): r for r in self.db.execute(
            f"SELECT c.id, d.path, c.page, c.heading, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id "
            f"WHERE c.id IN ({marks})", ids)}
        out = []
        for chunk_id, score in scored:
            row = rows.get(chunk_id)
            if row is None:
                continue
            try:
                heading = tuple(str(h) for h in json.loads(row[3] or "[]"))
            except ValueError:
                heading = ()
            out.append(Passage(chunk_id, str(row[1]), row[2], heading, str(row[4]), score))
        return out

    def chunk_texts(self, document: str) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT c.text FROM chunks c JOIN documents d ON d.id = c.doc_id "
                                              "WHERE d.path = ? ORDER BY c.ord", (document,))]

    def integrity(self) -> str:
        """"ok", or what is wrong (doctor)."""
        try:
            result = self.db.execute("PRAGMA quick_check").fetchone()[0]
            orphans = self.db.execute("SELECT COUNT(*) FROM chunks WHERE doc_id NOT IN (SELECT id FROM documents)"
                                      ).fetchone()[0]
            fts = self.db.execute("SELECT COUNT(*) FROM chunks_fts").fetchone()[0]
            chunks = self.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            return f"damaged ({exc})"
        if result != "ok":
            return f"damaged ({result})"
        if orphans or fts != chunks:
            return f"inconsistent ({orphans} chunks without a document, {fts} search rows for {chunks} chunks)"
        return "ok"


def pack(vector: list[float]) -> bytes:
    return array("f", vector).tobytes()


def normalised(vector: list[float]) -> list[float]:
    import math

    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else list(vector)

"""Vector search over a knowledge base's stored vectors: numpy over a cached matrix, pure Python when numpy is absent.

Why numpy and not sqlite-vec (judged in docs/knowledge.md): sqlite-vec (MIT/Apache-2.0, a wheel in the local index)
is a loadable SQLite extension, and loading one needs `sqlite3.Connection.enable_load_extension`, which the Python
here (pyenv 3.11, built without it) and several distributions' builds lack: it cannot run for many users. numpy is a
wheel on every platform, and a brute-force dot product over a float32 matrix is what sqlite-vec's `vec0` does too.

The vectors stay plain float32 BLOBs in the base's SQLite file (any SQLite reads them); reading 200,000 of them back
costs far more than the dot products, so the matrix is kept in memory per (file, model) and reused while the base's
`vectors_version` (bumped in the same transaction as every vector write or delete, index.py) and the table's largest
rowid are unchanged. Memory is bounded: at most CACHE_LIMIT_BYTES of matrices in all (least recently used out); a
base larger than that is scanned in blocks from SQLite on each query (slower, never unbounded).
"""

from __future__ import annotations

import heapq
import sqlite3
import struct
import threading
from collections import OrderedDict
from operator import mul
from typing import Any

CACHE_LIMIT_BYTES = 512 * 1024 * 1024  # 200,000 x 384 float32 = 307 MB fits
BLOCK_ROWS = 20_000  # rows per block when a base is too large to cache

_cache: "OrderedDict[tuple[str, str], tuple[tuple[int, int], Any, Any]]" = OrderedDict()
_lock = threading.Lock()


def _numpy() -> Any | None:
    try:
        import numpy
    except ImportError:  # a build without numpy: the pure-Python loop below
        return None
    return numpy


def stamp(db: sqlite3.Connection, model: str) -> tuple[int, int]:
    row = db.execute("SELECT value FROM meta WHERE key = 'vectors_version'").fetchone()
    version = int(row[0]) if row else 0
    top = db.execute("SELECT MAX(rowid) FROM vectors").fetchone()[0] or 0
    return version, int(top)


def search(db: sqlite3.Connection, file: str, model: str, query: list[float], limit: int,
           np: Any | None = None) -> list[tuple[int, float]]:
    """(chunk id, cosine similarity) best first; `query` normalised, stored vectors normalised at storage."""
    np = np if np is not None else _numpy()
    if np is None:
        return python_search(db, model, query, limit)
    q = np.asarray(query, dtype=np.float32)
    size = 4 * len(query)
    key = (file, model)
    current = stamp(db, model)
    with _lock:
        cached = _cache.get(key)
        if cached is not None and cached[0] == current:
            _cache.move_to_end(key)
            _, ids, matrix = cached
            return _top(np, ids, matrix @ q, limit)
    count = db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0]
    if count * size > CACHE_LIMIT_BYTES:
        return _blocked(np, db, model, q, size, limit)
    ids, matrix = _load(np, db, model, size)
    with _lock:
        _cache[key] = (current, ids, matrix)
        _cache.move_to_end(key)
        held = sum(m.nbytes for _, _, m in _cache.values())
        while held > CACHE_LIMIT_BYTES and len(_cache) > 1:
            _, (_, _, dropped) = _cache.popitem(last=False)
            held -= dropped.nbytes
    return _top(np, ids, matrix @ q, limit)


def forget(file: str) -> None:
    """A base was removed or rebuilt: its matrices go."""
    with _lock:
        for key in [k for k in _cache if k[0] == file]:
            del _cache[key]


def _load(np: Any, db: sqlite3.Connection, model: str, size: int) -> tuple[Any, Any]:
    ids: list[int] = []
    blobs: list[bytes] = []
    for chunk_id, blob in db.execute("SELECT chunk_id, vector FROM vectors WHERE model = ?", (model,)):
        if len(blob) == size:  # a vector of another width (a model renamed in place) is left out
            ids.append(chunk_id)
            blobs.append(blob)
    matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), size // 4)
    return np.asarray(ids, dtype=np.int64), matrix


def _blocked(np: Any, db: sqlite3.Connection, model: str, q: Any, size: int, limit: int) -> list[tuple[int, float]]:
    best: list[tuple[float, int]] = []
    cursor = db.execute("SELECT chunk_id, vector FROM vectors WHERE model = ?", (model,))
    while True:
        rows = [(c, b) for c, b in cursor.fetchmany(BLOCK_ROWS) if len(b) == size]
        if not rows:
            break
        ids = np.asarray([c for c, _ in rows], dtype=np.int64)
        matrix = np.frombuffer(b"".join(b for _, b in rows), dtype=np.float32).reshape(len(rows), size // 4)
        best = heapq.nlargest(limit, best + [(s, c) for c, s in _top(np, ids, matrix @ q, limit)])
    return [(c, s) for s, c in best]


def _top(np: Any, ids: Any, scores: Any, limit: int) -> list[tuple[int, float]]:
    if len(scores) == 0:
        return []
    if len(scores) > limit:
        part = np.argpartition(-scores, limit - 1)[:limit]
    else:
        part = np.arange(len(scores))
    order = part[np.argsort(-scores[part], kind="stable")]
    return [(int(ids[i]), float(scores[i])) for i in order]


def python_search(db: sqlite3.Connection, model: str, query: list[float], limit: int) -> list[tuple[int, float]]:
    """The loop without numpy: struct unpack (C) and sum(map(mul)) per vector, ~14 µs per 384-d vector here."""
    size = 4 * len(query)
    unpack = struct.Struct(f"{len(query)}f").unpack
    rows = db.execute("SELECT chunk_id, vector FROM vectors WHERE model = ?", (model,))
    scored = ((sum(map(mul, query, unpack(blob))), chunk_id) for chunk_id, blob in rows if len(blob) == size)
    return [(chunk_id, score) for score, chunk_id in heapq.nlargest(limit, scored)]

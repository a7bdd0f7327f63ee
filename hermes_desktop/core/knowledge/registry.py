"""Which knowledge bases exist (their files under `<data>/knowledge/`) and which ones each session uses.

- A base is the file `<data>/knowledge/<safe name>-<8 hex>.sqlite`, with its definition inside (index.py): listing
  the bases is listing those files. A new base is written under a temporary name and renamed into place, so a base
  that was half made (a crash, a full disk) never appears.
- Which bases a session uses is a small table in `<data>/knowledge/registry.db` keyed by session id (no hermes.db
  migration: the history database stays as it is, and removing a base removes its links here too). The same file
  keeps the knowledge settings (`knowledge_budget_tokens`: how many tokens of passages a turn may carry).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import time
from pathlib import Path

from hermes_desktop.core.knowledge.index import BaseInfo, IndexError_, IndexFull, KnowledgeIndex

DEFAULT_BUDGET_TOKENS = 1500
MAX_NAME = 64
REGISTRY_FILE = "registry.db"


MIN_CHUNK_TOKENS, MAX_CHUNK_TOKENS = 100, 2000  # a chunk over ~2,000 tokens would crowd the turn's budget out


class KnowledgeError(Exception):
    """A knowledge base operation that cannot be done; one line for the user."""


class ChunkSettingsError(KnowledgeError):
    """Chunk settings out of range: `code` (chunk_range, overlap_range) and `params` for the window's words."""

    def __init__(self, message: str, code: str, params: dict[str, int]) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def validate_chunking(chunk_tokens: int, overlap_tokens: int) -> None:
    """Raise ChunkSettingsError unless MIN..MAX tokens per chunk and an overlap of 0..half a chunk."""
    if not MIN_CHUNK_TOKENS <= chunk_tokens <= MAX_CHUNK_TOKENS:
        raise ChunkSettingsError(f"a chunk has {MIN_CHUNK_TOKENS} to {MAX_CHUNK_TOKENS} tokens (not {chunk_tokens})",
                                 "chunk_range", {"min": MIN_CHUNK_TOKENS, "max": MAX_CHUNK_TOKENS,
                                                 "value": chunk_tokens})
    if not 0 <= overlap_tokens <= chunk_tokens // 2:
        raise ChunkSettingsError(f"the overlap is 0 to half a chunk ({chunk_tokens // 2} tokens), not {overlap_tokens}",
                                 "overlap_range", {"max": chunk_tokens // 2, "value": overlap_tokens})


def file_name(name: str) -> str:
    """A file name for a base's name: its safe characters plus a hash of the whole name (Chinese names, and two
    names that differ only in punctuation, get distinct files)."""
    safe = re.sub(r"[^\w-]+", "_", name, flags=re.UNICODE).strip("_")[:40] or "base"
    digest = hashlib.sha256(name.casefold().encode("utf-8")).hexdigest()[:8]
    return f"{safe}-{digest}.sqlite"


def validate_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned:
        raise KnowledgeError("a knowledge base needs a name")
    if len(cleaned) > MAX_NAME:
        raise KnowledgeError(f"a knowledge base's name has at most {MAX_NAME} characters")
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
           for ch in cleaned):
        raise KnowledgeError("a knowledge base's name cannot hold control characters")
    return cleaned


class KnowledgeRegistry:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    # ------------------------------------------------------------------ bases
    def _ensure_root(self) -> None:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise KnowledgeError(f"the knowledge folder {self.root} cannot be made ({exc.strerror or exc})") from None

    def path_for(self, name: str) -> Path:
        return self.root / file_name(validate_name(name))

    def list(self) -> list[BaseInfo]:
        """Every base, by name; a file that cannot be read is listed with its problem as `last_result`."""
        if not self.root.is_dir():
            return []
        bases: list[BaseInfo] = []
        for path in sorted(self.root.glob("*.sqlite")):
            try:
                with KnowledgeIndex(path) as index:
                    bases.append(index.info())
            except IndexError_ as exc:
                bases.append(BaseInfo(name=path.stem, paths=[], last_result=f"cannot be read: {exc}", file=path))
        return sorted(bases, key=lambda b: b.name.casefold())

    def names(self) -> list[str]:
        return [b.name for b in self.list()]

    def get(self, name: str) -> BaseInfo | None:
        path = self.find(name)
        if path is None:
            return None
        with KnowledgeIndex(path) as index:
            return index.info()

    def find(self, name: str) -> Path | None:
        """The file of the base called `name` (case-insensitively), or None."""
        try:
            path = self.path_for(name)
        except KnowledgeError:
            return None
        if path.exists():
            return path
        wanted = " ".join(name.split()).casefold()
        for base in self.list():
            if base.name.casefold() == wanted and base.file is not None:
                return base.file
        return None

    def open(self, name: str) -> KnowledgeIndex:
        path = self.find(name)
        if path is None:
            raise KnowledgeError(f"there is no knowledge base called {name!r}")
        return KnowledgeIndex(path)

    def create(self, name: str, paths: list[Path], *, embedding_model: str = "", embedding_url: str = "",
               chunk_tokens: int = 350, overlap_tokens: int = 60, top_k: int = 5) -> BaseInfo:
        name = validate_name(name)
        if self.find(name) is not None:
            raise KnowledgeError(f"a knowledge base called {name!r} exists already")
        if not paths:
            raise KnowledgeError("give at least one folder or file for the knowledge base")
        resolved = []
        for path in paths:
            full = Path(path).expanduser()
            try:
                full = full.resolve(strict=True)
            except (OSError, RuntimeError):
                raise KnowledgeError(f"{path}: no such folder or file") from None
            if str(full) not in resolved:
                resolved.append(str(full))
        self._ensure_root()
        target = self.path_for(name)
        temporary = target.with_name(f".new-{os.getpid()}-{target.name}")
        try:
            with KnowledgeIndex(temporary, create=True) as index:
                index.set_meta(name=name, paths=resolved, embedding_model=embedding_model.strip(),
                               embedding_url=embedding_url.strip(), chunk_tokens=int(chunk_tokens),
                               overlap_tokens=int(overlap_tokens), top_k=int(top_k), created=time.time(),
                               last_sync=None, last_result="never synced")
                index.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                index.db.execute("PRAGMA journal_mode = DELETE")  # one file to rename
            os.replace(temporary, target)
        except IndexFull as exc:
            raise KnowledgeError(str(exc)) from None
        except (OSError, IndexError_) as exc:
            raise KnowledgeError(f"the knowledge base could not be made ({exc})") from None
        finally:
            for leftover in (temporary, Path(f"{temporary}-wal"), Path(f"{temporary}-shm"), Path(f"{temporary}-journal")):
                with contextlib.suppress(OSError):
                    leftover.unlink()
        with KnowledgeIndex(target) as index:
            return index.info()

    def set_chunking(self, name: str, chunk_tokens: int, overlap_tokens: int) -> tuple[BaseInfo, bool]:
        """New chunk settings for a base; (its info, whether they changed). Chunks made with the old settings no
        longer match, so in the same transaction every indexed file's stat and hash are forgotten: the next sync
        reads and chunks each file again (its old chunks stay searchable until then)."""
        validate_chunking(chunk_tokens, overlap_tokens)
        path = self.find(name)
        if path is None:
            raise KnowledgeError(f"there is no knowledge base called {name!r}")
        with KnowledgeIndex(path) as index:
            info = index.info()
            changed = (info.chunk_tokens, info.overlap_tokens) != (chunk_tokens, overlap_tokens)
            if changed:
                with index.transaction() as db:
                    for key, value in (("chunk_tokens", chunk_tokens), ("overlap_tokens", overlap_tokens)):
                        db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET "
                                   "value = excluded.value", (key, str(int(value))))
                    db.execute("UPDATE documents SET size = NULL, mtime_ns = NULL, sha256 = NULL "
                               "WHERE status = 'indexed'")
                info = index.info()
        return info, changed

    def remove(self, name: str) -> BaseInfo:
        path = self.find(name)
        if path is None:
            raise KnowledgeError(f"there is no knowledge base called {name!r}")
        with KnowledgeIndex(path) as index:
            info = index.info()
        from hermes_desktop.core.knowledge import vectors

        vectors.forget(str(path.resolve()))
        for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            try:
                file.unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise KnowledgeError(f"{file} could not be deleted ({exc.strerror or exc})") from None
        with contextlib.suppress(KnowledgeError, sqlite3.DatabaseError):
            with self._registry() as db:
                db.execute("DELETE FROM session_bases WHERE base = ?", (info.name.casefold(),))
        return info

    # ------------------------------------------------------------------ sessions and settings
    @contextlib.contextmanager
    def _registry(self):  # type: ignore[no-untyped-def]
        self._ensure_root()
        db = sqlite3.connect(self.root / REGISTRY_FILE, timeout=10, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("CREATE TABLE IF NOT EXISTS session_bases (session_id TEXT NOT NULL, base TEXT NOT NULL, "
                       "name TEXT NOT NULL, PRIMARY KEY (session_id, base))")
            db.execute("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute("CREATE TABLE IF NOT EXISTS citations (session_id TEXT NOT NULL, turn INTEGER NOT NULL, "
                       "number INTEGER NOT NULL, passage TEXT NOT NULL, PRIMARY KEY (session_id, turn, number))")
            yield db
        except sqlite3.DatabaseError as exc:
            raise KnowledgeError(f"the knowledge registry could not be used ({exc})") from None
        finally:
            db.close()

    def session_bases(self, session_id: str) -> list[str]:
        """The names of the bases the session uses that still exist."""
        if not (self.root / REGISTRY_FILE).exists():
            return []
        with self._registry() as db:
            names = [r[0] for r in db.execute("SELECT name FROM session_bases WHERE session_id = ? ORDER BY name",
                                              (session_id,))]
        existing = {n.casefold(): n for n in self.names()}
        return [existing[n.casefold()] for n in names if n.casefold() in existing]

    def set_session_bases(self, session_id: str, names: list[str]) -> list[str]:
        """The session uses exactly these bases (each must exist); returns their names as stored."""
        existing = {n.casefold(): n for n in self.names()}
        chosen = []
        for name in names:
            found = existing.get(" ".join(name.split()).casefold())
            if found is None:
                raise KnowledgeError(f"there is no knowledge base called {name!r}")
            if found not in chosen:
                chosen.append(found)
        with self._registry() as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM session_bases WHERE session_id = ?", (session_id,))
            db.executemany("INSERT INTO session_bases (session_id, base, name) VALUES (?, ?, ?)",
                           [(session_id, n.casefold(), n) for n in chosen])
            db.execute("COMMIT")
        return chosen

    def save_citations(self, session_id: str, turn: int, passages: list[dict[str, object]], *,
                       replace: bool = False) -> None:
        """The passages given to the model in a turn (`turn`: its user message's id), numbered from 1 in order;
        `replace` starts the turn's list again (a regenerated turn). Kept so a reply's [n] can be shown later."""
        import json

        with self._registry() as db:
            db.execute("BEGIN IMMEDIATE")
            if replace:
                db.execute("DELETE FROM citations WHERE session_id = ? AND turn = ?", (session_id, turn))
            db.executemany("INSERT OR REPLACE INTO citations (session_id, turn, number, passage) VALUES (?, ?, ?, ?)",
                           [(session_id, turn, int(p["number"]), json.dumps(p, ensure_ascii=False))  # type: ignore[call-overload]
                            for p in passages])
            db.execute("COMMIT")

    def citations(self, session_id: str, turn: int) -> dict[int, dict[str, object]]:
        """number -> passage (knowledge_base, document, path, page, heading, text) of a turn."""
        import json

        if not (self.root / REGISTRY_FILE).exists():
            return {}
        with self._registry() as db:
            rows = db.execute("SELECT number, passage FROM citations WHERE session_id = ? AND turn = ?",
                              (session_id, turn)).fetchall()
        return {int(number): json.loads(text) for number, text in rows}

    def budget_tokens(self) -> int:
        if not (self.root / REGISTRY_FILE).exists():
            return DEFAULT_BUDGET_TOKENS
        with self._registry() as db:
            row = db.execute("SELECT value FROM settings WHERE key = 'knowledge_budget_tokens'").fetchone()
        try:
            return max(200, min(32_000, int(row[0]))) if row else DEFAULT_BUDGET_TOKENS
        except (TypeError, ValueError):
            return DEFAULT_BUDGET_TOKENS

    def set_budget_tokens(self, tokens: int) -> None:
        with self._registry() as db:
            db.execute("INSERT INTO settings (key, value) VALUES ('knowledge_budget_tokens', ?) ON CONFLICT (key) "
                       "DO UPDATE SET value = excluded.value", (str(int(tokens)),))

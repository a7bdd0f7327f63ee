"""Vector search (core/knowledge/vectors.py): numpy over a cached matrix ranks as the pure-Python loop does, and
the cache never answers from stale vectors: new vectors, a changed document, a removed document and another
process's writes are all seen. Real SQLite files; the sync's own storage calls."""

from __future__ import annotations

import random
from pathlib import Path

from hermes_desktop.core.knowledge import vectors
from hermes_desktop.core.knowledge.chunking import Chunk
from hermes_desktop.core.knowledge.index import KnowledgeIndex, normalised
from hermes_desktop.core.knowledge.registry import KnowledgeRegistry


def _base(tmp_path: Path) -> KnowledgeRegistry:
    folder = tmp_path / "docs"
    folder.mkdir()
    registry = KnowledgeRegistry(tmp_path / "knowledge")
    registry.create("v", [folder], embedding_model="m")
    return registry


def _store(index: KnowledgeIndex, name: str, n: int, rng: random.Random) -> list[int]:
    ids = index.store_document(name, size=0, mtime_ns=0, sha256=name, kind="markdown", pages=None, note="",
                               chunks=[Chunk(f"{name} {i}", None, (), 3) for i in range(n)])
    index.store_vectors("m", [(i, [rng.uniform(-1, 1) for _ in range(16)]) for i in ids])
    return ids


def test_numpy_ranks_as_the_python_loop_and_the_cache_follows_every_change(tmp_path: Path) -> None:
    rng = random.Random(5)
    registry = _base(tmp_path)
    query = normalised([rng.uniform(-1, 1) for _ in range(16)])
    with registry.open("v") as index:
        _store(index, "a.md", 300, rng)
        fast = index.vector_search("m", query, 10)
        slow = vectors.python_search(index.db, "m", query, 10)
        assert [c for c, _ in fast] == [c for c, _ in slow]
        assert all(abs(a - b) < 1e-5 for (_, a), (_, b) in zip(fast, slow))
        assert index.vector_search("m", query, 10) == fast  # from the cached matrix

        best = index.store_document("best.md", size=0, mtime_ns=0, sha256="b", kind="markdown", pages=None, note="",
                                    chunks=[Chunk("best", None, (), 1)])[0]
        index.store_vectors("m", [(best, query)])  # a new vector identical to the question
        assert index.vector_search("m", query, 1)[0][0] == best

        index.remove_documents(["best.md"])  # its vector goes with it
        assert index.vector_search("m", query, 10) == fast

    with KnowledgeIndex(registry.find("v")) as writer:  # another connection (the sync's, another process's)
        ids = _store(writer, "a.md", 300, random.Random(6))  # the document re-indexed: new chunks, new vectors
    with registry.open("v") as index:
        found = index.vector_search("m", query, 10)
        assert {c for c, _ in found} <= set(ids)
        assert [c for c, _ in found] == [c for c, _ in vectors.python_search(index.db, "m", query, 10)]


def test_a_base_larger_than_the_cache_is_searched_in_blocks(tmp_path: Path, monkeypatch) -> None:
    rng = random.Random(7)
    registry = _base(tmp_path)
    query = normalised([rng.uniform(-1, 1) for _ in range(16)])
    monkeypatch.setattr(vectors, "CACHE_LIMIT_BYTES", 1000)  # 200 vectors of 64 bytes do not fit
    monkeypatch.setattr(vectors, "BLOCK_ROWS", 30)
    with registry.open("v") as index:
        _store(index, "a.md", 200, rng)
        blocked = index.vector_search("m", query, 7)
        assert [c for c, _ in blocked] == [c for c, _ in vectors.python_search(index.db, "m", query, 7)]
        assert not [k for k in vectors._cache if k[0] == str(index.path.resolve())]  # nothing held


def test_new_chunk_settings_are_checked_and_make_the_next_sync_chunk_every_file_again(tmp_path: Path) -> None:
    import pytest

    from hermes_desktop.core.knowledge.registry import ChunkSettingsError
    from hermes_desktop.core.knowledge.sync import sync_base

    folder = tmp_path / "docs"
    folder.mkdir()
    long = " ".join(f"Sentence number {n} says something about the budget." for n in range(200))
    (folder / "a.md").write_text(long)
    (folder / "b.md").write_text("Short note.")
    registry = KnowledgeRegistry(tmp_path / "knowledge")
    registry.create("c", [folder])
    with registry.open("c") as index:
        sync_base(index)
        before = index.info().chunks
    with pytest.raises(ChunkSettingsError) as too_small:
        registry.set_chunking("c", 50, 10)
    assert too_small.value.code == "chunk_range" and too_small.value.params["min"] == 100
    with pytest.raises(ChunkSettingsError) as overlap:
        registry.set_chunking("c", 200, 150)
    assert overlap.value.code == "overlap_range" and overlap.value.params["max"] == 100
    assert registry.get("c").chunk_tokens == 350  # nothing saved by a refused change
    info, changed = registry.set_chunking("c", 120, 0)
    assert changed and (info.chunk_tokens, info.overlap_tokens) == (120, 0)
    assert registry.set_chunking("c", 120, 0)[1] is False  # the same values: nothing to do
    with registry.open("c") as index:
        assert index.info().chunks == before  # still searchable until the next sync
        result = sync_base(index)
        assert sorted(result.read) == ["docs/a.md", "docs/b.md"]  # every file chunked again
        assert index.info().chunks > before
        assert sync_base(index).read == []  # and then nothing until a file changes

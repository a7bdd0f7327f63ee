"""Retrieval quality on a bilingual question set of our own (tests/support/knowledge_corpus.py): recall@5 with BM25
alone and hybrid (BM25 + vectors from the test embeddings server over HTTP, fused by RRF), printed."""

from __future__ import annotations

from pathlib import Path

from hermes_desktop.core.knowledge.embeddings import Endpoint
from hermes_desktop.core.knowledge.registry import KnowledgeRegistry
from hermes_desktop.core.knowledge.search import search
from hermes_desktop.core.knowledge.sync import sync_base
from tests.support.embeddings_server import EmbeddingsServer
from tests.support.knowledge_corpus import DOCUMENTS, QUESTIONS


def _recall(registry: KnowledgeRegistry, endpoint: object, vectors: bool) -> tuple[float, float, list[str]]:
    """(recall@5, recall@1, the questions whose document was not first)."""
    found, first, missed = 0, 0, []
    for question, expected in QUESTIONS:
        hits = search(registry, ["corpus"], question, top_k=5, endpoint_for=endpoint, vectors=vectors).hits  # type: ignore[arg-type]
        documents = [h.document.split("/", 1)[1] for h in hits]
        found += expected in documents
        first += documents[:1] == [expected]
        if documents[:1] != [expected]:
            missed.append(f"{question} -> {documents[:3]}")
    return found / len(QUESTIONS), first / len(QUESTIONS), missed


def test_recall_at_5_in_chinese_and_english(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name, text in DOCUMENTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    with EmbeddingsServer() as server:
        registry = KnowledgeRegistry(tmp_path / "knowledge")
        registry.create("corpus", [folder], embedding_model="hash-384", embedding_url=server.base_url,
                        chunk_tokens=120, overlap_tokens=20)
        endpoint = lambda model, url: Endpoint(url, None, model)  # noqa: E731
        with registry.open("corpus") as index:
            sync_base(index, endpoint_for=endpoint)
        bm25, bm25_first, bm25_missed = _recall(registry, endpoint, vectors=False)
        hybrid, hybrid_first, hybrid_missed = _recall(registry, endpoint, vectors=True)
    zh = sum(1 for q, _ in QUESTIONS if not q.isascii())
    print(f"\nrecall@5 over {len(QUESTIONS)} questions ({zh} Chinese, {len(QUESTIONS) - zh} English), "
          f"{len(DOCUMENTS)} documents: BM25 {bm25:.2f}, hybrid {hybrid:.2f}; recall@1: BM25 {bm25_first:.2f}, "
          f"hybrid {hybrid_first:.2f}")
    for line in bm25_missed:
        print(f"  BM25 not first: {line}")
    for line in hybrid_missed:
        print(f"  hybrid not first: {line}")
    assert bm25 >= 0.9 and bm25_first >= 0.75
    assert hybrid >= bm25 - 0.05  # vectors from a hashing embedder must not make it worse


def test_a_real_neural_model_over_http_finds_passages_by_meaning(tmp_path: Path) -> None:
    """all-MiniLM-L6-v2 from its PyPI package (tests/support/minilm.py), served over HTTP: the model's documented
    similarity is reproduced, and hybrid search finds English passages that share no word with the question."""
    import pytest

    from tests.support import minilm

    reason = minilm.available()
    if reason:
        pytest.skip(reason)
    model = minilm.model()
    a, b = model.embed("A man is eating food."), model.embed("A man is eating a piece of bread.")
    assert abs(sum(x * y for x, y in zip(a, b)) - 0.7553) < 0.002  # the value sentence-transformers documents
    folder = tmp_path / "english"
    folder.mkdir()
    english = {name: text for name, text in DOCUMENTS.items() if text.isascii()}
    for name, text in english.items():
        (folder / name).write_text(text, encoding="utf-8")
    paraphrases = [("Which planet has a huge mountain made by lava?", "mars.md"),
                   ("How do green leaves turn light into food?", "photosynthesis.md"),
                   ("What helps me rest better at night?", "sleep.md"),
                   ("How do electric vehicles recover power when stopping?", "cars.md")]
    with EmbeddingsServer(model="minilm") as server:
        registry = KnowledgeRegistry(tmp_path / "knowledge")
        registry.create("english", [folder], embedding_model="all-MiniLM-L6-v2", embedding_url=server.base_url,
                        chunk_tokens=120, overlap_tokens=20)
        endpoint = lambda model_name, url: Endpoint(url, None, model_name)  # noqa: E731
        with registry.open("english") as index:
            assert sync_base(index, endpoint_for=endpoint).vectors == index.info().chunks
        first = {}
        for vectors in (False, True):
            first[vectors] = sum(
                [h.document.split("/", 1)[1] for h in search(registry, ["english"], q, top_k=1, endpoint_for=endpoint,
                                                             vectors=vectors).hits] == [doc] for q, doc in paraphrases)
    print(f"\nall-MiniLM-L6-v2 over HTTP, {len(paraphrases)} paraphrased questions, recall@1: "
          f"BM25 {first[False]}/{len(paraphrases)}, hybrid {first[True]}/{len(paraphrases)}")
    assert first[True] >= first[False] and first[True] >= 3

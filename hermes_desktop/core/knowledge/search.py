"""Search one or more knowledge bases: BM25 always, fused with vector similarity by reciprocal rank fusion.

`search(registry, names, question, top_k, endpoint_for)` returns `Hit`s best first. For each base: BM25 over FTS5
(query.py); when the base names an embedding model and has vectors, the question is embedded once per endpoint and
compared with every stored vector (index.py), and the two rankings are fused by RRF (score = Σ 1/(60 + rank)), the
usual choice when the two scores are not comparable. Without vectors a hit's score is BM25's (negated, so higher is
better). Several bases are merged by score. An endpoint that fails means BM25 alone for this search, and `SearchOutcome.notice` says
so (the caller shows it once).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hermes_desktop.core.knowledge.embeddings import QUERY_TIMEOUT_S, EmbeddingUnavailable, EndpointFor, embed
from hermes_desktop.core.knowledge.index import IndexError_, Passage
from hermes_desktop.core.knowledge.registry import KnowledgeError, KnowledgeRegistry

RRF_K = 60
CANDIDATES = 50


@dataclass(frozen=True, slots=True)
class Hit:
    base: str
    document: str
    page: int | None
    heading: tuple[str, ...]
    text: str
    score: float
    chunk_id: int
    how: str  # "bm25", "vector" or "hybrid"
    path: str = ""  # the file on disk (to open it at its page), "" when its folder is not known

    def to_json(self) -> dict[str, object]:
        return {"knowledge_base": self.base, "document": self.document, "page": self.page,
                "heading": " / ".join(self.heading), "text": self.text, "score": round(self.score, 6)}


@dataclass
class SearchOutcome:
    hits: list[Hit]
    notice: str = ""  # e.g. the embeddings endpoint failed: BM25 only
    problems: list[str] = field(default_factory=list)  # bases that could not be searched


def rrf(rankings: list[list[int]], k: int = RRF_K) -> dict[int, float]:
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank + 1)
    return fused


def search(registry: KnowledgeRegistry, names: list[str], question: str, *, top_k: int = 5,
           endpoint_for: EndpointFor | None = None, vectors: bool = True) -> SearchOutcome:
    """Blocking (SQLite, and the embeddings endpoint when a base has vectors)."""
    outcome = SearchOutcome([])
    scored: list[tuple[float, Hit]] = []
    query_vectors: dict[tuple[str, str], list[float] | None] = {}
    for name in names:
        try:
            index = registry.open(name)
        except (KnowledgeError, IndexError_) as exc:
            outcome.problems.append(f"{name}: {exc}")
            continue
        with index:
            info = index.info()
            try:
                bm25 = index.bm25(question, CANDIDATES)
            except Exception as exc:  # sqlite3 errors on a damaged file: this base is skipped, said
                outcome.problems.append(f"{info.name}: {exc}")
                continue
            vector_ranked: list[tuple[int, float]] = []
            if vectors and info.embedding_model and info.vectors and endpoint_for is not None:
                key = (info.embedding_model, info.embedding_url)
                if key not in query_vectors:
                    query_vectors[key] = _embed_query(endpoint_for, key, question, outcome)
                query = query_vectors[key]
                if query is not None:
                    vector_ranked = index.vector_search(info.embedding_model, query, CANDIDATES)
            if vector_ranked:
                fused = rrf([[c for c, _ in bm25], [c for c, _ in vector_ranked]])
                ranked = sorted(fused.items(), key=lambda item: -item[1])[:max(top_k, 1) * 2]
                in_bm25 = {c for c, _ in bm25}
                in_vec = {c for c, _ in vector_ranked}
                how = {c: "hybrid" if c in in_bm25 and c in in_vec else "bm25" if c in in_bm25 else "vector"
                       for c, _ in ranked}
            else:
                ranked = bm25[:max(top_k, 1) * 2]  # BM25's own score (higher is better)
                how = {c: "bm25" for c, _ in ranked}
            for passage in index.passages(ranked):
                scored.append((passage.score, _hit(info.name, passage, how.get(passage.chunk_id, "bm25"),
                                                   source_path(info.paths, passage.document))))
    scored.sort(key=lambda item: -item[0])
    outcome.hits = [hit for _, hit in scored[:max(1, top_k)]]
    return outcome


def _hit(base: str, passage: Passage, how: str, path: str) -> Hit:
    return Hit(base, passage.document, passage.page, passage.heading, passage.text, passage.score,
               passage.chunk_id, how, path)


def source_path(roots: list[str], document: str) -> str:
    """The file a document label ("<folder name>/<path inside>", or a single file's name) stands for."""
    from pathlib import Path

    for root in roots:
        base = Path(root)
        if document == base.name and not base.is_dir():
            return str(base)
        prefix = base.name + "/"
        if document.startswith(prefix):
            return str(base / document[len(prefix):])
    return ""


def _embed_query(endpoint_for: EndpointFor, key: tuple[str, str], question: str,
                 outcome: SearchOutcome) -> list[float] | None:
    endpoint = endpoint_for(*key)
    if endpoint is None:
        return None
    try:
        return embed(endpoint, [question], timeout=QUERY_TIMEOUT_S)[0]
    except EmbeddingUnavailable as exc:
        outcome.notice = f"{exc}; searching with BM25 only"
        return None

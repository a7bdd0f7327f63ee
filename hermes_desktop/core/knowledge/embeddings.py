"""Vectors from an OpenAI-compatible `/embeddings` endpoint, for knowledge bases that name an embedding model.

Where: the base's own `embedding_url` (a local server: Ollama, LM Studio, llama.cpp) or, when it has none, the
active provider's endpoint. The provider's key goes only to the provider's own URL; a base's own URL gets no key
(a secret goes only where it was given). Never a model download: the server has the model or says no.

Any failure (no server, HTTP error, time-out, an answer of the wrong shape) raises `EmbeddingUnavailable` with one
line; the callers fall back to BM25 alone and say so once.

Storage (index.py `vectors`): float32 BLOBs, normalised when stored, compared by a dot product in Python. Judged
against sqlite-vec: its `vec_distance_cosine` would do the same loop in C, but loading an SQLite extension needs
`enable_load_extension`, which this Python's sqlite3 (and many distributions') is built without, so it cannot be
relied on; plain BLOBs keep the file readable by any SQLite. See docs/knowledge.md for the measured cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

QUERY_TIMEOUT_S = 5.0
INDEX_TIMEOUT_S = 60.0
BATCH = 32


class EmbeddingUnavailable(Exception):
    """The embeddings endpoint did not give vectors; one line (never the key)."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    base_url: str
    api_key: str | None
    model: str


# (base's embedding model, base's embedding url) -> the endpoint to ask, or None when there is none to ask.
EndpointFor = Callable[[str, str], "Endpoint | None"]


def embed(endpoint: Endpoint, texts: list[str], *, timeout: float = INDEX_TIMEOUT_S) -> list[list[float]]:
    """Vectors for `texts` (blocking). Raises EmbeddingUnavailable."""
    import openai

    if not texts:
        return []
    try:
        client = openai.OpenAI(base_url=endpoint.base_url, api_key=endpoint.api_key or "none", timeout=timeout,
                               max_retries=0)
        with client:
            answer = client.embeddings.create(model=endpoint.model, input=texts)
        from hermes_desktop.core.usage import hooks as usage_hooks  # the tokens it cost (core/usage/hooks.py)

        usage_hooks.embedding(answer, model=endpoint.model, texts=texts)
        vectors = [list(map(float, item.embedding)) for item in sorted(answer.data, key=lambda d: d.index)]
    except Exception as exc:  # openai's errors, httpx's, a strange answer
        detail = " ".join(str(exc).split())[:200]
        raise EmbeddingUnavailable(f"the embeddings endpoint {endpoint.base_url} did not answer with vectors for "
                                   f"{endpoint.model} ({type(exc).__name__}: {detail})") from None
    if len(vectors) != len(texts) or any(not v for v in vectors):
        raise EmbeddingUnavailable(f"the embeddings endpoint gave {len(vectors)} vectors for {len(texts)} texts")
    return vectors


class ProviderEmbedder:
    """`embed` for one endpoint with the query time-out, in the shape workflow memory takes (model, vectors)."""

    def __init__(self, endpoint: Endpoint, timeout: float = QUERY_TIMEOUT_S) -> None:
        self.endpoint = endpoint
        self.model = endpoint.model
        self.timeout = timeout

    def vectors(self, texts: list[str]) -> list[list[float]]:
        return embed(self.endpoint, texts, timeout=self.timeout)

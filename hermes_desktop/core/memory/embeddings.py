"""Optional embeddings for recall, through the provider's own `/embeddings` endpoint.

Only when the profile names an embedding model (`ProviderProfile.embedding_model`); never a model download. A
memory's vector is fetched after it is saved and kept in its row (`embedding`, float32, with `embedding_model`), so
a later change of model simply stops using the old vectors. At recall the user's message is embedded once, and the
cosine similarity to the vectors of the BM25 candidates and the newest EMBEDDED_POOL memories of the profile is
mixed into their relevance (core/memory/recall.py), which finds a memory that shares no word with the message
("something warm to drink?" -> "prefers green tea"). Any failure (no endpoint, HTTP error, time-out, a strange
answer) means BM25 alone, with one log line; the turn never waits more than TIMEOUT_S for it, and after a failure
the profile's endpoint rests for REST_S, until its URL or model changes (a hanging or missing endpoint costs one turn
its time-out, not every turn).
"""

from __future__ import annotations

import logging
import math
import time
from array import array
from typing import Any, Callable

from hermes_desktop.core.memory.model import Memory
from hermes_desktop.core.memory.store import MemoryStore

log = logging.getLogger(__name__)

TIMEOUT_S = 5.0
REST_S = 600.0  # after a failure, no embedding request for this long (per profile)
EMBEDDED_POOL = 200


def pack(vector: list[float]) -> bytes:
    return array("f", vector).tobytes()


def unpack(blob: bytes) -> list[float]:
    values = array("f")
    values.frombytes(blob)
    return values.tolist()


def cosine(a: list[float], b: list[float]) -> float:
    if len(a) != len(b) or not a:
        return 0.0
    dot = sum(x * y for x, y in zip(a, b))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


class Embedder:
    """`profile(profile_id)` gives the ProviderProfile (or None); `api_key(profile)` its key (blocking)."""

    def __init__(self, store: MemoryStore, profile: Callable[[str], Any], api_key: Callable[[Any], str | None]) -> None:
        self.store = store
        self._profile = profile
        self._api_key = api_key
        self._resting: dict[str, float] = {}  # profile, URL, model -> monotonic time until which it is not asked

    def _model(self, profile_id: str) -> tuple[Any, str] | None:
        profile = self._profile(profile_id)
        model = getattr(profile, "embedding_model", None) if profile is not None else None
        return (profile, model) if model else None

    def embed(self, profile: Any, model: str, texts: list[str]) -> list[list[float]] | None:
        """Vectors for `texts` from the profile's server (blocking), or None after logging why not."""
        import openai

        key = f"{getattr(profile, 'id', '')}\n{getattr(profile, 'base_url', '')}\n{model}"  # a fix is tried at once
        if time.monotonic() < self._resting.get(key, 0.0):
            return None
        try:
            client = openai.OpenAI(base_url=profile.base_url, api_key=self._api_key(profile) or "none",
                                   timeout=TIMEOUT_S, max_retries=0)
            with client:
                answer = client.embeddings.create(model=model, input=texts)
            from hermes_desktop.core.usage import hooks as usage_hooks  # the tokens it cost (core/usage/hooks.py)

            usage_hooks.embedding(answer, model=model, texts=texts, profile_id=getattr(profile, "id", None))
            vectors = [list(map(float, item.embedding)) for item in sorted(answer.data, key=lambda d: d.index)]
            if len(vectors) != len(texts):
                raise ValueError(f"{len(vectors)} vectors for {len(texts)} texts")
            return vectors
        except Exception as exc:  # any failure: BM25 alone, and the endpoint rests
            self._resting[key] = time.monotonic() + REST_S
            log.warning("memory embeddings unavailable (%s: %s); recall uses BM25 only for the next %d minutes",
                        type(exc).__name__, exc, REST_S // 60)
            return None

    def embed_memories(self, memories: list[Memory]) -> None:
        """Fetch and keep the vectors of newly saved memories (blocking; run off the event loop)."""
        by_profile: dict[str, list[Memory]] = {}
        for memory in memories:
            by_profile.setdefault(memory.profile_id, []).append(memory)
        for profile_id, group in by_profile.items():
            found = self._model(profile_id)
            if found is None:
                continue
            profile, model = found
            vectors = self.embed(profile, model, [m.statement for m in group])
            for memory, vector in zip(group, vectors or []):
                self.store.set_embedding(memory.id, pack(vector), model)

    def similarity(self, profile_id: str, text: str) -> Callable[[list[int]], dict[int, float]] | None:
        """For recall: a function giving the cosine similarity of `text` to the memories with these ids (and the
        newest embedded memories, `pool()`), or None when embeddings are off or failed."""
        found = self._model(profile_id)
        if found is None or not text.strip():
            return None
        profile, model = found
        vectors = self.embed(profile, model, [text])
        if not vectors:
            return None
        query = vectors[0]

        def score(ids: list[int]) -> dict[int, float]:
            stored = self.store.embeddings(ids, model)
            return {memory_id: cosine(query, unpack(blob)) for memory_id, blob in stored.items()}

        score.pool = lambda: self.store.embedded_ids(profile_id, model, EMBEDDED_POOL)  # type: ignore[attr-defined]
        return score

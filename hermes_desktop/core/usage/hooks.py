"""Usage of the requests that do not go through ModelClient: `/embeddings` (knowledge bases, memory recall).

Those modules make a short-lived synchronous openai client of their own in a worker thread, far from the
runtime, so they report here: the runtime installs its recorder as this process's sink when it opens
(`install`), and `embedding()` turns an answer's `usage.prompt_tokens` (or, without it, our estimate of the
texts, marked estimated) into one record with purpose "embedding". The session comes from the context variable
(core/usage/scope.py), which `asyncio.to_thread` carries into the worker. Never raises: a usage record never
breaks a search or an index.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

from hermes_desktop.core.usage.counts import RequestUsage, TokenCounts

log = logging.getLogger(__name__)

_sink: Callable[[RequestUsage], None] | None = None


def install(sink: Callable[[RequestUsage], None] | None) -> None:
    global _sink
    _sink = sink


def completion(answer: Any, *, model: str, purpose: str, estimate_input: int) -> None:
    """A plain (not streamed) chat completion's usage: Settings' and the setup dialog's Test connection, which
    sends one tiny request through its own client before any provider is saved."""
    sink = _sink
    if sink is None:
        return
    try:
        from hermes_desktop.core.usage.counts import from_server

        usage = getattr(answer, "usage", None)
        raw = usage.model_dump() if hasattr(usage, "model_dump") else {}
        counts = from_server(raw, estimate_input=lambda: estimate_input, estimate_output=lambda: 1)
        sink(RequestUsage(time.time(), None, model, purpose, None, counts))
    except Exception:  # noqa: BLE001
        log.exception("could not report a request's usage")


def embedding(answer: Any, *, model: str, texts: list[str], profile_id: str | None = None) -> None:
    sink = _sink
    if sink is None:
        return
    try:
        from hermes_desktop.core.tokens import estimate_text_tokens
        from hermes_desktop.core.usage.scope import current_session

        usage = getattr(answer, "usage", None)
        prompt = getattr(usage, "prompt_tokens", None)
        estimated = not isinstance(prompt, int) or prompt < 0
        tokens = sum(estimate_text_tokens(t) for t in texts) if estimated else prompt
        sink(RequestUsage(time.time(), profile_id, model, "embedding", current_session(),
                          TokenCounts(tokens, 0, 0, 0, estimated)))
    except Exception:  # noqa: BLE001
        log.exception("could not report an embeddings request's usage")

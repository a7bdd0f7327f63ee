"""One request's tokens: from the server's own `usage` object, or estimated when it sent none.

Fields and who sends them:
- `prompt_tokens`: every OpenAI-compatible server. It includes the cached part.
- cached input: OpenAI, and the servers that copy its shape (Qwen/DashScope, GLM and others), put it in
  `prompt_tokens_details.cached_tokens`; DeepSeek sends `prompt_cache_hit_tokens` (with `prompt_cache_miss_tokens`);
  Moonshot (Kimi) sends `cached_tokens` at the top of `usage`. The first one present wins.
- `completion_tokens`: includes reasoning for OpenAI, DeepSeek and Qwen (their price pages bill thinking as output).
- reasoning: `completion_tokens_details.reasoning_tokens` (OpenAI, DeepSeek, OpenRouter, Qwen).

A cached or reasoning count larger than its total is clipped to the total (a server's slip must not make a
negative uncached count, and with it a negative cost).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True, slots=True)
class TokenCounts:
    """Tokens of one request. `cached_input` is part of `input`; `reasoning` is part of `output`."""

    input: int = 0
    cached_input: int = 0
    output: int = 0
    reasoning: int = 0
    estimated: bool = False

    @property
    def uncached_input(self) -> int:
        return max(0, self.input - self.cached_input)


@dataclass(frozen=True, slots=True)
class RequestUsage:
    """What the model client reports after each request the server accepted (the recorder's input)."""

    at: float
    profile_id: str | None
    model: str
    purpose: str
    session_id: str | None
    counts: TokenCounts


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _details(usage: dict[str, Any], key: str) -> dict[str, Any]:
    details = usage.get(key)
    return details if isinstance(details, dict) else {}


def cached_tokens(usage: dict[str, Any]) -> int | None:
    """The cached part of the prompt in whichever field this server uses (module docstring), or None."""
    for value in (_details(usage, "prompt_tokens_details").get("cached_tokens"),
                  usage.get("prompt_cache_hit_tokens"), usage.get("cached_tokens")):
        if (found := _count(value)) is not None:
            return found
    return None


def reasoning_tokens(usage: dict[str, Any]) -> int | None:
    return _count(_details(usage, "completion_tokens_details").get("reasoning_tokens"))


def from_server(usage: dict[str, Any] | None, *, estimate_input: Callable[[], int],
                estimate_output: Callable[[], int]) -> TokenCounts:
    """The counts for one request. Where the server gave a total, it is used; a missing total is estimated
    (and the record marked estimated). The estimators are called only when needed."""
    usage = usage if isinstance(usage, dict) else {}
    prompt = _count(usage.get("prompt_tokens"))
    completion = _count(usage.get("completion_tokens"))
    estimated = prompt is None or completion is None
    if prompt is None:
        prompt = estimate_input()
    if completion is None:
        completion = estimate_output()
    cached = min(cached_tokens(usage) or 0, prompt)
    reasoning = min(reasoning_tokens(usage) or 0, completion)
    return TokenCounts(prompt, cached, completion, reasoning, estimated)

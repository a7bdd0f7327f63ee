"""Prices per million tokens: a table shipped with the app, and the user's edits over it.

A price is in the provider's own currency (USD or CNY) and has three rates: uncached input, cached input (a
prompt-cache hit) and output. Reasoning tokens are output tokens on every price page we read (OpenAI, DeepSeek,
Qwen, Gemini), so they are billed at the output rate and never twice. A model is matched by its name in lower
case, without a router's `vendor/` prefix; a dated or `-latest` name finds its base model (`gpt-4o-2024-08-06`
is `gpt-4o`), but nothing else does: `gpt-5-pro` never gets `gpt-5`'s price. A model without a price shows
tokens only: a cost is never guessed.

The shipped prices were read from the providers' own pages (listed in docs/usage.md with the date they were
checked). Prices change; the user's edits (Settings › Usage) always win, and a shipped price can be removed.
Tiered prices (Gemini 2.5 Pro above 200K prompt tokens, GLM above 32K) use the first tier: said in docs/usage.md.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Mapping

from hermes_desktop.core.usage.counts import TokenCounts

CURRENCIES = ("USD", "CNY")
PER = 1_000_000
CHECKED = "2026-12-02"


@dataclass(frozen=True, slots=True)
class Price:
    """Per million tokens, in `currency`."""

    input: float
    cached_input: float
    output: float
    currency: str = "USD"

    def __post_init__(self) -> None:
        if self.currency not in CURRENCIES:
            raise ValueError(f"unknown currency {self.currency!r} (use USD or CNY)")
        for name in ("input", "cached_input", "output"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or value < 0:
                raise ValueError(f"the {name.replace('_', ' ')} price must be a number of 0 or more")

    def cost(self, counts: TokenCounts) -> float:
        return (counts.uncached_input * self.input + counts.cached_input * self.cached_input
                + counts.output * self.output) / PER


def _p(input: float, cached: float, output: float, currency: str = "USD") -> Price:
    return Price(input, cached, output, currency)


# Model name -> price. Sources per provider in docs/usage.md.
SHIPPED: dict[str, Price] = {
    # OpenAI (platform.openai.com/docs/pricing), USD
    "gpt-5": _p(1.25, 0.125, 10.0), "gpt-5-mini": _p(0.25, 0.025, 2.0), "gpt-5-nano": _p(0.05, 0.005, 0.40),
    "gpt-4.1": _p(2.0, 0.50, 8.0), "gpt-4.1-mini": _p(0.40, 0.10, 1.60), "gpt-4.1-nano": _p(0.10, 0.025, 0.40),
    "gpt-4o": _p(2.50, 1.25, 10.0), "gpt-4o-mini": _p(0.15, 0.075, 0.60),
    "o3": _p(2.0, 0.50, 8.0), "o4-mini": _p(1.10, 0.275, 4.40), "o3-mini": _p(1.10, 0.55, 4.40),
    # Anthropic (platform.claude.com/docs/en/about-claude/pricing), USD; cached = cache hits
    "claude-opus-4-5": _p(5.0, 0.50, 25.0), "claude-opus-4-1": _p(15.0, 1.50, 75.0),
    "claude-opus-4": _p(15.0, 1.50, 75.0), "claude-sonnet-4-5": _p(3.0, 0.30, 15.0),
    "claude-sonnet-4": _p(3.0, 0.30, 15.0), "claude-3-7-sonnet": _p(3.0, 0.30, 15.0),
    "claude-haiku-4-5": _p(1.0, 0.10, 5.0), "claude-3-5-haiku": _p(0.80, 0.08, 4.0),
    # DeepSeek (api-docs.deepseek.com/quick_start/pricing), USD; cached = cache hit
    "deepseek-chat": _p(0.56, 0.07, 1.68), "deepseek-reasoner": _p(0.56, 0.07, 1.68),
    # Qwen, Alibaba Cloud Model Studio China (help.aliyun.com/zh/model-studio/models), CNY; implicit cache 20 %
    "qwen-max": _p(2.4, 0.48, 9.6, "CNY"), "qwen-plus": _p(0.8, 0.16, 2.0, "CNY"),
    "qwen-turbo": _p(0.3, 0.06, 0.6, "CNY"), "qwen3-max": _p(6.0, 1.2, 24.0, "CNY"),
    # Moonshot / Kimi (platform.moonshot.cn/docs/pricing/chat), CNY; cached = cache hit
    "kimi-k2-0905-preview": _p(4.0, 1.0, 16.0, "CNY"), "kimi-k2-0711-preview": _p(4.0, 1.0, 16.0, "CNY"),
    "kimi-k2-turbo-preview": _p(8.0, 1.0, 58.0, "CNY"), "kimi-k2-thinking": _p(4.0, 1.0, 16.0, "CNY"),
    "moonshot-v1-8k": _p(2.0, 2.0, 10.0, "CNY"), "moonshot-v1-32k": _p(5.0, 5.0, 20.0, "CNY"),
    "moonshot-v1-128k": _p(10.0, 10.0, 30.0, "CNY"),
    # Zhipu GLM (open.bigmodel.cn/pricing), CNY; first tier (prompt under 32K tokens)
    "glm-4.6": _p(2.0, 0.4, 8.0, "CNY"), "glm-4.5": _p(2.0, 0.4, 8.0, "CNY"),
    "glm-4.5-air": _p(0.8, 0.16, 2.0, "CNY"), "glm-4-flash": _p(0.0, 0.0, 0.0, "CNY"),
    # Google Gemini (ai.google.dev/gemini-api/docs/pricing), USD; prompts up to 200K tokens
    "gemini-2.5-pro": _p(1.25, 0.125, 10.0), "gemini-2.5-flash": _p(0.30, 0.03, 2.50),
    "gemini-2.5-flash-lite": _p(0.10, 0.01, 0.40), "gemini-2.0-flash": _p(0.10, 0.025, 0.40),
}

# What may follow a listed name and still be the same model: a date or version stamp, or "latest".
_SAME_MODEL_SUFFIX = re.compile(r"-(latest|\d{8}|\d{4}-\d{2}-\d{2}|\d{4}|\d{3}|v\d+(\.\d+)?)$")


def normalise(model: str) -> str:
    """The name prices are looked up by: lower case, without a router's `vendor/` prefix or a `:tag`."""
    name = model.strip().lower().rsplit("/", 1)[-1]
    return name.split(":", 1)[0]


class PriceTable:
    """The shipped prices with the user's edits over them (`None`: the user removed a shipped price)."""

    def __init__(self, edits: Mapping[str, Price | None] | None = None,
                 shipped: Mapping[str, Price] = SHIPPED) -> None:
        self.shipped = dict(shipped)
        self.edits = {normalise(k): v for k, v in (edits or {}).items()}

    def entries(self) -> dict[str, Price]:
        """Every model with a price, as it is used (sorted by name)."""
        merged: dict[str, Price] = dict(self.shipped)
        for name, price in self.edits.items():
            if price is None:
                merged.pop(name, None)
            else:
                merged[name] = price
        return dict(sorted(merged.items()))

    def is_edited(self, model: str) -> bool:
        return normalise(model) in self.edits

    def price(self, model: str) -> Price | None:
        """The price for a model as a request named it, or None (then: tokens only, never a guessed cost)."""
        table = self.entries()
        name = normalise(model)
        if name in table:
            return table[name]
        stem = _SAME_MODEL_SUFFIX.sub("", name)
        while stem != name:  # e.g. claude-sonnet-4-5-20250929 -> claude-sonnet-4-5; a-b-2025-01-01 twice
            if stem in table:
                return table[stem]
            name, stem = stem, _SAME_MODEL_SUFFIX.sub("", stem)
        return None

    def with_edit(self, model: str, price: Price | None) -> "PriceTable":
        """A new table with one model's price set (`None`: no price for it, even a shipped one)."""
        return PriceTable({**self.edits, normalise(model): price}, self.shipped)

    def without_edit(self, model: str) -> "PriceTable":
        """A new table with the user's edit for one model taken back (the shipped price, if any, applies again)."""
        edits = dict(self.edits)
        edits.pop(normalise(model), None)
        return PriceTable(edits, self.shipped)

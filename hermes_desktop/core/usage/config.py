"""`usage.json` in the config folder: the user's price edits and the monthly budget.

Its own file rather than fields of settings.json: prices are a table the user edits row by row, and keeping
them apart leaves settings.json (and its merge rules) alone. A file that does not parse is reported and left as
it is (never overwritten by a save until the user saves from Settings, which writes a whole new file); the
shipped prices and no budget apply meanwhile.

    {"prices": {"gpt-4o": {"input": 2.5, "cached_input": 1.25, "output": 10, "currency": "USD"},
                "deepseek-chat": null},
     "budget": {"amount": 20, "currency": "USD", "warn_at": 0.8}}
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermes_desktop.core.paths import ensure_dir
from hermes_desktop.core.settings import write_atomically
from hermes_desktop.core.usage.prices import CURRENCIES, Price, PriceTable

log = logging.getLogger(__name__)

FILE_NAME = "usage.json"
DEFAULT_WARN_AT = 0.8


@dataclass(frozen=True, slots=True)
class Budget:
    """A monthly limit in one currency. Spend in another currency is shown beside it, never converted."""

    amount: float
    currency: str = "USD"
    warn_at: float = DEFAULT_WARN_AT  # the share of the amount at which the status bar warns

    def __post_init__(self) -> None:
        if not isinstance(self.amount, (int, float)) or not math.isfinite(self.amount) or self.amount <= 0:
            raise ValueError("the monthly budget must be a number above 0")
        if self.currency not in CURRENCIES:
            raise ValueError(f"unknown currency {self.currency!r} (use USD or CNY)")
        if not 0 < self.warn_at <= 1:
            raise ValueError("the warning share must be above 0 and at most 1")


@dataclass(frozen=True, slots=True)
class UsageConfig:
    price_edits: dict[str, Price | None] = field(default_factory=dict)
    budget: Budget | None = None
    problem: str | None = None  # why the file could not be read (shown in Settings), None when it was fine

    def prices(self) -> PriceTable:
        return PriceTable(self.price_edits)


def _price(data: Any) -> Price | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("a price is an object with input, cached_input, output and currency")
    return Price(float(data["input"]), float(data.get("cached_input", data["input"])), float(data["output"]),
                 str(data.get("currency", "USD")))


def parse(text: str) -> UsageConfig:
    """Raises ValueError with one line saying what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg}, line {exc.lineno})") from exc
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    edits: dict[str, Price | None] = {}
    for name, value in (data.get("prices") or {}).items():
        try:
            edits[str(name)] = _price(value)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"the price of {name!r}: {exc}") from exc
    budget = None
    if isinstance(data.get("budget"), dict):
        b = data["budget"]
        try:
            budget = Budget(float(b["amount"]), str(b.get("currency", "USD")), float(b.get("warn_at", DEFAULT_WARN_AT)))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"the budget: {exc}") from exc
    return UsageConfig(edits, budget)


def dump(config: UsageConfig) -> str:
    prices = {name: None if p is None else {"input": p.input, "cached_input": p.cached_input, "output": p.output,
                                            "currency": p.currency}
              for name, p in sorted(config.price_edits.items())}
    data: dict[str, Any] = {"prices": prices}
    if config.budget is not None:
        data["budget"] = {"amount": config.budget.amount, "currency": config.budget.currency,
                          "warn_at": config.budget.warn_at}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def load(config_dir: Path) -> UsageConfig:
    path = config_dir / FILE_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return UsageConfig()
    except OSError as exc:
        return UsageConfig(problem=f"{path} could not be read: {exc.strerror or exc}")
    try:
        return parse(text)
    except ValueError as exc:
        log.warning("%s: %s", path, exc)
        return UsageConfig(problem=f"{path}: {exc}")


def save(config_dir: Path, config: UsageConfig) -> None:
    ensure_dir(config_dir)
    write_atomically(config_dir / FILE_NAME, dump(config))

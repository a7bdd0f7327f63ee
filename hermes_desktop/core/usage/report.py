"""Totals for a period from grouped usage rows and a price table: pure functions, no I/O but `write_csv`'s file.

Every bucket (a day, a month, a model, a session, an assistant, a purpose) sums tokens in four kinds (input,
cached input, output, reasoning) and cost per currency. Only rows whose model has a price add cost; the tokens
of the others are counted in `unpriced_tokens`, so a view can say "plus N tokens without a price" instead of
showing a total that silently leaves them out. Costs in USD and CNY are kept apart, never converted (no
exchange rate is invented either).
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Callable, Iterable

from hermes_desktop.core.usage.counts import TokenCounts
from hermes_desktop.core.usage.ledger import UsageRow
from hermes_desktop.core.usage.prices import PriceTable

GROUPINGS = ("model", "day", "session", "month", "assistant", "purpose")


@dataclass
class Bucket:
    key: str
    label: str
    requests: int = 0
    input: int = 0
    cached_input: int = 0
    output: int = 0
    reasoning: int = 0
    estimated_requests: int = 0
    cost: dict[str, float] = field(default_factory=dict)
    unpriced_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input + self.output

    def add(self, row: UsageRow, cost: tuple[str, float] | None) -> None:
        self.requests += row.requests
        self.input += row.input_tokens
        self.cached_input += row.cached_input_tokens
        self.output += row.output_tokens
        self.reasoning += row.reasoning_tokens
        self.estimated_requests += row.estimated_requests
        if cost is None:
            self.unpriced_tokens += row.input_tokens + row.output_tokens
        else:
            currency, amount = cost
            self.cost[currency] = self.cost.get(currency, 0.0) + amount

    def as_dict(self) -> dict[str, object]:
        return {"key": self.key, "label": self.label, "requests": self.requests, "input_tokens": self.input,
                "cached_input_tokens": self.cached_input, "output_tokens": self.output,
                "reasoning_tokens": self.reasoning, "estimated_requests": self.estimated_requests,
                "cost": {k: round(v, 6) for k, v in sorted(self.cost.items())},
                "unpriced_tokens": self.unpriced_tokens}


@dataclass
class UsageReport:
    since: date | None
    until: date | None  # inclusive
    total: Bucket
    by: dict[str, list[Bucket]]  # grouping name -> buckets (days and months in order; others biggest first)
    unpriced_models: list[str]

    def biggest_sessions(self, count: int = 10) -> list[Bucket]:
        return self.by["session"][:count]


def row_cost(row: UsageRow, prices: PriceTable) -> tuple[str, float] | None:
    price = prices.price(row.model)
    if price is None:
        return None
    counts = TokenCounts(row.input_tokens, min(row.cached_input_tokens, row.input_tokens), row.output_tokens)
    return price.currency, price.cost(counts)


def _session_label(row: UsageRow) -> str:
    if row.session_id is None:
        return ""  # a request outside any session (an MCP server's sampling, Test connection)
    if row.session_title is None:
        return f"({row.session_id[:8]}, deleted)"
    return row.session_title or row.session_id[:8]


_KEYS: dict[str, Callable[[UsageRow], tuple[str, str]]] = {
    "day": lambda r: (r.day, r.day),
    "month": lambda r: (r.day[:7], r.day[:7]),
    "model": lambda r: (r.model, r.model or "?"),
    "session": lambda r: (r.session_id or "", _session_label(r)),
    "assistant": lambda r: (r.assistant_id or "", r.assistant_name or (r.assistant_id or "")),
    "purpose": lambda r: (r.purpose, r.purpose),
}


def build(rows: Iterable[UsageRow], prices: PriceTable, *, since: date | None = None,
          until: date | None = None) -> UsageReport:
    total = Bucket("total", "total")
    groups: dict[str, dict[str, Bucket]] = {name: {} for name in GROUPINGS}
    unpriced: set[str] = set()
    for row in rows:
        cost = row_cost(row, prices)
        if cost is None:
            unpriced.add(row.model)
        total.add(row, cost)
        for name, key_of in _KEYS.items():
            key, label = key_of(row)
            bucket = groups[name].get(key)
            if bucket is None:
                bucket = groups[name][key] = Bucket(key, label)
            bucket.add(row, cost)
    by: dict[str, list[Bucket]] = {}
    for name, buckets in groups.items():
        listed = list(buckets.values())
        if name in ("day", "month"):
            listed.sort(key=lambda b: b.key)
        else:
            listed.sort(key=lambda b: (-b.total_tokens, b.label))
        by[name] = listed
    return UsageReport(since, until, total, by, sorted(unpriced))


def days_between(since: date, until: date) -> list[str]:
    """Every day of the period (inclusive) as YYYY-MM-DD: a chart shows the quiet days too."""
    count = (until - since).days + 1
    return [(since + timedelta(days=n)).isoformat() for n in range(max(count, 0))]


def bounds(since: date | None, until: date | None) -> tuple[float | None, float | None]:
    """Epoch seconds for local midnight of `since` and of the day after `until` (inclusive period)."""
    start = time.mktime(datetime(since.year, since.month, since.day).timetuple()) if since else None
    end = None
    if until is not None:
        after = until + timedelta(days=1)
        end = time.mktime(datetime(after.year, after.month, after.day).timetuple())
    return start, end


def month_start(today: date) -> date:
    return today.replace(day=1)


CSV_COLUMNS = ("day", "model", "purpose", "session_id", "session_title", "assistant", "requests", "input_tokens",
               "cached_input_tokens", "output_tokens", "reasoning_tokens", "estimated_requests", "cost", "currency")


def csv_text(rows: Iterable[UsageRow], prices: PriceTable) -> str:
    """One line per (day, model, purpose, session, assistant); cost empty where the model has no price."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        cost = row_cost(row, prices)
        title = row.session_title if row.session_title is not None else ("" if row.session_id is None else "(deleted)")
        writer.writerow([row.day, row.model, row.purpose, row.session_id or "", _csv_safe(title),
                         _csv_safe(row.assistant_name or row.assistant_id or ""), row.requests, row.input_tokens,
                         row.cached_input_tokens, row.output_tokens, row.reasoning_tokens, row.estimated_requests,
                         "" if cost is None else f"{cost[1]:.6f}", "" if cost is None else cost[0]])
    return out.getvalue()


def _csv_safe(text: str) -> str:
    """A title that a spreadsheet would run as a formula (=, +, -, @ first) gets a leading apostrophe."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text

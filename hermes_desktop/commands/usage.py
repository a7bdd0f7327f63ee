"""`hermes-desktop usage [--since DATE] [--until DATE] [--by model|day|session] [--json]`: tokens and cost.

The same report as the window's Usage view (core/usage/report.py): each line is a model, a day or a session with
its requests, input (of which cached), output (of which reasoning) tokens and cost per currency; a model without a
price shows tokens only and "no price". `--since` defaults to the first day of this month; `--until` to today.
`--csv` prints the grouped rows as CSV instead (the view's export). Session titles are printed without escape
sequences or bidi overrides. Exit codes as in cli.py: 0 done, 1 failed (the database), 2 bad usage (a bad date).
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from typing import Any

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
BY_CHOICES = ("model", "day", "session")


def add_parser(commands: Any) -> None:
    usage = commands.add_parser("usage", help=_("tokens and cost of every model request, per model, day or session"))
    usage.add_argument("--since", metavar="DATE", help=_("first day (YYYY-MM-DD; default: the 1st of this month)"))
    usage.add_argument("--until", metavar="DATE", help=_("last day, inclusive (YYYY-MM-DD; default: today)"))
    usage.add_argument("--by", choices=BY_CHOICES, default="model", help=_("what each line is (default: model)"))
    output = usage.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help=_("the report as JSON"))
    output.add_argument("--csv", action="store_true", help=_("the grouped rows as CSV (as the window exports)"))


def _day(text: str | None, default: date) -> date:
    if not text:
        return default
    try:
        return date.fromisoformat(text.strip())
    except ValueError as exc:
        raise ValueError(_("not a date: {0} (use YYYY-MM-DD)").format(repr(text))) from exc


def money(cost: dict[str, float]) -> str:
    return " + ".join(f"{_symbol(c)}{v:,.4f}" for c, v in sorted(cost.items()))


def _symbol(currency: str) -> str:
    return {"USD": "$", "CNY": "¥"}.get(currency, currency + " ")


def _line(label: str, bucket: Any) -> str:
    cost = money(bucket.cost)
    if bucket.unpriced_tokens:
        cost = (cost + " + " if cost else "") + _("no price")
    marks = "  " + _("({0} estimated)").format(bucket.estimated_requests) if bucket.estimated_requests else ""
    return (f"{label:<34} {bucket.requests:>6} {bucket.input:>12,} {bucket.cached_input:>11,} {bucket.output:>11,} "
            f"{bucket.reasoning:>11,}  {cost or '-'}{marks}")


def _pad(text: str, width: int, *, right: bool = False) -> str:
    """`text` padded to `width` terminal columns (a Chinese character takes two)."""
    import unicodedata

    gap = " " * max(0, width - sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text))
    return gap + text if right else text + gap


def _budget_word(state: str) -> str:
    """The budget's state (core/usage/budget.BudgetState: ok, near, over) in the user's language."""
    return {"ok": _("ok"), "near": _("near"), "over": _("over")}.get(state, state)


def run(args: argparse.Namespace) -> int:
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.storage.errors import StorageError
    from hermes_desktop.core.store import open_store
    from hermes_desktop.core.terminal_text import safe_name, terminal_safe_json
    from hermes_desktop.core.usage.service import UsageService

    today = date.today()
    try:
        since = _day(args.since, today.replace(day=1))
        until = _day(args.until, today)
    except ValueError as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_USAGE
    if until < since:
        print(_("error: {0}").format(_("--until {until} is before --since {since}").format(until=until, since=since)),
              file=sys.stderr)
        return EXIT_USAGE
    paths = app_paths()
    opened = open_store(paths)
    for message in opened.messages:
        print(_("note: {0}").format(message), file=sys.stderr)
    try:
        service = UsageService(opened.store, paths.config_dir)
        config = service.config()
        if config.problem:
            print(_("note: {0}; the shipped prices apply").format(config.problem), file=sys.stderr)
        if args.csv:
            sys.stdout.write(service.csv(since, until))
            return EXIT_OK
        report = service.report(since, until, config)
        buckets = report.by[args.by]
        status = service.budget_status(config)
        if args.json:
            print(terminal_safe_json({
                "since": since.isoformat(), "until": until.isoformat(), "by": args.by,
                "total": report.total.as_dict(), "rows": [b.as_dict() for b in buckets],
                "unpriced_models": report.unpriced_models,
                "budget": None if status.state == "none" else {
                    "state": status.state.value, "spent": round(status.spent, 6), "amount": status.amount,
                    "currency": status.currency},
            }, indent=2))
            return EXIT_OK
        by = {"model": _("model"), "day": _("day"), "session": _("session")}[args.by]
        print(_("Usage {since} to {until}, by {by}").format(since=since, until=until, by=by))
        if not buckets:
            print(_("No model requests in this period."))
            return EXIT_OK
        print(f"{_pad(by, 34)} {_pad(_('reqs'), 6, right=True)} {_pad(_('input'), 12, right=True)} "
              f"{_pad(_('cached'), 11, right=True)} {_pad(_('output'), 11, right=True)} "
              f"{_pad(_('reasoning'), 11, right=True)}  " + _("cost"))
        for bucket in buckets:
            label = safe_name(bucket.label or _("(no session)"))[:34]
            print(_line(label, bucket))
        print(_line(_pad(_("total"), 34), report.total))
        if report.unpriced_models:
            print(_("No price for: {0} (set one in Settings › Usage)").format(
                ", ".join(safe_name(m) for m in report.unpriced_models)))
        if status.state != "none":
            print(_("Budget this month: {spent} of {amount} ({state})").format(
                spent=f"{_symbol(status.currency)}{status.spent:,.2f}",
                amount=f"{_symbol(status.currency)}{status.amount:,.2f}", state=_budget_word(status.state.value)))
        return EXIT_OK
    except StorageError as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_FAILED
    finally:
        opened.store.close()

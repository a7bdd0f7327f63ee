"""The periods the Usage view offers, as (first day, last day) inclusive, relative to today."""

from __future__ import annotations

from datetime import date, timedelta

PERIODS = ("this_month", "last_month", "last_7_days", "last_30_days", "this_year")


def period(name: str, today: date) -> tuple[date, date]:
    if name == "this_month":
        return today.replace(day=1), today
    if name == "last_month":
        last = today.replace(day=1) - timedelta(days=1)
        return last.replace(day=1), last
    if name == "last_7_days":
        return today - timedelta(days=6), today
    if name == "last_30_days":
        return today - timedelta(days=29), today
    if name == "this_year":
        return today.replace(month=1, day=1), today
    raise ValueError(f"unknown period {name!r}")

"""Small helpers for benchmarks: percentiles and a fixed-width table."""

from __future__ import annotations

import contextlib
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

XDG_VARIABLES = ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def table(rows: list[tuple[str, str, str, str]]) -> None:
    header = ("measure", "value", "target", "ok")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(4)]
    for row in [header, *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)))


def ok(condition: bool) -> str:
    """The table's last column: whether a measure met its target."""
    return "yes" if condition else "NO"


@contextlib.contextmanager
def temporary_home() -> Iterator[Path]:
    """A throw-away home: the XDG data, config and state folders point into it while the benchmark runs."""
    with tempfile.TemporaryDirectory() as home:
        for name in XDG_VARIABLES:
            os.environ[name] = str(Path(home) / name)
        yield Path(home)

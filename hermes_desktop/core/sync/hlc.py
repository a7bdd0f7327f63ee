"""A hybrid logical clock (Kulkarni et al.): wall-clock milliseconds, a counter and the device, as one sortable
string `0001733000000000-000000-<device>`.

Laptops' clocks differ (an hour, after a time zone or dual-boot mix-up). A device's clock never goes below any
stamp it has received, so a change made after seeing another device's change is always stamped later, whatever
the two wall clocks say; the device id breaks exact ties the same way on every machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

ZERO = ""


def wall_ms() -> int:
    return int(time.time() * 1000)


def format_stamp(ms: int, counter: int, device: str) -> str:
    return f"{ms:016d}-{counter:06d}-{device}"


def parse_stamp(stamp: str) -> tuple[int, int, str]:
    ms, counter, device = stamp.split("-", 2)
    return int(ms), int(counter), device


@dataclass(slots=True)
class HybridClock:
    device: str
    last_ms: int = 0
    counter: int = 0
    now: Callable[[], int] = wall_ms

    def tick(self) -> str:
        """A stamp later than every stamp this clock has made or received."""
        physical = self.now()
        if physical > self.last_ms:
            self.last_ms, self.counter = physical, 0
        else:
            self.counter += 1
        return format_stamp(self.last_ms, self.counter, self.device)

    def receive(self, stamp: str) -> None:
        """Move past a stamp seen from another device."""
        try:
            ms, counter, _ = parse_stamp(stamp)
        except ValueError:
            return
        if ms > self.last_ms or (ms == self.last_ms and counter > self.counter):
            self.last_ms, self.counter = ms, counter

    def state(self) -> str:
        return f"{self.last_ms}:{self.counter}"

    @staticmethod
    def restore(device: str, state: str | None, now: Callable[[], int] = wall_ms) -> "HybridClock":
        clock = HybridClock(device, now=now)
        if state and ":" in state:
            ms, counter = state.split(":", 1)
            clock.last_ms, clock.counter = int(ms), int(counter)
        return clock

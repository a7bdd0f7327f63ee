"""The sink every model client reports to: one `RequestUsage` per request the server accepted.

`record` is a plain call that never blocks and never raises: the client calls it from the end of a stream,
also when the stream was cancelled (Stop) or failed half-way, where awaiting is not possible. The write runs on
the store executor (core/executors.py); `drain` waits for the writes in flight (the end of `ask`, tests, before
the store closes). A write that fails (read-only history, full disk) is logged and dropped: usage is an account
of what was spent, and losing one row must never break a reply.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, wait
from typing import Callable

from hermes_desktop.core.executors import store_executor
from hermes_desktop.core.usage.counts import RequestUsage
from hermes_desktop.core.usage.ledger import UsageLedger

log = logging.getLogger(__name__)


class UsageRecorder:
    def __init__(self, ledger: UsageLedger, *, on_recorded: Callable[[RequestUsage], None] | None = None) -> None:
        """`on_recorded`: called on the executor's thread after a row is saved (the caller hops threads itself)."""
        self.ledger = ledger
        self.on_recorded = on_recorded
        self._pending: set[Future[None]] = set()
        self._lock = threading.Lock()

    def record(self, usage: RequestUsage) -> None:
        try:
            future = store_executor().submit(self._write, usage)
        except RuntimeError:  # the executor is shut down (the app is quitting): write here, once
            self._write(usage)
            return
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._done)

    __call__ = record

    def _write(self, usage: RequestUsage) -> None:
        try:
            self.ledger.add(usage)
        except Exception as exc:  # noqa: BLE001 - logged; a lost usage row never breaks a reply
            log.warning("a usage record (%s, %s) was not saved: %s", usage.model, usage.purpose, exc)
            return
        if self.on_recorded is not None:
            try:
                self.on_recorded(usage)
            except Exception:  # noqa: BLE001
                log.exception("a usage listener failed")

    def _done(self, future: Future[None]) -> None:
        with self._lock:
            self._pending.discard(future)

    def drain(self, timeout: float | None = 10.0) -> None:
        """Wait (blocking) until every record handed over so far is written."""
        with self._lock:
            pending = list(self._pending)
        if pending:
            wait(pending, timeout=timeout)

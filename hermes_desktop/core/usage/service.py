"""UsageService: the one object the runtime, the window and the command line use for usage.

Its reads are blocking (SQLite, usage.json): callers run them on the store executor (`run_store`).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Callable

from hermes_desktop.core.usage import budget as budgets
from hermes_desktop.core.usage import config as usage_config
from hermes_desktop.core.usage import report as reports
from hermes_desktop.core.usage.config import UsageConfig
from hermes_desktop.core.usage.counts import RequestUsage
from hermes_desktop.core.usage.ledger import UsageLedger
from hermes_desktop.core.usage.recorder import UsageRecorder


class UsageService:
    def __init__(self, sessions: object, config_dir: Path, *, today: Callable[[], date] = date.today) -> None:
        self.ledger = UsageLedger(sessions)
        self.recorder = UsageRecorder(self.ledger)
        self.config_dir = config_dir
        self._today = today

    def record(self, usage: RequestUsage) -> None:
        self.recorder.record(usage)

    def config(self) -> UsageConfig:
        return usage_config.load(self.config_dir)

    def save_config(self, config: UsageConfig) -> None:
        usage_config.save(self.config_dir, config)

    def report(self, since: date | None, until: date | None, config: UsageConfig | None = None) -> reports.UsageReport:
        config = config or self.config()
        start, end = reports.bounds(since, until)
        return reports.build(self.ledger.rows(start, end), config.prices(), since=since, until=until)

    def csv(self, since: date | None, until: date | None) -> str:
        start, end = reports.bounds(since, until)
        return reports.csv_text(self.ledger.rows(start, end), self.config().prices())

    def budget_status(self, config: UsageConfig | None = None) -> budgets.BudgetStatus:
        """This calendar month's spend against the budget."""
        config = config or self.config()
        if config.budget is None:
            return budgets.BudgetStatus(budgets.BudgetState.NONE)
        today = self._today()
        month = self.report(reports.month_start(today), today, config)
        return budgets.status(config.budget, month.total.cost)

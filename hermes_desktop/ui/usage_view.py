"""The Usage view (View › Usage…, objectName `usageView`): tokens and cost for a chosen period.

A thin layer over core/usage: the report is built on the store executor (a year of rows is a grouped SQL query,
never on the GUI thread), then shown as a chart (tokens per day or per model in four kinds, or cost per day in
one currency), a summary line, and tables per model, session (biggest first), assistant, month and purpose.
Export CSV writes the grouped rows of the period (core/usage/report.py `csv_text`). A model without a price shows
its tokens and "no price", never a cost. This module is imported when the view is first opened, not at start.
"""

from __future__ import annotations

import logging
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QCoreApplication, QDate, Qt
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QDateEdit, QDialog, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QPushButton,
    QSplitter, QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget,
)

from hermes_desktop.ui.tasks import spawn
from hermes_desktop.ui.usage_chart import Bar, UsageChart

if TYPE_CHECKING:
    from hermes_desktop.core.usage.report import Bucket, UsageReport
    from hermes_desktop.core.usage.service import UsageService

log = logging.getLogger(__name__)


def compact(tokens: float) -> str:
    """1,234 -> 1.2K; 3,400,000 -> 3.4M (axis ticks and the summary)."""
    if tokens >= 1_000_000:
        return QCoreApplication.translate("UsageView", "{0}M").format(_one_decimal(tokens / 1_000_000))
    if tokens >= 1_000:
        return QCoreApplication.translate("UsageView", "{0}K").format(_one_decimal(tokens / 1_000))
    return f"{tokens:,.0f}"


def _one_decimal(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def money(cost: dict[str, float]) -> str:
    return " + ".join(f"{'$' if c == 'USD' else '¥' if c == 'CNY' else c + ' '}{v:,.4f}"
                      for c, v in sorted(cost.items()) if v or len(cost) == 1)


def cost_text(bucket: "Bucket") -> str:
    shown = money(bucket.cost) if bucket.cost else ""
    if bucket.unpriced_tokens:
        if shown:
            return QCoreApplication.translate("UsageView", "{0} + no price").format(shown)
        return QCoreApplication.translate("UsageView", "no price")
    return shown or "—"


def purpose_label(purpose: str) -> str:
    labels = {
        "chat": QCoreApplication.translate("UsageView", "Chat"),
        "title": QCoreApplication.translate("UsageView", "Titles"),
        "summary": QCoreApplication.translate("UsageView", "Session summaries"),
        "context_summary": QCoreApplication.translate("UsageView", "Context summaries"),
        "memory": QCoreApplication.translate("UsageView", "Memory"),
        "skill_draft": QCoreApplication.translate("UsageView", "Skill drafts"),
        "sampling": QCoreApplication.translate("UsageView", "MCP sampling"),
        "embedding": QCoreApplication.translate("UsageView", "Embeddings"),
        "connection_test": QCoreApplication.translate("UsageView", "Connection tests"),
    }
    return labels.get(purpose) or QCoreApplication.translate("UsageView", "Other")


def period_names() -> list[tuple[str, str]]:
    return [("this_month", QCoreApplication.translate("UsageView", "This month")),
            ("last_month", QCoreApplication.translate("UsageView", "Last month")),
            ("last_7_days", QCoreApplication.translate("UsageView", "Last 7 days")),
            ("last_30_days", QCoreApplication.translate("UsageView", "Last 30 days")),
            ("this_year", QCoreApplication.translate("UsageView", "This year")),
            ("custom", QCoreApplication.translate("UsageView", "Chosen days"))]


def series_names() -> list[str]:
    return [QCoreApplication.translate("UsageView", "Input"), QCoreApplication.translate("UsageView", "Cached input"),
            QCoreApplication.translate("UsageView", "Output"), QCoreApplication.translate("UsageView", "Reasoning")]


def token_values(bucket: "Bucket") -> tuple[float, float, float, float]:
    """The four stacked parts, none counted twice: uncached input, cached input, output less reasoning, reasoning."""
    cached = min(bucket.cached_input, bucket.input)
    reasoning = min(bucket.reasoning, bucket.output)
    return (bucket.input - cached, cached, bucket.output - reasoning, reasoning)


def token_tooltip(title: str, bucket: "Bucket") -> str:
    return QCoreApplication.translate(
        "UsageView", "{0}\nInput {1} (cached {2})\nOutput {3} (reasoning {4})\n{5} requests · {6}").format(
        title, f"{bucket.input:,}", f"{bucket.cached_input:,}", f"{bucket.output:,}", f"{bucket.reasoning:,}",
        bucket.requests, cost_text(bucket))


class UsageView(QDialog):
    """Opened by UsageActions; `load()` (a coroutine) fills it for the chosen period."""

    def __init__(self, service: "UsageService", parent: QWidget | None = None, *,
                 today: Callable[[], date] = date.today, open_settings: Callable[[], None] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usageView")
        self.setWindowTitle(self.tr("Usage and cost"))
        self.service = service
        self._today = today
        self.report: UsageReport | None = None
        self.resize(980, 680)

        self.period = QComboBox()
        self.period.setObjectName("usagePeriod")
        self.period.setAccessibleName(self.tr("Period"))
        for key, label in period_names():
            self.period.addItem(label, key)
        self.since = QDateEdit()
        self.until = QDateEdit()
        for edit, name in ((self.since, self.tr("First day")), (self.until, self.tr("Last day"))):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setAccessibleName(name)
            edit.dateChanged.connect(self._dates_edited)
        self.chart_kind = QComboBox()
        self.chart_kind.setObjectName("usageChartKind")
        self.chart_kind.setAccessibleName(self.tr("Chart"))
        self.chart_kind.addItem(self.tr("Tokens per day"), "tokens_day")
        self.chart_kind.addItem(self.tr("Tokens per model"), "tokens_model")
        self.chart_kind.addItem(self.tr("Cost per day"), "cost_day")
        self.chart_currency = QComboBox()
        self.chart_currency.setObjectName("usageChartCurrency")
        self.chart_currency.setAccessibleName(self.tr("Currency of the cost chart"))
        self.chart_currency.setVisible(False)
        self.preferred_currency = "USD"  # the budget's, once loaded
        self.export_button = QPushButton(self.tr("Export CSV…"))
        self.export_button.setObjectName("usageExportButton")
        self.export_button.clicked.connect(lambda: spawn(self.export_csv()))
        self.prices_button = QPushButton(self.tr("Prices and budget…"))
        self.prices_button.setObjectName("usagePricesButton")
        self.prices_button.setEnabled(open_settings is not None)
        if open_settings is not None:
            self.prices_button.clicked.connect(open_settings)

        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Period")))
        top.addWidget(self.period)
        top.addWidget(self.since)
        top.addWidget(QLabel("–"))
        top.addWidget(self.until)
        top.addSpacing(12)
        top.addWidget(QLabel(self.tr("Chart")))
        top.addWidget(self.chart_kind)
        top.addWidget(self.chart_currency)
        top.addStretch(1)
        top.addWidget(self.prices_button)
        top.addWidget(self.export_button)

        self.summary = QLabel()
        self.summary.setObjectName("usageSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes = QLabel()
        self.notes.setObjectName("usageNotes")
        self.notes.setWordWrap(True)
        self.chart = UsageChart()
        self.chart.empty_text = self.tr("No model requests in this period.")
        self.tables = QTabWidget()
        self.tables.setObjectName("usageTables")
        self.model_table = self._table("usageByModel", self.tr("Model"))
        self.session_table = self._table("usageBySession", self.tr("Session"))
        self.assistant_table = self._table("usageByAssistant", self.tr("Assistant"))
        self.month_table = self._table("usageByMonth", self.tr("Month"))
        self.purpose_table = self._table("usageByPurpose", self.tr("For"))
        self.tables.addTab(self.model_table, self.tr("By model"))
        self.tables.addTab(self.session_table, self.tr("Biggest sessions"))
        self.tables.addTab(self.assistant_table, self.tr("By assistant"))
        self.tables.addTab(self.month_table, self.tr("By month"))
        self.tables.addTab(self.purpose_table, self.tr("By purpose"))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.chart)
        split.addWidget(self.tables)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(self.accept)
        bottom = QHBoxLayout()
        bottom.addWidget(self.notes, 1)
        bottom.addWidget(close)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)

        self._set_period_dates("this_month")
        self.period.currentIndexChanged.connect(self._period_chosen)
        self.chart_kind.currentIndexChanged.connect(lambda _i: self._show_chart())
        self.chart_currency.currentIndexChanged.connect(lambda _i: self._show_chart())

    def _table(self, name: str, first: str) -> QTableWidget:
        table = QTableWidget(0, 7)
        table.setObjectName(name)
        table.setHorizontalHeaderLabels([first, self.tr("Requests"), self.tr("Input"), self.tr("Cached input"),
                                         self.tr("Output"), self.tr("Reasoning"), self.tr("Cost")])
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.verticalHeader().setVisible(False)
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, 7):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        return table

    # ------------------------------------------------------------------ period
    def _set_period_dates(self, key: str) -> None:
        from hermes_desktop.core.usage.periods import period

        since, until = period(key, self._today())
        for edit, day in ((self.since, since), (self.until, until)):
            edit.blockSignals(True)
            edit.setDate(QDate(day.year, day.month, day.day))
            edit.blockSignals(False)

    def _period_chosen(self, _index: int) -> None:
        key = self.period.currentData()
        if key != "custom":
            self._set_period_dates(key)
            spawn(self.load())

    def _dates_edited(self, _date: QDate) -> None:
        custom = self.period.findData("custom")
        if self.period.currentIndex() != custom:
            self.period.blockSignals(True)
            self.period.setCurrentIndex(custom)
            self.period.blockSignals(False)
        spawn(self.load())

    def chosen_days(self) -> tuple[date, date]:
        since, until = self.since.date().toPython(), self.until.date().toPython()
        return (since, until) if since <= until else (until, since)

    # ------------------------------------------------------------------ data
    async def load(self) -> None:
        from hermes_desktop.core.executors import run_store

        since, until = self.chosen_days()
        try:
            config = await run_store(self.service.config)
            report = await run_store(self.service.report, since, until, config)
            status = await run_store(self.service.budget_status, config)
        except Exception as exc:  # the database: say so, keep the view open
            log.warning("the usage report failed: %s", exc)
            self.summary.setText(self.tr("The usage could not be read: {0}").format(str(exc)))
            return
        self.show_report(report, status, config.problem)

    def show_report(self, report: "UsageReport", status: Any = None, problem: str | None = None) -> None:
        self.report = report
        total = report.total
        if total.requests == 0:
            self.summary.setText(self.tr("No model requests in this period."))
        else:
            self.summary.setText(self.tr(
                "{0} requests · input {1} tokens (cached {2}) · output {3} tokens (reasoning {4}) · cost {5}").format(
                f"{total.requests:,}", f"{total.input:,}", f"{total.cached_input:,}", f"{total.output:,}",
                f"{total.reasoning:,}", cost_text(total)))
        notes: list[str] = []
        if report.unpriced_models:
            notes.append(self.tr("No price for {0}: their tokens are counted, without a cost (set a price in "
                                 "Settings › Usage).").format(", ".join(report.unpriced_models)))
        if total.estimated_requests:
            notes.append(self.tr("{0} requests came without the server's own count and are estimated.").format(
                total.estimated_requests))
        if status is not None and status.state.value in ("near", "over"):
            notes.append(budget_text(status))
        if problem:
            notes.append(self.tr("usage.json could not be read, so the shipped prices apply: {0}").format(problem))
        self.notes.setText("\n".join(notes))
        if status is not None and status.currency:
            self.preferred_currency = status.currency
        currencies = sorted({c for b in report.by["day"] for c in b.cost})
        self.chart_currency.blockSignals(True)
        self.chart_currency.clear()
        for code in currencies:
            self.chart_currency.addItem(code, code)
        preferred = self.chart_currency.findData(self.preferred_currency)
        self.chart_currency.setCurrentIndex(preferred if preferred >= 0 else 0)
        self.chart_currency.blockSignals(False)
        self._fill(self.model_table, report.by["model"], lambda b: b.label)
        self._fill(self.session_table, report.biggest_sessions(50),
                   lambda b: b.label if b.key else self.tr("(no session)"))
        self._fill(self.assistant_table, report.by["assistant"],
                   lambda b: b.label if b.key else self.tr("(no assistant)"))
        self._fill(self.month_table, report.by["month"], lambda b: b.label)
        self._fill(self.purpose_table, report.by["purpose"], lambda b: purpose_label(b.key))
        self._show_chart()

    def _fill(self, table: QTableWidget, buckets: "list[Bucket]", name: Callable[["Bucket"], str]) -> None:
        table.setRowCount(len(buckets))
        for row, bucket in enumerate(buckets):
            cells = [name(bucket), f"{bucket.requests:,}", f"{bucket.input:,}", f"{bucket.cached_input:,}",
                     f"{bucket.output:,}", f"{bucket.reasoning:,}", cost_text(bucket)]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                table.setItem(row, column, item)

    def _show_chart(self) -> None:
        report = self.report
        if report is None:
            return
        kind = self.chart_kind.currentData()
        self.chart_currency.setVisible(kind == "cost_day" and self.chart_currency.count() > 1)
        since, until = self.chosen_days()
        if kind == "tokens_model":
            self.chart.value_text = compact
            self.chart.set_bars(series_names(), [Bar(b.label, token_values(b), token_tooltip(b.label, b))
                                                 for b in report.by["model"][:20]], horizontal=True)
            return
        from hermes_desktop.core.usage.report import Bucket, days_between

        days = {b.key: b for b in report.by["day"]}
        every = days_between(since, until)
        if kind == "cost_day":
            currency = self.chart_currency.currentData() or self.preferred_currency
            symbol = "¥" if currency == "CNY" else "$"
            self.chart.value_text = lambda v: f"{symbol}{v:,.2f}"
            bars = [Bar(day[5:], (days[day].cost.get(currency, 0.0),) if day in days else (0.0,),
                        f"{day}: {cost_text(days[day]) if day in days else '—'}") for day in every]
            self.chart.set_bars([currency], bars)
            return
        self.chart.value_text = compact
        empty = Bucket("", "")
        self.chart.set_bars(series_names(), [Bar(day[5:], token_values(days.get(day, empty)),
                                                 token_tooltip(day, days.get(day, empty))) for day in every])

    # ------------------------------------------------------------------ export
    async def export_csv(self, path: Path | None = None) -> Path | None:
        """Ask where (unless `path` is given) and write the period's rows as CSV."""
        from hermes_desktop.core.executors import run_store

        since, until = self.chosen_days()
        if path is None:
            from hermes_desktop.ui.async_dialog import run_dialog

            dialog = QFileDialog(self, self.tr("Export usage as CSV"), f"hermes-usage-{since}-{until}.csv",
                                 self.tr("CSV files (*.csv)"))
            dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
            dialog.setDefaultSuffix("csv")
            if await run_dialog(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
                return None
            path = Path(dialog.selectedFiles()[0])
        try:
            text = await run_store(self.service.csv, since, until)
            await run_store(path.write_text, text, encoding="utf-8")
        except Exception as exc:  # a read-only folder, a full disk: say so, nothing else changes
            self.notes.setText(self.tr("The CSV was not written: {0}").format(str(exc)))
            return None
        self.notes.setText(self.tr("Exported to {0}").format(str(path)))
        return path


def budget_text(status: Any) -> str:
    """The status bar's words for the month's spend against the budget (near or over it)."""
    symbol = "¥" if status.currency == "CNY" else "$"
    spent, amount = f"{symbol}{status.spent:,.2f}", f"{symbol}{status.amount:,.2f}"
    if status.state.value == "over":
        return QCoreApplication.translate("UsageView", "Over budget: {0} of {1} this month").format(spent, amount)
    return QCoreApplication.translate("UsageView", "Near budget: {0} of {1} this month ({2}%)").format(
        spent, amount, round(status.share * 100))

"""Issue 28, usage and cost in the window: a user chats (the scripted server reports cached and reasoning tokens),
gives the model a price in Settings › Usage, sets a small budget and sees the status bar warn; View › Usage and
cost opens the view with the chart and the tables filled, in the light and the dark theme, and exports a CSV.
A price typed wrong is refused with a sentence and nothing is saved.

Real window (pytest-qt, offscreen), real openai client to the scripted server over HTTP, real SQLite, real
usage.json."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDialog, QLabel, QTabWidget, QTableWidget, QWidget

from hermes_desktop.ui import theme as themes
from tests.support.model_server import reasoning_reply, with_usage

USAGE = {"prompt_tokens": 200_000, "completion_tokens": 50_000, "prompt_tokens_details": {"cached_tokens": 150_000},
         "completion_tokens_details": {"reasoning_tokens": 20_000}}


def _settings_page(h):
    h.do(h.window.open_settings)
    dialog = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings dialog")
    page = dialog.usage_page
    h.do(lambda: dialog.findChild(QTabWidget).setCurrentWidget(page))
    return dialog, page


def _row_of(table: QTableWidget, model: str) -> int:
    return next(r for r in range(table.rowCount()) if table.item(r, 0).text() == model)


def test_a_priced_chat_warns_near_the_budget_and_shows_in_the_usage_view(make_window, model_server,
                                                                       tmp_path: Path) -> None:
    h = make_window()
    model_server.enqueue(with_usage(reasoning_reply("Thinking about it.", "Here is the answer."), USAGE))
    h.send("Explain prompt caching")
    h.wait_until(lambda: any(r.purpose == "chat" for r in h.controller.runtime.usage.ledger.rows()),
                 what="the chat's usage row")

    dialog, page = _settings_page(h)
    h.do(lambda: page.new_model.setText("scripted-model"))
    h.do(lambda: page.findChild(QWidget, "priceAddButton").click())
    table = page.table
    row = _row_of(table, "scripted-model")
    # $2 per million uncached input, $0.50 cached, $8 output: 0.05×2 + 0.15×0.5 + 0.05×8 = $0.575
    h.do(lambda: table.item(row, 1).setText("2"))
    h.do(lambda: table.item(row, 2).setText("0.5"))
    h.do(lambda: table.item(row, 3).setText("8"))
    prices = h.controller.runtime.usage.config().prices()
    assert prices.price("scripted-model") is not None and prices.price("scripted-model").output == 8.0
    h.do(lambda: page.amount.setValue(0.70))
    h.do(lambda: page.budget_on.setChecked(True))
    label = h.window.findChild(QLabel, "budgetLabel")
    h.wait_until(lambda: label.isVisible() and "Near budget" in label.text(), what="the status bar's budget warning")
    assert "$0.5" in label.text() and "$0.70" in label.text()
    h.do(dialog.accept)

    h.do(h.window.usage_action.trigger)
    view = h.wait_until(lambda: h.window.findChild(QDialog, "usageView"), what="the usage view")
    h.wait_until(lambda: view.report is not None and view.report.total.requests >= 1, what="the report")
    models = view.findChild(QTableWidget, "usageByModel")
    h.wait_until(lambda: models.rowCount() >= 1, what="the model table")
    row = _row_of(models, "scripted-model")
    assert models.item(row, 3).text() == "150,000" and models.item(row, 5).text() == "20,000"
    assert models.item(row, 6).text().startswith("$0.57")
    sessions = view.findChild(QTableWidget, "usageBySession")
    assert sessions.rowCount() >= 1 and sessions.item(0, 0).text()
    assert view.chart.bars and any(sum(bar.values) > 0 for bar in view.chart.bars)

    for name in ("light", "dark"):  # the chart is painted in the theme's own colours
        h.do(lambda n=name: h.window.set_theme(n))
        h.settle()
        image = view.chart.grab().toImage()
        assert QColor(image.pixel(2, 2)) == QColor(themes.current().base), name
        assert themes.current().name == name
    h.do(lambda: view.chart_kind.setCurrentIndex(view.chart_kind.findData("tokens_model")))
    assert view.chart.horizontal and view.chart.bars[0].label == "scripted-model"
    h.do(lambda: view.chart_kind.setCurrentIndex(view.chart_kind.findData("cost_day")))
    assert max(sum(bar.values) for bar in view.chart.bars) > 0.5

    target = tmp_path / "usage.csv"
    assert h.run(view.export_csv(target)) == target
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    chat = next(r for r in rows if r["purpose"] == "chat")
    assert (chat["model"], chat["cached_input_tokens"], chat["reasoning_tokens"], chat["currency"]) == \
        ("scripted-model", "150000", "20000", "USD")
    assert "Exported to" in view.notes.text()
    h.do(view.accept)

    # the next reply passes the budget: the label follows the new rows by itself
    model_server.enqueue(with_usage(reasoning_reply("More.", "And more."), USAGE))
    h.send("Tell me more")
    h.wait_until(lambda: "Over budget" in label.text(), what="the status bar to say the budget is passed")


def test_a_price_that_is_not_a_number_is_refused_and_nothing_is_saved(make_window, model_server) -> None:
    h = make_window()
    dialog, page = _settings_page(h)
    table = page.table
    row = _row_of(table, "gpt-4o")
    h.do(lambda: table.item(row, 1).setText("two dollars"))
    assert "Not saved" in page.message.text()
    assert table.item(_row_of(table, "gpt-4o"), 1).text() == "2.5"  # the saved price is shown again
    assert not (h.controller.runtime.paths.config_dir / "usage.json").exists()
    h.do(lambda: table.setCurrentCell(_row_of(table, "gpt-4o"), 0))
    h.do(page.remove.click)
    assert h.controller.runtime.usage.config().prices().price("gpt-4o") is None
    h.do(lambda: table.setCurrentCell(_row_of(table, "gpt-4o"), 0))
    h.do(page.restore.click)
    assert h.controller.runtime.usage.config().prices().price("gpt-4o") is not None
    h.do(dialog.accept)


def test_the_usage_view_without_records_says_so(make_window) -> None:
    h = make_window()
    h.do(h.window.usage_action.trigger)
    view = h.wait_until(lambda: h.window.findChild(QDialog, "usageView"), what="the usage view")
    h.wait_until(lambda: view.report is not None, what="the report")
    assert view.summary.text() == "No model requests in this period."
    assert view.findChild(QTableWidget, "usageByModel").rowCount() == 0
    h.do(view.accept)

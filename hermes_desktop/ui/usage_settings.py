"""Settings › Usage: the monthly budget and the price of each model (per million tokens, USD or CNY).

Each change is saved at once to usage.json (core/usage/config.py), as the other settings pages do. The table
lists the shipped prices and the user's; a number typed in a cell replaces that model's price (its row is then
marked "yours"); "Remove price" leaves a model without one (tokens only, never a guessed cost); "Use shipped
price" takes the user's edit back. A value that is not a number of 0 or more is refused with a message and the
cell shows the saved price again: nothing half-typed is saved.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QHeaderView, QLabel,
    QLineEdit, QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from hermes_desktop.core.usage.config import Budget, UsageConfig
from hermes_desktop.core.usage.prices import CURRENCIES, Price, PriceTable, normalise

if TYPE_CHECKING:
    from hermes_desktop.ui.usage_actions import UsageActions

log = logging.getLogger(__name__)
NUMBER_COLUMNS = {1: "input", 2: "cached_input", 3: "output"}


class UsageSettingsPage(QWidget):
    def __init__(self, actions: "UsageActions", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usageSettingsPage")
        self.actions = actions
        self.service = actions.service()
        self.config = self.service.config() if self.service is not None else UsageConfig()
        self._filling = False

        explain = QLabel(self.tr("Hermes counts the tokens of every request it sends, titles, summaries and memory "
                                 "included, from the provider's own figures. With a price, it shows what they "
                                 "cost; a model without a price shows tokens only. Prices are per million tokens "
                                 "in the provider's currency; check them on the provider's price page."))
        explain.setWordWrap(True)

        self.budget_on = QCheckBox(self.tr("Warn me in the status bar when this month's spend nears a budget"))
        self.budget_on.setObjectName("budgetCheck")
        self.amount = QDoubleSpinBox()
        self.amount.setObjectName("budgetAmount")
        self.amount.setAccessibleName(self.tr("Monthly budget"))
        self.amount.setRange(0.01, 1_000_000)
        self.amount.setDecimals(2)
        self.currency = QComboBox()
        self.currency.setObjectName("budgetCurrency")
        self.currency.setAccessibleName(self.tr("Budget currency"))
        for code in CURRENCIES:
            self.currency.addItem(code, code)
        self.warn_at = QSpinBox()
        self.warn_at.setObjectName("budgetWarnAt")
        self.warn_at.setAccessibleName(self.tr("Warn at this share of the budget"))
        self.warn_at.setRange(10, 100)
        self.warn_at.setSuffix(" %")
        budget = self.config.budget
        self.budget_on.setChecked(budget is not None)
        self.amount.setValue(budget.amount if budget else 20.0)
        self.currency.setCurrentIndex(max(0, self.currency.findData(budget.currency if budget else "USD")))
        self.warn_at.setValue(round((budget.warn_at if budget else 0.8) * 100))
        row = QHBoxLayout()
        row.addWidget(self.amount)
        row.addWidget(self.currency)
        row.addWidget(QLabel(self.tr("warn at")))
        row.addWidget(self.warn_at)
        row.addStretch(1)
        form = QFormLayout()
        form.addRow(self.budget_on)
        form.addRow(self.tr("Monthly budget"), row)
        other = QLabel(self.tr("Spend in the other currency is listed beside it, never converted."))
        other.setWordWrap(True)
        form.addRow("", other)
        for widget in (self.amount, self.currency, self.warn_at):
            widget.setEnabled(budget is not None)
        self.budget_on.toggled.connect(self._budget_toggled)
        self.amount.valueChanged.connect(lambda _v: self._save_budget())
        self.currency.currentIndexChanged.connect(lambda _i: self._save_budget())
        self.warn_at.valueChanged.connect(lambda _v: self._save_budget())

        self.table = QTableWidget(0, 6)
        self.table.setObjectName("priceTable")
        self.table.setHorizontalHeaderLabels([self.tr("Model"), self.tr("Input"), self.tr("Cached input"),
                                              self.tr("Output"), self.tr("Currency"), self.tr("Source")])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, 6):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.cellChanged.connect(self._cell_changed)
        self.new_model = QLineEdit()
        self.new_model.setObjectName("priceNewModel")
        self.new_model.setPlaceholderText(self.tr("Model name, as the provider spells it"))
        self.new_model.setAccessibleName(self.tr("Model to add a price for"))
        add = QPushButton(self.tr("Add price"))
        add.setObjectName("priceAddButton")
        add.clicked.connect(self.add_model)
        self.remove = QPushButton(self.tr("Remove price"))
        self.remove.setObjectName("priceRemoveButton")
        self.remove.clicked.connect(self.remove_selected)
        self.restore = QPushButton(self.tr("Use shipped price"))
        self.restore.setObjectName("priceRestoreButton")
        self.restore.clicked.connect(self.restore_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_model, 1)
        buttons.addWidget(add)
        buttons.addWidget(self.remove)
        buttons.addWidget(self.restore)
        self.message = QLabel()
        self.message.setObjectName("usageSettingsMessage")
        self.message.setWordWrap(True)
        if self.config.problem:
            self.message.setText(self.tr("usage.json could not be read, so the shipped prices apply (saving here "
                                         "writes a new file): {0}").format(self.config.problem))

        layout = QVBoxLayout(self)
        layout.addWidget(explain)
        layout.addLayout(form)
        layout.addWidget(QLabel(self.tr("Prices per million tokens")))
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        self.fill()

    # ------------------------------------------------------------------ table
    def prices(self) -> PriceTable:
        return self.config.prices()

    def fill(self) -> None:
        self._filling = True
        table = self.prices()
        entries = table.entries()
        removed = sorted(name for name, price in table.edits.items() if price is None)
        self.table.setRowCount(len(entries) + len(removed))
        for row, (name, price) in enumerate(entries.items()):
            self._set_row(row, name, price, self.tr("yours") if table.is_edited(name) else self.tr("shipped"))
        for row, name in enumerate(removed, start=len(entries)):
            self._set_row(row, name, None, self.tr("no price"))
        self._filling = False

    def _set_row(self, row: int, name: str, price: Price | None, source: str) -> None:
        cells = [name, *(["", "", ""] if price is None else
                         [_number(price.input), _number(price.cached_input), _number(price.output)])]
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column == 0:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            else:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, column, item)
        combo = QComboBox()
        for code in CURRENCIES:
            combo.addItem(code, code)
        combo.setCurrentIndex(max(0, combo.findData(price.currency if price else "USD")))
        combo.setAccessibleName(self.tr("Currency of {0}").format(name))
        combo.currentIndexChanged.connect(lambda _i, r=row: self._row_edited(r))
        self.table.setCellWidget(row, 4, combo)
        source_item = QTableWidgetItem(source)
        source_item.setFlags(source_item.flags() & ~Qt.ItemFlag.ItemIsEditable)
        self.table.setItem(row, 5, source_item)

    def _cell_changed(self, row: int, column: int) -> None:
        if not self._filling and column in NUMBER_COLUMNS:
            self._row_edited(row)

    def _row_edited(self, row: int) -> None:
        if self._filling:
            return
        name = self.table.item(row, 0).text()
        texts = [self.table.item(row, c).text().strip().replace(",", "") for c in (1, 2, 3)]
        combo = self.table.cellWidget(row, 4)
        currency = combo.currentData() if isinstance(combo, QComboBox) else "USD"
        try:
            values = [float(t) if t else None for t in texts]
            if values[0] is not None and values[2] is not None:
                price = Price(values[0], values[1] if values[1] is not None else values[0], values[2], currency)
            elif any(v is not None and v < 0 for v in values):
                raise ValueError(str(min(v for v in values if v is not None)))
        except ValueError as exc:
            self.message.setText(self.tr("Not saved: the price of {0} must be numbers of 0 or more ({1}).").format(
                name, str(exc)))
            self.fill()
            return
        if values[0] is None or values[2] is None:  # a new row, half typed: saved once both rates are there
            self.message.setText(self.tr("Type the input and the output price of {0}.").format(name))
            return
        self._save(UsageConfig(self.prices().with_edit(name, price).edits, self.config.budget))
        self.message.setText(self.tr("Saved the price of {0}.").format(name))

    def selected_model(self) -> str | None:
        row = self.table.currentRow()
        item = self.table.item(row, 0) if row >= 0 else None
        return item.text() if item is not None else None

    def add_model(self) -> None:
        name = normalise(self.new_model.text())
        if not name:
            self.message.setText(self.tr("Type the model's name first."))
            return
        if name not in self.prices().entries():
            self._filling = True
            row = self.table.rowCount()
            self.table.insertRow(row)
            self._set_row(row, name, None, self.tr("yours"))
            self._filling = False
        self.new_model.clear()
        row = next(r for r in range(self.table.rowCount()) if self.table.item(r, 0).text() == name)
        self.table.setCurrentCell(row, 1)
        self.table.editItem(self.table.item(row, 1))
        self.message.setText(self.tr("Type the prices of {0} per million tokens.").format(name))

    def remove_selected(self) -> None:
        name = self.selected_model()
        if name is None:
            return
        self._save(UsageConfig(self.prices().with_edit(name, None).edits, self.config.budget))
        self.message.setText(self.tr("{0} has no price now: its tokens are counted without a cost.").format(name))

    def restore_selected(self) -> None:
        name = self.selected_model()
        if name is None:
            return
        self._save(UsageConfig(self.prices().without_edit(name).edits, self.config.budget))
        self.message.setText(self.tr("{0} uses the shipped price again (if there is one).").format(name))

    # ------------------------------------------------------------------ budget
    def _budget_toggled(self, on: bool) -> None:
        for widget in (self.amount, self.currency, self.warn_at):
            widget.setEnabled(on)
        self._save_budget()

    def _save_budget(self) -> None:
        budget = Budget(self.amount.value(), self.currency.currentData(), self.warn_at.value() / 100) \
            if self.budget_on.isChecked() else None
        self._save(UsageConfig(self.config.price_edits, budget), refill=False)

    def _save(self, config: UsageConfig, *, refill: bool = True) -> None:
        if self.service is None:
            self.message.setText(self.tr("Usage is not available: the history is not open."))
            return
        try:
            self.service.save_config(config)  # a small file: written here, as settings.json is
        except OSError as exc:
            self.message.setText(self.tr("Not saved: {0}").format(exc.strerror or str(exc)))
            return
        self.config = config
        if refill:
            self.fill()
        self.actions.changed()


def _number(value: float) -> str:
    return f"{value:g}"

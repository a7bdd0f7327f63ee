"""Settings › Memory: the global switch, how fast short-term memories fade, and how much of each request they may
take. Each change is saved at once (as the other settings pages do)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QFormLayout, QLabel, QSpinBox, QWidget

if TYPE_CHECKING:
    from hermes_desktop.ui.controller import AppController


class MemorySettingsPage(QWidget):
    def __init__(self, controller: "AppController", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("memorySettingsPage")
        self.controller = controller
        settings = controller.runtime.settings if controller.runtime else None
        form = QFormLayout(self)
        explain = QLabel(self.tr("Hermes keeps short facts you tell it (preferences, projects, deadlines), each with "
                                 "your own words and where you said them, and gives the relevant ones to the model "
                                 "in later conversations. You see, edit and delete them in the Memory tab."))
        explain.setWordWrap(True)
        form.addRow(explain)
        self.enabled = QCheckBox(self.tr("Use memory: recall memories in conversations and remember new ones"))
        self.enabled.setObjectName("memoryEnabledCheck")
        self.enabled.setChecked(bool(getattr(settings, "memory_enabled", True)))
        self.enabled.toggled.connect(lambda on: self.controller.set_memory_settings(memory_enabled=on))
        form.addRow(self.tr("Memory"), self.enabled)
        off = QLabel(self.tr("When off, nothing is recalled or recorded; what was remembered before stays until you "
                             "delete it. A single conversation can also be kept out of memory (its context menu)."))
        off.setWordWrap(True)
        form.addRow("", off)
        self.half_life = QSpinBox()
        self.half_life.setObjectName("memoryHalfLifeSpin")
        self.half_life.setAccessibleName(self.tr("Short-term memory half-life in days"))
        self.half_life.setRange(1, 365)
        self.half_life.setSuffix(self.tr(" days"))
        self.half_life.setValue(int(round(float(getattr(settings, "memory_half_life_days", 7)))))
        self.half_life.valueChanged.connect(
            lambda days: self.controller.set_memory_settings(memory_half_life_days=float(days)))
        form.addRow(self.tr("Short-term half-life"), self.half_life)
        fade = QLabel(self.tr("A short-term memory counts half as much after this many days, a quarter after twice "
                              "as many. Long-term and pinned memories do not fade."))
        fade.setWordWrap(True)
        form.addRow("", fade)
        self.budget = QSpinBox()
        self.budget.setObjectName("memoryBudgetSpin")
        self.budget.setAccessibleName(self.tr("Memory token budget per request"))
        self.budget.setRange(50, 8000)
        self.budget.setSingleStep(50)
        self.budget.setSuffix(self.tr(" tokens"))
        self.budget.setValue(int(getattr(settings, "memory_budget_tokens", 400)))
        self.budget.valueChanged.connect(lambda tokens: self.controller.set_memory_settings(memory_budget_tokens=tokens))
        form.addRow(self.tr("Room in each request"), self.budget)
        self.half_life.setEnabled(self.enabled.isChecked())
        self.budget.setEnabled(self.enabled.isChecked())
        self.enabled.toggled.connect(self.half_life.setEnabled)
        self.enabled.toggled.connect(self.budget.setEnabled)

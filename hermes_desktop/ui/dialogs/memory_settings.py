"""Settings › Memory: the global switch, which providers receive memories, how fast short-term memories fade, and
how much of each request they may take. Each change is saved at once (as the other settings pages do).

Providers: memories are the user's, whichever provider they were said to, and every saved provider gets the
relevant ones unless its box here is unticked (Settings.memory_excluded_profiles; core/memory/service.py). A
privacy-minded user can keep them from a cloud provider and still have them with a local model. The list follows
the Providers tab while the dialog is open (a profile added there appears here, ticked)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QFormLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

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
        self.providers = QWidget()
        self.providers.setObjectName("memoryProvidersBox")
        self.providers.setAccessibleName(self.tr("Providers that receive memories"))
        self._provider_rows = QVBoxLayout(self.providers)
        self._provider_rows.setContentsMargins(0, 0, 0, 0)
        self._provider_rows.setSpacing(2)
        self._shown: tuple[tuple[str, str], ...] | None = None
        self.provider_checks: dict[str, QCheckBox] = {}
        form.addRow(self.tr("Providers that receive memories"), self.providers)
        shared = QLabel(self.tr("Memories are yours, whichever provider you told them to: each provider ticked here "
                                "gets the relevant ones. Untick one to keep all of them from it; what you tell it "
                                "is still remembered for the others. A server set with HERMES_BASE_URL never gets "
                                "them."))
        shared.setWordWrap(True)
        form.addRow("", shared)
        self._fill_providers()
        controller.sig_settings_changed.connect(self._fill_providers)
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
        self.providers.setEnabled(self.enabled.isChecked())
        self.enabled.toggled.connect(self.half_life.setEnabled)
        self.enabled.toggled.connect(self.budget.setEnabled)
        self.enabled.toggled.connect(self.providers.setEnabled)

    def _fill_providers(self) -> None:
        """One box per saved profile, ticked unless excluded. Rebuilt only when the profiles changed (a tick saves
        the settings, which signals here: rebuilding then would delete the box being clicked)."""
        runtime = self.controller.runtime
        if runtime is None:
            return
        profiles = tuple((p.id, p.name or p.id) for p in runtime.settings.profiles)
        excluded = set(runtime.settings.memory_excluded_profiles)
        if profiles != self._shown:
            self._shown = profiles
            while (item := self._provider_rows.takeAt(0)) is not None:
                if item.widget() is not None:
                    item.widget().deleteLater()
            self.provider_checks = {}
            if not profiles:
                self._provider_rows.addWidget(QLabel(self.tr("No provider is set up yet.")))
            for profile_id, name in profiles:
                box = QCheckBox(" ".join(name.split()).replace("&", "&&"))  # one line; "&" is not a shortcut
                box.setObjectName(f"memoryProvider:{profile_id}")
                box.toggled.connect(lambda on, pid=profile_id: self._set_receives(pid, on))
                self._provider_rows.addWidget(box)
                self.provider_checks[profile_id] = box
        for profile_id, box in self.provider_checks.items():
            if box.isChecked() != (profile_id not in excluded):
                box.blockSignals(True)
                box.setChecked(profile_id not in excluded)
                box.blockSignals(False)

    def _set_receives(self, profile_id: str, on: bool) -> None:
        runtime = self.controller.runtime
        if runtime is None:
            return
        excluded = [p for p in runtime.settings.memory_excluded_profiles if p != profile_id]
        if not on:
            excluded.append(profile_id)
        known = {p.id for p in runtime.settings.profiles}  # a removed profile's id is not kept
        self.controller.set_memory_settings(memory_excluded_profiles=tuple(p for p in excluded if p in known))

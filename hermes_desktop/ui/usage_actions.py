"""What View › Usage… and the status bar's budget label do (core/usage, issue 28).

The label is empty while there is no budget or the month's spend is under its warning share; near the budget it
says "Near budget: $16.40 of $20.00 this month (82%)", over it "Over budget: …", in the warning colour. It is
refreshed when the store is ready, half a second after usage rows land (the recorder tells from its worker
thread through a queued signal, so a title or a memory request made after the turn counts too) and when
Settings › Usage changes prices or the budget.
Reads run on the store executor; asyncio and the view's module are imported only when first needed, so the
window paints before either (tests/ui/test_startup.py).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel

from hermes_desktop.ui.tasks import spawn

if TYPE_CHECKING:
    from hermes_desktop.core.usage.budget import BudgetStatus
    from hermes_desktop.core.usage.service import UsageService
    from hermes_desktop.ui.usage_view import UsageView

log = logging.getLogger(__name__)


class UsageActions(QObject):
    sig_recorded = Signal()
    """A usage row was saved (emitted on the store executor's thread; delivered queued on the GUI thread)."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.view: "UsageView | None" = None
        self.status: "BudgetStatus | None" = None
        self.label = QLabel("")
        self.label.setObjectName("budgetLabel")
        self.label.setAccessibleName(self.tr("Monthly budget"))
        self.label.setVisible(False)
        self._settle = QTimer(self)  # a turn writes several rows in a burst: one refresh after them
        self._settle.setSingleShot(True)
        self._settle.setInterval(500)
        self._settle.timeout.connect(lambda: spawn(self.refresh_budget()))
        self.sig_recorded.connect(self._settle.start)
        self.controller.sig_ready.connect(self._ready)

    def _ready(self) -> None:
        self.controller.sig_usage_recorded.connect(lambda _usage: self.sig_recorded.emit())
        spawn(self.refresh_budget())

    def service(self) -> "UsageService | None":
        runtime = self.controller.runtime
        return getattr(runtime, "usage", None) if runtime is not None else None

    async def refresh_budget(self) -> "BudgetStatus | None":
        service = self.service()
        if service is None:
            return None
        from hermes_desktop.core.executors import run_store

        try:
            status = await run_store(service.budget_status)
        except Exception as exc:  # a read-only or damaged database: no label, the window goes on
            log.warning("the budget could not be checked: %s", exc)
            return None
        self.show_status(status)
        return status

    def show_status(self, status: "BudgetStatus") -> None:
        from hermes_desktop.ui import theme as themes

        self.status = status
        state = status.state.value
        if state not in ("near", "over"):
            self.label.setText("")
            self.label.setVisible(False)
            return
        from hermes_desktop.ui.usage_view import budget_text

        theme = themes.current()
        colour = theme.risk_destructive if state == "over" else theme.risk_write
        self.label.setText(budget_text(status))
        self.label.setStyleSheet(f"color: {colour}; font-weight: 600;")
        self.label.setToolTip(self.tr("Spend this month against the budget set in Settings › Usage. Only models "
                                      "with a price count."))
        self.label.setVisible(True)

    def open_view(self) -> None:
        service = self.service()
        if service is None:
            self.window.statusBar().showMessage(self.tr("Usage is not available: the history is not open."), 6000)
            return
        if self.view is not None and self.view.isVisible():
            self.view.raise_()
            self.view.activateWindow()
            return
        from hermes_desktop.ui.usage_view import UsageView

        self.view = UsageView(service, self.window, open_settings=self.window.open_settings)
        self.view.show()
        spawn(self.view.load())

    def changed(self) -> None:
        """Prices or the budget were edited (Settings › Usage): the label and an open view follow."""
        spawn(self.refresh_budget())
        if self.view is not None and self.view.isVisible():
            spawn(self.view.load())

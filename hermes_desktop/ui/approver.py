"""The window's Approver: asks through the approval dialog, or through the buttons on the tool card.

Whichever answers first decides; the other goes away. A call waits for at most the
policy's timeout (five minutes), then it is denied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import asyncio

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from hermes_desktop.core.tools.approval import ApprovalRequest, Decision
from hermes_desktop.ui.async_dialog import run_dialog
from hermes_desktop.ui.dialogs.approval import ApprovalDialog


class GuiApprover(QObject):
    sig_asking = Signal(object)
    """A request is waiting for the user (the dialog is open): carries the ApprovalRequest."""

    def __init__(self, parent: QWidget, *, workspace: Callable[[], Any] = lambda: None,
                 session_title: Callable[[str], str] = lambda sid: "") -> None:
        super().__init__(parent)
        self._parent = parent
        self._workspace = workspace
        self._session_title = session_title
        self._waiting: dict[str, asyncio.Future[Decision]] = {}
        self.dialog: ApprovalDialog | None = None

    async def ask(self, request: ApprovalRequest) -> Decision:
        import asyncio

        answer: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        self._waiting[request.call_id] = answer
        dialog = ApprovalDialog(request, self._parent, workspace=self._workspace(),
                                session_title=self._session_title(request.session_id))
        self.dialog = dialog
        self.sig_asking.emit(request)

        async def through_dialog() -> None:
            await run_dialog(dialog)
            if not answer.done():
                answer.set_result(dialog.decision)

        shown = asyncio.ensure_future(through_dialog())
        try:
            return await answer
        finally:
            self._waiting.pop(request.call_id, None)
            if not shown.done():
                shown.cancel()  # answered on the card: close the dialog
                await asyncio.gather(shown, return_exceptions=True)
            self.dialog = None

    def answer(self, call_id: str, decision: Decision) -> bool:
        """An answer from the tool card's buttons. False when that call is no longer waiting."""
        waiting = self._waiting.get(call_id)
        if waiting is None or waiting.done():
            return False
        waiting.set_result(decision)
        return True

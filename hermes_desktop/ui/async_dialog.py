"""The only way to show a modal from a coroutine: `await run_dialog(dialog)`.

`QDialog.exec()` inside a coroutine re-enters the event loop under qasync and breaks
it; instead the dialog is opened with `open()` (window-modal to its parent) and the
coroutine awaits its `finished` signal. Cancelling the awaiting task rejects the
dialog, so a cancelled turn never leaves a dialog behind.
"""

from __future__ import annotations


from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget


async def run_dialog(dialog: QDialog) -> int:
    import asyncio

    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def finished(result: int) -> None:
        if not future.done():
            future.set_result(result)

    dialog.finished.connect(finished)
    dialog.open()
    try:
        return await future
    except asyncio.CancelledError:
        dialog.reject()
        raise
    finally:
        dialog.finished.disconnect(finished)


class Confirmation(QMessageBox):
    """A question before something that cannot be taken back: Cancel is the default (a stray Enter or Esc
    declines), and only the named action button confirms."""

    def __init__(self, parent: QWidget, icon: QMessageBox.Icon, title: str, text: str, action: str,
                 role: QMessageBox.ButtonRole = QMessageBox.ButtonRole.AcceptRole) -> None:
        super().__init__(icon, title, text, QMessageBox.StandardButton.Cancel, parent)
        # The text names things from outside (a skill's name and folder, a server's name): never read as HTML,
        # or a name like `<b>…` or `&lt;` in its first line would turn on rich text and could hide parts of it.
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.action = self.addButton(action, role)
        self.setDefaultButton(QMessageBox.StandardButton.Cancel)

    async def confirmed(self) -> bool:
        await run_dialog(self)
        return self.clickedButton() is self.action

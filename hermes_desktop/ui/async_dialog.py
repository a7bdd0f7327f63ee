"""The only way to show a modal from a coroutine: `await run_dialog(dialog)`.

`QDialog.exec()` inside a coroutine re-enters the event loop under qasync and breaks
it; instead the dialog is opened with `open()` (window-modal to its parent) and the
coroutine awaits its `finished` signal. Cancelling the awaiting task rejects the
dialog, so a cancelled turn never leaves a dialog behind.
"""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QDialog


async def run_dialog(dialog: QDialog) -> int:
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

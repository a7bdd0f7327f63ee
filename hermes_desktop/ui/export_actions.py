"""Exporting a session from the window: Markdown, JSON, Word (.docx) and into an Obsidian vault.

The File menu and the session menu (sidebar) call `ExportActions.export(session_id, fmt)`. Markdown and JSON come
from the controller (core/storage/transfer.py); Word and Obsidian from core/exports/, in the window's language.
The file is written through a temporary file in a worker thread; the status bar says where it went, or why not.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from hermes_desktop.ui.main_window import MainWindow

FILTERS = {"md": "Markdown (*.md)", "json": "JSON (*.json)", "docx": "Word (*.docx)"}


class ExportActions:
    """Export commands for one window (its controller's store, its status bar, its language)."""

    def __init__(self, window: "MainWindow") -> None:
        self._window = window

    async def export(self, session_id: str, fmt: str) -> None:
        from PySide6.QtWidgets import QDialog, QFileDialog

        from hermes_desktop.ui.async_dialog import run_dialog

        window = self._window
        controller = window.controller
        info = await asyncio.to_thread(controller.store.get_session, session_id)
        title = (info.title if info else "") or "session"
        if fmt == "obsidian":
            dialog = QFileDialog(window, QCoreApplication.translate("ExportActions", "Choose your Obsidian vault's folder"),
                                 str(Path.home()))
            dialog.setFileMode(QFileDialog.FileMode.Directory)
            dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        else:
            name = "".join(c if c.isalnum() or c in " -_" else "_" for c in title).strip()
            dialog = QFileDialog(window, QCoreApplication.translate("ExportActions", "Export session"),
                                 str(Path.home() / f"{name[:60] or 'session'}.{fmt}"))
            dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
            dialog.setNameFilter(FILTERS[fmt])
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return
        target = Path(dialog.selectedFiles()[0])
        try:
            written = await self._write(session_id, fmt, target)
        except Exception as exc:  # noqa: BLE001 - a full disk, a vault that is not one: said, nothing half-written
            said = QCoreApplication.translate("ExportActions", "Not exported: {0}").format(str(exc))
            window.statusBar().showMessage(said, 10000)
            return
        said = QCoreApplication.translate("ExportActions", "Exported to {0}").format(written)
        window.statusBar().showMessage(said, 6000)

    async def _write(self, session_id: str, fmt: str, target: Path) -> Path:
        from hermes_desktop.commands.session_export import write_file_atomic

        controller = self._window.controller
        if fmt in ("md", "json"):
            text = await controller.export(session_id, fmt)
            await asyncio.to_thread(write_file_atomic, target, text.encode("utf-8"))
            return target
        secrets = [s for s in (controller.runtime.api_key(controller._env) if controller.runtime else None,) if s]
        language = _language(controller)
        return await asyncio.to_thread(_export_file, controller.store, session_id, fmt, target, secrets, language)


def _language(controller: Any) -> str:
    settings = getattr(controller.runtime, "settings", None) if controller.runtime else None
    return str(getattr(settings, "language", "system") or "system")


def _export_file(store: Any, session_id: str, fmt: str, target: Path, secrets: list[str], language: str) -> Path:
    from hermes_desktop.commands.session_export import write_file_atomic
    from hermes_desktop.core.exports.document import read_session

    document = read_session(store, session_id, known_secrets=secrets)
    if fmt == "obsidian":
        from hermes_desktop.core.exports.obsidian import export_to_vault

        return export_to_vault(document, target, language=language)
    from hermes_desktop.core.exports.docx_export import session_docx

    write_file_atomic(target, session_docx(document, language=language))
    return target

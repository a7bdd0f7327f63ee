"""The question before a broad workspace is used: `/`, the home folder itself, or a system folder.

The file tools read anything inside the workspace without asking, so such a folder is
used only when the user confirms, with the reason from
`core.tools.workspace.broad_workspace_reason` (the same check `ask` applies to
`--workspace`, where `--allow-broad-workspace` is the confirmation). Asked when the
folder is chosen in Settings and whenever the window starts with one (from
HERMES_WORKSPACE or the saved settings: a hand-edited settings.json is never trusted
silently). Cancel, the default button, keeps the previous workspace.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from hermes_desktop.ui.async_dialog import Confirmation


async def confirm_broad_workspace(parent: QWidget, reason: str) -> bool:
    """Ask whether to use a broad folder as the workspace (`reason` names it and says why); True only for "Use it anyway".
    The question is kept as `parent.workspace_question` while it is open (for tests and automation)."""
    title = QCoreApplication.translate("BroadWorkspace", "Use this folder as the workspace?")
    text = QCoreApplication.translate("BroadWorkspace", "{0}\n\nHermes's file tools read any file in the workspace "
                                      "without asking, and change files there with your approval. A project "
                                      "folder is safer.").format(reason)
    box = Confirmation(parent, QMessageBox.Icon.Warning, title, text,
                       QCoreApplication.translate("BroadWorkspace", "Use it anyway"),
                       QMessageBox.ButtonRole.DestructiveRole)
    box.setObjectName("broadWorkspaceDialog")
    box.button(QMessageBox.StandardButton.Cancel).setText(QCoreApplication.translate("BroadWorkspace", "Don't use it"))
    parent.workspace_question = box  # type: ignore[attr-defined]
    try:
        return await box.confirmed()
    finally:
        parent.workspace_question = None  # type: ignore[attr-defined]

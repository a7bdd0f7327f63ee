"""Ask once for an `${input:ID}` an MCP server's entry in mcp.json uses (VS Code's `inputs`); the answer goes to
the keyring only (`mcp:<server>:input:<ID>`), and the server starts with it (core/mcp/config.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QWidget

from hermes_desktop.core.mcp.config import InputSpec
from hermes_desktop.ui.dialogs.mcp_secret import KeyringValueDialog

if TYPE_CHECKING:
    from hermes_desktop.ui.main_window import MainWindow


class McpInputDialog(KeyringValueDialog):
    def __init__(self, parent: QWidget | None, servers: list[str], spec: InputSpec, *, keyring_secure: bool,
                 keyring_reason: str) -> None:
        super().__init__(parent, "mcpInput")
        self.setWindowTitle(self.tr("Value for MCP server “{0}”").format(", ".join(servers)))
        question = QLabel(spec.description or spec.id)
        question.setObjectName("mcpInputQuestion")
        question.setWordWrap(True)
        self.value.setAccessibleName(spec.description or spec.id)
        if spec.password:
            self.value.setEchoMode(QLineEdit.EchoMode.Password)
        self.value.setPlaceholderText(self.tr("${{input:{0}}} in mcp.json").format(spec.id))
        where = self.tr("Asked once: it is kept in the system keyring and used each time the server starts. "
                        "“Set secret…” changes it later.") if keyring_secure else \
            self.tr("No secure keyring ({0}): the value is kept in memory until Hermes closes.").format(keyring_reason)
        self._lay_out([question, (self.tr("Value"), self.value)], where)

    def entered(self) -> str:
        return self.value.text().strip()


class WindowInputAsker:
    """The window's answer to MCPManager.input_asker: one dialog per input; Cancel leaves the server to fail
    naming the input (its status says so, and “Restart” asks again)."""

    def __init__(self, window: "MainWindow") -> None:
        self.window = window
        self.dialog: McpInputDialog | None = None  # the open one, for tests and automation

    async def ask_input(self, servers: list[str], spec: InputSpec) -> str | None:
        from hermes_desktop.ui.async_dialog import run_dialog

        runtime: Any = self.window.controller.runtime
        report = runtime.secrets_report if runtime is not None else None
        dialog = self.dialog = McpInputDialog(self.window, servers, spec,
                                              keyring_secure=bool(report and report.secure),
                                              keyring_reason=report.reason if report else "")
        try:
            return dialog.entered() if await run_dialog(dialog) == QDialog.DialogCode.Accepted else None
        finally:
            self.dialog = None

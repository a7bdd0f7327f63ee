"""Ask once for an `${input:ID}` an MCP server's entry in mcp.json uses (VS Code's `inputs`); the answer goes to
the keyring only (`mcp:<server>:input:<ID>`), and the server starts with it (core/mcp/config.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QWidget

from hermes_desktop.core.mcp.config import InputSpec
from hermes_desktop.core.terminal_text import visible_controls
from hermes_desktop.ui.dialogs.mcp_secret import KeyringValueDialog

if TYPE_CHECKING:
    from hermes_desktop.ui.main_window import MainWindow


class McpInputDialog(KeyringValueDialog):
    def __init__(self, parent: QWidget | None, servers: list[str], spec: InputSpec, *, keyring_secure: bool,
                 keyring_reason: str) -> None:
        super().__init__(parent, "mcpInput")
        self.setWindowTitle(self.tr("Value for MCP server “{0}”").format(", ".join(servers)))
        # The question is mcp.json's text (whoever wrote the config), not Hermes speaking: it is introduced as the
        # server's, shown as plain text (never rich text: no links, no styling that could pass for the app's own
        # words) with its control characters as escapes, and set apart as a quotation.
        source = QLabel(self.tr("The configuration of MCP server “{0}” asks for a value (${{input:{1}}}). Its words, "
                                "not Hermes':").format(", ".join(servers), spec.id))
        source.setObjectName("mcpInputSource")
        source.setTextFormat(Qt.TextFormat.PlainText)
        source.setWordWrap(True)
        question = QLabel(visible_controls(spec.description or spec.id))
        question.setObjectName("mcpInputQuestion")
        question.setTextFormat(Qt.TextFormat.PlainText)
        question.setWordWrap(True)
        question.setIndent(16)
        font = question.font()
        font.setItalic(True)
        question.setFont(font)
        self.value.setAccessibleName(spec.description or spec.id)
        if spec.password:
            self.value.setEchoMode(QLineEdit.EchoMode.Password)
        self.value.setPlaceholderText(self.tr("${{input:{0}}} in mcp.json").format(spec.id))
        where = self.tr("Asked once: it is kept in the system keyring and used each time the server starts. "
                        "“Set secret…” changes it later.") if keyring_secure else \
            self.tr("No secure keyring ({0}): the value is kept in memory until Hermes closes.").format(keyring_reason)
        self._lay_out([source, question, (self.tr("Value"), self.value)], where)

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

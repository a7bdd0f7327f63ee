"""Ask for one secret an MCP server needs (`${secret:NAME}` in mcp.json); it goes to the keyring only."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget


class McpSecretDialog(QDialog):
    def __init__(self, parent: QWidget | None, server: str, names: tuple[str, ...], *, keyring_secure: bool,
                 keyring_reason: str) -> None:
        super().__init__(parent)
        self.setObjectName("mcpSecretDialog")
        self.setWindowTitle(self.tr("Secret for MCP server “{0}”").format(server))
        self.name = QComboBox()
        self.name.setObjectName("mcpSecretName")
        self.name.addItems(list(names))
        self.value = QLineEdit()
        self.value.setObjectName("mcpSecretValue")
        self.value.setEchoMode(QLineEdit.EchoMode.Password)
        self.value.setPlaceholderText(self.tr("paste the value"))
        where = self.tr("It is stored in the system keyring, never in mcp.json.") if keyring_secure else \
            self.tr("No secure keyring ({0}): the value is kept in memory until Hermes closes.").format(keyring_reason)
        note = QLabel(where)
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.setObjectName("mcpSecretButtons")
        buttons.accepted.connect(self._accept_if_filled)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Value"), self.value)
        form.addRow(note)
        form.addRow(buttons)
        self.setMinimumWidth(460)
        self.value.setFocus()

    def _accept_if_filled(self) -> None:
        if self.value.text().strip():
            self.accept()
        else:
            self.value.setFocus()

    def entered(self) -> tuple[str, str]:
        return self.name.currentText(), self.value.text().strip()

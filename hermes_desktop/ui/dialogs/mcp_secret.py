"""Ask for one secret an MCP server needs (`${secret:NAME}` in mcp.json); it goes to the keyring only.

KeyringValueDialog is what this dialog and McpInputDialog (mcp_input.py, `${input:ID}`) share: a value line,
a note saying where the value is kept, and Save that takes only a non-empty value. Each subclass words its own
rows and note, so every string stays in its own class's translation context."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget


class KeyringValueDialog(QDialog):
    def __init__(self, parent: QWidget | None, name: str) -> None:
        """`name` prefixes the objectNames: <name>Dialog, <name>Value, <name>Buttons."""
        super().__init__(parent)
        self._name = name
        self.setObjectName(f"{name}Dialog")
        self.value = QLineEdit()
        self.value.setObjectName(f"{name}Value")

    def _lay_out(self, rows: list[QWidget | tuple[str, QWidget]], note: str) -> None:
        """The form: `rows` (the value's row among them), then the note, then Save/Cancel."""
        note_label = QLabel(note)
        note_label.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.setObjectName(f"{self._name}Buttons")
        buttons.accepted.connect(self._accept_if_filled)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        for row in rows:
            if isinstance(row, tuple):
                form.addRow(*row)
            else:
                form.addRow(row)
        form.addRow(note_label)
        form.addRow(buttons)
        self.setMinimumWidth(460)
        self.value.setFocus()

    def _accept_if_filled(self) -> None:
        if self.value.text().strip():
            self.accept()
        else:
            self.value.setFocus()


class McpSecretDialog(KeyringValueDialog):
    def __init__(self, parent: QWidget | None, server: str, names: tuple[str, ...], *, keyring_secure: bool,
                 keyring_reason: str) -> None:
        super().__init__(parent, "mcpSecret")
        self.setWindowTitle(self.tr("Secret for MCP server “{0}”").format(server))
        self.name = QComboBox()
        self.name.setObjectName("mcpSecretName")
        self.name.addItems(list(names))
        self.value.setEchoMode(QLineEdit.EchoMode.Password)
        self.value.setPlaceholderText(self.tr("paste the value"))
        where = self.tr("It is stored in the system keyring, never in mcp.json.") if keyring_secure else \
            self.tr("No secure keyring ({0}): the value is kept in memory until Hermes closes.").format(keyring_reason)
        self._lay_out([(self.tr("Name"), self.name), (self.tr("Value"), self.value)], where)

    def entered(self) -> tuple[str, str]:
        return self.name.currentText(), self.value.text().strip()

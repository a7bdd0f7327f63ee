"""Pick one of an MCP server's prompt templates and fill its arguments; the server's text goes into the message
box for the user to read, change and send (it is never sent by itself)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

from hermes_desktop.core.mcp.status import PromptInfo


class McpPromptDialog(QDialog):
    def __init__(self, parent: QWidget | None, server: str, prompts: tuple[PromptInfo, ...]) -> None:
        super().__init__(parent)
        self.setObjectName("mcpPromptDialog")
        self.setWindowTitle(self.tr("Prompt from MCP server “{0}”").format(server))
        self.setMinimumWidth(480)
        self._prompts = prompts
        self.choice = QComboBox()
        self.choice.setObjectName("mcpPromptCombo")
        for prompt in prompts:
            self.choice.addItem(prompt.name, prompt.name)
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.fields: dict[str, QLineEdit] = {}
        self.problem = QLabel()
        self.problem.setObjectName("mcpPromptProblem")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.setObjectName("mcpPromptButtons")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Put in the message box"))
        self.buttons.accepted.connect(self._accept_if_filled)
        self.buttons.rejected.connect(self.reject)
        self.form = QFormLayout(self)
        self.choice.currentIndexChanged.connect(lambda _i: self._show_arguments())
        self._show_arguments()

    def _show_arguments(self) -> None:
        while self.form.rowCount():
            self.form.takeRow(0)  # rows are rebuilt for the chosen prompt; the shared widgets are re-added below
        for field in self.fields.values():
            field.deleteLater()
        self.fields = {}
        prompt = self.prompt()
        self.form.addRow(self.tr("Prompt"), self.choice)
        self.description.setText(prompt.description if prompt else "")
        self.form.addRow(self.description)
        for argument in prompt.arguments if prompt else ():
            field = QLineEdit()
            field.setObjectName(f"mcpPromptArg:{argument.name}")
            field.setPlaceholderText(argument.description or (self.tr("required") if argument.required
                                                              else self.tr("optional")))
            self.fields[argument.name] = field
            self.form.addRow(argument.name + (" *" if argument.required else ""), field)
        self.form.addRow(self.problem)
        self.form.addRow(self.buttons)
        if self.fields:
            next(iter(self.fields.values())).setFocus()

    def prompt(self) -> PromptInfo | None:
        return next((p for p in self._prompts if p.name == self.choice.currentData()), None)

    def arguments(self) -> dict[str, str]:
        """The filled arguments; empty optional ones are left out so the server uses its defaults."""
        return {name: field.text().strip() for name, field in self.fields.items() if field.text().strip()}

    def _accept_if_filled(self) -> None:
        prompt = self.prompt()
        missing = [a.name for a in (prompt.arguments if prompt else ()) if a.required and a.name not in self.arguments()]
        if missing:
            self.problem.setText(self.tr("Fill in: {0}").format(", ".join(missing)))
            return
        self.accept()

"""The small form for a saved prompt's {{variables}} (objectName `promptFillDialog`): one field per blank, in order.

OK is enabled once every field has text; the filled prompt (core/assistants/prompt_library.fill) goes into the
message box for the user to read and send. Tab moves between fields; Enter in the last one accepts."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from hermes_desktop.core.assistants.prompt_library import SavedPrompt, fill


class PromptFillDialog(QDialog):
    def __init__(self, prompt: SavedPrompt, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("promptFillDialog")
        self.prompt = prompt
        self.setWindowTitle(self.tr("Fill in “{0}”").format(prompt.name))
        self.fields: dict[str, QLineEdit] = {}
        form = QFormLayout()
        for n, name in enumerate(prompt.variables):
            field = QLineEdit()
            field.setObjectName(f"promptVariable{n}")
            field.setAccessibleName(name)
            field.textChanged.connect(lambda _text: self._update())
            form.addRow(QLabel(name), field)
            self.fields[name] = field
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        if prompt.description:
            note = QLabel(prompt.description)
            note.setWordWrap(True)
            column.addWidget(note)
        column.addLayout(form)
        column.addWidget(self.buttons)
        self._update()
        self.resize(420, self.sizeHint().height())

    def _update(self) -> None:
        ok = all(field.text().strip() for field in self.fields.values())
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def text(self) -> str:
        return fill(self.prompt.body, {name: field.text() for name, field in self.fields.items()})

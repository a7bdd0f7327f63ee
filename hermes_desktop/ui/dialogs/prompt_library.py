"""The prompt library (objectName `promptLibraryDialog`): the saved prompts, and a form to add, change or delete
the user's own. Built-in prompts are read-only: "Save" on one saves a copy under a new name.

A prompt's text may hold {{variables}}; the dialog lists the ones it found under the text, so the user sees what
the form will ask when the prompt is used (`/` in the message box). Store calls go through `save`/`delete`
callables (run in a worker thread by ui/assistant_actions.py); their errors (a name taken) show in the dialog.
"""

from __future__ import annotations

from typing import Awaitable, Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.assistants.prompt_library import SavedPrompt, variables
from hermes_desktop.ui.tasks import spawn

PROMPT_ROLE = Qt.ItemDataRole.UserRole + 1


class PromptLibraryDialog(QDialog):
    def __init__(self, prompts: Sequence[SavedPrompt], *,
                 save: Callable[[str, str, str, str], Awaitable[SavedPrompt]],
                 delete: Callable[[str], Awaitable[None]],
                 reload: Callable[[], Awaitable[Sequence[SavedPrompt]]], parent: QWidget | None = None) -> None:
        """`save(name, body, description, id)` (id "" for a new one); `delete(id)`; `reload()` lists them again."""
        super().__init__(parent)
        self.setObjectName("promptLibraryDialog")
        self.setWindowTitle(self.tr("Prompt library"))
        self._save, self._delete, self._reload = save, delete, reload
        self.list = QListWidget()
        self.list.setObjectName("promptList")
        self.list.currentItemChanged.connect(lambda item, _old: self._show(item))
        self.name = QLineEdit()
        self.name.setObjectName("promptNameEdit")
        self.description = QLineEdit()
        self.description.setObjectName("promptDescriptionEdit")
        self.body = QPlainTextEdit()
        self.body.setObjectName("promptBodyEdit")
        self.body.setTabChangesFocus(True)
        self.body.setPlaceholderText(self.tr("The prompt. {{name}} marks a blank that is asked when it is used."))
        self.body.textChanged.connect(self._blanks_changed)
        self.blanks = QLabel()
        self.blanks.setObjectName("promptVariablesLabel")
        self.blanks.setTextFormat(Qt.TextFormat.PlainText)
        self.blanks.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setObjectName("promptProblem")
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.problem.setWordWrap(True)
        self.new_button = QPushButton(self.tr("New"))
        self.new_button.setObjectName("newPromptButton")
        self.new_button.clicked.connect(self.start_new)
        self.save_button = QPushButton(self.tr("Save"))
        self.save_button.setObjectName("savePromptButton")
        self.save_button.clicked.connect(lambda: spawn(self.save()))
        self.delete_button = QPushButton(self.tr("Delete"))
        self.delete_button.setObjectName("deletePromptButton")
        self.delete_button.clicked.connect(lambda: spawn(self.delete()))
        form = QFormLayout()
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Description"), self.description)
        form.addRow(self.tr("Text"), self.body)
        form.addRow("", self.blanks)
        buttons = QHBoxLayout()
        for widget in (self.new_button, self.save_button, self.delete_button):
            buttons.addWidget(widget)
        buttons.addStretch(1)
        right = QVBoxLayout()
        right.addLayout(form, 1)
        right.addWidget(self.problem)
        right.addLayout(buttons)
        row = QHBoxLayout()
        row.addWidget(self.list, 1)
        row.addLayout(right, 2)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        column.addLayout(row, 1)
        column.addWidget(close)
        self.resize(760, 460)
        self._editing = ""  # the id of the prompt in the form ("" new)
        self.fill(prompts)
        self.start_new()

    def fill(self, prompts: Sequence[SavedPrompt], select: str = "") -> None:
        self.list.clear()
        for prompt in prompts:
            label = prompt.name + (self.tr(" (built-in)") if prompt.builtin else "")
            item = QListWidgetItem(label)
            item.setData(PROMPT_ROLE, prompt)
            self.list.addItem(item)
            if prompt.id == select:
                self.list.setCurrentItem(item)

    def _show(self, item: QListWidgetItem | None) -> None:
        prompt: SavedPrompt | None = item.data(PROMPT_ROLE) if item is not None else None
        if prompt is None:
            return
        self._editing = "" if prompt.builtin else prompt.id
        self.name.setText(prompt.name)
        self.description.setText(prompt.description)
        self.body.setPlainText(prompt.body)
        self.delete_button.setEnabled(not prompt.builtin)
        self.problem.clear()

    def start_new(self) -> None:
        self.list.setCurrentItem(None)  # type: ignore[arg-type]
        self._editing = ""
        self.name.clear()
        self.description.clear()
        self.body.clear()
        self.delete_button.setEnabled(False)
        self.problem.clear()
        self.name.setFocus()

    def _blanks_changed(self) -> None:
        found = variables(self.body.toPlainText())
        self.blanks.setText(self.tr("Blanks asked when it is used: {0}").format(", ".join(found)) if found else "")

    async def save(self) -> None:
        try:
            saved = await self._save(self.name.text(), self.body.toPlainText(), self.description.text().strip(),
                                     self._editing)
        except ValueError as exc:  # NameTaken, or an empty name or text
            self.problem.setText(self._words(exc))
            return
        self.fill(await self._reload(), select=saved.id)
        self.problem.setText(self.tr("Saved."))

    async def delete(self) -> None:
        if not self._editing:
            return
        await self._delete(self._editing)
        self.fill(await self._reload())
        self.start_new()

    def _words(self, error: ValueError) -> str:
        from hermes_desktop.core.assistants.store import NameTaken

        if isinstance(error, NameTaken):
            return self.tr("A prompt with this name already exists.")
        return self.tr("A prompt needs a name and a text.")

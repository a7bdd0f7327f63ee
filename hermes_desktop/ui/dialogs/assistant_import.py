"""Import assistants (objectName `assistantImportDialog`): a file or a URL, then what will be added, then Import.

Preview reads the file (or downloads the URL with fetch_url's guard, in a worker thread) and lists every assistant
with the start of its instructions and the tools it asks for; a bad file shows its error with the place
(`[12].prompt: is missing`) and nothing can be imported. "Give them the tools they ask for" is off by default and
only offered when some assistant asks: an import never grants tools silently.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Callable, Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.assistants import imports
from hermes_desktop.core.assistants.model import AssistantFormatError
from hermes_desktop.ui.tasks import spawn

PREVIEW_CHARS = 140


def read_source(source: str, allowed_hosts: Iterable[str]) -> imports.ImportPlan:
    """Blocking: a file path or an http(s) URL to a plan (raises AssistantFormatError)."""
    source = source.strip()
    if source.startswith(("http://", "https://")):
        return imports.fetch_import(source, allowed_hosts)
    path = Path(source).expanduser()
    try:
        if not path.is_file():
            raise OSError(f"{path} is not a file")
        with path.open("rb") as handle:
            data = handle.read(imports.MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        raise AssistantFormatError("", f"could not read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    return imports.read_import(data, source=str(path))


class AssistantImportDialog(QDialog):
    def __init__(self, allowed_hosts: Callable[[], Iterable[str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistantImportDialog")
        self.setWindowTitle(self.tr("Import assistants"))
        self._hosts = allowed_hosts
        self.plan: imports.ImportPlan | None = None
        self.source = QLineEdit()
        self.source.setObjectName("assistantImportSource")
        self.source.setPlaceholderText(self.tr("A file, or the URL of a Cherry Studio assistant list"))
        self.source.returnPressed.connect(lambda: spawn(self.preview()))
        browse = QPushButton(self.tr("Browse…"))
        browse.setObjectName("assistantImportBrowse")
        browse.clicked.connect(self._browse)
        self.preview_button = QPushButton(self.tr("Preview"))
        self.preview_button.setObjectName("assistantImportPreview")
        self.preview_button.clicked.connect(lambda: spawn(self.preview()))
        self.summary = QLabel(self.tr("Hermes, Cherry Studio and NextChat (mask) files are read."))
        self.summary.setObjectName("assistantImportSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.items = QListWidget()
        self.items.setObjectName("assistantImportList")
        self.items.setWordWrap(True)
        self.items.setSpacing(4)
        self.items.setAlternatingRowColors(True)
        self.grant = QCheckBox(self.tr("Give them the tools they ask for"))
        self.grant.setObjectName("assistantImportGrant")
        self.grant.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = self.buttons.addButton(self.tr("Import"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setObjectName("assistantImportButton")
        self.import_button.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.source, 1)
        row.addWidget(browse)
        row.addWidget(self.preview_button)
        column = QVBoxLayout(self)
        column.addLayout(row)
        column.addWidget(self.summary)
        column.addWidget(self.items, 1)
        column.addWidget(self.grant)
        column.addWidget(self.buttons)
        self.resize(600, 460)
        self._file_dialog: QFileDialog | None = None

    def _browse(self) -> None:
        dialog = self._file_dialog = QFileDialog(self, self.tr("Import assistants"), str(Path.home()),
                                                 self.tr("JSON files (*.json);;All files (*)"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda path: (self.source.setText(path), spawn(self.preview())))
        dialog.open()

    async def preview(self) -> None:
        source = self.source.text().strip()
        if not source:
            return
        self.plan = None
        self.import_button.setEnabled(False)
        self.items.clear()
        self.summary.setText(self.tr("Reading…"))
        hosts = list(self._hosts())
        try:
            plan = await asyncio.to_thread(read_source, source, hosts)
        except AssistantFormatError as exc:
            self.summary.setText(self.tr("This file cannot be imported: {0}").format(str(exc)))
            return
        self.show_plan(plan)

    def show_plan(self, plan: imports.ImportPlan) -> None:
        self.plan = plan
        self.items.clear()
        for item in plan.items:
            a = item.assistant
            text = " ".join(a.instructions.split())
            text = text[:PREVIEW_CHARS] + ("…" if len(text) > PREVIEW_CHARS else "")
            line = f"{a.emoji} {a.name}\n{text}".strip()
            if item.requested:
                line += "\n" + self.tr("Asks for: {0}").format(", ".join(item.requested))
            self.items.addItem(line)
        self.summary.setText(self.tr("{0} assistant(s) from a {1} file will be added.").format(len(plan.items),
                                                                                           plan.format))
        self.grant.setChecked(False)
        self.grant.setVisible(plan.requests_tools)
        self.import_button.setEnabled(bool(plan.items))

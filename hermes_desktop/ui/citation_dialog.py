"""The passage a reply's citation [n] points to: its document, page and heading, its text, and a way to open the
document (at its page, as a `#page=N` fragment, where the system's PDF viewer honours one).

The passage is the user's document text: shown as plain text (never HTML), names through `visible_bidi` so a
bidi override in a file name cannot reorder what the dialog says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget


def document_url(path: str, page: int | None) -> QUrl:
    url = QUrl.fromLocalFile(path)
    if page is not None and path.lower().endswith(".pdf"):
        url.setFragment(f"page={page}")
    return url


class CitationDialog(QDialog):
    def __init__(self, parent: QWidget, number: str, passage: dict[str, Any] | None) -> None:
        super().__init__(parent)
        from hermes_desktop.core.terminal_text import visible_bidi

        self.setObjectName("citationDialog")
        self.setWindowTitle(self.tr("Source [{0}]").format(number))
        self.passage = passage
        layout = QVBoxLayout(self)
        self.where = QLabel()
        self.where.setObjectName("citationSource")
        self.where.setTextFormat(Qt.TextFormat.PlainText)
        self.where.setWordWrap(True)
        layout.addWidget(self.where)
        self.text = QPlainTextEdit()
        self.text.setObjectName("citationText")
        self.text.setReadOnly(True)
        layout.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.open_button: QPushButton = buttons.addButton(self.tr("Open document"),
                                                          QDialogButtonBox.ButtonRole.ActionRole)
        self.open_button.setObjectName("openCitedDocumentButton")
        self.open_button.clicked.connect(self.open_document)
        layout.addWidget(buttons)
        self.resize(520, 360)
        if passage is None:
            self.where.setText(self.tr("[{0}] does not match a passage given to the model in this turn (the model may "
                                       "have written it without a source).").format(number))
            self.text.hide()
            self.open_button.setEnabled(False)
            return
        lines = [self.tr("Document: {0}").format(visible_bidi(str(passage.get("document", ""))))]
        if passage.get("page") is not None:
            lines.append(self.tr("Page {0}").format(passage["page"]))
        heading = " / ".join(str(h) for h in passage.get("heading") or [])
        if heading:
            lines.append(self.tr("Heading: {0}").format(visible_bidi(heading)))
        lines.append(self.tr("Knowledge base: {0}").format(visible_bidi(str(passage.get("knowledge_base", "")))))
        self.where.setText("\n".join(lines))
        self.text.setPlainText(str(passage.get("text", "")))
        path = str(passage.get("path") or "")
        self.open_button.setEnabled(bool(path) and Path(path).is_file())

    def url(self) -> QUrl | None:
        if not self.passage or not self.passage.get("path"):
            return None
        return document_url(str(self.passage["path"]), self.passage.get("page"))

    def open_document(self) -> None:
        url = self.url()
        if url is not None:
            QDesktopServices.openUrl(url)

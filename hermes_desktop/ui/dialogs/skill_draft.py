"""The "Save as skill" editor (objectName `skillDraftDialog`, issue 27): a drafted SKILL.md to edit, its preview,
and the validator's findings, checked again as the user types (the loader's own rules: core/learning/drafting.py).

Save is enabled only while the draft loads as a skill; it writes into the user's skills folder and never over an
existing skill (the error says so in the dialog, and the text stays for another name). The preview renders the
Markdown body with raw HTML off: a drafted skill is model output, so `<file>` is text, and no remote
images or links are fetched.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QTimer
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.learning.drafting import Draft, DraftError, revise

RECHECK_MS = 300  # typing pauses this long before the draft is checked again (a check writes a temporary folder)


class SkillDraftDialog(QDialog):
    def __init__(self, draft: Draft, save: Callable[[Draft], object], parent: QWidget | None = None) -> None:
        """`save(draft)` writes the skill (raises DraftError or OSError with the reason); the dialog closes after."""
        super().__init__(parent)
        self.setObjectName("skillDraftDialog")
        self.setWindowTitle(self.tr("Save as skill"))
        self.draft = draft
        self.saved_to: object = None
        self._save = save
        intro = QLabel(self.tr("Drafted from: {0}").format(draft.trajectory.request[:200]))
        intro.setWordWrap(True)
        intro.setObjectName("skillDraftSource")
        self.editor = QPlainTextEdit(draft.text)
        self.editor.setObjectName("skillDraftEditor")
        self.preview = QTextBrowser()
        self.preview.setObjectName("skillDraftPreview")
        self.preview.setOpenLinks(False)
        splitter = QSplitter()
        splitter.addWidget(self.editor)
        splitter.addWidget(self.preview)
        self.findings = QLabel()
        self.findings.setObjectName("skillDraftFindings")
        self.findings.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.addButton(self.tr("Save skill"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.save_button.setObjectName("saveSkillDraftButton")
        self.buttons.rejected.connect(self.reject)
        self.save_button.clicked.connect(self._save_clicked)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.findings)
        layout.addWidget(self.buttons)
        self._timer = QTimer(self, singleShot=True, interval=RECHECK_MS)
        self._timer.timeout.connect(self.recheck)
        self.editor.textChanged.connect(self._timer.start)
        self.resize(860, 560)
        self._show(draft)

    def recheck(self) -> None:
        self._timer.stop()
        self._show(revise(self.draft, self.editor.toPlainText()))

    def _show(self, draft: Draft) -> None:
        self.draft = draft
        body = draft.text.split("---", 2)[-1] if draft.text.startswith("---") else draft.text
        # Model output: `<file>` is text, not a tag (with HTML on, it swallowed the rest of the preview).
        features = QTextDocument.MarkdownFeature
        self.preview.document().setMarkdown(body, features.MarkdownDialectGitHub | features.MarkdownNoHTML)
        if draft.problems:
            lines = [self._level(p.level) + ": " + p.reason for p in draft.problems]
        else:
            lines = [self.tr("The validator found nothing to change.")]
        name = draft.name or self.tr("(no name)")
        self.findings.setText(self.tr("Skill name: {0}").format(name) + "\n" + "\n".join(lines))
        self.save_button.setEnabled(draft.loads)

    def _level(self, level: str) -> str:
        return {"error": self.tr("Error"), "warning": self.tr("Warning")}.get(level, level)

    def _save_clicked(self) -> None:
        self.recheck()  # the text as it is now, not as it was at the last pause in typing
        if not self.draft.loads:
            return
        try:
            self.saved_to = self._save(self.draft)
        except (DraftError, OSError) as exc:
            self.findings.setText(self.tr("Not saved: {0}").format(exc))
            return
        self.accept()

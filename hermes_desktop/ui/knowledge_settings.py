"""A knowledge base's chunk settings (objectName `knowledgeSettingsDialog`): tokens per chunk and overlap.

Two number fields (`chunkTokensEdit`, `overlapTokensEdit`) with the base's values. The rule is the core's
(core/knowledge/registry.validate_chunking: 100-2,000 tokens a chunk, an overlap of 0 to half a chunk), checked as
the user types: a value outside it shows why in the window's language (`knowledgeSettingsError`) and disables OK,
so nothing out of range is saved and nothing typed is lost. The note says what a change costs: the next sync reads
and chunks every file again (ui/knowledge_actions.py saves, then syncs).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from hermes_desktop.ui import theme as themes


def settings_error_text(code: str, params: dict[str, int]) -> str:
    """A ChunkSettingsError in the window's language."""
    if code == "chunk_range":
        return QCoreApplication.translate("KnowledgeSettings", "A chunk has {0} to {1} tokens.").format(
            params.get("min", 0), params.get("max", 0))
    if code == "overlap_range":
        return QCoreApplication.translate("KnowledgeSettings", "The overlap is 0 to half a chunk ({0} tokens).").format(
            params.get("max", 0))
    return QCoreApplication.translate("KnowledgeSettings", "These settings cannot be used.")


class KnowledgeSettingsDialog(QDialog):
    def __init__(self, parent: QWidget | None, name: str, chunk_tokens: int, overlap_tokens: int) -> None:
        super().__init__(parent)
        self.setObjectName("knowledgeSettingsDialog")
        self.setWindowTitle(self.tr("Chunk settings of “{0}”").format(name))
        self.chunk = self._field("chunkTokensEdit", chunk_tokens, self.tr("Tokens per chunk"))
        self.overlap = self._field("overlapTokensEdit", overlap_tokens, self.tr("Overlap between chunks (tokens)"))
        self.error = QLabel()
        self.error.setObjectName("knowledgeSettingsError")
        self.error.setWordWrap(True)
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setStyleSheet(f"color: {themes.current().risk_destructive};")
        note = QLabel(self.tr("Passages are cut at headings, paragraphs and sentences, up to this size; the overlap "
                              "repeats whole sentences between neighbouring chunks. After a change, the next sync "
                              "reads and chunks every file again."))
        note.setObjectName("knowledgeSettingsNote")
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(self.tr("Tokens per chunk"), self.chunk)
        form.addRow(self.tr("Overlap"), self.overlap)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(note)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(420)
        self.chunk.valueChanged.connect(self._check)
        self.overlap.valueChanged.connect(self._check)
        self._check()

    def _field(self, name: str, value: int, label: str) -> QSpinBox:
        field = QSpinBox()
        field.setObjectName(name)
        field.setAccessibleName(label)
        field.setRange(0, 99_999)  # wider than the rule, so a value out of it is said, not silently clamped
        field.setValue(value)
        return field

    def values(self) -> tuple[int, int]:
        return self.chunk.value(), self.overlap.value()

    def problem(self) -> str:
        """Why the typed values cannot be saved ("" when they can), in the window's language."""
        from hermes_desktop.core.knowledge.registry import ChunkSettingsError, validate_chunking

        try:
            validate_chunking(*self.values())
        except ChunkSettingsError as exc:
            return settings_error_text(exc.code, exc.params)
        return ""

    def _check(self) -> None:
        problem = self.problem()
        self.error.setText(problem)
        self.error.setVisible(bool(problem))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

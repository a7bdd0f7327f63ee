"""The message box: Enter sends, Shift+Enter starts a new line; it grows with its text.

Pasting or dropping files (local URLs) or an image does not insert text: the box hands them to the chat pane
(`sig_files`, `sig_image`), which attaches them. Plain text pastes as usual."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QImage, QKeyEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QSizePolicy, QWidget

from hermes_desktop.ui import design

MAX_VISIBLE_LINES = 8


class ChatInput(QPlainTextEdit):
    sig_submit = Signal(str)
    """Fires on Enter with the trimmed text (empty only when `allow_empty()` says files are attached)."""
    sig_files = Signal(list)
    """Local files pasted or dropped into the box (list of Path)."""
    sig_image = Signal(QImage)
    """An image pasted or dropped into the box (e.g. a screenshot from the clipboard)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatInput")
        self.setAccessibleName(self.tr("Message"))
        self.show_default_placeholder()
        self.setTabChangesFocus(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().setDocumentMargin(design.S)  # room around the text (ui/design.py)
        self.document().documentLayout().documentSizeChanged.connect(lambda _size: self._fit())
        self._fit()

    def show_default_placeholder(self) -> None:
        self.setPlaceholderText(self.tr("Message Hermes…  (Enter to send, Shift+Enter for a new line)"))

    def append_text(self, text: str) -> None:
        """Add text after what is typed already (a blank line between), for the user to read, edit and send."""
        current = self.toPlainText().rstrip()
        self.setPlainText(f"{current}\n\n{text}" if current else text)
        self.moveCursor(QTextCursor.MoveOperation.End)
        self.setFocus()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.AltModifier)
        ):
            text = self.toPlainText().strip()
            if text or self.allow_empty():
                self.sig_submit.emit(text)
            event.accept()
            return
        super().keyPressEvent(event)

    def allow_empty(self) -> bool:
        """Whether Enter may send an empty box (the pane says so while files are attached)."""
        return False

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return bool(local_files(source)) or source.hasImage() or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        files = local_files(source)
        if files:
            self.sig_files.emit(files)
        elif source.hasImage() and not source.hasText():
            image = QImage(source.imageData())
            if not image.isNull():
                self.sig_image.emit(image)
        else:
            super().insertFromMimeData(source)

    def _fit(self) -> None:
        lines = max(1, min(MAX_VISIBLE_LINES, int(self.document().size().height())))
        height = int(lines * self.fontMetrics().lineSpacing() + 2 * self.document().documentMargin() + 8)
        self.setFixedHeight(max(height, 44))


def local_files(source: QMimeData) -> list[Path]:
    """The local files among the mime data's URLs (remote URLs are left to paste as text)."""
    if not source.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in source.urls() if url.isLocalFile() and url.toLocalFile()]

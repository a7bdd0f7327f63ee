"""The message box: Enter sends, Shift+Enter starts a new line; it grows with its text."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QSizePolicy, QWidget

MAX_VISIBLE_LINES = 8


class ChatInput(QPlainTextEdit):
    sig_submit = Signal(str)
    """Fires on Enter with the trimmed text (never empty)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatInput")
        self.setAccessibleName(self.tr("Message"))
        self.show_default_placeholder()
        self.setTabChangesFocus(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
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
            if text:
                self.sig_submit.emit(text)
            event.accept()
            return
        super().keyPressEvent(event)

    def _fit(self) -> None:
        lines = max(1, min(MAX_VISIBLE_LINES, int(self.document().size().height())))
        height = int(lines * self.fontMetrics().lineSpacing() + 2 * self.document().documentMargin() + 8)
        self.setFixedHeight(max(height, 44))

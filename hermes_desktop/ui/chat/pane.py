"""The centre of the window: the transcript, the message box, Send and Stop."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from hermes_desktop.ui.chat.input import ChatInput
from hermes_desktop.ui.chat.items import Item, MessageItem, ToolCardItem
from hermes_desktop.ui.chat.model import TranscriptModel
from hermes_desktop.ui.chat.view import ChatView


class ChatPane(QWidget):
    sig_send = Signal(str)
    """The user sent a message (Enter or Send)."""
    sig_resend_edited = Signal(int, str)
    """The user edited one of their messages and sent it again: (message id, new text)."""
    sig_stop = Signal()
    """The user pressed Stop (or Esc)."""
    sig_message_action = Signal(str, object, object)
    """regenerate / fork / version on a message item, with a payload (the version's message id)."""
    sig_banner_action = Signal(str)
    """retry / open_provider_settings / new_session_with_summary from an error banner."""
    sig_approval = Signal(str, str)
    """A decision from a waiting tool card's buttons: (call id, deny | allow_once | allow_session | allow_always)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = TranscriptModel(self)
        self.view = ChatView(self.model, self)
        self.view.delegate.sig_action.connect(self._on_action)
        self.empty = QLabel(self.tr("Ask anything. Hermes can calculate, read and organise files in your workspace, "
                                    "keep notes and read web pages — and asks before it changes anything."))
        self.empty.setObjectName("emptyState")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setContentsMargins(40, 40, 40, 40)
        self.editing = QLabel()
        self.editing.setObjectName("editingBanner")
        self.editing.hide()
        self.input = ChatInput(self)
        self.input.sig_submit.connect(self._submit)
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setObjectName("sendButton")
        self.send_button.setAccessibleName(self.tr("Send message"))
        self.send_button.setDefault(False)
        self.send_button.clicked.connect(lambda: self._submit(self.input.toPlainText().strip()))
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setObjectName("stopButton")
        self.stop_button.setAccessibleName(self.tr("Stop the reply"))
        self.stop_button.setToolTip(self.tr("Stop (Esc)"))
        self.stop_button.clicked.connect(self.sig_stop.emit)
        self.stop_button.setEnabled(False)

        bar = QFrame()
        bar.setObjectName("inputBar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(12, 8, 12, 10)
        row.addWidget(self.input, 1)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.empty, 1)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.editing)
        layout.addWidget(bar)
        self.setTabOrder(self.input, self.send_button)
        self.setTabOrder(self.send_button, self.stop_button)
        self._editing_message: int | None = None
        self._busy = False
        self._send_blocked: str | None = None  # why nothing can be sent (a read-only history), or None
        self.model.modelReset.connect(self._update_empty)
        self.model.rowsInserted.connect(self._update_empty)
        self._update_empty()

    def _update_empty(self) -> None:
        has_rows = self.model.rowCount() > 0
        self.empty.setVisible(not has_rows)
        self.view.setVisible(has_rows)

    def set_busy(self, busy: bool) -> None:
        """A reply is streaming: Stop is available; the box stays editable for the next message."""
        self._busy = busy
        self.stop_button.setEnabled(busy)
        self.send_button.setEnabled(not busy and self.isEnabled() and self._send_blocked is None)

    def block_sending(self, reason: str) -> None:
        """Nothing can be saved (the history is open read-only): Send is off and says why; what is typed stays."""
        self._send_blocked = reason
        self.send_button.setEnabled(False)
        # Rich text, so Qt wraps a long reason instead of drawing one line across the screen.
        self.send_button.setToolTip(f"<p>{html.escape(reason)}</p>")
        self.input.setPlaceholderText(reason)

    @property
    def busy(self) -> bool:
        return self._busy

    def _submit(self, text: str) -> None:
        if not text or self._busy or self._send_blocked is not None:
            return
        self.input.clear()
        if self._editing_message is not None:
            message_id, self._editing_message = self._editing_message, None
            self.editing.hide()
            self.sig_resend_edited.emit(message_id, text)
        else:
            self.sig_send.emit(text)

    def start_editing(self, item: MessageItem) -> None:
        if item.message_id is None:
            return
        self._editing_message = item.message_id
        self.editing.setText(self.tr("Editing your message — Enter sends it as a new branch (the old one is kept); "
                                     "Esc cancels."))
        self.editing.show()
        self.input.setPlainText(item.text)
        self.input.setFocus()

    def cancel_editing(self) -> bool:
        if self._editing_message is None:
            return False
        self._editing_message = None
        self.editing.hide()
        self.input.clear()
        return True

    def _on_action(self, action: str, item: Item, payload: object) -> None:
        if action == "copy" and isinstance(item, MessageItem):
            QGuiApplication.clipboard().setText(item.text)
        elif action == "edit" and isinstance(item, MessageItem):
            self.start_editing(item)
        elif action in ("regenerate", "fork", "version"):
            self.sig_message_action.emit(action, item, payload)
        elif isinstance(item, ToolCardItem) and action in ("toggle_args", "toggle_result", "show_all"):
            if action == "toggle_args":
                item.args_open = not item.args_open
            elif action == "toggle_result":
                item.result_open = not item.result_open
            else:
                item.show_all = True
            self.model.changed(item)
        elif action.startswith("banner:"):
            self.sig_banner_action.emit(action.split(":", 1)[1])
        elif action.startswith("approve:") and isinstance(item, ToolCardItem):
            self.sig_approval.emit(item.call_id, action.split(":", 1)[1])

    def last_reply(self) -> str | None:
        for item in reversed(self.model.items()):
            if isinstance(item, MessageItem) and item.role == "assistant" and item.text:
                return item.text
        return None

"""An MCP server asks to use the user's model (sampling): approve the request, then see the reply before it goes back.

First the request: which server, its system prompt and messages exactly as they would be sent, its model hints
and priorities, and how many tokens it asked for and will get. "Generate reply" asks the active model (with only
those messages: none of the user's conversations, no tools); "Refuse" ends it without calling the model. Then the
reply is shown in an editor: "Send" returns it (as edited), "Refuse" returns nothing. A failing model is shown, and
can be tried again. Closing the window, Esc, or a generation still running when the dialog closes is a refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Awaitable, Callable

if TYPE_CHECKING:
    import asyncio

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from hermes_desktop.core.mcp.client_features import SamplingDraft, SamplingRequest
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.async_dialog import run_dialog


class McpSamplingDialog(QDialog):
    def __init__(self, request: SamplingRequest, generate: Callable[[], Awaitable[SamplingDraft]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mcpSamplingDialog")
        self.setWindowTitle(self.tr("MCP server “{0}” wants to use your model").format(request.server))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.request = request
        self._generate = generate
        self._task: asyncio.Task[None] | None = None
        self.draft: SamplingDraft | None = None
        self.result_text: str | None = None  # set by Send
        theme = themes.current()

        layout = QVBoxLayout(self)
        intro = QLabel(self.tr("The MCP server “{0}” asks your model ({1}) to answer the messages below. Only what "
                               "is shown here is sent: nothing from your conversations, and no tools.")
                       .format(request.server, request.model))
        intro.setObjectName("samplingIntroLabel")
        intro.setTextFormat(Qt.TextFormat.PlainText)  # the server's name: never rich text
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.request_view = QPlainTextEdit(self._request_text())
        self.request_view.setObjectName("samplingRequestView")
        self.request_view.setReadOnly(True)
        self.request_view.setMinimumHeight(140)
        layout.addWidget(self.request_view, 2)
        details = QLabel(self._details_text())
        details.setObjectName("samplingDetailsLabel")
        details.setWordWrap(True)
        details.setTextFormat(Qt.TextFormat.PlainText)
        details.setStyleSheet(f"color: {theme.muted}")
        layout.addWidget(details)

        self.reply_label = QLabel(self.tr("Reply (you can edit it before sending):"))
        self.reply_label.hide()
        layout.addWidget(self.reply_label)
        self.reply_edit = QPlainTextEdit()
        self.reply_edit.setObjectName("samplingReplyEdit")
        self.reply_edit.setMinimumHeight(120)
        self.reply_edit.hide()
        layout.addWidget(self.reply_edit, 2)
        self.status = QLabel()
        self.status.setObjectName("samplingStatusLabel")
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # a model's error message: never rich text
        self.status.setWordWrap(True)
        self.status.hide()
        self._error_colour = theme.risk_destructive
        layout.addWidget(self.status)

        buttons = QHBoxLayout()
        self.refuse_button = QPushButton(self.tr("Refuse"))
        self.refuse_button.setObjectName("samplingRefuseButton")
        self.approve_button = QPushButton(self.tr("Generate reply"))
        self.approve_button.setObjectName("samplingApproveButton")
        self.send_button = QPushButton(self.tr("Send reply"))
        self.send_button.setObjectName("samplingSendButton")
        self.send_button.hide()
        for button in (self.refuse_button, self.approve_button, self.send_button):
            button.setAutoDefault(False)
        self.refuse_button.setDefault(True)  # a stray Enter refuses
        buttons.addWidget(self.refuse_button)
        buttons.addStretch(1)
        buttons.addWidget(self.approve_button)
        buttons.addWidget(self.send_button)
        layout.addLayout(buttons)
        self.refuse_button.clicked.connect(self.reject)
        self.approve_button.clicked.connect(self._start_generating)
        self.send_button.clicked.connect(self._send)
        self.finished.connect(lambda _result: self._stop_generating())
        self.setMinimumSize(600, 480)

    def _request_text(self) -> str:
        parts = []
        if self.request.system_prompt:
            parts.append(self.tr("System prompt:") + "\n" + self.request.system_prompt)
        for message in self.request.messages:
            heading = self.tr("User:") if message.role == "user" else self.tr("Assistant:")
            text = message.text
            if message.images:
                text += ("\n" if text else "") + self.tr("[{0} image(s), sent to the model]").format(message.images)
            parts.append(heading + "\n" + text)
        return "\n\n".join(parts)

    def _details_text(self) -> str:
        lines = [self.tr("Max tokens: {0} requested, {1} allowed.").format(self.request.requested_max_tokens,
                                                                         self.request.max_tokens)]
        if self.request.model_hints:
            lines.append(self.tr("Model hints (the answer comes from your model): {0}").format(
                ", ".join(self.request.model_hints)))
        if self.request.priorities:
            names = {"cost": self.tr("cost"), "speed": self.tr("speed"), "intelligence": self.tr("intelligence")}
            lines.append(self.tr("Priorities: {0}").format(", ".join(
                f"{names.get(k, k)} {v:g}" for k, v in self.request.priorities.items())))
        if self.request.include_context:
            lines.append(self.tr("The server asked to include context from your sessions; none is included."))
        return "\n".join(lines)

    # ------------------------------------------------------------------ generating
    def _start_generating(self) -> None:
        import asyncio

        if self._task is not None and not self._task.done():
            return
        self.approve_button.setEnabled(False)
        self.send_button.setEnabled(False)
        self.status.setStyleSheet("")
        self.status.setText(self.tr("Generating a reply with {0}…").format(self.request.model))
        self.status.show()
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        draft = await self._generate()
        self.draft = draft
        if draft.error:
            self.status.setStyleSheet(f"color: {self._error_colour}")
            self.status.setText(self.tr("The model failed: {0}").format(draft.error))
            self.approve_button.setText(self.tr("Try again"))
            self.approve_button.setEnabled(True)
            return
        self.status.hide()
        self.approve_button.hide()
        self.reply_label.show()
        self.reply_edit.setPlainText(draft.text)
        self.reply_edit.show()
        self.send_button.show()
        self.send_button.setEnabled(True)
        self.send_button.setDefault(True)
        self.reply_edit.setFocus()

    def _stop_generating(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def _send(self) -> None:
        if self.draft is None or self.draft.error:
            return
        self.result_text = self.reply_edit.toPlainText()
        self.accept()


class GuiSampler:
    """The window's Sampler: one dialog per request (core shows one at a time)."""

    def __init__(self, parent: QWidget) -> None:
        self._parent = parent
        self.dialog: McpSamplingDialog | None = None

    async def sample(self, request: SamplingRequest, generate: Callable[[], Awaitable[SamplingDraft]]) -> str | None:
        dialog = McpSamplingDialog(request, generate, self._parent)
        self.dialog = dialog
        try:
            await run_dialog(dialog)
        finally:
            self.dialog = None
            dialog.deleteLater()
        return dialog.result_text  # set only by Send

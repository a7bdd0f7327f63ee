"""The centre of the window: the transcript, the message box, Send and Stop, and the files attached to the
next message.

Attachments: the paperclip (`attachButton`), a drop onto the chat (transcript or box), or a paste (an image or
files) adds files. Each is read off the event loop (core/attachments.py; images downscaled by hermes_desktop/imaging.py)
and shown as a removable chip (a thumbnail for an image) above the box; a file that cannot be attached is named
with the reason in the notice under the chips. Send checks `image_refusal` (set by the window: the session's
model may take no images): a refusal is shown there and the text and chips stay. The chips stay until the
message is stored (the window calls `clear_attachments` at TurnStarted), so a failed send loses nothing.
A text file too large to send whole offers "Copy to workspace" (`sig_copy_to_workspace`), so the agent can
read it in pages. Clicking a thumbnail in the transcript opens the image (a copy under its own, cleaned name in this
run's private 0700 folder, core/open_copy.py; only images, PDFs and text files are handed to the system viewer).
Send also checks the total for one message (`message_budget_refusal`: count, characters, and the context window the
window sets in `context_window` from the default profile): a refusal is shown in the same notice, text and chips stay. A PDF is read in its own
process (core/pdf_extract.py); when the window quits (or the read is cancelled) that process is killed.
"""

from __future__ import annotations

import html
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QBuffer, QByteArray, QEvent, QIODevice, QObject, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QDragEnterEvent, QDropEvent, QGuiApplication, QImage, QPixmap
from PySide6.QtWidgets import (QFileDialog, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy,
                               QStyle, QToolButton, QVBoxLayout, QWidget)

from hermes_desktop.ui import design, icons
from hermes_desktop.ui.chat.input import ChatInput, local_files
from hermes_desktop.ui.chat.items import Item, MessageItem, RememberedItem, SummaryItem, ToolCardItem
from hermes_desktop.ui.chat.model import TranscriptModel
from hermes_desktop.ui.chat.view import ChatView

COPIED_FOR_MS = 2000  # how long a message's Copy link says "Copied"

if TYPE_CHECKING:
    import asyncio

    from hermes_desktop.core.attachments import PreparedAttachment


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
    sig_copy_to_workspace = Signal(object)
    """Copy this attachment (PreparedAttachment) into the workspace, for the agent to read in pages."""
    sig_attachments_changed = Signal()
    sig_memory_action = Signal(str, object)
    """From a "Remembered: …" row (RememberedItem): undo_remembered (forget what it remembered) or show_memories."""
    sig_citation = Signal(object, str)
    """A reply's citation [n] was clicked: (its MessageItem, "n")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = TranscriptModel(self)
        self.view = ChatView(self.model, self)
        self.view.delegate.sig_action.connect(self._on_action)
        from hermes_desktop.ui.empty_state import Welcome

        self.empty = Welcome()  # a new session: a greeting and example prompts that fill the box (ui/empty_state.py)
        self.empty.sig_prompt.connect(self._use_prompt)
        self.editing = QLabel()
        self.editing.setObjectName("editingBanner")
        self.editing.hide()
        self.input = ChatInput(self)
        self.input.sig_submit.connect(self._submit)
        self.input.sig_files.connect(self.attach_files)
        self.input.sig_image.connect(self.attach_image)
        self.input.allow_empty = lambda: bool(self.attachments)  # type: ignore[method-assign]
        self.attachments: list[PreparedAttachment] = []
        # The session's model when it cannot take these images (None: it can). Set by the window.
        self.image_refusal: Callable[[list[PreparedAttachment]], str | None] = lambda attachments: None
        # The session's model's context window, when the window knows it (None: only the fixed limits apply).
        self.context_window: Callable[[], int | None] = lambda: None
        self.attach_button = QToolButton()
        self.attach_button.setObjectName("attachButton")
        icons.set_icon(self.attach_button, "attach", size=18)
        self.attach_button.setMinimumHeight(28)
        self.attach_button.setAccessibleName(self.tr("Attach files"))
        self.attach_button.setToolTip(self.tr("Attach images, PDFs or text files (or drop or paste them here)"))
        self.attach_button.clicked.connect(self._choose_files)
        self.chips = QWidget()
        self.chips.setObjectName("attachmentStrip")
        self._chip_row = QHBoxLayout(self.chips)
        self._chip_row.setContentsMargins(design.M, design.S, design.M, 0)
        self._chip_row.setSpacing(design.S)
        self._chip_row.addStretch(1)
        # Many chips scroll sideways instead of widening the window past the screen (and hiding Send).
        self.chip_scroll = QScrollArea()
        self.chip_scroll.setObjectName("attachmentStripScroll")
        self.chip_scroll.setWidget(self.chips)
        self.chip_scroll.setWidgetResizable(True)
        self.chip_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.chip_scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.chip_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.chip_scroll.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.chip_scroll.viewport().setAutoFillBackground(False)  # the pane's own background shows through
        self.chips.setAutoFillBackground(False)
        self._show_chips(False)
        self.attach_notice = QLabel()
        self.attach_notice.setObjectName("attachmentNotice")
        self.attach_notice.setWordWrap(True)
        self.attach_notice.setTextFormat(Qt.TextFormat.PlainText)  # file names and reasons are shown, never rendered
        self.attach_notice.setContentsMargins(design.M, design.XS, design.M, 0)
        self.attach_notice.hide()
        self.view.viewport().setAcceptDrops(True)
        self.view.viewport().installEventFilter(self)
        self.empty.setAcceptDrops(True)
        self.empty.installEventFilter(self)
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setObjectName("sendButton")
        self.send_button.setAccessibleName(self.tr("Send message"))
        self.send_button.setDefault(False)
        self.send_button.clicked.connect(lambda: self._submit(self.input.toPlainText().strip()))
        self.send_button.setIconSize(QSize(design.ICON, design.ICON))
        design.make_primary(self.send_button, "send")  # the one accent-filled button
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setObjectName("stopButton")
        self.stop_button.setAccessibleName(self.tr("Stop the reply"))
        self.stop_button.setToolTip(self.tr("Stop (Esc)"))
        self.stop_button.clicked.connect(self.sig_stop.emit)
        icons.set_icon(self.stop_button, "stop", size=design.ICON)
        self.stop_button.setEnabled(False)

        bar = QFrame()
        bar.setObjectName("inputBar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(design.M, design.S, design.M, design.M)  # the spacing scale (ui/design.py)
        row.addWidget(self.input, 1)
        buttons = QVBoxLayout()
        sending = QHBoxLayout()
        sending.setSpacing(design.XS)
        sending.addWidget(self.attach_button)
        sending.addWidget(self.send_button, 1)
        self._sending = sending  # add_composer_tool() puts buttons of other rooms beside the paperclip
        buttons.addLayout(sending)
        buttons.addWidget(self.stop_button)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.empty, 1)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.editing)
        layout.addWidget(self.chip_scroll)
        layout.addWidget(self.attach_notice)
        layout.addWidget(bar)
        self.setTabOrder(self.input, self.attach_button)
        self.setTabOrder(self.attach_button, self.send_button)
        self.setTabOrder(self.send_button, self.stop_button)
        self._editing_message: int | None = None
        self._busy = False
        self._send_blocked: str | None = None  # why nothing can be sent (a read-only history), or None
        self.model.modelReset.connect(self._update_empty)
        self.model.rowsInserted.connect(self._update_empty)
        self._update_empty()

    def add_composer_tool(self, widget: QWidget) -> None:
        """A button of another room (the knowledge picker, ui/knowledge_picker.py) after the paperclip."""
        self._sending.insertWidget(self._sending.indexOf(self.send_button), widget)
        self.setTabOrder(self.attach_button, widget)
        self.setTabOrder(widget, self.send_button)

    def _update_empty(self) -> None:
        has_rows = self.model.rowCount() > 0
        self.empty.setVisible(not has_rows)
        self.view.setVisible(has_rows)

    def _use_prompt(self, text: str) -> None:
        """An example prompt from the welcome: into the box, ready to send or edit."""
        self.input.setPlainText(text)
        self.input.setFocus()
        cursor = self.input.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.input.setTextCursor(cursor)

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
        from hermes_desktop.core.attachments import IMAGE, message_budget_refusal

        if (not text and not self.attachments) or self._busy or self._send_blocked is not None:
            return
        too_much = message_budget_refusal(self.attachments, context_window=self.context_window()) \
            if self.attachments else None
        if too_much:  # nothing is sent; the text and the chips stay for the user to remove some
            self.show_attach_notice(self._budget_text(too_much))
            return
        blocked_by = self.image_refusal(list(self.attachments)) if self.attachments else None
        if blocked_by:  # nothing is sent; the text and the chips stay for the user to change
            names = ", ".join(a.name for a in self.attachments if a.kind == IMAGE)
            self.show_attach_notice(self.tr("Not sent: {0} cannot see images. Remove {1}, or pick a model that can "
                                            "(or set Images to Yes in the provider's settings).").format(blocked_by, names))
            return
        self.attach_notice.hide()
        self.input.clear()
        if self._editing_message is not None:
            message_id, self._editing_message = self._editing_message, None
            self.editing.hide()
            self.sig_resend_edited.emit(message_id, text)
        else:
            self.sig_send.emit(text)

    def _budget_text(self, reason: str) -> str:
        """The core's reason, in the window's language where it has one of the known forms."""
        from hermes_desktop.core.attachments import IMAGE, MAX_MESSAGE_ATTACHMENTS, MAX_MESSAGE_TEXT_CHARS

        count = len(self.attachments)
        chars = sum(len(a.text or "") for a in self.attachments if a.kind != IMAGE)
        if reason.startswith(f"Not sent: {count} files"):
            return self.tr("Not sent: {0} files are attached; one message takes at most {1}. Remove some, or send "
                           "them over several messages.").format(count, MAX_MESSAGE_ATTACHMENTS)
        if reason.startswith("Not sent: the attached files hold"):
            return self.tr("Not sent: the attached files hold {0} characters of text; one message takes at most {1}. "
                           "Remove some, or copy them into the workspace for the agent to read in pages.").format(
                f"{chars:,}", f"{MAX_MESSAGE_TEXT_CHARS:,}")
        return self.tr("Not sent: the attachments are more than this model's context window leaves room for. "
                       "Remove some, or copy them into the workspace for the agent to read in pages.")

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

    def _show_copied(self, item: MessageItem) -> None:
        """The message's Copy link reads "Copied" for two seconds."""
        from PySide6.QtCore import QTimer

        item.copied = True
        self.model.changed(item)

        def back() -> None:
            item.copied = False
            self.model.changed(item)  # a no-op once the item has left the page

        QTimer.singleShot(COPIED_FOR_MS, self, back)

    def _on_action(self, action: str, item: Item, payload: object) -> None:
        if action == "copy" and isinstance(item, MessageItem):
            QGuiApplication.clipboard().setText(item.text)
            self._show_copied(item)
        elif action == "edit" and isinstance(item, MessageItem):
            self.start_editing(item)
        elif action in ("regenerate", "fork", "version", "save_as_skill"):  # the window's (save: learning_actions)
            self.sig_message_action.emit(action, item, payload)
        elif isinstance(item, ToolCardItem) and action in ("toggle_args", "toggle_result", "show_all"):
            if action == "toggle_args":
                item.args_open = not item.args_open
            elif action == "toggle_result":
                item.result_open = not item.result_open
            else:
                item.show_all = True
            self.model.changed(item)
        elif action in ("undo_remembered", "show_memories") and isinstance(item, RememberedItem):
            self.sig_memory_action.emit(action, item)
        elif action == "toggle_summary" and isinstance(item, SummaryItem):
            item.open = not item.open
            self.model.changed(item)
        elif action.startswith("banner:"):
            self.sig_banner_action.emit(action.split(":", 1)[1])
        elif action.startswith("approve:") and isinstance(item, ToolCardItem):
            self.sig_approval.emit(item.call_id, action.split(":", 1)[1])
        elif action == "open_attachment" and payload is not None:
            self.open_attachment(payload)
        elif action == "citation" and isinstance(item, MessageItem):
            self.sig_citation.emit(item, str(payload))

    def last_reply(self) -> str | None:
        for item in reversed(self.model.items()):
            if isinstance(item, MessageItem) and item.role == "assistant" and item.text:
                return item.text
        return None

    # ------------------------------------------------------------------ attachments
    def _choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Attach files"), "",
            self.tr("Images, PDFs and text (*.png *.jpg *.jpeg *.gif *.webp *.bmp *.pdf *.txt *.md *.csv *.json *.py "
                    "*.js *.ts *.html *.css *.yaml *.yml *.toml *.xml *.log *.sql *.sh *.c *.cpp *.h *.rs *.go *.java);;"
                    "All files (*)"))
        if paths:
            self.attach_files([Path(p) for p in paths])

    def attach_files(self, paths: list[Path]) -> asyncio.Task[list[str]]:
        """Read and add these files (off the event loop); returns the task (its result: the refusals)."""
        return _spawn(self._add([(p, None) for p in paths]))

    def attach_image(self, image: QImage) -> asyncio.Task[list[str]]:
        """Add a pasted image (encoded as PNG, then downscaled like any other)."""
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")
        name = time.strftime("pasted-image-%H%M%S.png")
        return _spawn(self._add([(Path(name), bytes(data.data()))]))

    async def _add(self, items: list[tuple[Path, bytes | None]]) -> list[str]:
        from hermes_desktop.imaging import process_image
        from hermes_desktop.core.pdf_extract import cancel_all as cancel_pdf_reads
        from hermes_desktop.core.attachments import AttachmentError, prepare_attachment, prepare_bytes
        import asyncio

        problems = []
        for path, data in items:
            try:
                if data is None:
                    prepared = await asyncio.to_thread(prepare_attachment, path, process_image=process_image)
                else:
                    prepared = await asyncio.to_thread(prepare_bytes, path.name, data, process_image=process_image)
            except asyncio.CancelledError:
                # The window closes (its shutdown cancels every task, ui/tasks.drain): a PDF still being read in its
                # process is killed, so the worker thread ends and Python can exit. (Not aboutToQuit: qasync emits
                # it whenever its loop stops, which would kill reads in progress.)
                cancel_pdf_reads()
                raise
            except AttachmentError as exc:
                problems.append(self._attach_problem(path.name, exc))
                continue
            if any(a.hash == prepared.hash and a.name == prepared.name for a in self.attachments):
                continue  # the same file twice in one message
            self.attachments.append(prepared)
            self._add_chip(prepared)
        notes = [self._note(a) for a in self.attachments if a.note or a.link_target is not None]
        if problems or notes:
            self.show_attach_notice("\n".join(problems + notes))
        else:
            self.attach_notice.hide()
        self.sig_attachments_changed.emit()
        return problems

    def _attach_problem(self, name: str, exc: Exception) -> str:
        """Why a file was not attached, in the window's language: in English the core's own line (it names sizes
        and limits); in another language the file's name and its reason's words (the reason's code), which the
        knowledge base's per-file list uses too, instead of an English sentence in a Chinese window."""
        from hermes_desktop.ui.i18n import active_language

        if active_language() == "en":
            return str(exc)
        from hermes_desktop.ui.knowledge_panel import reason_text

        return self.tr("{0}: not attached: {1}").format(name, reason_text(getattr(exc, "code", "")))

    def _note(self, attachment: PreparedAttachment) -> str:
        """What the user should know about a file: a link and where it points, a file that goes only in part (or
        without text)."""
        if attachment.link_target is not None:
            link = self.tr("{0} is a link to {1}").format(attachment.name, str(attachment.link_target))
            rest = replace(attachment, link_target=None)
            return link if not rest.note else f"{link}\n{self._note(rest)}"
        if attachment.no_text_layer:
            return self.tr("{0}: this PDF has no text layer (scanned pages?), so no text could be extracted.").format(
                attachment.name)
        if attachment.truncated and attachment.total_chars is not None:
            return self.tr("{0}: only the first {1} of {2} characters are sent. Copy it to the workspace to let the "
                           "agent read the rest in pages.").format(attachment.name, f"{len(attachment.text or ''):,}",
                                                                  f"{attachment.total_chars or 0:,}")
        return f"{attachment.name}: {attachment.note}"

    def show_attach_notice(self, text: str) -> None:
        self.attach_notice.setText(text)
        self.attach_notice.show()

    def _add_chip(self, attachment: PreparedAttachment) -> None:
        from hermes_desktop.core.attachments import IMAGE

        chip = QFrame()
        chip.setObjectName("attachmentChip")
        chip.setProperty("attachment", attachment)
        chip.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(chip)
        row.setContentsMargins(6, 3, 3, 3)
        row.setSpacing(6)
        if attachment.kind == IMAGE:
            thumb = QLabel()
            thumb.setObjectName("attachmentThumbnail")
            pixmap = QPixmap()
            pixmap.loadFromData(attachment.data)
            thumb.setPixmap(pixmap.scaled(48, 36, Qt.AspectRatioMode.KeepAspectRatio,
                                          Qt.TransformationMode.SmoothTransformation))
            row.addWidget(thumb)
        else:
            icon = QLabel()
            icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_FileIcon).pixmap(16, 16))
            row.addWidget(icon)
        name = QLabel(_short(attachment.name))
        name.setToolTip(self._note(attachment) if attachment.link_target is not None else
                        f"{attachment.name}\n{attachment.note}".strip())
        row.addWidget(name)
        if attachment.truncated and attachment.source is not None:
            copy = QToolButton()
            copy.setObjectName("copyToWorkspace")
            copy.setText(self.tr("Copy to workspace"))
            copy.setToolTip(self.tr("Only the first part is sent. Copy the whole file into the workspace so the agent "
                                    "can read it in pages."))
            copy.clicked.connect(lambda: self.sig_copy_to_workspace.emit(attachment))
            row.addWidget(copy)
        remove = QToolButton()
        remove.setObjectName("removeAttachment")
        remove.setText("\u2715")
        remove.setAutoRaise(True)
        remove.setAccessibleName(self.tr("Remove {0}").format(attachment.name))
        remove.setToolTip(self.tr("Remove"))
        remove.clicked.connect(lambda: self.remove_attachment(attachment))
        row.addWidget(remove)
        self._chip_row.insertWidget(self._chip_row.count() - 1, chip)
        self._show_chips(True)

    def _show_chips(self, shown: bool) -> None:
        """The chip strip and its scroll area, high enough for a row of chips and a scroll bar under them."""
        self.chips.setVisible(shown)
        self.chip_scroll.setVisible(shown)
        if shown:
            self.chip_scroll.setFixedHeight(self.chips.sizeHint().height()
                                            + self.chip_scroll.horizontalScrollBar().sizeHint().height())

    def chip_widgets(self) -> list[QFrame]:
        return [w for w in self.chips.findChildren(QFrame, "attachmentChip") if w.parent() is self.chips]

    def remove_attachment(self, attachment: PreparedAttachment) -> None:
        if attachment in self.attachments:
            self.attachments.remove(attachment)
        for chip in self.chip_widgets():
            if chip.property("attachment") is attachment:
                chip.hide()
                chip.setParent(None)
                chip.deleteLater()
        self._show_chips(bool(self.attachments))
        if not self.attachments:
            self.attach_notice.hide()
        self.sig_attachments_changed.emit()

    def clear_attachments(self) -> None:
        """The message is stored with its files: empty the tray."""
        for attachment in list(self.attachments):
            self.remove_attachment(attachment)

    def open_attachment(self, ref: Any) -> None:
        """Open an attached file from the transcript with the system's viewer: a copy under its own, cleaned name (the
        stored file is named by its hash, which no viewer would recognise) in this run's private folder."""
        from hermes_desktop.core.open_copy import OpenRefused, clean_name, openable, viewer_copy

        folder = self.view.delegate.attachments_dir
        if folder is None:
            return
        stored = folder / ref.hash[:2] / ref.hash
        if not stored.is_file():
            self.show_attach_notice(self.tr("{0} is no longer stored.").format(ref.name))
            return
        try:  # a private folder of this run, a cleaned name, no symlink followed; only kinds safe for a viewer
            target = viewer_copy(stored, ref.hash, ref.name)
        except OpenRefused as exc:
            if openable(ref.name):  # a kind a viewer may open, but the copy could not be made safely
                self.show_attach_notice(str(exc))
                return
            self.show_attach_notice(self.tr("{0} was not opened: only images, PDFs and text files are opened from "
                                            "here, since other kinds of file could run a program.").format(
                clean_name(ref.name)))
            return
        except OSError as exc:
            self.show_attach_notice(self.tr("{0} could not be opened: {1}").format(ref.name, exc.strerror or exc))
            return
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(target)))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Files dropped onto the transcript (or the empty state) are attached."""
        if event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and isinstance(event, QDragEnterEvent | QDropEvent):
            if local_files(event.mimeData()) or event.mimeData().hasImage():
                event.acceptProposedAction()
                return True
        if event.type() == QEvent.Type.Drop and isinstance(event, QDropEvent):
            files = local_files(event.mimeData())
            if files:
                self.attach_files(files)
            elif event.mimeData().hasImage():
                self.attach_image(QImage(event.mimeData().imageData()))
            else:
                return False
            event.acceptProposedAction()
            return True
        return super().eventFilter(watched, event)


def _short(name: str, limit: int = 28) -> str:
    return name if len(name) <= limit else name[: limit - 10] + "…" + name[-9:]


def _spawn(coroutine: Any) -> asyncio.Task[Any]:
    from hermes_desktop.ui.tasks import spawn

    return spawn(coroutine)

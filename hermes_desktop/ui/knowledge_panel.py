"""The inspector's Knowledge tab: the knowledge bases, their state, a sync's progress, the files that could not be
read, and which bases the open conversation uses.

Each row shows a base's name, its documents, chunks, files that could not be read and last sync; its check box says
whether the open conversation uses it (the Retrieval layer and `search_knowledge` then draw on it). Below: the
sync's progress (files done of total, the current file, time left) with Pause and Cancel, the selected base's
per-file problems (each reason in the window's language, the core's English line in the tooltip), and Add folder,
Sync and Remove. The panel shows plain values (`BaseRow`) and emits what the user asked for; ui/knowledge_actions.py
does it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Sequence

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QStyle,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.panels import button
from hermes_desktop.ui.knowledge_picker import assistant_label
from hermes_desktop.ui.rich_list import HTML_ROLE, PADDING, RichTextDelegate, rich_list

NAME_ROLE = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, slots=True)
class BaseRow:
    name: str
    paths: tuple[str, ...]
    documents: int
    chunks: int
    problems: int
    last_sync: float | None
    embedding_model: str = ""
    vectors: int = 0
    used: bool = False  # by the open conversation
    broken: str = ""  # the base's file cannot be read
    assistant: str = ""  # used because the conversation's assistant names it (not attached here): its shown name


def reason_text(code: str) -> str:
    """A per-file problem's reason in the window's language (codes: core/documents/errors.py)."""
    reasons = {
        "encrypted": QCoreApplication.translate("KnowledgePanel", "protected by a password"),
        "no_text": QCoreApplication.translate("KnowledgePanel", "no text layer (scanned pages?)"),
        "too_large": QCoreApplication.translate("KnowledgePanel", "too large"),
        "permission": QCoreApplication.translate("KnowledgePanel", "permission denied"),
        "not_text": QCoreApplication.translate("KnowledgePanel", "not text, or an encoding that could not be detected"),
        "not_regular": QCoreApplication.translate("KnowledgePanel", "not a regular file (a pipe or device)"),
        "symlink_outside": QCoreApplication.translate("KnowledgePanel", "a link that points out of the folder"),
        "timeout": QCoreApplication.translate("KnowledgePanel", "took too long to read"),
        "memory": QCoreApplication.translate("KnowledgePanel", "needs too much memory to read"),
        "damaged": QCoreApplication.translate("KnowledgePanel", "damaged or not readable"),
        "unsupported": QCoreApplication.translate("KnowledgePanel", "not a format that can be read"),
        "missing": QCoreApplication.translate("KnowledgePanel", "gone"),
        "credential": QCoreApplication.translate("KnowledgePanel", "a credential location, which Hermes never reads"),
        "folder": QCoreApplication.translate("KnowledgePanel", "a folder (attach files one by one)"),
    }
    return reasons.get(code) or QCoreApplication.translate("KnowledgePanel", "could not be read")


class _CheckableRichDelegate(RichTextDelegate):
    """The rich rows with their check box: the box is drawn by the style at the row's left, the HTML after it."""

    def _indicator(self, option: QStyleOptionViewItem) -> int:
        style = option.widget.style() if option.widget else QApplication.style()
        return style.pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth, option, option.widget) + 2 * PADDING

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        html = index.data(HTML_ROLE)
        if not html:
            super().paint(painter, option, index)
            return
        self.initStyleOption(option, index)
        style = option.widget.style() if option.widget else QApplication.style()
        plain = QStyleOptionViewItem(option)
        plain.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, plain, painter, option.widget)  # box, selection
        shifted = QStyleOptionViewItem(option)
        shift = self._indicator(option)
        shifted.rect = option.rect.adjusted(shift, 0, 0, 0)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        document = self._document(_no_colour(str(html)) if selected else str(html), shifted.rect.width(), shifted)
        context = QAbstractTextDocumentLayout.PaintContext()
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, option.palette.color(role))
        painter.save()
        painter.translate(shifted.rect.left(), option.rect.top() + PADDING)
        painter.setClipRect(QRectF(0, 0, shifted.rect.width() - PADDING, option.rect.height()))
        document.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        html = index.data(HTML_ROLE)
        if not html:
            return super().sizeHint(option, index)
        view = option.widget
        width = view.viewport().width() if view is not None and hasattr(view, "viewport") else option.rect.width()
        width = (width if width > 0 else 300) - self._indicator(option)
        document = self._document(str(html), width, option)  # the same width as paint() lays it out at
        return QSize(width, int(document.size().height()) + 2 * PADDING)


def _no_colour(html: str) -> str:
    import re

    return re.sub(r"color:\s*[^;\"']*;?", "", html)


class KnowledgePanel(QWidget):
    sig_add = Signal()
    """Add folder… was pressed: ask for a folder and a name, create the base and sync it."""
    sig_sync = Signal(str)
    """Sync the named base (incremental)."""
    sig_remove = Signal(str)
    """Remove the named base (after a confirmation); its folders stay."""
    sig_use = Signal(str, bool)
    """The open conversation uses (True) or stops using (False) the named base."""
    sig_pause = Signal()
    """Pause or resume the running sync."""
    sig_cancel = Signal()
    """Stop the running sync after the current file (what was indexed stays)."""
    sig_settings = Signal(str)
    """Chunk settings… was pressed for the named base."""
    sig_selected = Signal(str)
    """A base was selected: show its per-file problems."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._filling = False
        self.list = rich_list("knowledgeList", self.tr("Knowledge bases"))
        self.list.setItemDelegate(_CheckableRichDelegate(self.list))
        self.list.itemChanged.connect(self._item_changed)
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.hint = QLabel(self.tr("Tick a knowledge base to use it in this conversation: its best passages go to "
                                   "the model with each message, cited as [1], [2]…"))
        self.hint.setObjectName("knowledgeHint")
        self.hint.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setObjectName("knowledgeProgress")
        self.progress.setAccessibleName(self.tr("Sync progress"))
        self.progress_label = QLabel()
        self.progress_label.setObjectName("knowledgeProgressLabel")
        self.progress_label.setWordWrap(True)
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)  # file names are not HTML
        self.pause_button = button(self.tr("Pause"), "pauseKnowledgeButton", self.sig_pause.emit)
        self.cancel_button = button(self.tr("Cancel"), "cancelKnowledgeButton", self.sig_cancel.emit)
        self.problems_label = QLabel(self.tr("Files that could not be read"))
        self.problems_label.setObjectName("knowledgeProblemsLabel")
        self.problems = QListWidget()
        self.problems.setObjectName("knowledgeProblems")
        self.problems.setAccessibleName(self.tr("Files that could not be read"))
        self.problems.setWordWrap(True)
        self.problems.setMaximumHeight(140)
        self.add_button = button(self.tr("Add folder…"), "addKnowledgeButton", self.sig_add.emit)
        self.sync_button = button(self.tr("Sync"), "syncKnowledgeButton", lambda: self._emit_selected(self.sig_sync))
        self.remove_button = button(self.tr("Remove…"), "removeKnowledgeButton",
                                    lambda: self._emit_selected(self.sig_remove))
        self.settings_button = button(self.tr("Chunks…"), "knowledgeSettingsButton",
                                      lambda: self._emit_selected(self.sig_settings))
        self.settings_button.setToolTip(self.tr("Chunk size and overlap of the selected knowledge base"))
        self.empty = QLabel(self.tr("No knowledge bases yet. Add a folder of PDFs, Word files or notes: Hermes indexes "
                                    "it on this computer and finds passages in Chinese and English."))
        self.empty.setObjectName("knowledgeEmpty")
        self.empty.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.empty)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.hint)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress, 1)
        progress_row.addWidget(self.pause_button)
        progress_row.addWidget(self.cancel_button)
        layout.addLayout(progress_row)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.problems)
        buttons = QHBoxLayout()
        for widget in (self.add_button, self.sync_button, self.settings_button, self.remove_button):
            buttons.addWidget(widget)
        layout.addLayout(buttons)
        self.show_idle()
        self.show_bases([])

    # ------------------------------------------------------------------ filling
    def show_bases(self, rows: Sequence[BaseRow], *, session_open: bool = True) -> None:
        selected = self.selected()
        self._filling = True
        try:
            self.list.clear()
            theme = themes.current()
            for row in rows:
                item = QListWidgetItem(self._plain(row))
                item.setData(NAME_ROLE, row.name)
                item.setData(HTML_ROLE, self._html(row, theme))
                if row.assistant:  # the assistant's base: shown as used, changed in the assistant, not here
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsUserCheckable)
                else:
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if row.used else Qt.CheckState.Unchecked)
                item.setToolTip("\n".join([assistant_label(row) or self.tr("Use in this conversation"), *row.paths]))
                self.list.addItem(item)
                if row.name == selected:
                    item.setSelected(True)
                    self.list.setCurrentItem(item)
        finally:
            self._filling = False
        has = bool(rows)
        self.empty.setVisible(not has)
        self.list.setVisible(has)
        self.hint.setVisible(has)
        self._selection_changed()

    def _plain(self, row: BaseRow) -> str:
        return f"{row.name}: {self._state(row)}"

    def _state(self, row: BaseRow) -> str:
        if row.broken:
            return self.tr("cannot be read: {0}").format(row.broken)
        when = datetime.fromtimestamp(row.last_sync).strftime("%Y-%m-%d %H:%M") if row.last_sync else \
            self.tr("never synced")
        text = self.tr("{0} documents · {1} chunks · last sync {2}").format(row.documents, row.chunks, when)
        if row.problems:
            text += " · " + self.tr("{0} could not be read").format(row.problems)
        if row.embedding_model:
            text += " · " + self.tr("{0} vectors ({1})").format(row.vectors, row.embedding_model)
        return text

    def _html(self, row: BaseRow, theme: themes.Theme) -> str:
        colour = theme.risk_write if row.problems or row.broken else theme.muted
        folders = "<br>".join(escape(p) for p in row.paths[:3])
        return (f"<b>{escape(row.name)}</b><br><span style='color:{colour}'>{escape(self._state(row))}</span>"
                f"<br><span style='color:{theme.muted}'>{folders}</span>")

    def show_problems(self, problems: Sequence[tuple[str, str, str]]) -> None:
        """(relative path, reason code, the core's English line) of the selected base."""
        self.problems.clear()
        for path, code, detail in problems:
            item = QListWidgetItem(f"{path} — {reason_text(code)}")
            item.setToolTip(detail)
            self.problems.addItem(item)
        self.problems.setVisible(bool(problems))
        self.problems_label.setVisible(bool(problems))

    def show_progress(self, done: int, total: int, current: str, remaining_s: float | None, paused: bool) -> None:
        self.progress.setVisible(True)
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        left = self.tr(", about {0} s left").format(round(remaining_s)) if remaining_s else ""
        text = self.tr("{0} of {1} files{2}").format(done, total, left)
        if current:
            text += "\n" + current
        if paused:
            text = self.tr("Paused: {0}").format(text)
        self.progress_label.setText(text)
        self.progress_label.setVisible(True)
        self.pause_button.setText(self.tr("Resume") if paused else self.tr("Pause"))
        self.pause_button.setVisible(True)
        self.cancel_button.setVisible(True)
        self.sync_button.setEnabled(False)
        self.remove_button.setEnabled(False)
        self.settings_button.setEnabled(False)

    def show_idle(self, message: str = "") -> None:
        self.progress.setVisible(False)
        self.pause_button.setVisible(False)
        self.cancel_button.setVisible(False)
        self.progress_label.setText(message)
        self.progress_label.setVisible(bool(message))
        self._selection_changed()

    # ------------------------------------------------------------------ user actions
    def selected(self) -> str | None:
        items = self.list.selectedItems()
        return str(items[0].data(NAME_ROLE)) if items else None

    def select(self, name: str) -> None:
        for index in range(self.list.count()):
            item = self.list.item(index)
            if item.data(NAME_ROLE) == name:
                self.list.setCurrentItem(item)
                item.setSelected(True)

    def _emit_selected(self, signal: Signal) -> None:  # type: ignore[type-arg]
        name = self.selected()
        if name is not None:
            signal.emit(name)

    def _selection_changed(self) -> None:
        name = self.selected()
        syncing = self.cancel_button.isVisible() if hasattr(self, "cancel_button") else False
        self.sync_button.setEnabled(name is not None and not syncing)
        self.remove_button.setEnabled(name is not None and not syncing)
        self.settings_button.setEnabled(name is not None and not syncing)
        if name is not None and not self._filling:
            self.sig_selected.emit(name)
        elif name is None:
            self.show_problems([])

    def _item_changed(self, item: QListWidgetItem) -> None:
        if self._filling:
            return
        self.sig_use.emit(str(item.data(NAME_ROLE)), item.checkState() == Qt.CheckState.Checked)

"""The inspector's Assistants tab: Hermes, the built-in gallery and the user's own assistants (list objectName
`assistantList`), with search and the buttons Use in this chat, New…, Edit…, Duplicate, Delete (with Undo),
Import…, Export…, and Prompts… (the prompt library, ui/dialogs/prompt_library.py).

Each row shows the emoji and name (in the window's language), what it is for, and what it may use ("no tools",
"read_file, calculate", "all enabled tools"). The row of the open chat's assistant has a marker. Keys: Enter uses
the selected assistant in this chat, F2 edits, Delete deletes, Ctrl+D duplicates. The panel only shows rows
(`AssistantRow`) and emits what the user asked for (`sig_action`); ui/assistant_actions.py does it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.panels import button
from hermes_desktop.ui.rich_list import HTML_ROLE, rich_list

ID_ROLE = Qt.ItemDataRole.UserRole + 1
UNDO_SECONDS = 12.0


@dataclass(frozen=True, slots=True)
class AssistantRow:
    id: str
    name: str  # in the window's language
    emoji: str
    description: str
    tools: str  # what it may use, worded
    origin: str  # builtin | user | imported
    search: str = ""  # other words that find it (the other language's name)


class AssistantPanel(QWidget):
    sig_action = Signal(str, str)
    """(action, assistant id): use, edit, duplicate, delete, export."""
    sig_new = Signal()
    """New… was pressed."""
    sig_import = Signal()
    """Import… was pressed."""
    sig_undo = Signal()
    """Undo the last delete."""
    sig_prompts = Signal()
    """Prompts… was pressed: open the prompt library."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistantPanel")
        self._rows: list[AssistantRow] = []
        self._current_id = "hermes"
        self.search = QLineEdit()
        self.search.setObjectName("assistantSearch")
        self.search.setPlaceholderText(self.tr("Search assistants"))
        self.search.setAccessibleName(self.tr("Search assistants"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(lambda _text: self._fill())
        self.list = rich_list("assistantList", self.tr("Assistants"))
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.list.itemDoubleClicked.connect(lambda _item: self._emit("use"))
        self.list.installEventFilter(self)
        self.use_button = button(self.tr("Use in this chat"), "useAssistantButton", lambda: self._emit("use"),
                                 self.tr("This chat's next message goes to this assistant (Enter)"))
        self.new_button = button(self.tr("New…"), "newAssistantButton", self.sig_new.emit,
                                 self.tr("Make an assistant with its own instructions, model and tools"))
        self.edit_button = button(self.tr("Edit…"), "editAssistantButton", lambda: self._emit("edit"),
                                  self.tr("Change this assistant (a built-in one is saved as your copy) (F2)"))
        self.duplicate_button = button(self.tr("Duplicate"), "duplicateAssistantButton",
                                       lambda: self._emit("duplicate"), self.tr("Save a copy to change (Ctrl+D)"))
        self.delete_button = button(self.tr("Delete"), "deleteAssistantButton", lambda: self._emit("delete"),
                                    self.tr("Delete this assistant (Delete); you can undo it for a moment"))
        self.import_button = button(self.tr("Import…"), "importAssistantsButton", self.sig_import.emit,
                                    self.tr("Add assistants from a file or a URL (Hermes, Cherry Studio, NextChat)"))
        self.export_button = button(self.tr("Export…"), "exportAssistantButton", lambda: self._emit("export"),
                                    self.tr("Save this assistant as a JSON file"))
        self.prompts_button = button(self.tr("Prompts…"), "promptLibraryButton", self.sig_prompts.emit,
                                     self.tr("Saved prompts with {{blanks}}: type / in the message box to use one"))
        self.undo_label = QLabel()
        self.undo_label.setObjectName("assistantUndoLabel")
        self.undo_label.setTextFormat(Qt.TextFormat.PlainText)
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_button.setObjectName("assistantUndoButton")
        self.undo_button.clicked.connect(self._undo_clicked)
        self.undo_bar = QWidget()
        undo_row = QHBoxLayout(self.undo_bar)
        undo_row.setContentsMargins(0, 0, 0, 0)
        undo_row.addWidget(self.undo_label, 1)
        undo_row.addWidget(self.undo_button)
        self.undo_bar.hide()
        self._undo_timer = QTimer(self)
        self._undo_timer.setSingleShot(True)
        self._undo_timer.timeout.connect(self.undo_bar.hide)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.undo_bar)
        # Three short rows: the inspector must narrow to the width the other tabs allow (two rows of four made the
        # whole inspector at least 365 px wide).
        for buttons in ([self.use_button, self.new_button, self.edit_button],
                        [self.duplicate_button, self.delete_button, self.import_button],
                        [self.export_button, self.prompts_button]):
            row = QHBoxLayout()
            for widget in buttons:
                row.addWidget(widget)
            layout.addLayout(row)
        self._selection_changed()

    # ------------------------------------------------------------------ filling
    def show_assistants(self, rows: Sequence[AssistantRow], current_id: str | None = None) -> None:
        self._rows = list(rows)
        if current_id is not None:
            self._current_id = current_id
        self._fill()

    def set_current(self, assistant_id: str) -> None:
        self._current_id = assistant_id
        self._fill()

    def _fill(self) -> None:
        selected = self.selected_id()
        words = self.search.text().casefold().split()
        theme = themes.current()
        self.list.clear()
        groups = ((self.tr("Default"), [r for r in self._rows if r.id == "hermes"]),
                  (self.tr("Mine"), [r for r in self._rows if r.origin in ("user", "imported")]),
                  (self.tr("Gallery"), [r for r in self._rows if r.origin == "builtin" and r.id != "hermes"]))
        for title, members in groups:
            members = [r for r in members if all(w in f"{r.name} {r.description} {r.search}".casefold() for w in words)]
            if not members:
                continue
            header = QListWidgetItem(f"{title} ({len(members)})")
            header.setData(HTML_ROLE, f"<b>{escape(title)}</b> <span style='color:{theme.muted}'>({len(members)})</span>")
            header.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.list.addItem(header)
            for row in members:
                marker = f"<span style='color:{theme.accent}'>● </span>" if row.id == self._current_id else ""
                item = QListWidgetItem(self.tr("{emoji} {name}: {description} ({tools})").format(  # read aloud
                    emoji=row.emoji, name=row.name, description=row.description, tools=row.tools))
                item.setData(ID_ROLE, row.id)
                item.setData(HTML_ROLE, f"{marker}{escape(row.emoji)} <b>{escape(row.name)}</b><br>"
                                        f"{escape(row.description)}<br><span style='color:{theme.muted}'>"
                                        f"{escape(row.tools)}</span>")
                self.list.addItem(item)
                if row.id == selected:
                    self.list.setCurrentItem(item)
        if self.list.count() == 0:
            empty = QListWidgetItem(self.tr("No assistant matches “{0}”.").format(self.search.text()))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(empty)
        self._selection_changed()

    def selected_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(ID_ROLE) if item is not None and item.isSelected() else None

    def select(self, assistant_id: str) -> None:
        for i in range(self.list.count()):
            if self.list.item(i).data(ID_ROLE) == assistant_id:
                self.list.setCurrentRow(i)
                return

    def _row(self, assistant_id: str | None) -> AssistantRow | None:
        return next((r for r in self._rows if r.id == assistant_id), None)

    def _selection_changed(self) -> None:
        row = self._row(self.selected_id())
        mine = row is not None and row.origin in ("user", "imported")
        self.use_button.setEnabled(row is not None)
        self.edit_button.setEnabled(row is not None and row.id != "hermes")
        self.duplicate_button.setEnabled(row is not None and row.id != "hermes")
        self.delete_button.setEnabled(mine)
        self.export_button.setEnabled(row is not None and row.id != "hermes")

    def _emit(self, action: str) -> None:
        chosen = self.selected_id()
        if chosen is None:
            return
        if action == "delete" and not self.delete_button.isEnabled():
            return
        if action in ("edit", "duplicate", "export") and chosen == "hermes":
            return
        self.sig_action.emit(action, chosen)

    # ------------------------------------------------------------------ undo
    def offer_undo(self, text: str, seconds: float = UNDO_SECONDS) -> None:
        self.undo_label.setText(text)
        self.undo_bar.show()
        self._undo_timer.start(int(seconds * 1000))

    def _undo_clicked(self) -> None:
        self._undo_timer.stop()
        self.undo_bar.hide()
        self.sig_undo.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.list and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._emit("use")
                return True
            if key == Qt.Key.Key_F2:
                self._emit("edit")
                return True
            if key == Qt.Key.Key_Delete:
                self._emit("delete")
                return True
            if event.matches(QKeySequence.StandardKey.Undo) and self.undo_bar.isVisible():
                self._undo_clicked()
                return True
            if key == Qt.Key.Key_D and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                self._emit("duplicate")
                return True
        return super().eventFilter(watched, event)

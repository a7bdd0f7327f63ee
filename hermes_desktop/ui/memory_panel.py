"""The inspector's Memory tab: what Hermes remembers about the user, where each memory came from, and the
user's controls over it.

Memories are grouped by layer (long-term, short-term), then the ones no longer used (superseded by a newer
memory on the same subject, past their deadline, forgotten). Each row shows the statement, the user's own words
it came from, its source ("from 'Trip planning', 3 Nov"), a pin marker and its expiry. The search box filters
(the store's search, debounced). Every action works on the selected memory from a button, from the row's
context menu (right-click, the Menu key or Shift+F10) and from keys: F2 edit, Delete delete, Enter go to
the source message, Ctrl+P pin/unpin, Ctrl+H history. Deleting offers Undo for a while.

The panel only shows rows (`MemoryRow`, plain values the window builds from the core's records) and emits
what the user asked for (`sig_action`); ui/memory_actions.py does it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Callable, Sequence

from PySide6.QtCore import QCoreApplication, QDateTime, QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QContextMenuEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.panels import button
from hermes_desktop.ui.rich_list import HTML_ROLE, rich_list

MEMORY_ROLE = Qt.ItemDataRole.UserRole + 1
KIND_ROLE = Qt.ItemDataRole.UserRole + 2
SEARCH_DEBOUNCE_MS = 200
UNDO_SECONDS = 12.0

LONG_TERM, SHORT_TERM = "long_term", "short_term"
ACTIVE = "active"


@dataclass(frozen=True, slots=True)
class MemoryRow:
    """One memory as the tab shows it (built by ui/memory_actions.py from the core's record)."""

    id: int
    layer: str  # long_term | short_term
    statement: str
    quote: str = ""  # the user's own words it came from
    session_id: str | None = None
    session_title: str = ""  # the source session's title ("" when it has none or is gone)
    message_id: int | None = None
    created_at: float = 0.0
    expires_at: float | None = None  # a deadline: not recalled after it
    pinned: bool = False
    state: str = ACTIVE  # active | superseded | expired | forgotten
    replaced: int = 0  # how many older memories on its subject this one replaced
    replaced_by: int | None = None  # the newer memory that replaced it
    source_deleted: bool = False  # the conversation it came from was deleted
    scope_note: str = ""  # why the active profile does not recall it (HERMES_BASE_URL's own memories), or ""

    @property
    def has_history(self) -> bool:
        return self.replaced > 0 or self.replaced_by is not None

    @property
    def in_use(self) -> bool:
        return self.state == ACTIVE and (self.expires_at is None or self.expires_at > time.time())


def short_date(timestamp: float, now: float | None = None) -> str:
    """"3 Nov" this year, "3 Nov 2025" otherwise; in Chinese "11月3日" / "2025年11月3日" (the Qt date format is
    itself translated, so no month names are needed from the system locale)."""
    when = QDateTime.fromSecsSinceEpoch(int(timestamp)).date()
    this_year = QDateTime.fromSecsSinceEpoch(int(now if now is not None else time.time())).date().year()
    if when.year() == this_year:
        return when.toString(QCoreApplication.translate("MemoryPanel", "d MMM"))
    return when.toString(QCoreApplication.translate("MemoryPanel", "d MMM yyyy"))


class MemoryPanel(QWidget):
    sig_action = Signal(str, int)
    """(action, memory id) for the selected memory: edit, pin, unpin, delete, source, history."""
    sig_search = Signal(str)
    """Search text changed (debounced); empty: every memory. Answer with `show_memories`."""
    sig_add = Signal()
    """"Add…" was pressed: ask for a statement and keep it as a long-term memory."""
    sig_wipe = Signal()
    """"Wipe all…" was pressed: ask, then delete every memory."""
    sig_undo = Signal()
    """Undo the last delete (the undo bar's button)."""
    sig_undo_expired = Signal()
    """The undo offer ended without Undo: the deleted memories can go for good."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("memoryPanel")
        self._rows: dict[int, MemoryRow] = {}
        self._enabled = True
        self.search = QLineEdit()
        self.search.setObjectName("memorySearch")
        self.search.setPlaceholderText(self.tr("Search memories"))
        self.search.setAccessibleName(self.tr("Search memories"))
        self.search.setClearButtonEnabled(True)
        self.list = rich_list("memoryList", self.tr("Memories"))
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.list.itemDoubleClicked.connect(lambda _item: self._emit("edit"))
        self._keys = _MemoryKeys(self)
        self.list.installEventFilter(self._keys)
        self.list.viewport().installEventFilter(self._keys)
        self.status = QLabel()
        self.status.setObjectName("memoryStatus")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.status.hide()
        self.edit_button = button(self.tr("Edit…"), "editMemoryButton", lambda: self._emit("edit"),
                                  self.tr("Change what this memory says (F2)"))
        self.pin_button = button(self.tr("Pin"), "pinMemoryButton", self._pin_clicked,
                                 self.tr("A pinned memory is always offered to the model and never expires (Ctrl+P)"))
        self.delete_button = button(self.tr("Delete"), "deleteMemoryButton", lambda: self._emit("delete"),
                                    self.tr("Delete this memory (Delete); you can undo it for a moment"))
        self.source_button = button(self.tr("Go to source"), "memorySourceButton", lambda: self._emit("source"),
                                    self.tr("Open the conversation and the message it came from (Enter)"))
        self.history_button = button(self.tr("History…"), "memoryHistoryButton", lambda: self._emit("history"),
                                     self.tr("The older memories on the same subject this one replaced (Ctrl+H)"))
        self.wipe_button = button(self.tr("Wipe all…"), "wipeMemoriesButton", self.sig_wipe.emit,
                                  self.tr("Delete every memory (asks first)"))
        self.add_button = button(self.tr("Add…"), "addMemoryButton", self.sig_add.emit,
                                 self.tr("Write a memory yourself (long-term, used in every conversation)"))
        self.undo_label = QLabel()
        self.undo_label.setObjectName("memoryUndoLabel")
        self.undo_label.setTextFormat(Qt.TextFormat.PlainText)  # "Deleted “<b>…”": a memory's words as typed
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_button.setObjectName("memoryUndoButton")
        self.undo_button.clicked.connect(self._undo_clicked)
        self.undo_bar = QWidget()
        undo_row = QHBoxLayout(self.undo_bar)
        undo_row.setContentsMargins(0, 0, 0, 0)
        undo_row.addWidget(self.undo_label, 1)
        undo_row.addWidget(self.undo_button)
        self.undo_bar.hide()
        self._undo_timer = QTimer(self)
        self._undo_timer.setSingleShot(True)
        self._undo_timer.timeout.connect(self._undo_expired)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search)
        layout.addWidget(self.status)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.undo_bar)
        for buttons in ([self.add_button, self.edit_button, self.pin_button, self.delete_button],
                        [self.source_button, self.history_button, self.wipe_button]):
            row = QHBoxLayout()
            for widget in buttons:
                row.addWidget(widget)
            layout.addLayout(row)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(lambda: self.sig_search.emit(self.search_text))
        self.search.textChanged.connect(lambda _text: self._debounce.start())
        # Empty until the engine has read the store: "No memories yet" before it looked would be untrue.
        self.wipe_button.setEnabled(False)
        self._selection_changed()

    # ------------------------------------------------------------------ filling
    @property
    def search_text(self) -> str:
        return self.search.text().strip()

    def set_memory_enabled(self, enabled: bool) -> None:
        """The global switch (Settings › Memory): when off, say so above the list (the memories stay)."""
        self._enabled = enabled
        self.status.setText(self.tr("Memory is off (Settings › Memory): nothing is recalled or remembered. "
                                    "What was remembered before is kept and listed here."))
        self.status.setVisible(not enabled)

    def show_memories(self, rows: Sequence[MemoryRow], *, total: int | None = None, more: bool = False) -> None:
        """Fill the list: long-term, short-term, then those no longer used. `total`: how many memories exist
        at all (a search showing none of them says "no match", an empty store shows what memory is); `more`: only
        the newest are listed (a last row says so)."""
        selected = self.selected_id()
        selected_row = self.list.currentRow() if selected is not None else -1
        self.list.clear()
        self._rows = {row.id: row for row in rows}
        theme = themes.current()
        groups: list[tuple[str, list[MemoryRow]]] = [
            (self.tr("Long-term"), [r for r in rows if r.in_use and r.layer == LONG_TERM]),
            (self.tr("Short-term"), [r for r in rows if r.in_use and r.layer != LONG_TERM]),
            (self.tr("No longer used (replaced or expired)"), [r for r in rows if not r.in_use]),
        ]
        for title, members in groups:
            if not members:
                continue
            header = QListWidgetItem(f"{title} ({len(members)})")
            header.setData(KIND_ROLE, "header")
            header.setData(HTML_ROLE, f"<b>{escape(title)}</b> <span style='color:{theme.muted}'>({len(members)})</span>")
            header.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.list.addItem(header)
            for row in sorted(members, key=lambda r: (not r.pinned, -r.created_at)):
                item = QListWidgetItem(self._plain(row))
                item.setData(MEMORY_ROLE, row.id)
                item.setData(KIND_ROLE, "memory")
                item.setData(HTML_ROLE, self._html(row, theme))
                item.setToolTip(self.tr("Created {0}").format(datetime.fromtimestamp(row.created_at)
                                                              .strftime("%Y-%m-%d %H:%M")) if row.created_at else "")
                self.list.addItem(item)
                if row.id == selected:
                    self.list.setCurrentItem(item)
        if more and rows and not self.search_text:
            note = QListWidgetItem(self.tr("The newest {0} of {1} memories are listed. Search to find the others.")
                                   .format(len(rows), total))
            note.setData(KIND_ROLE, "more")
            note.setData(HTML_ROLE, f"<span style='color:{theme.muted}'>{escape(note.text())}</span>")
            note.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.list.addItem(note)
        if not rows:
            if self.search_text and total:
                text = self.tr("No memory matches “{0}”.").format(self.search_text)
            else:
                text = self.tr("No memories yet.\n\nMemory keeps short facts you tell Hermes — preferences, your "
                               "projects, deadlines — so later conversations can use them. Say “remember that …” "
                               "in a chat, state a preference (“I prefer …”), or press Add…; each memory shows here with "
                               "your own words and where you said them, and you can edit, pin or delete it.\n\n"
                               "A conversation with “Don't use or record memory” on (its context menu, or the "
                               "switch in the status bar) leaves no trace here.")
            empty = QListWidgetItem(text)
            empty.setData(KIND_ROLE, "empty")
            empty.setData(HTML_ROLE, escape(text).replace("\n", "<br>"))
            empty.setFlags(Qt.ItemFlag.ItemIsEnabled)
            empty.setData(Qt.ItemDataRole.AccessibleTextRole, text)
            self.list.addItem(empty)
        if selected is not None and self.selected_id() is None and selected_row >= 0:
            # The selected memory is gone (deleted): the keyboard stays in the list, on the one that took its place.
            following = [i for i in range(self.list.count()) if self.list.item(i).data(KIND_ROLE) == "memory"]
            nearest = next((i for i in following if i >= selected_row), following[-1] if following else None)
            if nearest is not None:
                self.list.setCurrentRow(nearest)
        self.wipe_button.setEnabled(bool(rows) or bool(total))
        self._selection_changed()

    def _source_words(self, row: MemoryRow) -> str:
        when = short_date(row.created_at) if row.created_at else ""
        if row.session_id is None:
            return self.tr("added by you, {0}").format(when) if when else self.tr("added by you")
        if row.source_deleted:
            return self.tr("from a deleted conversation, {0}").format(when) if when else \
                self.tr("from a deleted conversation")
        title = row.session_title or self.tr("Untitled conversation")
        return self.tr("from “{0}”, {1}").format(title, when) if when else self.tr("from “{0}”").format(title)

    def _state_words(self, row: MemoryRow) -> str:
        now = time.time()
        if row.state == "superseded":
            return self.tr("replaced by a newer memory")
        if row.state == "forgotten":
            return self.tr("forgotten")
        if row.expires_at is not None and row.expires_at <= now:
            return self.tr("expired {0}").format(short_date(row.expires_at))
        if row.expires_at is not None:
            return self.tr("until {0}").format(short_date(row.expires_at))
        return ""

    def _details(self, row: MemoryRow) -> list[str]:
        details = [self._source_words(row)]
        state = self._state_words(row)
        if state:
            details.append(state)
        if row.replaced:
            details.append(self.tr("replaces {0} earlier").format(row.replaced))
        if row.scope_note:
            details.append(row.scope_note)
        return details

    def _plain(self, row: MemoryRow) -> str:
        from hermes_desktop.core.terminal_text import visible_bidi as visible_overrides

        statement, quote = visible_overrides(row.statement), visible_overrides(row.quote)
        lines = [self.tr("Pinned: {0}").format(statement) if row.pinned else statement]
        if quote:
            lines.append(f"“{quote}”")
        lines.append(" · ".join(self._details(row)))
        return "\n".join(lines)

    def _html(self, row: MemoryRow, theme: themes.Theme) -> str:
        from hermes_desktop.core.terminal_text import visible_bidi as visible_overrides

        pin = f"<span style='color:{theme.accent}'>● </span>" if row.pinned else ""  # an emoji font may be missing
        statement = escape(visible_overrides(row.statement))
        if not row.in_use:
            statement = f"<span style='color:{theme.muted}'><s>{statement}</s></span>"
        html = f"{pin}<b>{statement}</b>" if row.in_use else f"{pin}{statement}"
        if row.quote:
            html += f"<br><i><span style='color:{theme.muted}'>“{escape(visible_overrides(row.quote))}”</span></i>"
        parts = [escape(self._source_words(row))]
        if row.pinned:
            pinned = escape(self.tr("pinned"))
            parts.insert(0, f"<span style='color:{theme.accent}'>{pinned}</span>")
        state = self._state_words(row)
        if state:
            colour = theme.risk_write if row.in_use else theme.muted
            parts.append(f"<span style='color:{colour}'>{escape(state)}</span>")
        if row.replaced:
            parts.append(escape(self.tr("replaces {0} earlier").format(row.replaced)))
        if row.scope_note:
            parts.append(escape(row.scope_note))
        html += f"<br><span style='color:{theme.muted}'>{' · '.join(parts)}</span>"
        return html

    # ------------------------------------------------------------------ selection and actions
    def selected_id(self) -> int | None:
        item = self.list.currentItem()
        if item is None or item.data(KIND_ROLE) != "memory" or not item.isSelected():
            return None
        return int(item.data(MEMORY_ROLE))

    def selected(self) -> MemoryRow | None:
        memory_id = self.selected_id()
        return self._rows.get(memory_id) if memory_id is not None else None

    def select(self, memory_id: int) -> bool:
        for index in range(self.list.count()):
            item = self.list.item(index)
            if item.data(KIND_ROLE) == "memory" and item.data(MEMORY_ROLE) == memory_id:
                self.list.setCurrentItem(item)
                item.setSelected(True)
                return True
        return False

    def memory_ids(self) -> list[int]:
        """The memories listed, top to bottom (for tests and automation)."""
        return [int(self.list.item(i).data(MEMORY_ROLE)) for i in range(self.list.count())
                if self.list.item(i).data(KIND_ROLE) == "memory"]

    def _selection_changed(self) -> None:
        row = self.selected()
        for widget in (self.edit_button, self.pin_button, self.delete_button):
            widget.setEnabled(row is not None)
        self.pin_button.setText(self.tr("Unpin") if row is not None and row.pinned else self.tr("Pin"))
        self.source_button.setEnabled(row is not None and row.session_id is not None and not row.source_deleted)
        self.history_button.setEnabled(row is not None and row.has_history)

    def _pin_clicked(self) -> None:
        row = self.selected()
        if row is not None:
            self.sig_action.emit("unpin" if row.pinned else "pin", row.id)

    def _emit(self, action: str) -> None:
        row = self.selected()
        if row is None:
            return
        if action == "source" and (row.session_id is None or row.source_deleted):
            return
        if action == "history" and not row.has_history:
            return
        self.sig_action.emit(action, row.id)

    def actions_for(self, row: MemoryRow) -> list[tuple[str, str, str]]:
        """(label, action, shortcut) of the row's context menu."""
        entries = [(self.tr("Edit…"), "edit", "F2"),
                   (self.tr("Unpin") if row.pinned else self.tr("Pin"), "unpin" if row.pinned else "pin", "Ctrl+P")]
        if row.session_id is not None and not row.source_deleted:
            entries.append((self.tr("Go to source"), "source", "Enter"))
        if row.has_history:
            entries.append((self.tr("History…"), "history", "Ctrl+H"))
        entries.append((self.tr("Delete"), "delete", "Del"))
        return entries

    def open_menu(self, where: QPoint | None = None) -> QMenu | None:
        """The selected memory's actions as a menu (kept on `self.menu` for tests and automation)."""
        row = self.selected()
        if row is None:
            return None
        menu = QMenu(self)
        menu.setObjectName("memoryActionsMenu")
        menu.setAccessibleName(self.tr("Memory actions"))
        for label, action, keys in self.actions_for(row):
            entry = menu.addAction(label)
            entry.setData(action)
            entry.setShortcut(QKeySequence(keys))
            entry.triggered.connect(lambda _checked=False, a=action, i=row.id: self.sig_action.emit(a, i))
        menu.aboutToHide.connect(menu.deleteLater)
        self.menu = menu
        if where is None:
            rect = self.list.visualItemRect(self.list.currentItem())
            where = self.list.viewport().mapToGlobal(QPoint(rect.left() + 24, rect.center().y()))
        menu.popup(where)
        return menu

    # ------------------------------------------------------------------ undo
    def offer_undo(self, text: str, seconds: float = UNDO_SECONDS) -> None:
        self.undo_label.setText(text)
        self.undo_bar.show()
        self._undo_timer.start(int(seconds * 1000))

    def _undo_expired(self) -> None:
        self.undo_bar.hide()
        self.sig_undo_expired.emit()

    def _undo_clicked(self) -> None:
        self.undo_bar.hide()
        self._undo_timer.stop()
        self.sig_undo.emit()


class _MemoryKeys(QObject):
    """Keys on the list: F2 edit, Delete delete, Enter go to source, Ctrl+P pin, Ctrl+H history, Menu key or
    Shift+F10 (or a right-click) the actions menu."""

    def __init__(self, panel: MemoryPanel) -> None:
        super().__init__(panel)
        self.panel = panel

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        panel = self.panel
        if event.type() == QEvent.Type.ContextMenu and isinstance(event, QContextMenuEvent):
            if event.reason() == QContextMenuEvent.Reason.Mouse:
                item = panel.list.itemAt(panel.list.viewport().mapFromGlobal(event.globalPos()))
                if item is not None and item.data(KIND_ROLE) == "memory":
                    panel.list.setCurrentItem(item)
                    item.setSelected(True)
                panel.open_menu(event.globalPos())
            else:
                panel.open_menu()
            return True
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        key, mods = event.key(), event.modifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        actions: dict[tuple[int, bool], Callable[[], None]] = {
            (Qt.Key.Key_F2, False): lambda: panel._emit("edit"),
            (Qt.Key.Key_Delete, False): lambda: panel._emit("delete"),
            (Qt.Key.Key_Return, False): lambda: panel._emit("source"),
            (Qt.Key.Key_Enter, False): lambda: panel._emit("source"),
            (Qt.Key.Key_P, True): panel._pin_clicked,
            (Qt.Key.Key_H, True): lambda: panel._emit("history"),
            (Qt.Key.Key_Menu, False): lambda: panel.open_menu(),
        }
        if key == Qt.Key.Key_F10 and mods & Qt.KeyboardModifier.ShiftModifier:
            panel.open_menu()
            return True
        handler = actions.get((key, ctrl))
        if handler is None:
            return False
        handler()
        return True

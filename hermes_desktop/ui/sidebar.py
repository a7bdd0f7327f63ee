"""The session sidebar: grouped list, full-text search with snippets, and session actions.

Sessions are grouped Pinned / Today / Yesterday / Previous 7 days / Older. Typing in
the search box switches the list to search results (title and snippet, the hit
highlighted); Enter or a click opens the session at the hit.
"""

from __future__ import annotations

import html
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable, Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QPersistentModelIndex, QPoint, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.ui import design, icons
from hermes_desktop.ui import theme as themes

if TYPE_CHECKING:
    from hermes_desktop.core.session_types import SessionInfo

SESSION_ROLE = Qt.ItemDataRole.UserRole + 1
POSITION_ROLE = Qt.ItemDataRole.UserRole + 2
KIND_ROLE = Qt.ItemDataRole.UserRole + 3
MESSAGE_ROLE = Qt.ItemDataRole.UserRole + 4  # a search hit's message id (None: the title matched)
SEARCH_DEBOUNCE_MS = 180


def group_of(info: SessionInfo, today: date) -> str:
    if info.pinned:
        return "Pinned"
    day = datetime.fromtimestamp(info.updated_at).date()
    if day == today:
        return "Today"
    if day == today - timedelta(days=1):
        return "Yesterday"
    if day > today - timedelta(days=7):
        return "Previous 7 days"
    return "Older"


GROUPS = ("Pinned", "Today", "Yesterday", "Previous 7 days", "Older")


class SessionSidebar(QWidget):
    sig_open = Signal(str, object)
    """Open a session: (session id, position of a search hit or None)."""
    sig_open_hit = Signal(str, object, object)
    """Open a search hit in a message: (session id, message id, its position). The window opens the version (branch)
    that holds the message, scrolled to it and highlighted (ui/search_navigation.py)."""
    sig_new = Signal()
    """The user wants a new, empty session."""
    sig_search = Signal(str)
    """Search for this text (debounced); answer with `show_results`. Empty text: back to the list."""
    sig_rename = Signal(str, str)
    sig_pin = Signal(str, bool)
    sig_delete = Signal(str)
    sig_fork = Signal(str)
    sig_export = Signal(str, str)
    """(session id, "md" | "json")."""
    sig_incognito = Signal(str, bool)
    """(session id, True): don't use or record memory in it; False: use memory again."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setObjectName("sessionSearch")
        self.search.setPlaceholderText(self.tr("Search (Ctrl+K)"))  # the longer wording was cut at 250 px
        self.search.setToolTip(self.tr("Search the text of all sessions (Ctrl+K or Ctrl+F)"))
        self.search.setAccessibleName(self.tr("Search sessions"))
        self.search.setClearButtonEnabled(True)
        self.new_button = QPushButton(self.tr("New"))
        self.new_button.setObjectName("newSessionButton")
        self.new_button.setAccessibleName(self.tr("New session"))
        self.new_button.setToolTip(self.tr("New session (Ctrl+N)"))
        self.new_button.clicked.connect(self.sig_new.emit)
        icons.set_icon(self.new_button, "new-session", size=design.ICON)
        search_icon = self.search.addAction(icons.icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        icons.set_action_icons(self.search, {search_icon: "search"})
        self.list = QListWidget()
        self.list.setObjectName("sessionList")
        self.list.setAccessibleName(self.tr("Sessions"))
        self.list.setItemDelegate(_RoomyDelegate(self.list))
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        from hermes_desktop.ui.keyboard import install_list_menu_keys

        install_list_menu_keys(self.list, self._delete_key)  # Menu key / Shift+F10: the session's menu; Delete
        self.list.itemActivated.connect(self._activated)
        self.list.itemClicked.connect(self._activated)
        self.list.itemChanged.connect(self._renamed)
        self._stale = False
        self.list.itemDelegate().closeEditor.connect(
            lambda *_: QTimer.singleShot(0, lambda: self._stale and self.show_sessions(self._sessions)))
        self.undo_bar = QWidget()
        self.undo_label = QLabel()
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_button.setObjectName("undoDeleteButton")
        undo_row = QHBoxLayout(self.undo_bar)
        undo_row.setContentsMargins(design.S, design.XS, design.S, design.XS)
        undo_row.addWidget(self.undo_label, 1)
        undo_row.addWidget(self.undo_button)
        self.undo_bar.hide()
        self._undo_timer = QTimer(self)
        self._undo_timer.setSingleShot(True)
        self._undo_timer.timeout.connect(self.undo_bar.hide)

        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.new_button)
        layout = QVBoxLayout(self)
        # Calm, as in Claude Desktop or Jan: no frame, the window's colour, a tinted (not accent-filled) selection.
        self.list.setFrameShape(QFrame.Shape.NoFrame)
        self.list.setSpacing(1)
        self._calm_list()
        layout.setContentsMargins(design.S, design.S, design.XS, design.S)
        layout.setSpacing(design.S)
        layout.addLayout(top)
        layout.addWidget(self.list, 1)
        from hermes_desktop.ui.empty_state import EmptyState, overlay_when_empty

        self.empty_state = overlay_when_empty(self.list, lambda: EmptyState(
            "chat", self.tr("No conversations yet"), self.tr("Type a message to start one; it is kept here."),
            object_name="sessionsEmptyState"),
            lambda: self.list.count() == 1 and self.list.item(0).data(KIND_ROLE) == "empty")
        self.no_match_state = overlay_when_empty(self.list, lambda: EmptyState(
            "search", self.tr("No matches"), self.tr("Try other words: the search looks through the text of every "
                                                     "conversation."), object_name="searchEmptyState"),
            lambda: self.list.count() == 1 and self.list.item(0).data(KIND_ROLE) == "no_match")
        layout.addWidget(self.undo_bar)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(lambda: self.sig_search.emit(self.search.text().strip()))
        self.search.textChanged.connect(lambda _text: self._debounce.start())
        self.search.returnPressed.connect(self._open_first_result)
        self._sessions: list[SessionInfo] = []
        self._current: str | None = None
        self._filling = False
        self._keys: list[tuple[str, str]] | None = None  # the rows shown (None: not the session list)
        self._specs: list[tuple[str, str, bool]] = []
        self.incognito_of: Callable[[str], bool] = lambda _session_id: False  # set by the window (memory)

    # ------------------------------------------------------------------ filling
    @property
    def searching(self) -> bool:
        return bool(self.search.text().strip())

    def show_sessions(self, sessions: Sequence[SessionInfo], current: str | None = None) -> None:
        """Show `sessions` grouped. Updates the rows in place: a turn's start and end (one session moved to the top
        or retitled) moves or changes that one row instead of rebuilding 1,000 (13-21 ms, a stall while streaming);
        a full rebuild only after search results, or when many rows would move."""
        self._sessions = list(sessions)
        if current is not None:
            self._current = current
        if self.searching:
            return
        if self.list.state() == QAbstractItemView.State.EditingState:
            self._stale = True  # a rename is being typed: rebuilding would drop it; refilled when the editor closes
            return
        self._stale = False
        rows = self._wanted_rows()
        self._filling = True
        try:
            if self._keys is None or not self._update_rows(rows):
                self._rebuild(rows)
            self._select_current()
        finally:
            self._filling = False

    def _wanted_rows(self) -> list[tuple[tuple[str, str], tuple[str, str, bool]]]:
        """(key, (text, tooltip, italic)) for each row: key ("header", group), ("session", id) or ("empty", "")."""
        today = date.today()
        grouped: dict[str, list[SessionInfo]] = {}
        for info in self._sessions:
            grouped.setdefault(group_of(info, today), []).append(info)
        rows: list[tuple[tuple[str, str], tuple[str, str, bool]]] = []
        untitled = self.tr("New conversation")
        incognito_tip = self.tr("Incognito: does not use or record memory")
        for group in GROUPS:
            if group not in grouped:
                continue
            rows.append((("header", group), (self._group_title(group), "", False)))
            for info in grouped[group]:
                text = ("📌 " if info.pinned else "") + (info.title or untitled)
                tip = f"{info.title}\n{datetime.fromtimestamp(info.updated_at):%Y-%m-%d %H:%M}" + (
                    f" · {info.model}" if info.model else "")
                italic = bool(self.incognito_of(info.id))  # memory off: italic, and the tooltip says why
                if italic:
                    tip += "\n" + incognito_tip
                # A tooltip guesses rich text: a title is shown as written ("<b>…" from a model or an import).
                rows.append((("session", info.id),
                             (text, f"<p style='white-space:pre-wrap'>{html.escape(tip, quote=False)}</p>", italic)))
        if not self._sessions:
            empty = self.tr("No conversations yet.\nType a message below to start one;\nit is kept here.")
            rows.append((("empty", ""), (empty, "", False)))
        return rows

    def _make_row(self, key: tuple[str, str], spec: tuple[str, str, bool]) -> QListWidgetItem:
        kind, ident = key
        item = QListWidgetItem(spec[0])
        item.setData(KIND_ROLE, kind)
        if kind == "header":
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            item.setFont(design.section(self.list.font()))
        elif kind == "empty":
            item.setFlags(Qt.ItemFlag.NoItemFlags)
        else:
            item.setData(SESSION_ROLE, ident)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable)
            self._apply_row(item, spec, (spec[0], "", False))
        return item

    @staticmethod
    def _apply_row(item: QListWidgetItem, spec: tuple[str, str, bool], old: tuple[str, str, bool]) -> None:
        if item.text() != spec[0]:  # the item's own text: a rename typed into it may have been refused
            item.setText(spec[0])
        if spec[1] != old[1]:
            item.setToolTip(spec[1])
        if spec[2] != old[2]:
            font = item.font()
            font.setItalic(spec[2])
            item.setFont(font)

    def _rebuild(self, rows: list[tuple[tuple[str, str], tuple[str, str, bool]]]) -> None:
        self.list.clear()
        for key, spec in rows:
            self.list.addItem(self._make_row(key, spec))
        self._keys = [key for key, _spec in rows]
        self._specs = [spec for _key, spec in rows]

    def _update_rows(self, rows: list[tuple[tuple[str, str], tuple[str, str, bool]]]) -> bool:
        """Turn the list's rows into `rows` by removing, moving, inserting and changing single rows. False (nothing
        changed yet) when that would take more steps than a rebuild is worth."""
        keys, specs = self._keys, self._specs
        assert keys is not None
        wanted = {key for key, _spec in rows}
        if len(wanted) != len(rows):
            return False
        gone = [n for n, key in enumerate(keys) if key not in wanted]
        # Steps: removals, plus a move or insert for each row out of place (estimated by a walk over the keys).
        steps, simulated = len(gone), [key for key in keys if key in wanted]
        position = {key: n for n, key in enumerate(simulated)}
        for n, (key, _spec) in enumerate(rows):
            if n < len(simulated) and simulated[n] == key:
                continue
            steps += 1
            if steps > max(50, len(rows) // 10):
                return False
            if key in position:
                simulated.remove(key)
            simulated.insert(n, key)
        for n in reversed(gone):
            self.list.takeItem(n)
            del keys[n], specs[n]
        index = {key: n for n, key in enumerate(keys)}
        for n, (key, spec) in enumerate(rows):
            if n < len(keys) and keys[n] == key:
                if specs[n] != spec:
                    self._apply_row(self.list.item(n), spec, specs[n])
                    specs[n] = spec
                continue
            if key in index:
                old = keys.index(key, n)
                item = self.list.takeItem(old)
                old_spec = specs.pop(old)
                keys.pop(old)
                self._apply_row(item, spec, old_spec)
            else:
                item = self._make_row(key, spec)
            self.list.insertItem(n, item)
            keys.insert(n, key)
            specs.insert(n, spec)
        return True

    def _select_current(self) -> None:
        current = self.list.currentItem()
        if current is not None and current.data(KIND_ROLE) == "session" and current.data(SESSION_ROLE) == self._current:
            if not current.isSelected():
                current.setSelected(True)
            return
        if self._keys is None:
            return
        try:
            row = self._keys.index(("session", self._current))
        except ValueError:
            self.list.clearSelection()  # a new session not saved yet: no row is it
            return
        item = self.list.item(row)
        item.setSelected(True)
        self.list.setCurrentItem(item)

    def _calm_list(self) -> None:
        theme = themes.current()
        palette = self.list.palette()
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            palette.setColor(group, QPalette.ColorRole.Base, QColor(theme.window))
            palette.setColor(group, QPalette.ColorRole.Highlight, QColor(theme.selection))
            palette.setColor(group, QPalette.ColorRole.HighlightedText, QColor(theme.text))
        self.list.setPalette(palette)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.PaletteChange:  # the theme switched
            self._calm_list()
        super().changeEvent(event)

    def set_current(self, session_id: str | None) -> None:
        self._current = session_id
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(SESSION_ROLE) == session_id and item.data(KIND_ROLE) == "session":
                self.list.setCurrentItem(item)
                return
        self.list.clearSelection()

    def _group_title(self, group: str) -> str:
        return {"Pinned": self.tr("Pinned"), "Today": self.tr("Today"), "Yesterday": self.tr("Yesterday"),
                "Previous 7 days": self.tr("Previous 7 days"), "Older": self.tr("Older")}.get(group, group)

    def show_results(self, hits: Sequence[Any]) -> None:
        """Search hits: title, snippet with the matches in bold; each opens its session at the hit."""
        if not self.searching:
            return
        self._filling = True
        self._keys = None
        self.list.clear()
        if not hits:
            empty = QListWidgetItem(self.tr("No matches"))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            empty.setData(KIND_ROLE, "no_match")
            self.list.addItem(empty)
        for hit in hits:
            item = QListWidgetItem()
            item.setData(SESSION_ROLE, hit.session_id)
            item.setData(POSITION_ROLE, hit.position)
            item.setData(MESSAGE_ROLE, hit.message_id)
            item.setData(KIND_ROLE, "hit")
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            label = QLabel(_hit_html(hit, self.tr("Untitled")))
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setContentsMargins(4, 3, 4, 3)
            item.setSizeHint(label.sizeHint())
            # The label is the row's only text: a DisplayRole text as well would be painted under it. Screen
            # readers (and tests) get the plain text through the accessible role instead.
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{hit.session_title}: {hit.snippet}")
            self.list.addItem(item)
            self.list.setItemWidget(item, label)
        self._filling = False

    def _open_first_result(self) -> None:
        item = self.list.currentItem()
        if item is None or item.data(KIND_ROLE) not in ("hit", "session"):
            item = next((self.list.item(r) for r in range(self.list.count())
                         if self.list.item(r).data(KIND_ROLE) in ("hit", "session")), None)
        if item is not None:
            self._activated(item)

    # ------------------------------------------------------------------ actions
    def _activated(self, item: QListWidgetItem) -> None:
        session_id = item.data(SESSION_ROLE)
        if session_id:
            self._current = session_id
            if item.data(KIND_ROLE) == "hit" and item.data(MESSAGE_ROLE) is not None:
                self.sig_open_hit.emit(session_id, item.data(MESSAGE_ROLE), item.data(POSITION_ROLE))
            else:
                self.sig_open.emit(session_id, None)

    def _renamed(self, item: QListWidgetItem) -> None:
        if self._filling or item.data(KIND_ROLE) != "session":
            return
        title = item.text().removeprefix("📌 ").strip()
        if title:
            self.sig_rename.emit(item.data(SESSION_ROLE), title)

    def _delete_key(self, index: Any) -> bool:
        """Delete on a session row deletes it (the undo bar offers it back), as the menu's Delete does."""
        if index.data(KIND_ROLE) not in ("session", "hit") or not index.data(SESSION_ROLE):
            return False
        self.sig_delete.emit(index.data(SESSION_ROLE))
        return True

    def _info(self, session_id: str) -> SessionInfo | None:
        return next((s for s in self._sessions if s.id == session_id), None)

    def _menu(self, point: QPoint) -> None:
        item = self.list.itemAt(point)
        if item is None or item.data(KIND_ROLE) not in ("session", "hit"):
            return
        session_id = item.data(SESSION_ROLE)
        info = self._info(session_id)
        menu = QMenu(self)
        if item.data(KIND_ROLE) == "session":
            menu.addAction(icons.icon("rename"), self.tr("Rename"), lambda: self.list.editItem(item))
        pinned = bool(info and info.pinned)
        menu.addAction(icons.icon("pin"), self.tr("Unpin") if pinned else self.tr("Pin"),
                       lambda: self.sig_pin.emit(session_id, not pinned))
        menu.addAction(icons.icon("fork"), self.tr("Fork"), lambda: self.sig_fork.emit(session_id))
        incognito = menu.addAction(self.tr("Don't use or record memory"))
        incognito.setObjectName("incognitoAction")
        incognito.setCheckable(True)
        incognito.setChecked(self.incognito_of(session_id))
        incognito.toggled.connect(lambda on: self.sig_incognito.emit(session_id, on))
        export = menu.addMenu(icons.icon("export"), self.tr("Export"))
        export.addAction(self.tr("Markdown…"), lambda: self.sig_export.emit(session_id, "md"))
        export.addAction(self.tr("JSON…"), lambda: self.sig_export.emit(session_id, "json"))
        export.addAction(self.tr("Word…"), lambda: self.sig_export.emit(session_id, "docx"))
        export.addAction(self.tr("Obsidian vault…"), lambda: self.sig_export.emit(session_id, "obsidian"))
        menu.addSeparator()
        delete = QAction(icons.icon("delete"), self.tr("Delete"), menu)
        delete.triggered.connect(lambda: self.sig_delete.emit(session_id))
        menu.addAction(delete)
        menu.popup(self.list.viewport().mapToGlobal(point))

    def offer_undo(self, text: str, seconds: float = 10.0) -> None:
        self.undo_label.setText(text)
        self.undo_bar.show()
        self._undo_timer.start(int(seconds * 1000))


class _RoomyDelegate(QStyledItemDelegate):
    """Session rows a little taller than Qt's (easier to read and to hit); headers and search hits as they are."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        if index.data(KIND_ROLE) == "session":
            size.setHeight(size.height() + design.S)
        return size


def _hit_html(hit: Any, untitled: str) -> str:
    snippet = hit.snippet
    marked, last = [], 0
    for start, end in hit.highlights:
        marked.append(html.escape(snippet[last:start]))
        marked.append(f"<b>{html.escape(snippet[start:end])}</b>")
        last = end
    marked.append(html.escape(snippet[last:]))
    title = html.escape(hit.session_title or untitled)
    where = "" if hit.message_id is None else f" <span style='color:gray'>· {html.escape(_role_words(hit.role))}</span>"
    return f"<div><b>{title}</b>{where}<br><span>{''.join(marked)}</span></div>"


def _role_words(role: str | None) -> str:
    """Who said the message a search hit is in, in the user's language (the store's role names are data)."""
    return {
        "user": QCoreApplication.translate("SessionSidebar", "you"),
        "assistant": QCoreApplication.translate("SessionSidebar", "Hermes"),
        "tool": QCoreApplication.translate("SessionSidebar", "tool result"),
        "summary": QCoreApplication.translate("SessionSidebar", "summary"),
    }.get(role or "", QCoreApplication.translate("SessionSidebar", "note"))

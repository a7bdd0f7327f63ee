"""What the Memory tab, the chat's "Remembered: …" rows and the incognito switch do.

Every store call runs in a worker thread (`asyncio.to_thread`, as the controller does for sessions), so a
large memory table or a busy disk never freezes the window. Modals are opened with `run_dialog` (never
`exec()` or a static QMessageBox inside a coroutine). The main window only wires this up.

- The tab is refilled when memories change (`controller.sig_memories_changed`: a turn remembered something,
  a tool forgot something, the tab edited one) and when the search text changes.
- Delete forgets at once and is undoable for a while (the tab's undo bar), then removes for good; Wipe all asks
  first, Cancel being the default.
- "Go to source" opens the memory's session at its message and puts the keyboard focus on that message.
- Incognito ("Don't use or record memory") is per session: the status bar's switch and the session's context
  menu set it; while the open session has it on, a strip above the message box says so, with a way out.
  A new chat gets its id (and its stored row) when the switch is turned on, so the flag holds for its first turn.
- A "Remembered: …" row is added to the chat of the session it came from, kept for this run so reopening
  the session shows it again; its Undo takes those memories back (`undo_add`: the ones they replaced are in use
  again) and the row says they were forgotten.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
)

from hermes_desktop.ui.async_dialog import Confirmation, run_dialog
from hermes_desktop.ui.chat.items import RememberedItem
from hermes_desktop.ui.tasks import spawn

if TYPE_CHECKING:
    from hermes_desktop.ui.main_window import MainWindow
    from hermes_desktop.ui.memory_panel import MemoryPanel, MemoryRow

log = logging.getLogger(__name__)

SHOWN = 200  # rows the tab lists (newest first, pinned first); a search reaches the others. 200 rich rows lay out in
# about 30-60 ms here; 1,000 took 85-320 ms on the UI thread.


class MemoryActions(QObject):
    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self._deleted: list[int] = []  # the last delete, for Undo
        self._remembered: dict[str, list[RememberedItem]] = {}  # session -> its "Remembered: …" rows, this run
        self._refreshing = False
        self._again = False
        self._stale = True
        self._select_next: int | None = None  # show_tab's memory, selected when the refill lists it
        window.inspector.currentChanged.connect(lambda _index: self._stale and self.refresh())
        # The open dialogs, for tests and automation.
        self.edit_dialog: QInputDialog | None = None
        self.wipe_dialog: Confirmation | None = None
        self.history_dialog: QDialog | None = None
        self._incognito: set[str] = set()  # sessions with memory off (read once when the engine is ready)
        self._switched: dict[str, bool] = {}  # switched in this run (they win over the first read)
        self._known: set[str] = set()  # sessions whose flag was read (others are asked when opened)
        self.toggle = QCheckBox(self.tr("Incognito"))
        self.toggle.setObjectName("incognitoToggle")
        self.toggle.setAccessibleName(self.tr("Don't use or record memory in this conversation"))
        self.toggle.setToolTip(self.tr("Don't use or record memory in this conversation: nothing is recalled into it, "
                                       "nothing said in it is remembered"))
        self.toggle.toggled.connect(lambda on: spawn(self.set_incognito(None, on)))
        self.toggle.setEnabled(False)  # until the store is open (load_incognito)
        self.strip = QFrame()
        self.strip.setObjectName("incognitoBanner")
        self.strip.setFrameShape(QFrame.Shape.StyledPanel)
        self.strip_label = QLabel(self.tr("Incognito: this conversation does not use or record memory."))
        self.strip_label.setWordWrap(True)
        leave = QPushButton(self.tr("Use memory again"))
        leave.setObjectName("leaveIncognitoButton")
        leave.clicked.connect(lambda: self.toggle.setChecked(False))
        row = QHBoxLayout(self.strip)
        row.setContentsMargins(12, 4, 8, 4)
        row.addWidget(self.strip_label, 1)
        row.addWidget(leave)
        self.strip.hide()
        self.controller.sig_settings_changed.connect(
            lambda: self.panel.set_memory_enabled(self.controller.memory_enabled))
        window.inspector.when_built("memory", self._connect_panel)  # the tab is built after the first paint
        # Session titles show as sources: a retitled or deleted conversation refreshes the tab (coalesced).
        self._titles_timer = QTimer(self)
        self._titles_timer.setSingleShot(True)
        self._titles_timer.setInterval(400)
        self._titles_timer.timeout.connect(self.refresh)
        self.controller.sig_sessions_changed.connect(self._titles_timer.start)

    @property
    def panel(self) -> "MemoryPanel":
        """The Memory tab (built when first asked for: ui/inspector.py)."""
        return self.window.inspector.memory

    def _connect_panel(self, panel: Any) -> None:
        panel.sig_action.connect(self.act)
        panel.sig_search.connect(lambda _text: self.refresh())
        panel.sig_wipe.connect(lambda: spawn(self.wipe_all()))
        panel.sig_add.connect(lambda: spawn(self.add()))
        panel.sig_undo.connect(lambda: spawn(self.undo_delete()))
        panel.sig_undo_expired.connect(lambda: spawn(self._purge_deleted()))

    @property
    def _memory(self) -> Any:
        return self.controller.memory

    # ------------------------------------------------------------------ the tab
    def refresh(self) -> None:
        """Refill the tab (coalesced: one refill runs at a time, and one more if asked meanwhile). While the tab is
        not on screen it is only marked stale and refilled when it is shown (a turn need not pay for it)."""
        if self._memory is None or not self.controller.ready:  # closing: the store may be gone by the time it runs
            return
        if not self.panel.isVisible():
            self._stale = True
            return
        self._stale = False
        if self._refreshing:
            self._again = True
            return
        spawn(self._refresh())

    async def _refresh(self) -> None:
        import asyncio

        self._refreshing = True
        try:
            while True:
                self._again = False
                query = self.panel.search_text
                records, total = await asyncio.to_thread(self.controller.memory_rows, query, SHOWN)
                rows = await self._rows(records)
                if not self._again:
                    self.panel.show_memories(rows, total=total, more=total > len(records))
                    if self._select_next is not None and self.panel.select(self._select_next):
                        self._select_next = None
                    self.panel.set_memory_enabled(self.controller.memory_enabled)
                    return
        finally:
            self._refreshing = False

    async def _rows(self, records: list[Any]) -> list[MemoryRow]:
        import asyncio

        store = self.controller.store

        def read_titles(ids: set[str]) -> dict[str, str | None]:  # one trip to the worker thread for all of them
            infos = {session_id: store.get_session(session_id) for session_id in ids}
            return {session_id: info.title if info is not None and info.deleted_at is None else None  # trash: gone
                    for session_id, info in infos.items()}

        titles = await asyncio.to_thread(read_titles, {r.session_id for r in records if r.session_id})
        predecessors: dict[int, int] = {}
        for record in records:
            if record.superseded_by is not None:
                predecessors[record.superseded_by] = predecessors.get(record.superseded_by, 0) + 1
        runtime = self.controller.runtime
        active = runtime.profile.id if runtime is not None and runtime.profile is not None else ""
        return [row_of(record, titles, predecessors.get(record.id, 0), self._scope_note(record, active))
                for record in records]

    def _scope_note(self, memory: Any, active: str) -> str:
        """Said of a memory the active profile does not see (core/memory/store.py, "Profiles"): the HERMES_BASE_URL
        profile's own memories, and those, are kept apart, as are the memories of local-only providers
        (core/local_only.py); every other saved provider shares the rest."""
        from hermes_desktop.core.memory.store import visible_to
        from hermes_desktop.core.settings import ENV_PROFILE_ID  # not at import: the first paint must not wait for it

        private = frozenset(self._memory.private()) if self._memory is not None else frozenset()
        if not active or visible_to(memory, active, private):
            return ""
        if memory.profile_id == ENV_PROFILE_ID:
            return self.tr("used only with the server in HERMES_BASE_URL")
        if memory.profile_id in private:
            return self.tr("used only with local-only providers")
        return self.tr("not used with the server in HERMES_BASE_URL")

    def act(self, action: str, memory_id: int) -> None:
        if self._memory is None:
            return
        if action == "edit":
            spawn(self.edit(memory_id))
        elif action in ("pin", "unpin"):
            spawn(self._change(self.controller.pin_memory, memory_id, action == "pin"))
        elif action == "delete":
            spawn(self.delete([memory_id]))
        elif action == "source":
            spawn(self.go_to_source(memory_id))
        elif action == "history":
            spawn(self.show_history(memory_id))

    async def _change(self, call: Any, *args: Any) -> None:
        try:
            await call(*args)
        except Exception as exc:  # a full or read-only disk: said in the window, nothing else changes
            log.exception("memory change failed")
            self.window.errors.show_message(self.tr("The memory was not changed: {0}").format(exc))
        self.refresh()

    async def edit(self, memory_id: int) -> None:
        row = self.panel._rows.get(memory_id)
        if row is None:
            return
        dialog = QInputDialog(self.window)
        dialog.setObjectName("editMemoryDialog")
        dialog.setWindowTitle(self.tr("Edit memory"))
        dialog.setLabelText(self.tr("What Hermes remembers (your words stay as they were: “{0}”)").format(row.quote)
                            if row.quote else self.tr("What Hermes remembers"))
        dialog.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput, True)
        for label in dialog.findChildren(QLabel):  # the user's words as typed ("<b>" in a quote is not markup)
            label.setTextFormat(Qt.TextFormat.PlainText)
        dialog.setTextValue(row.statement)
        dialog.resize(460, 220)
        self.edit_dialog = dialog
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
            return
        text = " ".join(dialog.textValue().split())
        if text and text != row.statement:
            await self._change(self.controller.edit_memory, memory_id, text)

    async def add(self) -> None:
        """A memory the user writes: long-term, for the active provider profile, without a quote or source."""
        dialog = QInputDialog(self.window)
        dialog.setObjectName("addMemoryDialog")
        dialog.setWindowTitle(self.tr("Add a memory"))
        dialog.setLabelText(self.tr("What should Hermes remember? (a short fact, e.g. “Prefers answers in British "
                                    "English”)"))
        dialog.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput, True)
        dialog.resize(460, 220)
        self.edit_dialog = dialog
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
            return
        text = " ".join(dialog.textValue().split())
        if text:
            await self._change(self.controller.add_memory, text)

    async def delete(self, memory_ids: list[int]) -> None:
        """Forgotten at once (never recalled again), removed for good when the Undo offer ends. (Closed before
        that, they stay forgotten: out of recall and of this list, still in `memory export`.)"""
        from hermes_desktop.core.terminal_text import visible_bidi

        rows = [self.panel._rows.get(i) for i in memory_ids]
        await self._purge_deleted()  # an earlier delete's Undo ends now
        try:
            await self.controller.forget_memories(memory_ids)
        except Exception as exc:
            self.window.errors.show_message(self.tr("The memory was not deleted: {0}").format(exc))
            self.refresh()
            return
        self._deleted = list(memory_ids)
        first = next((r for r in rows if r is not None), None)
        text = self.tr("Deleted “{0}”").format(visible_bidi(first.statement)) if first and len(memory_ids) == 1 else \
            self.tr("Deleted {0} memories").format(len(memory_ids))
        self.panel.offer_undo(text)
        self.refresh()

    async def undo_delete(self) -> None:
        ids, self._deleted = self._deleted, []
        if ids:
            await self._change(self.controller.restore_memories, ids)

    async def _purge_deleted(self) -> None:
        ids, self._deleted = self._deleted, []
        if ids:
            try:
                await self.controller.delete_memories(ids)
            except Exception:  # they stay forgotten: never recalled, not listed
                log.exception("forgotten memories could not be removed")

    async def wipe_all(self) -> None:
        import asyncio

        count = await asyncio.to_thread(self.controller.memory_count)
        if not count:
            return
        box = Confirmation(self.window, QMessageBox.Icon.Warning, self.tr("Wipe all memories?"),
                           self.tr("This deletes all {0} memories Hermes keeps, long-term and short-term, with their "
                                   "history. It cannot be undone. Your conversations are not changed.").format(count),
                           self.tr("Wipe all memories"), QMessageBox.ButtonRole.DestructiveRole)
        box.setObjectName("wipeMemoriesDialog")
        self.wipe_dialog = box
        if not await box.confirmed():
            return
        try:
            await self.controller.wipe_memories()
        except Exception as exc:
            self.window.errors.show_message(self.tr("The memories were not wiped: {0}").format(exc))
            self.refresh()
            return
        self._deleted = []
        self.panel.undo_bar.hide()
        self.refresh()
        self.window.statusBar().showMessage(self.tr("All memories were wiped."), 6000)

    async def go_to_source(self, memory_id: int) -> None:
        import asyncio

        row = self.panel._rows.get(memory_id)
        if row is None or row.session_id is None:
            return
        info = await asyncio.to_thread(self.controller.store.get_session, row.session_id)
        if info is None or info.deleted_at is not None:
            self.window.statusBar().showMessage(self.tr("The conversation this memory came from was deleted."), 6000)
            return
        await self.window.show_message(row.session_id, row.message_id)

    async def show_history(self, memory_id: int) -> None:
        from hermes_desktop.ui.memory_panel import short_date

        from hermes_desktop.core.terminal_text import visible_bidi
        import asyncio

        chain = await asyncio.to_thread(self.controller.memory_history, memory_id)
        dialog = QDialog(self.window)
        dialog.setObjectName("memoryHistoryDialog")
        dialog.setWindowTitle(self.tr("Memory history"))
        explain = QLabel(self.tr("Newest first. A newer memory on the same subject replaces the older one; the older "
                                 "ones are kept here and are no longer given to the model."))
        explain.setWordWrap(True)
        listing = QListWidget()
        listing.setObjectName("memoryHistoryList")
        listing.setAccessibleName(self.tr("Memory history"))
        listing.setWordWrap(True)
        for record in chain:
            row = row_of(record, {}, 0)
            when = short_date(row.created_at) if row.created_at else ""
            state = {"superseded": self.tr("replaced"), "forgotten": self.tr("forgotten"),
                     "expired": self.tr("expired")}.get(row.state, self.tr("in use"))
            said, quote = visible_bidi(row.statement), visible_bidi(row.quote)
            text = f"{said}\n“{quote}”\n{when} · {state}" if row.quote else f"{said}\n{when} · {state}"
            item = QListWidgetItem(text)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            listing.addItem(item)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(explain)
        layout.addWidget(listing, 1)
        layout.addWidget(buttons)
        dialog.resize(460, 320)
        self.history_dialog = dialog
        await run_dialog(dialog)

    # ------------------------------------------------------------------ "Remembered: …" in the chat
    def on_event(self, session_id: str, event: Any) -> bool:
        """An engine event of any session: True when it was memory's (the window need not show it)."""
        from hermes_desktop.core import events as ev

        if isinstance(event, ev.MemoryRemembered):
            self.remembered(event.session_id or session_id, tuple(event.memory_ids), tuple(event.statements))
            return True
        if isinstance(event, ev.ToolCallFinished) and event.name in ("remember", "forget"):
            self.refresh()
        return False

    def remembered(self, session_id: str, memory_ids: tuple[int, ...], statements: tuple[str, ...]) -> None:
        """A turn of `session_id` was remembered: the row in its chat (now, or when it is opened again)."""
        item = RememberedItem(tuple(memory_ids), tuple(statements), session_id)
        self._remembered.setdefault(session_id, []).append(item)
        if session_id == self.window.current_session and not self.window.chat.model.has_later:
            self.window.chat.model.append(item)  # (viewing older messages: it comes with the end, show_rows)
        self.refresh()

    def show_rows(self, session_id: str) -> None:
        """Put the session's "Remembered: …" rows of this run at the end of its transcript (the newest page is
        loaded), each once."""
        model = self.window.chat.model
        for item in self.rows_for(session_id):
            if model.row_of(item) < 0:
                model.append(item)

    def rows_for(self, session_id: str) -> list[RememberedItem]:
        """This run's "Remembered: …" rows of a session (shown at the end of its newest page)."""
        return list(self._remembered.get(session_id, []))

    def chat_action(self, action: str, item: RememberedItem) -> None:
        if action == "undo_remembered" and item.state in ("shown", "failed"):
            spawn(self.undo_remembered(item))
        elif action == "show_memories":
            self.show_tab(item.memory_ids[0] if item.memory_ids else None)

    async def undo_remembered(self, item: RememberedItem) -> None:
        item.state = "undoing"
        self.window.chat.model.changed(item)
        try:
            await self.controller.undo_remembered(list(item.memory_ids))
            item.state = "undone"
        except Exception as exc:
            log.exception("undo of a remembered memory failed")
            item.state = "failed"
            self.window.errors.show_message(self.tr("Could not forget it: {0}").format(exc))
        self.window.chat.model.changed(item)
        self.refresh()

    def show_tab(self, memory_id: int | None = None) -> None:
        """Bring the Memory tab up (the inspector too), with this memory selected once it is listed."""
        inspector = self.window.inspector
        inspector.setVisible(True)
        self._select_next = memory_id
        inspector.setCurrentWidget(self.panel)  # a stale tab refills now, and selects it then
        if memory_id is not None and self.panel.select(memory_id):
            self._select_next = None

    # ------------------------------------------------------------------ incognito
    def engine_ready(self) -> None:
        """The switch works from now on; which sessions are incognito is read in the background."""
        self.toggle.setEnabled(self.controller.memory is not None)
        spawn(self.load_incognito())

    async def load_incognito(self) -> None:
        """Which sessions keep memory out (once, when the engine is ready)."""
        import asyncio

        try:
            sessions = [info.id for info in await self.controller.list_sessions()]
            if self.window.current_session is not None:
                sessions.append(self.window.current_session)
            loaded = set(await asyncio.to_thread(self.controller.incognito_sessions, sessions))
            # switched meanwhile (set_incognito): the newer answer wins
            self._incognito = (loaded - set(self._switched)) | {s for s, on in self._switched.items() if on}
            self._known = set(sessions) | set(self._switched)
        except Exception:  # nothing known: each session is asked when it is opened (show_session)
            log.exception("could not read the incognito sessions")
        self.show_session(self.window.current_session)
        self.window._refresh_timer.start()  # the session list shows which are incognito

    def is_incognito(self, session_id: str | None) -> bool:
        return session_id is not None and session_id in self._incognito

    def show_session(self, session_id: str | None) -> None:
        """The switch and the strip follow the open session."""
        on = self.is_incognito(session_id)
        if session_id is not None and session_id not in self._known and self.controller.memory is not None:
            self._known.add(session_id)
            spawn(self._ask_incognito(session_id))  # e.g. an old session opened from search
        self.toggle.blockSignals(True)
        self.toggle.setChecked(on)
        self.toggle.blockSignals(False)
        self.toggle.setEnabled(self.controller.memory is not None)
        self.strip.setVisible(on)
        self._style_strip()

    def _style_strip(self) -> None:
        from hermes_desktop.ui import theme as themes

        theme = themes.current()
        self.strip.setStyleSheet(f"#incognitoBanner {{ background: {theme.notice_bg}; border: 1px solid {theme.accent};"
                                 f" border-radius: 6px; margin: 4px 12px 0 12px; }}")

    async def _ask_incognito(self, session_id: str) -> None:
        import asyncio

        try:
            found = await asyncio.to_thread(self.controller.incognito_sessions, [session_id])
        except Exception:
            log.exception("could not read the session's memory switch")
            return
        if session_id in self._switched:
            return
        (self._incognito.add if found else self._incognito.discard)(session_id)
        if session_id == self.window.current_session:
            self.show_session(session_id)

    async def set_incognito(self, session_id: str | None, on: bool) -> None:
        """Memory off (on=True) or on again for a session; None: the open one (a new chat gets its id now)."""
        if self.controller.memory is None:
            return
        if session_id is None:
            session_id = self.window._ensure_session()
        release = self.controller.hold_turns()  # a message sent this instant waits: its turn sees the switch
        try:
            await self.controller.set_incognito(session_id, on)
        except Exception as exc:
            self.window.errors.show_message(self.tr("The conversation's memory switch was not saved: {0}").format(exc))
            self.show_session(self.window.current_session)
            return
        finally:
            release()
        (self._incognito.add if on else self._incognito.discard)(session_id)
        self._switched[session_id] = on
        self.window._refresh_timer.start()
        if session_id == self.window.current_session:
            self.show_session(session_id)
        self.window.statusBar().showMessage(
            self.tr("This conversation does not use or record memory.") if on else
            self.tr("This conversation uses memory again."), 5000)


def row_of(memory: Any, titles: dict[str, str | None], predecessors: int, scope_note: str = "") -> MemoryRow:
    """The tab's row for a core Memory (core/memory/model.py). `titles`: source session -> its title (None: the
    session was deleted); `predecessors`: how many older memories this one replaced; `scope_note`: why the active
    profile does not recall it (MemoryActions._scope_note), or ""."""
    from hermes_desktop.ui.memory_panel import MemoryRow

    state = memory.state.value if hasattr(memory.state, "value") else str(memory.state)
    layer = memory.layer.value if hasattr(memory.layer, "value") else str(memory.layer)
    title = titles.get(memory.session_id, "") if memory.session_id else ""
    return MemoryRow(id=memory.id, layer=layer, statement=memory.statement, quote=memory.quote,
                     session_id=memory.session_id, session_title=title or "", message_id=memory.message_id,
                     created_at=memory.created_at, expires_at=memory.expires_at, pinned=memory.pinned, state=state,
                     replaced=predecessors, replaced_by=memory.superseded_by,
                     source_deleted=bool(memory.session_id) and memory.session_id in titles
                     and titles[memory.session_id] is None, scope_note=scope_note)

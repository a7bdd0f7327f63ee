"""What the Assistants tab, the chat header's assistant button, `/` in the message box and File › New session with
assistant… do (core/assistants).

- The header button (objectName `assistantButton`, above the chat) shows the open chat's assistant; pressing it
  (or Ctrl+Shift+A) opens the quick picker (ui/quick_picker.py) to switch. A switch is stored with the session and
  applies from its next message (the engine reads it when a turn starts). A new chat gets its id when an assistant
  is chosen for it, so the choice holds for its first message.
- An empty chat shows its assistant's name, description and starter prompts (ui/empty_state.Welcome).
- `/` typed into an empty message box opens the picker over saved prompts, assistants and skills: a prompt goes
  into the box (its {{variables}} asked first in a small form), an assistant becomes the chat's, a skill is
  written as `/skill-name ` (activated when sent). Esc leaves the `/` in the box, to type on.
- Ctrl+N stays "new session" in one keystroke (Hermes), and the new chat offers four assistants (Or start with: …,
  More… for the picker); Ctrl+Shift+N opens a new session and the picker over all assistants at once (search, Enter).
- The tab: Use in this chat, New…, Edit… (a built-in one is saved as the user's copy), Duplicate, Delete (Undo for
  a while), Import… (ui/dialogs/assistant_import.py), Export… (our JSON).
Every store call runs in a worker thread; dialogs open with `run_dialog` (never exec()).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPoint
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QFileDialog, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from hermes_desktop.ui.async_dialog import run_dialog
from hermes_desktop.ui.tasks import in_thread, spawn

if TYPE_CHECKING:
    from hermes_desktop.ui.quick_picker import Choice, QuickPicker
    from hermes_desktop.core.assistants.model import Assistant
    from hermes_desktop.ui.assistant_panel import AssistantPanel
    from hermes_desktop.ui.main_window import MainWindow

log = logging.getLogger(__name__)


def _choice(*args: Any) -> "Choice":
    from hermes_desktop.ui.quick_picker import Choice

    return Choice(*args)

# Offered in a new Hermes chat (Ctrl+N), one click or Tab + Space away; "More…" opens the picker over all of them.
SUGGESTED = ("builtin:translator", "builtin:writing-polish", "builtin:weekly-report", "builtin:meeting-minutes")


class AssistantActions(QObject):
    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.current = None  # the open chat's Assistant (None until read)
        self._picker: "QuickPicker | None" = None  # made when first opened: not before the window's first paint
        self._picking = ""  # what the open picker is for: switch | slash | new
        self._deleted: str | None = None
        self.editor: QDialog | None = None  # the open dialogs, for tests and automation
        self.import_dialog: QDialog | None = None
        self.fill_dialog: QDialog | None = None
        self.library_dialog: QDialog | None = None
        self.button = QToolButton()
        self.button.setObjectName("assistantButton")
        self.button.setAccessibleName(self.tr("Assistant of this chat"))
        self.button.setToolTip(self.tr("The assistant of this chat: its instructions, model and tools (Ctrl+Shift+A "
                                       "to change)"))
        self.button.setAutoRaise(True)
        self.button.clicked.connect(self.open_switcher)
        self.header = QWidget()
        self.header.setObjectName("assistantHeader")
        row = QHBoxLayout(self.header)
        row.setContentsMargins(8, 4, 8, 0)
        row.addWidget(self.button)
        row.addStretch(1)
        window.chat.layout().insertWidget(0, self.header)
        self.suggestions = self._suggestion_strip()
        column = window.chat.empty.content.layout()
        column.insertWidget(column.count() - 1, self.suggestions)
        QShortcut(QKeySequence("Ctrl+Shift+A"), window, self.open_switcher)
        window.chat.input.textChanged.connect(self._maybe_slash)
        window.inspector.when_built("assistants", self._connect_panel)
        window.inspector.currentChanged.connect(lambda _i: self.panel_visible() and self.refresh())
        self._show(None)

    # ------------------------------------------------------------------ plumbing
    @property
    def picker(self) -> "QuickPicker":
        """The quick picker (ui/quick_picker.py), made at its first use (it is not needed for the first paint)."""
        if self._picker is None:
            from hermes_desktop.ui.quick_picker import QuickPicker

            self._picker = QuickPicker(self.window)
            self._picker.sig_closed.connect(self._picker_closed)
            self._picker.sig_chosen.connect(lambda choice: spawn(self._guarded(self._chosen(choice))))
        return self._picker

    @property
    def store(self) -> Any:
        runtime = self.controller.runtime
        return runtime.assistants.store if runtime is not None and runtime.assistants is not None else None

    @property
    def language(self) -> str:
        from hermes_desktop.ui.i18n import effective_language

        runtime = self.controller.runtime
        return effective_language(runtime.settings.language if runtime is not None else "system")

    @property
    def panel(self) -> "AssistantPanel":
        return self.window.inspector.assistants

    def panel_visible(self) -> bool:
        return "assistants" in self.window.inspector._built and self.panel.isVisible()

    def _connect_panel(self, panel: Any) -> None:
        panel.sig_action.connect(lambda action, key: spawn(self._guarded(self.act(action, key))))
        panel.sig_new.connect(lambda: spawn(self.edit(None)))
        panel.sig_import.connect(lambda: spawn(self.import_assistants()))
        panel.sig_undo.connect(lambda: spawn(self.undo_delete()))
        panel.sig_prompts.connect(lambda: spawn(self.prompt_library()))

    async def _guarded(self, work: Any) -> None:
        """Run a user's action; a store that cannot save (full disk, read-only history) or an assistant deleted
        meanwhile is said in the error bar, never an unhandled exception."""
        from hermes_desktop.core.assistants.store import AssistantNotFound
        from hermes_desktop.core.storage.errors import StorageError

        try:
            await work
        except (StorageError, AssistantNotFound) as exc:
            self.window.errors.show_message(self.tr("The assistant change was not saved: {0}").format(exc))

    def _tell(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 6000)

    def _tools_words(self, a: "Assistant") -> str:
        if a.tools is None:
            return self.tr("all enabled tools")
        names = [*a.tools, *(f"skill:{s}" for s in a.skills or ()), *(f"mcp:{m}" for m in a.mcp_servers or ())]
        return ", ".join(names) if names else self.tr("no tools")

    # ------------------------------------------------------------------ the open chat
    def engine_ready(self) -> None:
        spawn(self.show_session(self.window.current_session))
        self.refresh()

    def show_default(self) -> None:
        """A new chat: Hermes until an assistant is chosen for it."""
        self._show(None)

    async def show_session(self, session_id: str | None) -> None:
        store = self.store
        if store is None:
            return
        if session_id is None:
            from hermes_desktop.core.assistants.model import HERMES

            self._show(HERMES)
            return
        found = await in_thread(store.session_assistant, session_id)
        if session_id == self.window.current_session:
            self._show(found.assistant)

    def _suggestion_strip(self) -> QWidget:
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QGridLayout, QVBoxLayout

        strip = QWidget()
        strip.setObjectName("assistantSuggestions")
        column = QVBoxLayout(strip)  # the label on its own line: the welcome's column is narrow (480 px)
        column.setContentsMargins(0, 8, 0, 0)
        label = QLabel(self.tr("Or start with:"))
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        column.addWidget(label)
        grid = QGridLayout()  # two a row: the names of four fit the narrow column in both languages
        column.addLayout(grid)
        self.suggestion_buttons: list[QPushButton] = []
        for n, key in enumerate(SUGGESTED):
            button = QPushButton()
            button.setObjectName(f"suggestedAssistant{n}")
            button.setFlat(True)
            button.clicked.connect(lambda _checked=False, k=key: spawn(self._guarded(self.use(k))))
            grid.addWidget(button, n // 2, n % 2)
            self.suggestion_buttons.append(button)
        more = QPushButton(self.tr("More…"))
        more.setObjectName("moreAssistantsButton")
        more.setFlat(True)
        more.setToolTip(self.tr("Every assistant, with search (Ctrl+Shift+A)"))
        more.clicked.connect(self.open_switcher)
        grid.addWidget(more, (len(SUGGESTED) + 1) // 2, 0, 1, 2)
        return strip

    def _show_suggestions(self, visible: bool) -> None:
        from hermes_desktop.core.assistants import gallery

        language = self.language
        for key, button in zip(SUGGESTED, self.suggestion_buttons):
            found = gallery.find(key)
            button.setText(f"{found.emoji} {found.shown_name(language)}" if found else key)
        self.suggestions.setVisible(visible and self.store is not None)

    def _show(self, assistant: "Assistant | None") -> None:
        from hermes_desktop.core.assistants.model import HERMES

        self.current = assistant or HERMES
        a = self.current
        language = self.language
        self.button.setText(f"{a.emoji} {a.shown_name(language)}  ▾".strip())
        self._show_suggestions(a.id == HERMES.id)
        if a.id == HERMES.id:
            self.window.chat.empty.show_assistant(None)
        else:
            self.window.chat.empty.show_assistant(f"{a.emoji} {a.shown_name(language)}".strip(),
                                                  a.shown_description(language), a.shown_starters(language))
        if "assistants" in self.window.inspector._built:
            self.panel.set_current(a.id)
        knowledge = getattr(self.window, "knowledge", None)
        if knowledge is not None:  # the assistant's knowledge bases show as used in the picker and the tab
            knowledge.refresh()

    async def use(self, assistant_id: str) -> None:
        store = self.store
        if store is None:
            return
        session_id = self.window._ensure_session()
        assistant = await in_thread(store.get, assistant_id)
        await in_thread(store.set_session_assistant, session_id, assistant.id)
        self._show(assistant)
        self._tell(self.tr("This chat's next message goes to {0}.").format(assistant.shown_name(self.language)))
        self.controller.sig_sessions_changed.emit()
        self.window.chat.input.setFocus()

    # ------------------------------------------------------------------ pickers
    async def _choices(self, *, prompts: bool, skills: bool) -> list[Choice]:
        store = self.store
        if store is None:
            return []
        language = self.language
        assistants, saved = await in_thread(lambda: (store.all(), store.prompts() if prompts else []))
        choices = []
        for p in saved:
            choices.append(_choice("prompt", p.id or p.name, p.name, p.description or p.body, self.tr("Prompt")))
        for a in assistants:
            other = a.name if a.shown_name(language) != a.name else a.shown_name("zh_CN")
            choices.append(_choice("assistant", a.id, f"{a.emoji} {a.shown_name(language)}".strip(),
                                  a.shown_description(language), self.tr("Assistant"), other))
        runtime = self.controller.runtime
        if skills and runtime is not None:
            for skill in runtime.skills.skills:
                choices.append(_choice("skill", skill.name, f"/{skill.name}", skill.description, self.tr("Skill")))
        return choices

    def _below(self, widget: QWidget, *, above: bool = False) -> QPoint:
        point = widget.mapToGlobal(QPoint(0, 0))
        return QPoint(point.x(), point.y() - self.picker.height() - 4) if above else \
            QPoint(point.x(), point.y() + widget.height() + 2)

    def open_switcher(self) -> None:
        spawn(self._open("switch", prompts=False, skills=False, at=self._below(self.button),
                         placeholder=self.tr("Switch this chat's assistant…")))

    def new_session_with_assistant(self) -> None:
        """File › New session with assistant… (Ctrl+Shift+N)."""
        self.window.new_session()
        spawn(self._open("new", prompts=False, skills=False, at=self._below(self.button),
                         placeholder=self.tr("Assistant for the new chat…")))

    async def _open(self, purpose: str, *, prompts: bool, skills: bool, at: QPoint, placeholder: str) -> None:
        choices = await self._choices(prompts=prompts, skills=skills)
        if not choices:
            return
        self._picking = purpose
        self.picker.open_with(choices, at=at, placeholder=placeholder)

    def _maybe_slash(self) -> None:
        box = self.window.chat.input
        if box.toPlainText() == "/" and not self.picker.isVisible() and self.store is not None:
            spawn(self._open("slash", prompts=True, skills=True, at=self._below(box, above=True),
                             placeholder=self.tr("Prompts, assistants and skills…")))

    def _picker_closed(self, chose: bool) -> None:
        if not chose:
            self.window.chat.input.setFocus()  # Esc: back to the box, the `/` kept to type on

    async def _chosen(self, choice: Choice) -> None:
        box = self.window.chat.input
        slash = self._picking == "slash"
        if choice.kind == "assistant":
            if slash and box.toPlainText() == "/":
                box.clear()
            await self.use(choice.key)
        elif choice.kind == "skill":
            box.setPlainText(f"/{choice.key} ")
            box.moveCursor(box.textCursor().MoveOperation.End)
            box.setFocus()
        elif choice.kind == "prompt":
            await self._use_prompt(choice.key)

    async def _use_prompt(self, key: str) -> None:
        store = self.store
        prompt = await in_thread(store.prompt, key)
        text = prompt.body
        if prompt.variables:
            from hermes_desktop.ui.dialogs.prompt_fill import PromptFillDialog

            dialog = self.fill_dialog = PromptFillDialog(prompt, self.window)
            if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
                self.window.chat.input.setFocus()
                return
            text = dialog.text()
        box = self.window.chat.input
        box.setPlainText(text)
        box.moveCursor(box.textCursor().MoveOperation.End)
        box.setFocus()

    # ------------------------------------------------------------------ the tab
    def refresh(self) -> None:
        if self.store is not None and "assistants" in self.window.inspector._built:
            spawn(self._refresh())

    async def _refresh(self) -> None:
        from hermes_desktop.ui.assistant_panel import AssistantRow

        store = self.store
        assistants = await in_thread(store.all)
        language = self.language
        rows = [AssistantRow(a.id, a.shown_name(language), a.emoji, a.shown_description(language),
                             self._tools_words(a), a.origin,
                             a.name if a.shown_name(language) != a.name else a.shown_name("zh_CN"))
                for a in assistants]
        self.panel.show_assistants(rows, self.current.id if self.current is not None else None)

    async def act(self, action: str, assistant_id: str) -> None:
        store = self.store
        if store is None:
            return
        if action == "use":
            await self.use(assistant_id)
        elif action == "edit":
            await self.edit(await in_thread(store.get, assistant_id))
        elif action == "duplicate":
            original = await in_thread(store.get, assistant_id)
            name = await in_thread(store.free_name, self.tr("{0} (copy)").format(
                original.shown_name(self.language)))
            copy = await in_thread(store.save, replace(original, id="", name=name, origin="user",
                                                               translations={}))
            self.refresh()
            self.panel.select(copy.id)
        elif action == "delete":
            assistant = await in_thread(store.get, assistant_id)
            await in_thread(store.delete, assistant_id)
            self._deleted = assistant_id
            self.panel.offer_undo(self.tr("Deleted “{0}”.").format(assistant.name))
            if self.current is not None and self.current.id == assistant_id:
                await self.show_session(self.window.current_session)
            self.refresh()
        elif action == "export":
            await self.export(await in_thread(store.get, assistant_id))

    async def undo_delete(self) -> None:
        if self._deleted is None or self.store is None:
            return
        deleted, self._deleted = self._deleted, None
        try:
            await in_thread(self.store.restore, deleted)
        except Exception as exc:  # a name taken again meanwhile: say so, keep it deleted
            self.window.errors.show_message(str(exc))
        await self.show_session(self.window.current_session)
        self.refresh()

    async def edit(self, assistant: "Assistant | None") -> None:
        from hermes_desktop.core.assistants.store import NameTaken
        from hermes_desktop.ui.dialogs.assistant_editor import AssistantEditor

        runtime = self.controller.runtime
        if runtime is None or self.store is None:
            return
        from hermes_desktop.ui.words import risk_name

        # Not listed: the tools no list decides (memory follows "memory on"; read_more and search_knowledge are
        # offered by what the session has: core/assistants/allow_list.py). The risk in the window's language, the
        # badge's words (只读 / 写入 / 危险); the tool's name is data.
        tools = [(s.name, f"{s.name} — {risk_name(s.risk.value)}") for s in runtime.registry.specs()
                 if s.source == "builtin" and s.name not in ("remember", "recall", "forget", "read_more",
                                                             "search_knowledge")]
        skills = [s.name for s in runtime.skills.skills]
        servers = sorted(runtime.mcp.supervisors) if hasattr(runtime.mcp, "supervisors") else []
        profiles = [(p.id, p.name) for p in runtime.settings.profiles]
        if assistant is not None and assistant.builtin:  # a gallery assistant: edited as the user's own copy
            assistant = replace(assistant, id="", name=assistant.shown_name(self.language), origin="user",
                                description=assistant.shown_description(self.language),
                                starters=assistant.shown_starters(self.language), translations={})
        dialog = self.editor = AssistantEditor(assistant, tools=tools, skills=skills, servers=servers,
                                               profiles=profiles, parent=self.window)
        while await run_dialog(dialog) == QDialog.DialogCode.Accepted and dialog.result_assistant is not None:
            try:
                saved = await in_thread(self.store.save, dialog.result_assistant)
            except NameTaken:
                dialog.show_problem(self.tr("Another assistant already has this name."), "assistant.name")
                continue
            self.refresh()
            if self.current is not None and self.current.id == saved.id:
                self._show(saved)
            self._tell(self.tr("Saved “{0}”.").format(saved.name))
            break

    async def export(self, assistant: "Assistant") -> None:
        from pathlib import Path

        from hermes_desktop.core.assistants.imports import export_json

        dialog = QFileDialog(self.window, self.tr("Export assistant"), str(Path.home() / f"{assistant.name}.json"),
                             self.tr("JSON files (*.json)"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return
        path = Path(dialog.selectedFiles()[0])
        try:
            await in_thread(path.write_text, export_json([assistant]) + "\n", "utf-8")
        except OSError as exc:
            self.window.errors.show_message(self.tr("The assistant was not exported: {0}").format(exc.strerror or exc))
            return
        self._tell(self.tr("Exported to {0}.").format(str(path)))

    async def import_assistants(self) -> None:
        from hermes_desktop.ui.dialogs.assistant_import import AssistantImportDialog

        runtime = self.controller.runtime
        if runtime is None or self.store is None:
            return
        dialog = self.import_dialog = AssistantImportDialog(lambda: runtime.settings.fetch_allowed_private_hosts,
                                                            self.window)
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted or dialog.plan is None:
            return
        try:
            saved = await in_thread(dialog.plan.apply, self.store, grant_tools=dialog.grant.isChecked())
        except Exception as exc:  # a full disk: nothing of the file was saved (one transaction)
            self.window.errors.show_message(self.tr("The assistants were not imported: {0}").format(exc))
            return
        self.refresh()
        self._tell(self.tr("Imported {0} assistant(s).").format(len(saved)))

    async def prompt_library(self) -> None:
        from hermes_desktop.ui.dialogs.prompt_library import PromptLibraryDialog

        store = self.store
        if store is None:
            return

        async def save(name: str, body: str, description: str, prompt_id: str) -> Any:
            return await in_thread(store.save_prompt, name, body, description, prompt_id=prompt_id)

        async def delete(prompt_id: str) -> None:
            await in_thread(store.delete_prompt, prompt_id)

        async def reload() -> Any:
            return await in_thread(store.prompts)

        dialog = self.library_dialog = PromptLibraryDialog(await reload(), save=save, delete=delete, reload=reload,
                                                           parent=self.window)
        await run_dialog(dialog)

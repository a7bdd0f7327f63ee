"""The main window: sidebar | chat | inspector, the menus, shortcuts, status bar and saved layout."""

from __future__ import annotations

import base64
import json
import logging
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.ui import design
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.mcp_actions import McpActions
from hermes_desktop.ui.memory_actions import MemoryActions
from hermes_desktop.ui.assistant_actions import AssistantActions
from hermes_desktop.ui.model_picker import ModelPicker
from hermes_desktop.ui.chat.pane import ChatPane
from hermes_desktop.ui.inspector import Inspector
from hermes_desktop.ui.sidebar import SessionSidebar
from hermes_desktop.ui.tasks import spawn

if TYPE_CHECKING:
    from hermes_desktop.core import events as ev
    from hermes_desktop.ui.controller import AppController, Page

log = logging.getLogger(__name__)


def shortcuts() -> list[tuple[str, str]]:
    """Help > Keyboard shortcuts: (keys, action), each a literal for lupdate; key names stay as written."""
    return [
        ("Ctrl+N", QCoreApplication.translate("MainWindow", "New session")),
        ("Ctrl+Shift+N", QCoreApplication.translate("MainWindow", "New session with an assistant (search, Enter)")),
        ("Ctrl+Shift+A", QCoreApplication.translate("MainWindow", "Change this chat's assistant")),
        ("/", QCoreApplication.translate("MainWindow", "In an empty message box: saved prompts, assistants, skills")),
        ("Ctrl+K / Ctrl+F", QCoreApplication.translate("MainWindow", "Search all sessions")),
        ("Ctrl+L", QCoreApplication.translate("MainWindow", "Focus the message box")),
        ("Enter / Shift+Enter", QCoreApplication.translate("MainWindow", "Send / new line")),
        ("Esc", QCoreApplication.translate("MainWindow", "Stop the reply (or cancel editing)")),
        ("Ctrl+Shift+C", QCoreApplication.translate("MainWindow", "Copy the last reply")),
        ("Ctrl+,", QCoreApplication.translate("MainWindow", "Settings")),
        ("Ctrl+Shift+M", QCoreApplication.translate("MainWindow", "Choose the model for this session")),
        ("Ctrl+Shift+U", QCoreApplication.translate("MainWindow", "Usage and cost: tokens and spend per day, model and session")),
        ("Ctrl+Q", QCoreApplication.translate("MainWindow", "Quit")),
        ("F2", QCoreApplication.translate("MainWindow", "Rename the selected session")),
        (QCoreApplication.translate("MainWindow", "Menu key / Shift+F10 in the session list"),
         QCoreApplication.translate("MainWindow", "The session's menu (rename, pin, fork, export, delete)")),
        (QCoreApplication.translate("MainWindow", "Delete in the session list"),
         QCoreApplication.translate("MainWindow", "Delete the selected session (Undo brings it back)")),
        (QCoreApplication.translate("MainWindow", "Menu key / Shift+F10"),
         QCoreApplication.translate("MainWindow", "Actions for the selected message (copy, edit, fork, regenerate, tool details, "
                                         "allow or deny)")),
        (QCoreApplication.translate("MainWindow", "Up / Down in the conversation"), QCoreApplication.translate("MainWindow", "Select a message")),
        (QCoreApplication.translate("MainWindow", "F4 in the Tools list"),
         QCoreApplication.translate("MainWindow", "Change the selected tool's approval rule")),
        (QCoreApplication.translate("MainWindow", "F2 / Del / Enter / Ctrl+P / Ctrl+H in the Memory list"),
         QCoreApplication.translate("MainWindow", "Edit, delete, go to the source, pin or unpin, history of the selected memory")),
        (QCoreApplication.translate("MainWindow", "Double-click a message"), QCoreApplication.translate("MainWindow", "Select and copy its text")),

    ]


class ErrorBar(QWidget):
    """A dismissible strip at the top of the window for problems that are not part of a turn."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("errorBar")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)  # a plain QWidget paints no stylesheet background
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QPushButton(QCoreApplication.translate("ErrorBar", "Dismiss"))
        close.clicked.connect(self.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(design.M, design.S, design.M, design.S)
        row.addWidget(self.label, 1)
        row.addWidget(close)
        self.hide()

    def show_message(self, text: str) -> None:
        previous = self.label.text()
        if self.isVisible() and text in previous.split("\n"):  # the same sentence from a second path: once is enough
            return
        self.label.setText(text if not self.isVisible() or not previous else f"{previous}\n{text}")
        theme = themes.current()
        self.setStyleSheet(f"#errorBar {{ background: {theme.error_bg}; border-bottom: 1px solid {theme.error_border}; }}")
        self.show()


class SetupBar(QWidget):
    """Shown while no model is set up: the app still works for reading old sessions."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("setupBanner")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.label = QLabel(QCoreApplication.translate("SetupBar", "No model is set up yet. You can read your sessions; "
                                                       "set up a provider to chat."))
        self.label.setWordWrap(True)
        self.button = QPushButton(QCoreApplication.translate("SetupBar", "Set up a model…"))
        self.button.setObjectName("setupNowButton")
        row = QHBoxLayout(self)
        row.setContentsMargins(design.M, design.S, design.M, design.S)
        row.addWidget(self.label, 1)
        row.addWidget(self.button)
        self.hide()


class MainWindow(QMainWindow):
    """Built in two steps for start-up time (ui/launch.py): `__init__` makes what the first paint shows;
    `finish_start()`, run after that paint and before the engine starts, makes the approval dialog's and the
    MCP servers' askers, whose modules (dialogs, the MCP client features) the first paint does not need."""

    def __init__(self, controller: AppController, theme_manager: themes.ThemeManager, state_file: Path) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Hermes Desktop")
        self.controller = controller
        self.theme_manager = theme_manager
        self.state_file = state_file
        self.current_session: str | None = None
        self._unsaved_sends: dict[str, str] = {}  # session -> text sent whose user message is not stored yet
        self.skills_offered: set[int] = set()  # paths already offered as "Save as skill…" (ui/learning_actions.py)
        self.skill_offer: Any = None
        self._returned_text: set[str] = set()  # sessions whose last send failed before saving: text is in the box
        self._loading_page = False
        self._restored_session: str | None = None
        self._open_ticket = 0  # see _supersede_opens

        self.sidebar = SessionSidebar()
        self.chat = ChatPane()
        self.inspector = Inspector(lazy=True)  # its other tabs are built in finish_start (or when shown)
        self.errors = ErrorBar()
        self.mcp = McpActions(self)
        self.setup_bar = SetupBar()
        self.setup_bar.button.clicked.connect(lambda: spawn(self.run_setup(first_run=False)))
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(self.chat)
        self.splitter.addWidget(self.inspector)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([250, 700, 390])  # the Tools tab fits its columns at 1340 px (ui/keyboard.py)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.errors)
        column.addWidget(self.setup_bar)
        column.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self._build_status_bar()
        self.statusBar().insertPermanentWidget(3, self.mcp.session_button)  # after the model picker: MCP servers here
        self.memory = MemoryActions(self)  # the Memory tab, "Remembered: …" rows, the incognito switch
        from hermes_desktop.ui.knowledge_actions import KnowledgeActions

        self.knowledge = KnowledgeActions(self)  # the Knowledge tab: bases, sync, which ones this session uses
        self.statusBar().insertPermanentWidget(2, self.memory.toggle)
        from hermes_desktop.ui.sync_actions import SyncActions

        self.sync = SyncActions(self)  # Settings › Backup & sync and the status bar's sync label
        self.statusBar().insertPermanentWidget(0, self.sync.label)
        from hermes_desktop.ui.usage_actions import UsageActions

        self.usage = UsageActions(self)  # View › Usage…, Settings › Usage and the status bar's budget warning
        self.statusBar().insertPermanentWidget(0, self.usage.label)
        self.chat.layout().insertWidget(self.chat.layout().indexOf(self.chat.editing), self.memory.strip)
        self.assistants = AssistantActions(self)  # the Assistants tab, the chat's assistant button, `/` (issue 23)
        self._build_menus()
        self._connect()
        self.chat.setEnabled(False)
        self.chat.input.setPlaceholderText(self.tr("Loading…"))
        self.resize(1340, 840)
        self._restore_state()
        from hermes_desktop.ui.screen_fit import InspectorYield, fit_to_screen

        fit_to_screen(self)  # a 1366×768 laptop, or a layout saved on a bigger screen (issue 24)
        self.inspector_yield = InspectorYield(self, self.splitter, self.inspector, self.inspector_toggle)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(80)
        self._refresh_timer.timeout.connect(lambda: spawn(self.refresh_sessions()))
        self._finished = False

    def finish_start(self) -> None:
        """The parts the first paint does not show (see the class docstring); once, before controller.start()."""
        if self._finished:
            return
        self._finished = True
        self.inspector.build_pages()
        from hermes_desktop.ui.approver import GuiApprover
        from hermes_desktop.ui.dialogs.mcp_elicitation import GuiElicitor
        from hermes_desktop.ui.dialogs.mcp_input import WindowInputAsker
        from hermes_desktop.ui.dialogs.mcp_sampling import GuiSampler

        self.approver = GuiApprover(self, workspace=lambda: self.controller.runtime.workspace if self.controller.runtime
                                    else None, session_title=self._session_title)
        self.controller.set_approver(self.approver)
        self.input_asker = self.controller.mcp_input_asker = WindowInputAsker(self)  # mcp.json ${input:…}, asked once
        self.elicitor, self.sampler = GuiElicitor(self), GuiSampler(self)  # MCP servers' questions
        self.controller.set_mcp_askers(self.elicitor, self.sampler)
        from hermes_desktop.ui.icons import set_action_icons  # theme-coloured icons (ui/icons.py)

        set_action_icons(self, self._menu_icons)

    # ------------------------------------------------------------------ building
    def _build_status_bar(self) -> None:
        bar = QStatusBar()
        bar.setObjectName("statusBar")
        self.setStatusBar(bar)
        # The session's model; a button that opens the model picker (ui/model_picker.py).
        self.model_picker = ModelPicker(self.controller, lambda: self.current_session, self._ensure_session, self)
        self.model_picker.sig_problem.connect(self.errors.show_message)
        self.model_picker.sig_chosen.connect(lambda text: self.statusBar().showMessage(text, 6000))
        self.usage_label = QLabel("")
        self.usage_label.setObjectName("usageLabel")
        self.usage_label.setToolTip(self.tr("Tokens this session has used so far: every request's input and output "
                                            "added up (not the size of the context)"))
        self.context_meter = QProgressBar()
        self.context_meter.setObjectName("contextMeter")
        self.context_meter.setAccessibleName(self.tr("Context budget used"))
        self.context_meter.setMaximumWidth(160)
        self.context_meter.setTextVisible(True)
        self._context_not_known()
        self.mode_switch = QComboBox()
        self.mode_switch.setObjectName("approvalModeSwitch")
        self.mode_switch.setAccessibleName(self.tr("Approval mode"))
        self.mode_switch.setToolTip(self.tr("When Hermes asks before using a tool"))
        for value, label in (("ask_risky", self.tr("Ask before changes")), ("always_ask", self.tr("Always ask")),
                             ("trusted", self.tr("Trusted")), ("chat_only", self.tr("Chat only"))):
            self.mode_switch.addItem(label, value)
        self.mode_switch.currentIndexChanged.connect(self._mode_switched)
        self.dry_run = QCheckBox(self.tr("Dry run"))
        self.dry_run.setObjectName("dryRunToggle")
        self.dry_run.setToolTip(self.tr("Write and delete tools report what they would do, and do nothing"))
        self.dry_run.toggled.connect(self._dry_run_toggled)
        bar.addPermanentWidget(self.mode_switch)
        bar.addPermanentWidget(self.dry_run)
        bar.addPermanentWidget(self.model_picker)
        bar.addPermanentWidget(self.usage_label)
        bar.addPermanentWidget(self.context_meter)

    def _context_not_known(self) -> None:
        """The meter before this session's first request in this run: a dash, not "0%" beside its token count."""
        self.context_meter.setValue(0)
        self.context_meter.setFormat(self.tr("context –"))
        self.context_meter.setToolTip(self.tr("Context budget used by the last request: shown once this session "
                                              "sends one"))

    def _build_menus(self) -> None:
        menu = self.menuBar()
        file = menu.addMenu(self.tr("&File"))
        self.new_action = file.addAction(self.tr("New session"), QKeySequence("Ctrl+N"), self.new_session)
        file.addAction(self.tr("New session with assistant…"), QKeySequence("Ctrl+Shift+N"),
                       self.assistants.new_session_with_assistant)
        export_md = file.addAction(self.tr("Export session as Markdown…"), lambda: self._export_current("md"))
        file.addAction(self.tr("Export session as JSON…"), lambda: self._export_current("json"))
        file.addAction(self.tr("Export session as Word…"), lambda: self._export_current("docx"))
        file.addAction(self.tr("Export session to an Obsidian vault…"), lambda: self._export_current("obsidian"))
        file.addSeparator()
        file.addAction(self.tr("Quit"), QKeySequence.StandardKey.Quit, self.close)
        edit = menu.addMenu(self.tr("&Edit"))
        copy_last = edit.addAction(self.tr("Copy last reply"), QKeySequence("Ctrl+Shift+C"), self.copy_last_reply)
        edit.addAction(self.tr("Focus message box"), QKeySequence("Ctrl+L"), self.chat.input.setFocus)
        search = edit.addAction(self.tr("Search sessions"), self.focus_search)
        search.setShortcuts([QKeySequence("Ctrl+K"), QKeySequence("Ctrl+F")])
        self.settings_action = edit.addAction(self.tr("Settings…"), QKeySequence("Ctrl+,"), self.open_settings)
        self.model_action = edit.addAction(self.tr("Choose model…"), QKeySequence("Ctrl+Shift+M"),
                                           self.model_picker.open_popup)
        self._menu_icons = {self.new_action: "new-session", export_md: "export", copy_last: "copy", search: "search",
                            self.settings_action: "settings"}  # drawn in finish_start: a closed menu shows none
        view = menu.addMenu(self.tr("&View"))
        theme_menu = view.addMenu(self.tr("Theme"))
        group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        for key, label in (("system", self.tr("Follow system")), ("light", self.tr("Light")), ("dark", self.tr("Dark"))):
            action = theme_menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(key == self.theme_manager.preference)
            action.triggered.connect(lambda _checked=False, k=key: self.set_theme(k))
            group.addAction(action)
            self.theme_actions[key] = action
        self.usage_action = view.addAction(self.tr("Usage and cost…"), QKeySequence("Ctrl+Shift+U"),
                                           self.usage.open_view)
        toggle = self.inspector_toggle = view.addAction(self.tr("Show inspector"))
        toggle.setCheckable(True)
        toggle.setChecked(True)
        toggle.toggled.connect(self.inspector.setVisible)
        help_menu = menu.addMenu(self.tr("&Help"))
        help_menu.addAction(self.tr("Keyboard shortcuts"), lambda: spawn(self.show_shortcuts()))
        stop = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        stop.setContext(Qt.ShortcutContext.WindowShortcut)
        stop.activated.connect(self.escape)

    def _connect(self) -> None:
        c = self.controller
        c.sig_store_ready.connect(lambda: spawn(self._on_store_ready()))
        c.sig_ready.connect(self._on_ready)
        c.sig_problem.connect(self.errors.show_message)
        self.chat.input.textChanged.connect(c.prefetch_model_sdk)  # the model SDK loads as the user types (issue 28)
        c.sig_sessions_changed.connect(lambda: self._refresh_timer.start())
        c.sig_session_event.connect(self._on_event)
        c.sig_busy_changed.connect(self._on_busy)
        c.sig_open_session.connect(lambda sid, pos: spawn(self.open_session(sid, pos)))
        c.sig_settings_changed.connect(self._update_model_label)
        c.sig_settings_changed.connect(self._sync_approval_controls)
        c.sig_settings_changed.connect(self._sync_rules)
        c.sig_settings_changed.connect(self._sync_thinking_display)
        s = self.sidebar
        s.sig_open.connect(lambda sid, pos: spawn(self.open_session(sid, pos)))
        s.sig_open_hit.connect(lambda sid, message, pos: self._open_hit(sid, message, pos))
        s.sig_new.connect(self.new_session)
        s.sig_search.connect(lambda text: spawn(self._search(text)))
        s.sig_rename.connect(lambda sid, title: spawn(c.rename(sid, title)))
        s.sig_pin.connect(lambda sid, pinned: spawn(c.set_pinned(sid, pinned)))
        s.sig_fork.connect(lambda sid: spawn(c.fork(sid)))
        s.sig_delete.connect(lambda sid: spawn(self.delete_session(sid)))
        s.sig_export.connect(lambda sid, fmt: spawn(self.export_session(sid, fmt)))
        p = self.chat
        p.sig_send.connect(self.send)
        p.sig_stop.connect(self.stop)
        p.sig_resend_edited.connect(lambda mid, text: spawn(c.edit_and_resend(self.current_session or "", mid, text)))
        p.sig_message_action.connect(self._message_action)
        p.sig_banner_action.connect(self._banner_action)
        p.sig_approval.connect(self._answer_approval)
        p.image_refusal = lambda attachments: c.image_refusal(self.current_session, attachments)
        p.sig_copy_to_workspace.connect(lambda attachment: spawn(self._copy_to_workspace(attachment)))
        p.view.sig_need_earlier.connect(lambda: spawn(self._load_more(earlier=True)))
        p.view.sig_need_later.connect(lambda: spawn(self._load_more(earlier=False)))
        i = self.inspector
        i.sig_tool_toggled.connect(c.set_tool_enabled)
        i.sig_rule_changed.connect(c.set_rule)
        i.sig_skill_action.connect(self._skill_action)
        c.sig_skills_changed.connect(self._skills_changed)
        c.sig_mcp_changed.connect(self.mcp.refresh)
        i.when_built("mcp", lambda page: page.sig_action.connect(self.mcp.act))
        i.sig_show_in_chat.connect(self._show_in_chat)
        c.sig_memories_changed.connect(self.memory.refresh)
        p.sig_memory_action.connect(self.memory.chat_action)
        p.sig_citation.connect(self.knowledge.show_citation)
        s.sig_incognito.connect(lambda sid, on: spawn(self.memory.set_incognito(sid, on)))
        s.incognito_of = self.memory.is_incognito
        self.theme_manager.sig_theme_changed.connect(self._theme_changed)

    def _answer_approval(self, call_id: str, decision: str) -> None:
        """An inline Allow / Deny on a tool card."""
        from hermes_desktop.core.tools.approval import Decision

        self.approver.answer(call_id, Decision(decision))

    # ------------------------------------------------------------------ engine ready
    def _on_ready(self) -> None:
        runtime = self.controller.runtime
        assert runtime is not None
        self.chat.view.delegate.attachments_dir = getattr(runtime.store, "attachments_dir", None)
        self.chat.setEnabled(True)
        self.chat.set_busy(False)
        self._sync_thinking_display()
        self.chat.input.show_default_placeholder()
        read_only = getattr(runtime.store, "read_only_reason", None)
        if read_only:  # the reason is in the error bar too (runtime.problems)
            from hermes_desktop.ui.words import read_only_text

            self.chat.block_sending(read_only_text(runtime.store))
        # One message's attachments must fit the model's window too (the default profile's; a picked model of
        # the session may differ, and the engine's own context check still applies then).
        self.chat.context_window = lambda: (runtime.profile.context_window if runtime.profile else None)
        self.show_tools()
        self.show_skills()
        self.memory.refresh()
        self.memory.engine_ready()
        self.knowledge.refresh()
        self.assistants.engine_ready()
        self._watch_skill_folders()
        self.mcp.watch_config()
        self._sync_approval_controls()
        self._update_model_label()
        # A broad workspace (HERMES_WORKSPACE or saved): nothing is sent in it until the user has answered.
        release = self.controller.hold_turns() if self.controller.broad_workspace()[1] else None
        spawn(self._after_ready(release))

    async def _on_store_ready(self) -> None:
        import asyncio

        await self.refresh_sessions()
        if self._restored_session and await asyncio.to_thread(self.controller.store.get_session, self._restored_session) \
                and self.current_session is None:  # not if the user has already started or opened another one
            await self.open_session(self._restored_session, None)

    async def _after_ready(self, release_turns: Callable[[], None] | None = None) -> None:
        if release_turns is not None:
            try:
                await self._confirm_start_workspace()
            finally:
                release_turns()
        self.chat.input.setFocus()
        if self.controller.needs_setup:
            await self.run_setup(first_run=True)

    async def _confirm_start_workspace(self) -> None:
        """Ask before using a broad workspace (`/`, home, a system folder) from HERMES_WORKSPACE or the saved
        settings; declined, HERMES_WORKSPACE is ignored for this run, or the saved folder gives way to the
        default one (never asked about: it is the app's own folder)."""
        from hermes_desktop.ui.dialogs.workspace import confirm_broad_workspace

        source, reason = self.controller.broad_workspace()
        while reason is not None and source != "default" and not await confirm_broad_workspace(self, reason):
            self.controller.decline_workspace(source)
            source, reason = self.controller.broad_workspace()

    async def run_setup(self, *, first_run: bool) -> bool:
        """The provider dialog: the first-run one, or editing the active provider. True when saved."""
        from PySide6.QtWidgets import QDialog
        from hermes_desktop.ui.async_dialog import run_dialog
        from hermes_desktop.core.secrets import SecretStoreError
        from hermes_desktop.ui import words
        from hermes_desktop.ui.dialogs.setup import SetupDialog

        runtime = self.controller.runtime
        assert runtime is not None
        profile = runtime.settings.active_profile
        stored = None
        if profile is not None:
            try:
                stored = await self.controller.stored_key(profile.id)
            except SecretStoreError as exc:
                from hermes_desktop.ui.startup_words import secret_error_text

                self.errors.show_message(secret_error_text(exc))
        dialog = SetupDialog(self, profile=profile, key_stored=bool(stored), keyring_secure=runtime.secrets_report.secure,
                             keyring_reason=words.keyring_reason(getattr(runtime.secrets_report, "code", ""),
                                                                 runtime.secrets_report.reason),
                             taken_ids={p.id for p in runtime.settings.profiles}, first_run=first_run,
                             prefill=runtime.profile if profile is None else None)
        self.setup_dialog = dialog  # for tests and automation
        # At once, inside Save's click: a message sent before this coroutine resumes waits for the new provider.
        dialog.accepted.connect(self.controller.expect_provider_change)
        accepted = await run_dialog(dialog) == QDialog.DialogCode.Accepted
        if accepted:
            try:
                await self.controller.save_provider(dialog.profile(), dialog.entered_key() or None)
            except SecretStoreError as exc:
                from hermes_desktop.ui.startup_words import secret_error_text

                self.errors.show_message(self.tr("The key could not be saved: {0}").format(secret_error_text(exc)))
                accepted = False
        self.setup_bar.setVisible(self.controller.needs_setup)
        if accepted:
            self.statusBar().showMessage(self.tr("Connected to {0}. Ready to chat.").format(dialog.profile().name), 6000)
            self.chat.input.setFocus()
        return accepted

    def _sync_thinking_display(self) -> None:
        """Settings > General "Thinking": how replies' reasoning shows (ui/chat/items.py)."""
        from hermes_desktop.ui.chat.items import set_thinking_display

        runtime = self.controller.runtime
        if runtime is not None and set_thinking_display(runtime.settings.thinking_display.value):
            self.chat.view.refresh_layouts()

    def _sync_approval_controls(self) -> None:
        runtime = self.controller.runtime
        if runtime is None:
            return
        for widget, apply in ((self.mode_switch, lambda: self.mode_switch.setCurrentIndex(
                max(0, self.mode_switch.findData(runtime.settings.approval_mode.value)))),
                              (self.dry_run, lambda: self.dry_run.setChecked(runtime.settings.dry_run))):
            widget.blockSignals(True)
            apply()
            widget.blockSignals(False)

    def show_tools(self) -> None:
        """The Tools tab, rebuilt from the registry: after start-up, and when skills or MCP servers change it."""
        runtime = self.controller.runtime
        if runtime is not None:
            self.inspector.show_tools(runtime.registry.specs(), set(runtime.settings.disabled_tools),
                                      self.controller.rules)

    def open_path(self, path: Path) -> None:
        """Open a file or folder in the system's application for it; say where it is when there is none."""
        from PySide6.QtGui import QDesktopServices
        from PySide6.QtCore import QUrl

        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
            self.errors.show_message(self.tr("No application could open it. It is at: {0}").format(path))

    # ------------------------------------------------------------------ skills
    def show_skills(self) -> None:
        if self.controller.runtime is not None:
            rows, rejected = self.controller.skill_rows(self.current_session)
            self.inspector.show_skills(rows, rejected)

    def _skills_changed(self) -> None:
        runtime = self.controller.runtime
        if runtime is None:
            return
        self.show_skills()
        self.show_tools()
        self._watch_skill_folders()

    def _skill_action(self, action: str, name: str) -> None:
        import uuid

        runtime = self.controller.runtime
        if runtime is None:
            return
        if action == "reload":
            spawn(self.controller.reload_skills())
        elif action == "open_folder":
            runtime.paths.user_skills_dir.mkdir(parents=True, exist_ok=True)
            self.open_path(runtime.paths.user_skills_dir)
        elif action == "trust":
            spawn(self._confirm_trust(name))
        elif action == "install_url":  # ui/skill_install_actions.py
            from hermes_desktop.ui.skill_install_actions import install_from_url

            spawn(install_from_url(self))
        elif action in ("save_as_skill", "save_turn_as_skill", "learning", "collections"):  # ui/learning_actions.py
            from hermes_desktop.ui import learning_actions

            spawn(learning_actions.save_as_skill(self, self.current_session) if action == "save_as_skill"
                  else learning_actions.save_turn_as_skill(self, self.current_session, int(name))
                  if action == "save_turn_as_skill"
                  else learning_actions.show_learning(self) if action == "learning"
                  else learning_actions.browse_collections(self))
        elif action == "toggle":
            if self.current_session is None:
                self.current_session = uuid.uuid4().hex
            spawn(self.controller.toggle_skill(self.current_session, name))

    async def _confirm_trust(self, name: str) -> None:
        from PySide6.QtWidgets import QMessageBox
        from hermes_desktop.ui.async_dialog import Confirmation
        import asyncio

        runtime = self.controller.runtime
        skill = runtime.skills.get(name) if runtime else None
        if skill is None:
            return
        box = Confirmation(self, QMessageBox.Icon.Warning, self.tr("Trust this skill's code?"),
                           self.tr("The skill “{0}” contains code ({1}) that will run on this computer with your "
                                   "permissions. Trust it only if you trust where it came from. Any later change to "
                                   "its files asks again.\n\nFolder: {2}").format(name, skill.code_files, skill.folder),
                           self.tr("Trust and load"))
        box.setObjectName("trustSkillDialog")
        self.trust_dialog = box  # for tests and automation
        from hermes_desktop.core.skills.trust import content_hash

        try:  # what the user is asked about: a file changed while the question is open is not trusted
            digest: str | None = await asyncio.to_thread(content_hash, skill.folder)
        except OSError:
            digest = None  # unreadable now: what is there on "Trust" is recorded (an unreadable file is not trusted)
        if await box.confirmed() and not await self.controller.trust_skill(name, digest):
            self.statusBar().showMessage(self.tr("Not trusted: the files of skill “{0}” changed while you were asked. "
                                                 "Look at them again and trust it again.").format(name), 10000)

    def _watch_skill_folders(self) -> None:
        """Reload when skill folders change (a skill copied in, edited or removed)."""
        from hermes_desktop.ui.watcher import SettledWatcher

        runtime = self.controller.runtime
        if runtime is None:
            return
        if not hasattr(self, "_skill_watcher"):
            self._skill_watcher = SettledWatcher(self, lambda: spawn(self.controller.reload_skills()))
        paths = []
        for root, _origin in runtime.skill_roots():
            if root.is_dir():
                paths.append(str(root))
                paths += [str(p) for p in root.iterdir() if p.is_dir()]
        self._skill_watcher.watch(paths)

    def _sync_rules(self) -> None:
        self.inspector.update_rules(self.controller.rules)

    def _mode_switched(self, _index: int) -> None:
        if self.controller.agent is not None:
            self.controller.set_approval_mode(self.mode_switch.currentData())

    def _dry_run_toggled(self, enabled: bool) -> None:
        if self.controller.agent is not None:
            self.controller.set_dry_run(enabled)

    def _session_title(self, session_id: str) -> str:
        if session_id == self.current_session:
            return ""
        for row in range(self.sidebar.list.count()):
            item = self.sidebar.list.item(row)
            if item.data(Qt.ItemDataRole.UserRole + 1) == session_id:
                return item.text()
        return session_id

    def _update_model_label(self) -> None:
        self.model_picker.refresh()

    def _ensure_session(self) -> str:
        """The current session's id; a new chat gets one now (a model picked there is saved with it)."""
        import uuid

        if self.current_session is None:
            self._supersede_opens()  # a session still loading (the one reopened at start) is not shown over this
            self.current_session = uuid.uuid4().hex
            self.sidebar.set_current(self.current_session)
        return self.current_session

    # ------------------------------------------------------------------ sessions
    async def refresh_sessions(self) -> None:
        if not self.controller.ready:
            return
        sessions = await self.controller.list_sessions()
        self.sidebar.show_sessions(sessions, self.current_session)
        info = next((s for s in sessions if s.id == self.current_session), None)
        if info is not None:
            self.usage_label.setText(self.tr("{0:,} tokens").format(info.prompt_tokens + info.completion_tokens)
                                     if info.prompt_tokens + info.completion_tokens else "")
            self.setWindowTitle(f"{info.title or self.tr('New conversation')} — Hermes Desktop")

    async def _search(self, text: str) -> None:
        if not text:
            await self.refresh_sessions()
            return
        if self.controller.ready:
            self.sidebar.show_results(await self.controller.search(text))

    def _supersede_opens(self) -> int:
        """A new ticket: a session still loading (the one reopened at start, a click before this one) is not shown
        when it arrives, so it never pulls the window away from what the user went to next."""
        self._open_ticket += 1
        return self._open_ticket

    def new_session(self) -> None:
        self._supersede_opens()
        self.current_session = None
        self.chat.cancel_editing()
        self.chat.model.reset([])
        self.chat.set_busy(False)
        self.sidebar.set_current(None)
        self.inspector.show_activity(None)
        self.model_picker.show_session(None)
        self.mcp.show_session(None)
        self.memory.show_session(None)
        self.knowledge.show_session(None)
        self.assistants.show_default()
        self.usage_label.setText("")
        self._context_not_known()
        self.setWindowTitle("Hermes Desktop")
        self.chat.input.setFocus()

    async def open_session(self, session_id: str, position: int | None) -> None:
        if not self.controller.ready:
            return
        ticket = self._supersede_opens()
        page = await self.controller.load_page(session_id, around=position)
        if ticket != self._open_ticket:
            return  # superseded while loading: another session was opened or a new conversation started
        if session_id != self.current_session:
            from hermes_desktop.ui.learning_actions import withdraw_offer

            withdraw_offer(self)  # the offer was for the conversation being left
        self.current_session = session_id
        self.chat.cancel_editing()
        self._show_page(page)
        self.sidebar.set_current(session_id)
        self.chat.set_busy(self.controller.is_busy(session_id))
        self.model_picker.show_session(session_id)
        self.mcp.show_session(session_id)
        self.memory.show_session(session_id)
        self.knowledge.show_session(session_id)
        spawn(self.assistants.show_session(session_id))
        self.inspector.show_activity(await self.controller.activity_for(session_id))
        self.show_skills()
        self._context_not_known()
        if position is not None and page.first_position <= position < page.end_position:
            target = page.messages[position - page.first_position]
            row = self.chat.model.find_message(target.id)
            QTimer.singleShot(0, lambda: self.chat.view.scroll_to_row(row))
        await self.refresh_sessions()

    def _open_hit(self, session_id: str, message_id: int, position: int | None) -> None:
        from hermes_desktop.ui.search_navigation import open_search_hit  # with the first hit, not at start-up

        spawn(open_search_hit(self, session_id, message_id, position))

    def _page_items(self, page: Page) -> list[Any]:
        """A page's rows: its messages, tool cards as they were shown live (their stored records), its summary."""
        from hermes_desktop.ui.chat.items import items_from_messages, summary_card
        from hermes_desktop.ui.chat.model import error_banner

        failure = (page.failure.message_id, error_banner(page.failure.error)) if page.failure is not None else None
        return items_from_messages(page.messages, self.controller.tool_info, page.versions, summary_card(page),
                                   page.tool_records, failure)

    def _show_page(self, page: Page) -> None:
        items = self._page_items(page)
        self.chat.model.reset(items, first=page.first_position, end=page.end_position, total=page.total)
        for event in page.live_events:
            self.chat.model.apply(event)
        self.chat.model.flush_stream()
        if not page.has_later:  # this run's "Remembered: …" rows of the session (ui/memory_actions.py)
            self.memory.show_rows(page.session_id)

    async def _load_more(self, *, earlier: bool) -> None:
        model = self.chat.model
        if self._loading_page or self.current_session is None:
            return
        self._loading_page = True
        session_id = self.current_session
        try:
            if earlier and model.has_earlier:
                page = await self.controller.load_page(session_id, start=max(0, model.first_loaded - 60),
                                                       end=model.first_loaded)
                if session_id == self.current_session:
                    model.prepend(self._page_items(page), first=page.first_position, end=page.end_position)
            elif not earlier and model.has_later:
                page = await self.controller.load_page(session_id, start=model.end_loaded, end=model.end_loaded + 60)
                if session_id == self.current_session:
                    model.append_page(self._page_items(page), first=page.first_position, end=page.end_position)
                    model.total = page.total
                    for event in page.live_events:
                        model.apply(event)
                    if not model.has_later:
                        self.memory.show_rows(session_id)
        finally:
            self._loading_page = False
        if session_id == self.current_session:
            QTimer.singleShot(0, self.chat.view.check_edges)  # still at an edge: keep loading

    async def delete_session(self, session_id: str) -> None:
        import asyncio

        info = await asyncio.to_thread(self.controller.store.get_session, session_id)
        await self.controller.delete(session_id)
        if session_id == self.current_session:
            self.new_session()
        title = info.title if info and info.title else self.tr("New conversation")
        self.sidebar.offer_undo(self.tr("Deleted “{0}”").format(title))
        previous = getattr(self, "_undo_slot", None)
        if previous is not None:  # only the newest delete is undone (disconnect() with nothing connected warns)
            self.sidebar.undo_button.clicked.disconnect(previous)
        self._undo_slot = lambda: spawn(self._undo_delete(session_id))
        self.sidebar.undo_button.clicked.connect(self._undo_slot)

    async def _undo_delete(self, session_id: str) -> None:
        self.sidebar.undo_bar.hide()
        await self.controller.restore(session_id)
        await self.open_session(session_id, None)

    async def export_session(self, session_id: str, fmt: str) -> None:
        from hermes_desktop.ui.export_actions import ExportActions

        await ExportActions(self).export(session_id, fmt)  # md, json, docx, obsidian (ui/export_actions.py)

    def _export_current(self, fmt: str) -> None:
        if self.current_session:
            spawn(self.export_session(self.current_session, fmt))

    # ------------------------------------------------------------------ turns
    def send(self, text: str) -> None:
        if not self.controller.ready or self.controller.agent is None:
            return
        if self.current_session is not None and self.controller.is_busy(self.current_session):
            return
        if self.current_session is None:
            self.chat.model.reset([])
            self._ensure_session()  # a new id; a session still loading is not shown over this one
        self.chat.view.follow_bottom()
        self._unsaved_sends[self.current_session] = text
        self._returned_text.discard(self.current_session)
        self.controller.send(self.current_session, text, list(self.chat.attachments))
        self.chat.set_busy(True)
        self.sidebar.set_current(self.current_session)

    def stop(self) -> None:
        if self.current_session:
            self.controller.stop(self.current_session)

    def escape(self) -> None:
        if self.chat.cancel_editing():
            return
        self.stop()

    def _on_event(self, session_id: str, event: ev.Event) -> None:
        from hermes_desktop.core import events as ev

        if isinstance(event, (ev.TurnStarted, ev.TurnFinished)):
            self._track_unsaved_send(session_id, event)
            self._offer_skill(session_id, event)
        if self.memory.on_event(session_id, event):
            return
        if session_id != self.current_session:
            return
        self.chat.model.apply(event)
        # A /skill-name message is applied before the first request (ContextPrepared round 1); the model can
        # activate one with a tool call.
        if (isinstance(event, ev.ContextPrepared) and event.round_trip == 1) or (
                isinstance(event, ev.ToolCallFinished) and event.name == "activate_skill"):
            self.show_skills()
        if isinstance(event, ev.ContextPrepared) and event.budget_tokens:
            self.context_meter.setFormat(self.tr("context %p%"))
            self.context_meter.setValue(min(100, round(100 * event.estimated_tokens / event.budget_tokens)))
            self.context_meter.setToolTip(self.tr("{0:,} of {1:,} tokens; {2} older messages left out").format(
                event.estimated_tokens, event.budget_tokens, event.dropped_messages))
        if not isinstance(event, ev.TextDelta):
            self.inspector.show_activity(self.controller.activity.get(session_id))

    def _offer_skill(self, session_id: str, event: ev.Event) -> None:
        from hermes_desktop.core import events as ev
        from hermes_desktop.ui import learning_actions

        if isinstance(event, ev.TurnStarted):
            learning_actions.withdraw_offer(self)
        elif isinstance(event, ev.TurnFinished) and event.reason == ev.FinishReason.COMPLETED:
            spawn(learning_actions.offer_after_turn(self, session_id))

    def _track_unsaved_send(self, session_id: str, event: ev.Event) -> None:
        """A turn that ends before its user message was stored (TurnStarted), e.g. on a full disk, gives the
        text back to the message box, so nothing typed is lost; Retry then sends the box again."""
        from hermes_desktop.core import events as ev

        text = self._unsaved_sends.pop(session_id, None) if isinstance(event, ev.TurnFinished) else None
        if isinstance(event, ev.TurnStarted):
            self._unsaved_sends.pop(session_id, None)
            if session_id == self.current_session:
                self.chat.clear_attachments()  # stored with the message
        elif text is not None and session_id == self.current_session:
            if self.chat.input.toPlainText().strip() != text:
                self.chat.input.append_text(text)
            self._returned_text.add(session_id)

    async def _copy_to_workspace(self, attachment: Any) -> None:
        """Copy an attached file that was too large to send whole into the workspace (never over an existing file),
        and say so in the message box, so the agent reads it with its file tools, in pages."""
        import asyncio

        runtime = self.controller.runtime
        if runtime is None or attachment.source is None:
            return
        root = runtime.workspace.root
        target = root / attachment.name
        stem, suffix, number = target.stem, target.suffix, 2
        while target.exists():
            target = root / f"{stem} ({number}){suffix}"
            number += 1
        try:
            await asyncio.to_thread(shutil.copyfile, attachment.source, target)
        except OSError as exc:
            self.chat.show_attach_notice(self.tr("{0} could not be copied into the workspace: {1}").format(
                attachment.name, exc.strerror or exc))
            return
        self.chat.input.append_text(self.tr("(The whole file is in the workspace as {0}; read it in pages.)").format(
            target.name))
        self.chat.show_attach_notice(self.tr("Copied {0} into the workspace.").format(target.name))

    def _on_busy(self, session_id: str, busy: bool) -> None:
        if session_id == self.current_session:
            self.chat.set_busy(busy)

    def _message_action(self, action: str, item: Any, payload: Any = None) -> None:
        from hermes_desktop.ui.chat.items import MessageItem

        if self.current_session is None or not isinstance(item, MessageItem) or item.message_id is None:
            return
        if action == "version" and isinstance(payload, int):
            spawn(self.controller.show_version(self.current_session, payload))
            return
        if action == "save_as_skill" and isinstance(payload, int):  # the reply's menu: its turn, as Activity's menu
            from hermes_desktop.ui import learning_actions

            spawn(learning_actions.save_turn_as_skill(self, self.current_session, payload))
        elif action == "regenerate" and not self.controller.is_busy(self.current_session):
            spawn(self.controller.regenerate(self.current_session, item.message_id))
        elif action == "fork":
            spawn(self.controller.fork(self.current_session, item.message_id))

    def _banner_action(self, action: str) -> None:
        if self.current_session is None:
            return
        if action == "retry" and self.current_session in self._returned_text:
            self.chat.send_button.click()  # the message was never stored: send the box (maybe edited) again
        elif action == "retry" and not self.controller.is_busy(self.current_session):
            spawn(self.controller.retry(self.current_session))
        elif action == "open_provider_settings":
            spawn(self.run_setup(first_run=False))
        elif action == "new_session_with_summary":
            spawn(self._summarise(self.current_session))

    async def _summarise(self, session_id: str) -> None:
        self.statusBar().showMessage(self.tr("Writing a summary for the new session…"))
        try:
            await self.controller.new_session_with_summary(session_id)
            self.statusBar().clearMessage()
        except Exception as exc:  # a model failure here is shown, not raised into the loop
            self.statusBar().clearMessage()
            self.errors.show_message(self.tr("Could not write the summary: {0}").format(getattr(exc, "message", exc)))

    async def show_message(self, session_id: str, message_id: int | None) -> None:
        """Open a session at one of its messages and put the keyboard focus on it (the Memory tab's "Go to
        source"). A message no longer on the session's active branch (edited since) opens the session at its end."""
        import asyncio

        position = None
        if message_id is not None:
            path = await asyncio.to_thread(self.controller.store.messages, session_id)
            position = next((n for n, m in enumerate(path) if m.id == message_id), None)
        await self.open_session(session_id, position)
        row = self.chat.model.find_message(message_id) if message_id is not None else -1
        if row >= 0:
            view = self.chat.view
            view.setCurrentIndex(self.chat.model.index(row))
            view.setFocus(Qt.FocusReason.OtherFocusReason)
            QTimer.singleShot(0, lambda: view.scroll_to_row(row))

    def _show_in_chat(self, message_id: Any, call_id: Any) -> None:
        from hermes_desktop.ui.chat.items import ToolCardItem

        model = self.chat.model
        row = -1
        if call_id:
            row = next((r for r, item in enumerate(model.items())
                        if isinstance(item, ToolCardItem) and item.call_id == call_id), -1)
        if row < 0 and message_id is not None:
            row = model.find_message(int(message_id))
        if row >= 0:
            self.chat.view.scroll_to_row(row)

    def copy_last_reply(self) -> None:
        reply = self.chat.last_reply()
        if reply:
            QGuiApplication.clipboard().setText(reply)
            self.statusBar().showMessage(self.tr("Copied the last reply"), 3000)

    def focus_search(self) -> None:
        self.sidebar.search.setFocus()
        self.sidebar.search.selectAll()

    # ------------------------------------------------------------------ settings and theme
    def open_settings(self) -> None:
        opener = getattr(self, "settings_opener", None)
        if opener is not None:
            opener()
        elif self.controller.ready:
            spawn(self._show_settings())

    async def _show_settings(self) -> None:
        from hermes_desktop.ui.async_dialog import run_dialog
        from hermes_desktop.ui.dialogs.settings import SettingsDialog

        dialog = SettingsDialog(self.controller, self)
        self.settings_dialog = dialog  # for tests and automation
        await run_dialog(dialog)
        self.setup_bar.setVisible(self.controller.needs_setup)

    def set_theme(self, preference: str) -> None:
        self.theme_manager.set_preference(preference)
        if self.controller.ready:
            self.controller.set_theme(preference)

    def _theme_changed(self, theme: themes.Theme) -> None:
        self.chat.view.refresh_layouts()
        self.show_skills()  # the lists' colours are part of their HTML
        self.mcp.refresh()
        self.memory.refresh()
        self.memory.show_session(self.current_session)
        if self.errors.isVisible():
            self.errors.show_message("")

    async def show_shortcuts(self) -> None:
        from PySide6.QtWidgets import QAbstractItemView, QDialog, QDialogButtonBox, QHeaderView, QTableWidget, \
            QTableWidgetItem
        from hermes_desktop.ui.async_dialog import run_dialog

        dialog = QDialog(self)
        dialog.setObjectName("shortcutsDialog")
        dialog.setWindowTitle(self.tr("Keyboard shortcuts"))
        listed = shortcuts()
        table = QTableWidget(len(listed), 2)
        table.setObjectName("shortcutsTable")
        table.setHorizontalHeaderLabels([self.tr("Keys"), self.tr("Action")])
        table.verticalHeader().hide()
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for row, (keys, action) in enumerate(listed):
            table.setItem(row, 0, QTableWidgetItem(keys))
            table.setItem(row, 1, QTableWidgetItem(action))
        # Both columns wrap in the dialog's width: some "keys" are a sentence ("F2 / Del / … in the Memory list"),
        # and sizing the first column to its longest entry pushed the actions out of sight.
        table.setWordWrap(True)
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        table.setColumnWidth(0, 330)
        table.setTextElideMode(Qt.TextElideMode.ElideNone)  # wrapped whole, never cut with "…"
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(table)
        layout.addWidget(buttons)
        dialog.resize(780, 560)
        self.shortcuts_dialog = dialog  # for tests and automation
        await run_dialog(dialog)

    # ------------------------------------------------------------------ saved layout
    def _restore_state(self) -> None:
        from PySide6.QtCore import QByteArray

        try:
            state = json.loads(self.state_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(state, dict):
            return
        if isinstance(state.get("geometry"), str):
            try:
                self.restoreGeometry(QByteArray(base64.b64decode(state["geometry"])))
            except ValueError:  # not base64 (a hand-edited file): the default geometry
                pass
        from hermes_desktop.ui.window_layout import restored_sizes

        sizes = restored_sizes(state)  # an older version's 320 px inspector is widened for the Tools tab
        if sizes is not None:
            self.splitter.setSizes(sizes)
            shown = state.get("inspector_visible")
            if shown is False or (shown is None and sizes[2] == 0):  # hidden when saved: hidden, not 0 px wide
                self.inspector_toggle.setChecked(False)
        if isinstance(state.get("inspector_tab"), int) and 0 <= state["inspector_tab"] < self.inspector.count():
            self.inspector.setCurrentIndex(state["inspector_tab"])
        self._restored_session = state.get("session") if isinstance(state.get("session"), str) else None

    def save_state(self) -> None:
        state = {
            "geometry": base64.b64encode(bytes(self.saveGeometry().data())).decode("ascii"),
            "splitter": self.splitter.sizes(),
            "layout_version": 2,  # ui/window_layout.py: this version's sizes are restored as they are
            "inspector_tab": self.inspector.currentIndex(),
            "inspector_visible": self.inspector_yield.shown or self.inspector_yield.yielded,
            "session": self.current_session,
        }
        try:
            self.state_file.parent.mkdir(parents=True, exist_ok=True)
            self.state_file.write_text(json.dumps(state), encoding="utf-8")
        except OSError:
            log.exception("could not save the window layout")

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        self.knowledge.stop()  # a running sync stops after its current file
        super().closeEvent(event)

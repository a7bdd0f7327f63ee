"""What the MCP tab's buttons do: the server form, removing a server, its secrets and prompts, mcp.json and the
logs, and reloading when mcp.json is saved; and the status bar's MCP button, which servers are on for the open
conversation (ui/mcp_session_menu.py, core/mcp/session_servers.py). The main window only wires this up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QMessageBox

from hermes_desktop.ui.async_dialog import Confirmation, run_dialog
from hermes_desktop.ui.tasks import spawn
from hermes_desktop.ui.watcher import SettledWatcher

if TYPE_CHECKING:
    from hermes_desktop.ui.dialogs.mcp_prompt import McpPromptDialog
    from hermes_desktop.ui.dialogs.mcp_secret import McpSecretDialog
    from hermes_desktop.ui.dialogs.mcp_server import McpServerDialog
    from hermes_desktop.ui.main_window import MainWindow


class McpActions(QObject):
    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        # The open dialogs, for tests and automation.
        self.server_dialog: McpServerDialog | None = None
        self.prompt_dialog: McpPromptDialog | None = None
        self.secret_dialog: McpSecretDialog | None = None
        self.remove_dialog: Confirmation | None = None
        self._watcher: SettledWatcher | None = None
        self.open_url: Any = None  # the sign-in page's opener (None: the system browser); tests inject one
        self.sign_in_task: Any = None
        self.import_dialog: Any = None  # “Import servers…” (ui/dialogs/mcp_import.py)
        self.import_task: Any = None
        self._said_in_error_bar: str | None = None  # the last whole-file mcp.json problem shown in the error bar
        from hermes_desktop.ui.mcp_session_menu import McpSessionButton

        self.session_button = McpSessionButton(window)  # the window puts it in the status bar, beside the model
        self.session_button.sig_choice.connect(lambda choice: spawn(self.set_session_choice(choice)))
        self._choices: dict[str, tuple[str, ...] | None] = {}  # per session, as last read or saved
        self._shown_session: str | None = None

    def refresh(self) -> None:
        """Show the servers' states; their tools may have come or gone, so the Tools tab too."""
        runtime = self.controller.runtime
        if runtime is None:
            return
        panel = self.window.inspector.mcp
        panel.log_dir = runtime.paths.mcp_log_dir
        from hermes_desktop.core.logging_setup import REDACTION

        panel.known_secrets = REDACTION.known_secrets  # a server given a key may print it
        panel.show_servers(runtime.mcp.statuses(), list(runtime.mcp.problems), off=self._off_here())
        self.window.show_tools()
        self._show_button()
        from hermes_desktop.ui.startup_words import is_whole_file_mcp_problem, startup_problem_text

        # mcp.json unusable as a whole (no server started): the error bar says so too, once per problem.
        for problem in [p for p in runtime.mcp.problems if is_whole_file_mcp_problem(p)]:
            if problem != self._said_in_error_bar:
                self._said_in_error_bar = problem
                self.window.errors.show_message(startup_problem_text(problem))

    # ------------------------------------------------------------------ servers per conversation
    def show_session(self, session_id: str | None) -> None:
        """The button and the tab follow the open conversation (its choice read from the store once)."""
        self._shown_session = session_id
        self._show_choice()
        runtime = self.controller.runtime
        if session_id is not None and session_id not in self._choices and runtime is not None \
                and runtime.mcp.session_servers is not None:
            spawn(self._read_choice(session_id))

    async def _read_choice(self, session_id: str) -> None:
        from hermes_desktop.core.executors import run_store

        runtime = self.controller.runtime
        try:
            self._choices[session_id] = await run_store(runtime.mcp.session_servers.choice, session_id)
        except Exception as exc:  # noqa: BLE001 - an unreadable history: the default is shown, the reason said
            self.window.errors.show_message(self.tr("This conversation's MCP servers could not be read: {0}")
                                            .format(exc))
            return
        if session_id == self._shown_session:
            self._show_choice()

    def _show_choice(self) -> None:
        """The button and the tab's rows after the open conversation's choice changed (the Tools tab stays)."""
        runtime = self.controller.runtime
        if runtime is None:
            return
        if "mcp" in self.window.inspector._built:
            self.window.inspector.mcp.show_servers(runtime.mcp.statuses(), list(runtime.mcp.problems),
                                                   off=self._off_here())
        self._show_button()

    def choice(self, session_id: str | None) -> tuple[str, ...] | None:
        """The open conversation's servers as the window knows them (None: every server; a new chat: None)."""
        return self._choices.get(session_id) if session_id is not None else None

    async def set_session_choice(self, choice: tuple[str, ...] | None) -> None:
        """Save the open conversation's servers (a new chat gets its id now); the next request offers only theirs."""
        from hermes_desktop.core.executors import run_store

        runtime = self.controller.runtime
        if runtime is None or runtime.mcp.session_servers is None:
            return
        session_id = self._shown_session = self.window._ensure_session()
        before = self.choice(session_id)
        self._choices[session_id] = choice  # shown at once; put back if the save fails
        self._show_choice()
        try:
            await run_store(runtime.mcp.session_servers.set_choice, session_id, choice)
        except Exception as exc:  # noqa: BLE001 - a full disk or read-only history: nothing changed, said why
            self._choices[session_id] = before
            self._show_choice()
            self.window.errors.show_message(self.tr("The conversation's MCP servers were not saved: {0}").format(exc))
            return
        self.window.statusBar().showMessage(
            self.tr("Every MCP server is on in this conversation.") if choice is None else
            self.tr("No MCP server is on in this conversation.") if not choice else
            self.tr("MCP servers on in this conversation: {0}").format(", ".join(choice)), 5000)

    def _off_here(self) -> set[str]:
        runtime = self.controller.runtime
        choice = self.choice(self._shown_session)
        if runtime is None or choice is None:
            return set()
        return {name for name in runtime.mcp.supervisors if name not in choice}

    def _show_button(self) -> None:
        from hermes_desktop.ui.mcp_session_menu import ServerRow

        runtime = self.controller.runtime
        if runtime is None:
            return
        rows = [ServerRow(name, s.status.schema_tokens, not s.config.disabled)
                for name, s in runtime.mcp.supervisors.items()]
        self.session_button.show_state(rows, self.choice(self._shown_session))

    def act(self, action: str, name: str) -> None:
        runtime = self.controller.runtime
        if runtime is None:
            return
        if action == "restart" and name:
            self.controller.restart_mcp(name)
        elif action in ("add", "edit"):
            spawn(self.edit_server(name or None))
        elif action == "remove" and name:
            spawn(self.remove_server(name))
        elif action == "prompt" and name:
            spawn(self.use_prompt(name))
        elif action == "set_secret" and name:
            spawn(self.ask_secret(name))
        elif action == "sign_in" and name:
            if self.sign_in_task is not None and not self.sign_in_task.done():
                self.sign_in_task.cancel()  # one sign-in at a time: the newer press wins
            self.sign_in_task = spawn(self.sign_in(name))
        elif action == "sign_out" and name:
            spawn(self.sign_out(name))
        elif action == "import":
            from hermes_desktop.ui.dialogs.mcp_import import import_servers

            self.import_task = spawn(import_servers(self))
        elif action == "reload":
            spawn(self.controller.reload_mcp())
        elif action == "edit_config":
            self.window.open_path(self.controller.mcp_config_for_editing())
        elif action == "open_logs":
            runtime.paths.mcp_log_dir.mkdir(parents=True, exist_ok=True)
            self.window.open_path(runtime.paths.mcp_log_dir)

    async def edit_server(self, name: str | None) -> None:
        """The server form; saving writes mcp.json (everything else in it kept) and reloads the servers."""
        from hermes_desktop.core.mcp.config import MCPConfigError
        from hermes_desktop.ui.dialogs.mcp_server import McpServerDialog

        runtime = self.controller.runtime
        if runtime is None:
            return
        existing = runtime.mcp.supervisors[name].config if name and name in runtime.mcp.supervisors else None
        dialog = self.server_dialog = McpServerDialog(self.window, existing)
        while await run_dialog(dialog) == QDialog.DialogCode.Accepted:
            try:
                await self.controller.save_mcp_server(dialog.server_name(), dialog.entry(), name)
                return
            except MCPConfigError as exc:  # e.g. a name taken, or mcp.json broken meanwhile: keep what was typed
                dialog.problem.setText(str(exc))

    async def use_prompt(self, server: str) -> None:
        """A server's prompt template, filled by the server, into the message box (the user sends it)."""
        from hermes_desktop.ui.dialogs.mcp_prompt import McpPromptDialog

        runtime = self.controller.runtime
        prompts = self.window.inspector.mcp.prompts_of(server)
        if runtime is None or not prompts:
            return
        dialog = self.prompt_dialog = McpPromptDialog(self.window, server, prompts)
        chosen = dialog.prompt() if await run_dialog(dialog) == QDialog.DialogCode.Accepted else None
        if chosen is None:
            return
        try:
            text = await runtime.mcp.get_prompt(server, chosen.name, dialog.arguments())
        except Exception as exc:  # noqa: BLE001 - the server's reason, shown; nothing else changes
            self.window.errors.show_message(self.tr("The prompt could not be fetched: {0}").format(exc))
            return
        from hermes_desktop.core.memory.text import frame_mcp_prompt
        from hermes_desktop.ui.i18n import active_language

        # Framed as the server's words: the user sees where it starts and ends, and memory never takes it for theirs.
        self.window.chat.input.append_text(frame_mcp_prompt(server, chosen.name, text, active_language()))

    async def sign_in(self, server: str) -> None:
        """OAuth sign-in: the server's page in the browser, the answer on a loopback listener, tokens to the keyring
        (core/mcp/oauth.py); the server then restarts with them. Failures are shown with their reason."""
        from hermes_desktop.core.mcp.oauth import SignInError

        runtime = self.controller.runtime
        if runtime is None:
            return
        supervisor = runtime.mcp.supervisors.get(server)
        if supervisor is not None and supervisor.config.oauth.grant == "identity_assertion":  # no browser (SEP-990)
            self.window.statusBar().showMessage(self.tr("Signing in to “{0}” through your organization’s identity "
                                                        "provider…").format(server))
        else:
            self.window.statusBar().showMessage(self.tr("Sign in to “{0}” in your browser; Hermes waits for it to "
                                                        "come back.").format(server))
        async def open_in_browser(url: str) -> None:
            import asyncio
            import webbrowser

            if not await asyncio.to_thread(webbrowser.open, url):  # no browser: the address, to open by hand
                self.window.errors.show_message(self.tr("No browser could be opened. To sign in to “{0}”, open this "
                                                        "address in a browser on this computer: {1}").format(server, url))

        try:
            result = await runtime.mcp.sign_in(server, open_url=self.open_url or open_in_browser)
        except SignInError as exc:
            self.window.statusBar().clearMessage()
            self.window.errors.show_message(self.tr("Sign-in to “{0}” did not complete: {1}").format(server, exc))
            return
        if result.challenged:
            self.window.statusBar().showMessage(self.tr("Signed in to “{0}”.").format(server), 6000)
        else:
            self.window.statusBar().showMessage(self.tr("“{0}” did not ask for sign-in.").format(server), 6000)

    async def sign_out(self, server: str) -> None:
        from hermes_desktop.core.mcp.oauth import SignInError

        runtime = self.controller.runtime
        if runtime is None:
            return
        try:
            await runtime.mcp.sign_out(server)
        except SignInError as exc:
            self.window.errors.show_message(self.tr("Sign-out of “{0}” did not complete: {1}").format(server, exc))
            return
        self.window.statusBar().showMessage(self.tr("Signed out of “{0}”.").format(server), 6000)

    async def remove_server(self, name: str) -> None:
        from hermes_desktop.core.mcp.config import MCPConfigError

        box = self.remove_dialog = Confirmation(
            self.window, QMessageBox.Icon.Question, self.tr("Remove MCP server?"),
            self.tr("Remove “{0}” from mcp.json? Its tools go away; secrets stay in the keyring.").format(name),
            self.tr("Remove"), QMessageBox.ButtonRole.DestructiveRole)
        if await box.confirmed():
            try:
                await self.controller.remove_mcp_server(name)
            except MCPConfigError as exc:
                self.window.errors.show_message(str(exc))

    async def ask_secret(self, server: str) -> None:
        from hermes_desktop.core.secrets import SecretStoreError
        from hermes_desktop.ui import words
        from hermes_desktop.ui.dialogs.mcp_secret import McpSecretDialog

        runtime = self.controller.runtime
        names = self.window.inspector.mcp.secrets_needed(server)
        if runtime is None or not names:
            return
        dialog = self.secret_dialog = McpSecretDialog(self.window, server, names,
                                                      keyring_secure=runtime.secrets_report.secure,
                                                      keyring_reason=words.keyring_reason(
                                                          getattr(runtime.secrets_report, "code", ""),
                                                          runtime.secrets_report.reason))
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
            return
        try:
            await self.controller.set_mcp_secret(server, *dialog.entered())
        except SecretStoreError as exc:
            from hermes_desktop.ui.startup_words import secret_error_text

            self.window.errors.show_message(self.tr("The secret could not be saved: {0}").format(secret_error_text(exc)))

    def watch_config(self) -> None:
        """Reload MCP servers when mcp.json is saved. The folder is watched, not the file: editors that save by
        replacing the file would end a watch on the file itself. Other files there (settings.json) do not count."""
        runtime = self.controller.runtime
        if runtime is None or self._watcher is not None:
            return
        config = runtime.paths.mcp_config_file

        def signature() -> tuple[float, int] | None:
            try:
                stat = config.stat()
            except OSError:
                return None
            return stat.st_mtime, stat.st_size

        seen = signature()

        def settled() -> None:
            nonlocal seen
            now = signature()
            if now != seen:
                seen = now
                spawn(self.controller.reload_mcp())

        self._watcher = SettledWatcher(self, settled)
        self._watcher.watch([str(config.parent)])

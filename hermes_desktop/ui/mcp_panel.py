"""The inspector's MCP tab: each server from mcp.json with its state, reason and tools; restart, reload, edit; and
below the list, the selected server's log, live.

The log view shows the last lines of `mcp/<server>.log` (core/mcp/log_tail.py: controls removed, the app's secrets
redacted) and follows the file while the server writes: a 500 ms timer, running only while the tab is on screen,
compares the file's inode, size and time and reads the end again when they change. A timer rather than
QFileSystemWatcher because the log rotates (`<server>.log` is replaced at 1 MB), which ends a watch on the file, and
the stat is the same cost either way. The view stays at the bottom unless the user scrolled up to read.
A row whose server is not connected shows the last line its log got (a start that failed usually says why there),
and a server turned off for the open conversation says so (ui/mcp_session_menu.py)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from PySide6.QtCore import QTimer, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QListWidgetItem, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.panels import button, list_with_buttons
from hermes_desktop.ui.rich_list import HTML_ROLE, rich_list
from hermes_desktop.ui.words import mcp_detail

if TYPE_CHECKING:
    from hermes_desktop.core.mcp.status import PromptInfo, ServerState, ServerStatus

NAME_ROLE = Qt.ItemDataRole.UserRole + 1
MAX_TOOLS_LISTED = 8
LOG_POLL_MS = 500


def _state_colour(state: ServerState, theme: themes.Theme) -> str:
    from hermes_desktop.core.mcp.status import ServerState

    if state is ServerState.CONNECTED:
        return theme.risk_read
    if state is ServerState.FAILED:
        return theme.risk_destructive
    if state in (ServerState.STARTING, ServerState.RESTARTING, ServerState.NEEDS_SIGN_IN):
        return theme.risk_write
    return theme.muted


def _server_html(status: ServerStatus, state_words: str, tools_words: str, theme: themes.Theme,
                 sign_in_words: str = "", withheld_words: str = "", skipped_words: str = "", log_words: str = "",
                 off_words: str = "") -> str:
    from hermes_desktop.core.mcp.status import ServerState

    html = (f"<b>{escape(status.name)}</b>&nbsp;&nbsp;<span style='color:{_state_colour(status.state, theme)}'>"
            f"{escape(state_words)}</span>&nbsp;<span style='color:{theme.muted}'>· {escape(status.transport)}"
            f"</span><br><span style='color:{theme.muted}'>{escape(status.target)}</span>")
    if status.detail and status.state is not ServerState.CONNECTED:
        html += f"<br><span style='color:{_state_colour(status.state, theme)}'>⚠ {escape(mcp_detail(status))}</span>"
    if log_words:  # the server's own last words: data, in a fixed font
        html += f"<br><span style='color:{theme.muted}'>{escape(log_words)}</span>"
    if off_words:
        html += f"<br><span style='color:{theme.muted}'>⊘ {escape(off_words)}</span>"
    if sign_in_words:
        html += f"<br><span style='color:{theme.muted}'>{escape(sign_in_words)}</span>"
    if withheld_words:  # the circuit breaker (core/mcp/breaker.py)
        html += f"<br><span style='color:{theme.risk_destructive}'>⚠ {escape(withheld_words)}</span>"
    if skipped_words:  # tools whose sanitised names clashed: not offered to the model
        html += f"<br><span style='color:{theme.risk_write}'>⚠ {escape(skipped_words)}</span>"
    if status.tools:
        shown = ", ".join(status.tools[:MAX_TOOLS_LISTED]) + (" …" if len(status.tools) > MAX_TOOLS_LISTED else "")
        html += f"<br>{escape(tools_words)}<br><span style='color:{theme.muted}'>{escape(shown)}</span>"
    return html


class McpPanel(QWidget):
    sig_action = Signal(str, str)
    """(action, server name): edit, remove, restart, set_secret, prompt, sign_in, sign_out (a name); add, reload,
    edit_config, open_logs, import (no name)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._statuses: dict[str, ServerStatus] = {}
        self.servers = rich_list("mcpServerList", self.tr("MCP servers"))
        self.servers.itemSelectionChanged.connect(self._selection_changed)
        self.edit_button = button(self.tr("Edit…"), "editMcpServerButton", self._on_selected("edit"))
        self.remove_button = button(self.tr("Remove"), "removeMcpServerButton", self._on_selected("remove"))
        self.restart_button = button(self.tr("Restart"), "restartMcpButton", self._on_selected("restart"))
        self.secret_button = button(self.tr("Set secret…"), "setMcpSecretButton", self._on_selected("set_secret"),
                                    self.tr("Store a ${secret:NAME} value this server needs in the system keyring"))
        self.prompt_button = button(self.tr("Use a prompt…"), "useMcpPromptButton", self._on_selected("prompt"),
                                    self.tr("Fill one of this server's prompt templates into the message box"))
        self.sign_in_button = button(self.tr("Sign in…"), "signInMcpButton", self._on_selected("sign_in"),
                                     self.tr("Open this server's sign-in page in your browser; the tokens are kept in "
                                             "the system keyring"))
        self.sign_out_button = button(self.tr("Sign out"), "signOutMcpButton", self._on_selected("sign_out"),
                                      self.tr("Forget this server's sign-in (its tokens in the system keyring)"))
        self.log_dir: Path | None = None  # mcp/ in the log folder (the actions set it)
        self.known_secrets: Iterable[str] = ()  # redacted from what the log view shows (the actions set it)
        self.log_title = QLabel()
        self.log_title.setObjectName("mcpLogTitle")
        self.log_title.setTextFormat(Qt.TextFormat.PlainText)
        self.log_view = QPlainTextEdit()
        self.log_view.setObjectName("mcpLogView")
        self.log_view.setAccessibleName(self.tr("The selected server's log"))
        self.log_view.setReadOnly(True)
        self.log_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.log_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._log_shown: tuple[str, object] | None = None  # (server, file signature) of what the view holds
        self._log_timer = QTimer(self)
        self._log_timer.setInterval(LOG_POLL_MS)
        self._log_timer.timeout.connect(self.refresh_log)
        log_box = QWidget()
        log_layout = QVBoxLayout(log_box)
        log_layout.setContentsMargins(0, 4, 0, 0)
        log_layout.setSpacing(2)
        log_layout.addWidget(self.log_title)
        log_layout.addWidget(self.log_view, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setObjectName("mcpLogSplitter")
        split.addWidget(self.servers)
        split.addWidget(log_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        list_with_buttons(self, split, [
            [button(self.tr("Add…"), "addMcpServerButton", self._on_tab("add")), self.edit_button, self.remove_button],
            [self.restart_button, self.secret_button, self.prompt_button],
            [self.sign_in_button, self.sign_out_button,
             button(self.tr("Import servers…"), "importMcpServersButton", self._on_tab("import"),
                    self.tr("Bring servers over from Claude Desktop, Cursor, VS Code, LM Studio, Windsurf or a file"))],
            [button(self.tr("Reload mcp.json"), "reloadMcpButton", self._on_tab("reload")),
             button(self.tr("Edit mcp.json"), "editMcpConfigButton", self._on_tab("edit_config")),
             button(self.tr("Open logs"), "openMcpLogsButton", self._on_tab("open_logs"))],
        ])
        from hermes_desktop.ui.empty_state import EmptyState, only_placeholder, overlay_when_empty

        self.empty_state = overlay_when_empty(self.servers, lambda: EmptyState(
            "server", self.tr("No MCP servers yet"),
            self.tr("MCP servers give Hermes more tools: add one, or import them from another app."),
            [(self.tr("Add server…"), "emptyAddMcpServerButton", self._on_tab("add")),
             (self.tr("Import servers…"), "emptyImportMcpServersButton", self._on_tab("import"))],
            object_name="mcpEmptyState"), lambda: only_placeholder(self.servers))
        # Empty until the engine has read mcp.json: "No MCP servers yet" before it looked would be untrue.
        self._selection_changed()

    def _on_selected(self, action: str) -> Callable[[], None]:
        return lambda: self.sig_action.emit(action, self.selected() or "")

    def _on_tab(self, action: str) -> Callable[[], None]:
        return lambda: self.sig_action.emit(action, "")

    def show_servers(self, statuses: list[ServerStatus], problems: list[str], off: Iterable[str] = ()) -> None:
        """The rows; `off`: servers turned off for the open conversation (said on their rows)."""
        off = set(off)
        selected = self.selected()
        self.servers.clear()
        self._statuses = {status.name: status for status in statuses}
        theme = themes.current()
        if problems:  # the empty tab at start needs no problem texts (ui/launch.py: nothing before the paint)
            from hermes_desktop.ui.startup_words import startup_problem_text
        for problem in (startup_problem_text(p) for p in problems):  # mcp.json's codes, in the user's language
            item = QListWidgetItem(f"⚠ {problem}")
            item.setData(HTML_ROLE, f"<span style='color:{theme.risk_destructive}'>⚠ {escape(problem)}</span>")
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.servers.addItem(item)
        if statuses:  # the empty tab at start needs no MCP types
            from hermes_desktop.core.mcp.status import ServerState
        for status in statuses:
            words = self._state_words(status.state)
            tools = self.tr("1 tool") if len(status.tools) == 1 else self.tr("{0} tools").format(len(status.tools))
            if status.schema_tokens:
                tools += " · " + self.tr("~{0} tokens per request").format(f"{status.schema_tokens:,}")
            if status.prompts:
                tools += " · " + (self.tr("1 prompt") if len(status.prompts) == 1
                                  else self.tr("{0} prompts").format(len(status.prompts)))
            signed = self._sign_in_words(status)
            withheld = self._breaker_words(status)
            skipped = self._skipped_words(status)
            logged = self.tr("Last log line: {0}").format(status.log_line) \
                if getattr(status, "log_line", "") and status.state is not ServerState.CONNECTED else ""
            off_here = self.tr("Off in this conversation") if status.name in off else ""
            text = f"{status.name}  ·  {words}  ·  {status.target}" + \
                (f"\n⚠ {mcp_detail(status)}" if status.detail and status.state is not ServerState.CONNECTED else "") + \
                (f"\n{logged}" if logged else "") + (f"\n⊘ {off_here}" if off_here else "") + \
                (f"\n{signed}" if signed else "") + (f"\n⚠ {withheld}" if withheld else "") + \
                (f"\n⚠ {skipped}" if skipped else "") + (f"\n{tools}" if status.tools else "")
            item = QListWidgetItem(text)
            item.setData(NAME_ROLE, status.name)
            item.setData(HTML_ROLE, _server_html(status, words, tools, theme, signed, withheld, skipped, logged,
                                                 off_here))
            self.servers.addItem(item)
            if status.name == selected:
                item.setSelected(True)
        if not statuses and not problems:
            empty = QListWidgetItem(self.tr("No MCP servers. Press “Add…”, or “Edit mcp.json” to paste servers "
                                            "in the “mcpServers” format other clients use."))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.servers.addItem(empty)
        self._selection_changed()

    def _state_words(self, state: ServerState) -> str:
        from hermes_desktop.core.mcp.status import ServerState

        return {ServerState.STARTING: self.tr("starting"), ServerState.CONNECTED: self.tr("connected"),
                ServerState.RESTARTING: self.tr("restarting"), ServerState.FAILED: self.tr("failed"),
                ServerState.DISABLED: self.tr("disabled"), ServerState.STOPPED: self.tr("stopped"),
                ServerState.NEEDS_SIGN_IN: self.tr("needs sign-in")}[state]

    def _skipped_words(self, status: ServerStatus) -> str:
        """The tools not offered because their sanitised names clash with another tool's (the server's names are
        shown with their control characters as escapes)."""
        skipped = getattr(status, "skipped_tools", ())
        if not skipped:
            return ""
        from hermes_desktop.core.terminal_text import visible_controls

        names = ", ".join(self.tr("{0} (as {1})").format(visible_controls(remote), name) for remote, name in skipped)
        return self.tr("Not offered to the model, their names clash with another tool's once made safe: {0}").format(
            names)

    def _breaker_words(self, status: ServerStatus) -> str:
        info = status.breaker
        if info is None:
            return ""
        if info.on_trial:
            return self.tr("Tools offered again on trial after {0} failed calls in a row; the next call decides. "
                           "Last error: {1}").format(info.failures, info.reason)
        return self.tr("Tools withheld from the model after {0} failed calls in a row; one trial call from {1}, or "
                       "press Restart. Last error: {2}").format(info.failures, info.retry_at, info.reason)

    def _sign_in_words(self, status: ServerStatus) -> str:
        from hermes_desktop.core.mcp.status import ServerState

        if status.state is ServerState.NEEDS_SIGN_IN:
            return self.tr("Press “Sign in…” to open its sign-in page in your browser.")
        if status.sign_in == "signed_in":
            return self.tr("Signed in (tokens in the system keyring)")
        return ""

    def sign_in_state(self, name: str) -> str:
        status = self._statuses.get(name)
        return status.sign_in if status else ""

    def selected(self) -> str | None:
        items = self.servers.selectedItems()
        return items[0].data(NAME_ROLE) if items and items[0].data(NAME_ROLE) else None

    def prompts_of(self, name: str) -> tuple[PromptInfo, ...]:
        status = self._statuses.get(name)
        return status.prompts if status else ()

    def secrets_needed(self, name: str) -> tuple[str, ...]:
        status = self._statuses.get(name)
        return status.secrets if status else ()

    # ------------------------------------------------------------------ the log view
    def showEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802 - Qt's name
        super().showEvent(event)
        self.refresh_log()
        self._log_timer.start()

    def hideEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802 - Qt's name
        self._log_timer.stop()  # nothing is read while the tab is not on screen
        super().hideEvent(event)

    def log_path(self, name: str) -> Path | None:
        return self.log_dir / f"{name}.log" if self.log_dir is not None else None

    def refresh_log(self) -> None:
        """Show the end of the selected server's log if it changed since it was last shown."""
        from hermes_desktop.core.mcp.log_tail import signature, tail

        name = self.selected()
        status = self._statuses.get(name) if name else None
        path = self.log_path(name) if name else None
        if name is None or path is None:
            self._set_log(None, self.tr("Select a server to see its log."), "")
            return
        seen = signature(path)
        if self._log_shown == (name, seen):
            return
        if seen is None:
            remote = status is not None and status.transport != "stdio"
            self._set_log((name, seen), self.tr("Log of “{0}”").format(name),
                          self.tr("This server connects over the network: it has no log here.") if remote else
                          self.tr("Nothing logged yet."))
            return
        shown = tail(path, self.known_secrets)
        self._set_log((name, seen), self.tr("Log of “{0}” (last {1} lines)").format(name, shown.lines)
                      if shown.lines else self.tr("Log of “{0}”").format(name),
                      shown.text or self.tr("Nothing logged yet."))

    def _set_log(self, key: tuple[str, object] | None, title: str, text: str) -> None:
        self.log_title.setText(title)
        bar = self.log_view.verticalScrollBar()
        following = bar.value() >= bar.maximum() - 2 or self._log_shown is None or key is None \
            or self._log_shown[0] != key[0]
        kept = bar.value()
        self._log_shown = key
        if self.log_view.toPlainText() != text:
            self.log_view.setPlainText(text)
        bar.setValue(bar.maximum() if following else kept)  # at the bottom, unless the user scrolled up to read

    def _selection_changed(self) -> None:
        self.refresh_log()
        name = self.selected()
        for button in (self.restart_button, self.edit_button, self.remove_button):
            button.setEnabled(name is not None)
        self.secret_button.setEnabled(bool(name and self.secrets_needed(name)))
        self.prompt_button.setEnabled(bool(name and self.prompts_of(name)))
        self.sign_in_button.setEnabled(bool(name and self.sign_in_state(name)))
        self.sign_out_button.setEnabled(bool(name and self.sign_in_state(name) == "signed_in"))

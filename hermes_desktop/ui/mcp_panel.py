"""The inspector's MCP tab: each server from mcp.json with its state, reason and tools; restart, reload, edit."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from hermes_desktop.core.mcp.status import PromptInfo, ServerState, ServerStatus
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.rich_list import HTML_ROLE, rich_list

NAME_ROLE = Qt.ItemDataRole.UserRole + 1
MAX_TOOLS_LISTED = 8


def _state_colour(state: ServerState, theme: themes.Theme) -> str:
    if state is ServerState.CONNECTED:
        return theme.risk_read
    if state is ServerState.FAILED:
        return theme.risk_destructive
    if state in (ServerState.STARTING, ServerState.RESTARTING):
        return theme.risk_write
    return theme.muted


def _server_html(status: ServerStatus, state_words: str, tools_words: str, theme: themes.Theme) -> str:
    html = (f"<b>{escape(status.name)}</b>&nbsp;&nbsp;<span style='color:{_state_colour(status.state, theme)}'>"
            f"{escape(state_words)}</span>&nbsp;<span style='color:{theme.muted}'>· {escape(status.transport)}"
            f"</span><br><span style='color:{theme.muted}'>{escape(status.target)}</span>")
    if status.detail and status.state is not ServerState.CONNECTED:
        html += f"<br><span style='color:{_state_colour(status.state, theme)}'>⚠ {escape(status.detail)}</span>"
    if status.tools:
        shown = ", ".join(status.tools[:MAX_TOOLS_LISTED]) + (" …" if len(status.tools) > MAX_TOOLS_LISTED else "")
        html += f"<br>{escape(tools_words)}<br><span style='color:{theme.muted}'>{escape(shown)}</span>"
    return html


class McpPanel(QWidget):
    sig_action = Signal(str, str)
    """(action, server name): edit, remove, restart, set_secret, prompt (a name); add, reload, edit_config,
    open_logs (no name)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._statuses: dict[str, ServerStatus] = {}
        self.servers = rich_list("mcpServerList", self.tr("MCP servers"))
        self.servers.itemSelectionChanged.connect(self._selection_changed)
        self.restart_button = QPushButton(self.tr("Restart"))
        self.restart_button.setObjectName("restartMcpButton")
        self.restart_button.clicked.connect(lambda: self.sig_action.emit("restart", self.selected() or ""))
        self.secret_button = QPushButton(self.tr("Set secret…"))
        self.secret_button.setObjectName("setMcpSecretButton")
        self.secret_button.setToolTip(self.tr("Store a ${secret:NAME} value this server needs in the system keyring"))
        self.secret_button.clicked.connect(lambda: self.sig_action.emit("set_secret", self.selected() or ""))
        self.edit_button = QPushButton(self.tr("Edit…"))
        self.edit_button.setObjectName("editMcpServerButton")
        self.edit_button.clicked.connect(lambda: self.sig_action.emit("edit", self.selected() or ""))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.setObjectName("removeMcpServerButton")
        self.remove_button.clicked.connect(lambda: self.sig_action.emit("remove", self.selected() or ""))
        add_button = QPushButton(self.tr("Add…"))
        add_button.setObjectName("addMcpServerButton")
        add_button.clicked.connect(lambda: self.sig_action.emit("add", ""))
        self.prompt_button = QPushButton(self.tr("Use a prompt…"))
        self.prompt_button.setObjectName("useMcpPromptButton")
        self.prompt_button.setToolTip(self.tr("Fill one of this server's prompt templates into the message box"))
        self.prompt_button.clicked.connect(lambda: self.sig_action.emit("prompt", self.selected() or ""))
        buttons = [add_button, self.edit_button, self.remove_button, self.restart_button, self.secret_button,
                   self.prompt_button]
        for label, name, action in ((self.tr("Reload mcp.json"), "reloadMcpButton", "reload"),
                                    (self.tr("Edit mcp.json"), "editMcpConfigButton", "edit_config"),
                                    (self.tr("Open logs"), "openMcpLogsButton", "open_logs")):
            button = QPushButton(label)
            button.setObjectName(name)
            button.clicked.connect(lambda _checked=False, a=action: self.sig_action.emit(a, ""))
            buttons.append(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.servers, 1)
        for pair in (buttons[:3], buttons[3:6], buttons[6:]):
            row = QHBoxLayout()
            for button in pair:
                row.addWidget(button)
            layout.addLayout(row)
        self.show_servers([], [])

    def show_servers(self, statuses: list[ServerStatus], problems: list[str]) -> None:
        selected = self.selected()
        self.servers.clear()
        self._statuses = {status.name: status for status in statuses}
        theme = themes.current()
        for problem in problems:
            item = QListWidgetItem(f"⚠ {problem}")
            item.setData(HTML_ROLE, f"<span style='color:{theme.risk_destructive}'>⚠ {escape(problem)}</span>")
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.servers.addItem(item)
        for status in statuses:
            words = self._state_words(status.state)
            tools = self.tr("1 tool") if len(status.tools) == 1 else self.tr("{0} tools").format(len(status.tools))
            if status.schema_tokens:
                tools += " · " + self.tr("~{0} tokens per request").format(f"{status.schema_tokens:,}")
            if status.prompts:
                tools += " · " + (self.tr("1 prompt") if len(status.prompts) == 1
                                  else self.tr("{0} prompts").format(len(status.prompts)))
            text = f"{status.name}  ·  {words}  ·  {status.target}" + \
                (f"\n⚠ {status.detail}" if status.detail and status.state is not ServerState.CONNECTED else "") + \
                (f"\n{tools}" if status.tools else "")
            item = QListWidgetItem(text)
            item.setData(NAME_ROLE, status.name)
            item.setData(HTML_ROLE, _server_html(status, words, tools, theme))
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
        return {ServerState.STARTING: self.tr("starting"), ServerState.CONNECTED: self.tr("connected"),
                ServerState.RESTARTING: self.tr("restarting"), ServerState.FAILED: self.tr("failed"),
                ServerState.DISABLED: self.tr("disabled"), ServerState.STOPPED: self.tr("stopped")}[state]

    def selected(self) -> str | None:
        items = self.servers.selectedItems()
        return items[0].data(NAME_ROLE) if items and items[0].data(NAME_ROLE) else None

    def prompts_of(self, name: str) -> tuple[PromptInfo, ...]:
        status = self._statuses.get(name)
        return status.prompts if status else ()

    def secrets_needed(self, name: str) -> tuple[str, ...]:
        status = self._statuses.get(name)
        return status.secrets if status else ()

    def _selection_changed(self) -> None:
        name = self.selected()
        for button in (self.restart_button, self.edit_button, self.remove_button):
            button.setEnabled(name is not None)
        self.secret_button.setEnabled(bool(name and self.secrets_needed(name)))
        self.prompt_button.setEnabled(bool(name and self.prompts_of(name)))

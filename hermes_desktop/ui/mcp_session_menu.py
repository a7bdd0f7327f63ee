"""The status bar's MCP button (`mcpSessionButton`): which MCP servers are on for the open conversation.

Beside the model picker, because both are per-conversation choices that decide what each request carries. The
button says how many servers are on ("MCP 2/4", or "MCP: all" while the session follows mcp.json); its menu lists
every server with its tool schemas' cost per request, ticked when on, and two choices below: "Every server (also
ones added later)" (the default, NULL in the store) and "None". Ticking keeps the menu open, so several servers can
be switched in one visit. What the choice means (and why a server added later is off for a session with a list)
is in core/mcp/session_servers.py; this widget only shows it and reports clicks.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction, QMouseEvent
from PySide6.QtWidgets import QMenu, QToolButton, QWidget


@dataclass(frozen=True, slots=True)
class ServerRow:
    name: str
    tokens: int  # what its tool schemas add to every request (estimated; 0 while not connected)
    runs: bool  # False: disabled in mcp.json (off everywhere, shown greyed)


class _StayOpenMenu(QMenu):
    """A menu whose checkable items toggle without closing it (several servers in one visit)."""

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        action = self.actionAt(event.position().toPoint())
        if action is not None and action.isCheckable() and action.isEnabled() and action.property("stays_open"):
            action.trigger()
            return
        super().mouseReleaseEvent(event)


class McpSessionButton(QToolButton):
    sig_choice = Signal(object)
    """The user changed the open conversation's servers: a tuple of the names now on, or None for every server
    (also ones added later)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mcpSessionButton")
        self.setAccessibleName(self.tr("MCP servers in this conversation"))
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setAutoRaise(True)
        self.menu_ = _StayOpenMenu(self)
        self.menu_.setObjectName("mcpSessionMenu")
        self.setMenu(self.menu_)
        self._rows: list[ServerRow] = []
        self._choice: tuple[str, ...] | None = None
        self.server_actions: dict[str, QAction] = {}
        self.every_action: QAction | None = None
        self.none_action: QAction | None = None
        self._built: list[ServerRow] | None = None  # the rows the menu was built for
        self.hide()  # until mcp.json lists a server

    def show_state(self, rows: list[ServerRow], choice: tuple[str, ...] | None) -> None:
        """Show the servers and the open conversation's choice (None: every enabled server)."""
        self._rows, self._choice = rows, choice
        self.setVisible(bool(rows))
        running = [row for row in rows if row.runs]
        on = [row for row in running if choice is None or row.name in choice]
        if choice is None:
            self.setText(self.tr("MCP: all"))
        else:
            self.setText(self.tr("MCP {0}/{1}").format(len(on), len(running)))
        cost = sum(row.tokens for row in on)
        saved = sum(row.tokens for row in running) - cost
        tip = self.tr("MCP servers on in this conversation: {0} of {1}. Their tools add about {2} tokens to every "
                      "request.").format(len(on), len(running), f"{cost:,}")
        if saved:
            tip += " " + self.tr("Turning the others off saves about {0} tokens per request.").format(f"{saved:,}")
        self.setToolTip(tip + " " + self.tr("Click to choose."))
        if rows != self._built:
            self._build_menu()  # servers came, went or changed: the menu anew (never while one of its items fires)
        self._sync_checks()

    def _sync_checks(self) -> None:
        """Tick the items as the choice says, in place (the menu may be open: its item's click led here)."""
        for row in self._rows:
            action = self.server_actions.get(row.name)
            if action is not None:
                action.blockSignals(True)
                action.setChecked(row.runs and (self._choice is None or row.name in self._choice))
                action.blockSignals(False)
        if self.every_action is not None:
            self.every_action.setChecked(self._choice is None)

    def _build_menu(self) -> None:
        self._built = list(self._rows)
        menu = self.menu_
        menu.clear()
        self.server_actions.clear()
        menu.addSection(self.tr("MCP servers in this conversation"))
        for row in self._rows:
            label = row.name
            if not row.runs:
                label = self.tr("{0} (disabled in mcp.json)").format(row.name)
            elif row.tokens:
                label = self.tr("{0}  ·  ~{1} tokens per request").format(row.name, f"{row.tokens:,}")
            action = menu.addAction(label)
            action.setCheckable(True)
            action.setEnabled(row.runs)
            action.setProperty("stays_open", True)
            action.setObjectName(f"mcpSession:{row.name}")
            action.toggled.connect(lambda on, name=row.name: self._toggled(name, on))
            self.server_actions[row.name] = action
        menu.addSeparator()
        every = self.every_action = menu.addAction(self.tr("Every server (also ones added later)"))
        every.setCheckable(True)
        every.setToolTip(self.tr("Follow mcp.json: every enabled server is on, and a server added later comes on "
                                 "by itself"))
        every.triggered.connect(lambda: self.sig_choice.emit(None))
        none = self.none_action = menu.addAction(self.tr("None in this conversation"))
        none.triggered.connect(lambda: self.sig_choice.emit(()))
        menu.setToolTipsVisible(True)

    def _toggled(self, name: str, on: bool) -> None:
        from hermes_desktop.core.mcp.session_servers import toggled

        enabled = [row.name for row in self._rows if row.runs]
        self.sig_choice.emit(toggled(self._choice, name, on, enabled))

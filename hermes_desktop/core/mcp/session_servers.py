"""Which MCP servers are on for a session: the tools a request offers, and the refusal of a call to an off one.

Four servers' tool schemas cost about 11,500 tokens on every request, even for "what should I drink this
afternoon" (issue 24), so a session can turn servers off. The choice is `sessions.mcp_servers` (migration 11):
NULL means every enabled server (the default), a JSON list names the servers that are on. Servers disabled in
mcp.json stay off whatever a session says; a session only ever narrows what mcp.json runs.

Decisions:
- **A server added to mcp.json later is on for sessions that never chose (NULL) and off for sessions with a
  list.** A session with a list is one where the user looked at the servers and picked; a new server's tools
  appearing there would undo that pick (its tokens on every request, and tools that can act that the user did not
  choose for this conversation). Fail-closed is the safer surprise: the menu shows the new server unticked. A
  session that never chose keeps following mcp.json, which is what "the default" promises. "Every server" in the
  menu sets NULL again, for users who want new servers to come on by themselves.
- **A renamed server is a new name**: off in sessions with a list (the name is all the list knows).
- **Names, not identities**: the list stores server names as written in mcp.json; two machines that sync (not
  synced now: the list names this machine's mcp.json) or an edited command keep the choice by name.
- **Read per request on the store executor** (`offered` runs there: core/agent.py calls offer_tools through
  its store IO), so a change made while a reply streams applies from the next request. The refusal (asked on the
  event loop for every call, core/tool_calls.py) uses what the last `offered` read for the session: a model that
  calls a tool of an off server (from history, or invented) gets a structured refusal, never a run.
- **A damaged value** (not a JSON list of strings, written by hand or by a bug) turns every server off for that
  session and logs it: fail-closed, and the menu shows all unticked so the user sees it and can choose again.
- Forks inherit the choice (core/store.py `fork` copies the column in its transaction).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable, Iterable

from hermes_desktop.core.tools.spec import ToolSpec

log = logging.getLogger(__name__)

SOURCE_PREFIX = "mcp:"
_UNREAD = object()


def parse_choice(raw: str | None) -> tuple[str, ...] | None:
    """The column's value as names (None: every enabled server). A damaged value is an empty choice."""
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        value = None
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        log.warning("sessions.mcp_servers holds %r, not a list of names: every MCP server is off for it", raw[:80])
        return ()
    return tuple(dict.fromkeys(value))


def server_of(source: str | None) -> str | None:
    """The MCP server a tool comes from (its ToolSpec.source `mcp:<server>`), or None for any other tool."""
    if source and source.startswith(SOURCE_PREFIX):
        return source[len(SOURCE_PREFIX):]
    return None


def is_on(choice: tuple[str, ...] | None, server: str) -> bool:
    return choice is None or server in choice


def toggled(choice: tuple[str, ...] | None, server: str, on: bool, enabled: Iterable[str]) -> tuple[str, ...]:
    """The choice after turning one server on or off. From "every server" (None) the list starts as the enabled
    servers now, so turning one off keeps the others on (and a server added later stays off: see above)."""
    names = list(enabled) if choice is None else list(choice)
    if on and server not in names:
        names.append(server)
    if not on:
        names = [name for name in names if name != server]
    return tuple(names)


class SessionServers:
    """The per-session choice, over the session store's SQLite connection (its `_read`/`_write`, as
    core/assistants/store.py does). A store without SQLite (none here but tests' own) has no choice: every server."""

    def __init__(self, sessions: Any) -> None:
        self.sessions = sessions
        self._seen: dict[str, tuple[str, ...] | None] = {}  # the last choice read per session (for `refusal`)
        self._listeners: list[Callable[[str, tuple[str, ...] | None], None]] = []

    @property
    def available(self) -> bool:
        return hasattr(self.sessions, "_read") and hasattr(self.sessions, "_write")

    def choice(self, session_id: str) -> tuple[str, ...] | None:
        """The servers on for the session (None: every enabled server). Blocking: a store read."""
        if not self.available:
            return None
        rows = self.sessions._read("SELECT mcp_servers FROM sessions WHERE id = ?", (session_id,))
        choice = parse_choice(rows[0]["mcp_servers"] if rows else None)
        self._seen[session_id] = choice
        return choice

    def set_choice(self, session_id: str, choice: Iterable[str] | None) -> None:
        """Save the servers on for the session (None: every enabled server, also ones added later), creating the
        session if it is new (a new chat's menu is used before its first message). Blocking: store calls."""
        if not self.available:
            raise RuntimeError("this session store keeps no MCP server choice")
        names = None if choice is None else tuple(dict.fromkeys(choice))
        if self.sessions.get_session(session_id) is None:
            from hermes_desktop.core.storage.errors import SessionExists

            try:
                self.sessions.create_session(session_id)
            except SessionExists:
                pass
        value = None if names is None else json.dumps(list(names), ensure_ascii=False)
        self.sessions._write(lambda db: db.execute("UPDATE sessions SET mcp_servers = ? WHERE id = ?",
                                                   (value, session_id)), "the session's MCP servers were not saved")
        self._seen[session_id] = names
        for listener in list(self._listeners):
            listener(session_id, names)

    def add_listener(self, listener: Callable[[str, tuple[str, ...] | None], None]) -> None:
        """Told (session id, new choice) after every `set_choice`, on the thread that called it."""
        self._listeners.append(listener)

    # ------------------------------------------------------------------ the agent's hooks
    def offered(self, session_id: str, specs: list[ToolSpec]) -> list[ToolSpec]:
        """The specs without the tools of servers that are off for the session. Blocking: reads the choice."""
        if not any(server_of(spec.source) for spec in specs):
            return specs
        choice = self.choice(session_id)
        if choice is None:
            return specs
        return [spec for spec in specs if (server := server_of(spec.source)) is None or server in choice]

    def refusal(self, session_id: str, name: str, source: str | None) -> str | None:
        """Why a call must not run: its server is off for the session (as last read by `offered`), or None."""
        server = server_of(source)
        if server is None:
            return None
        choice = self._seen.get(session_id, _UNREAD)
        if choice is _UNREAD:
            return None  # `offered` always reads before a request; nothing read means no MCP tool was offered
        if is_on(choice, server):  # type: ignore[arg-type]
            return None
        return (f"the MCP server {server!r} is turned off for this conversation, so its tool {name!r} was not "
                "offered and cannot run. Use only the tools you were given, or tell the user to turn the server "
                "on (the MCP button in the status bar).")

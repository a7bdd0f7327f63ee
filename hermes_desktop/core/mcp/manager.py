"""All configured MCP servers: start them from `mcp.json`, reload it, report their status, stop them.

`mcp` (the SDK) is imported only when a server actually starts, so an installation without MCP servers
pays nothing for it at start-up; likewise the supervisor module (with OAuth, the circuit breaker and the
stderr log) is imported when the first server is configured, not for an `ask` without MCP servers.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

from hermes_desktop.core.mcp.config import (
    InputSpec,
    MCPConfig,
    MCPConfigError,
    ServerConfig,
    VariableContext,
    input_username,
    load_config,
    missing_inputs,
)
from hermes_desktop.core.mcp.session_servers import SessionServers
from hermes_desktop.core.mcp.status import ServerStatus
from hermes_desktop.core.secrets import SecretStore
from hermes_desktop.core.tools.registry import ToolRegistry
from hermes_desktop.core.tools.spec import ToolSpec

if TYPE_CHECKING:
    from hermes_desktop.core.mcp.supervisor import ServerSupervisor

log = logging.getLogger(__name__)

StatusListener = Callable[[ServerStatus], None]


class InputAsker(Protocol):
    """Asks the user for an `${input:ID}` value (a dialog in the window, a hidden prompt on a terminal).
    Returns None when the user declines; the server then fails naming the input."""

    async def ask_input(self, servers: list[str], spec: InputSpec) -> str | None: ...


class MCPManager:
    def __init__(self, config_path: Path, registry: ToolRegistry, secrets: SecretStore | None, log_dir: Path,
                 known_secrets: set[str]) -> None:
        self.config_path = config_path
        self._registry = registry
        self._secrets = secrets
        self._log_dir = log_dir
        self._known_secrets = known_secrets
        self._sign_ins: dict[str, tuple[asyncio.Task[Any], list[str]]] = {}  # per server: the one in progress
        self.config = MCPConfig()
        self.supervisors: dict[str, ServerSupervisor] = {}
        self._listeners: list[StatusListener] = []
        self.workspace: Callable[[], Path | None] = lambda: None  # ${workspaceFolder} (the runtime sets it)
        self.input_asker: InputAsker | None = None  # none: `${input:…}` without a stored answer fails the server
        self._asking: set[asyncio.Task[None]] = set()  # Restart's questions in progress
        # One reload at a time: the import writes mcp.json and reloads, and the window's file watcher reloads
        # again; run side by side, both asked for the same `${input:…}` (the second dialog after the first).
        self._reload_lock = asyncio.Lock()
        self.client_features: Any = None  # elicitation/sampling/roots for every server (supervisor.client_kwargs)
        # Which servers are on per session (core/mcp/session_servers.py); the runtime sets it over the store.
        self.session_servers: SessionServers | None = None

    def add_listener(self, listener: StatusListener) -> None:
        self._listeners.append(listener)

    def _notify(self, status: ServerStatus) -> None:
        for listener in list(self._listeners):
            listener(status)

    @property
    def problems(self) -> tuple[str, ...]:
        return self.config.problems

    def statuses(self) -> list[ServerStatus]:
        return [s.status for s in self.supervisors.values()]

    def withheld_tools(self) -> set[str]:
        """The tools of servers whose circuit breaker is open: not offered to the model (core/mcp/breaker.py)."""
        return {name for s in self.supervisors.values() if s.breaker.withheld for name in s.status.tools}

    def withheld_note(self) -> str:
        """For the model: one line per server whose tools are withheld now, so it knows why they are missing.
        The server's own error text is left out: it is the server's words, and this goes in the system message."""
        return "\n".join(
            f"The tools of MCP server “{name}” are not available for now: its last {s.breaker.settings.failures} "
            "calls failed. They are offered again after a cool-down; if you need them, tell the user."
            for name, s in self.supervisors.items() if s.breaker.withheld)

    def offered(self, specs: list[ToolSpec], session_id: str | None = None) -> list[ToolSpec]:
        """The specs without the tools of servers whose breaker is open, nor (given a session) of servers turned
        off for it. Blocking with a session: its choice is read from the store (on the store executor)."""
        withheld = self.withheld_tools()
        specs = [spec for spec in specs if spec.name not in withheld] if withheld else specs
        if session_id is None or self.session_servers is None:
            return specs
        return self.session_servers.offered(session_id, specs)

    def refusal(self, session_id: str, name: str, source: str | None) -> str | None:
        """Why a call to an MCP tool must not run in this session (its server is off for it), or None."""
        return None if self.session_servers is None else self.session_servers.refusal(session_id, name, source)

    def enabled_servers(self) -> list[str]:
        """The names of the servers mcp.json runs (not disabled there), in its order."""
        return [name for name, s in self.supervisors.items() if not s.config.disabled]

    async def reload(self) -> MCPConfig:
        """Read mcp.json again: start new servers, restart changed ones, stop removed ones. Needs a running loop.
        A reload asked for while one runs waits for it, then reads the file again."""
        async with self._reload_lock:
            return await self._reload()

    async def _reload(self) -> MCPConfig:
        config = load_config(self.config_path)
        wanted = {server.name: server for server in config.servers}
        if not config.readable:
            wanted = {name: s.config for name, s in self.supervisors.items()}  # a broken edit keeps what runs
        for name in list(self.supervisors):
            if name not in wanted or wanted[name] != self.supervisors[name].config:
                await self.supervisors.pop(name).stop()
        if any(not server.disabled for server in wanted.values()):
            await asyncio.to_thread(_import_sdk)  # ~1.5 s of imports: never on the event loop (the window's)
        await self._ask_inputs([s for name, s in wanted.items() if name not in self.supervisors and not s.disabled])
        for name, server in wanted.items():
            if name not in self.supervisors:
                self.supervisors[name] = self._supervisor(server)
                if server.disabled:
                    self._notify(self.supervisors[name].status)
                else:
                    self.supervisors[name].start()
        self.config = config
        return config

    def _supervisor(self, server: ServerConfig) -> ServerSupervisor:
        from hermes_desktop.core.mcp.supervisor import ServerSupervisor

        supervisor = ServerSupervisor(server, self._registry, self._secrets, self._log_dir, self._notify,
                                      self._known_secrets)
        supervisor.variables = VariableContext(workspace=self.workspace())
        supervisor.client_features = self.client_features
        return supervisor

    async def _ask_inputs(self, servers: list[ServerConfig]) -> None:
        """Ask once for each `${input:ID}` that has no stored answer (one question per ID, even when several
        servers use it), and keep the answer in the keyring under each server's `mcp:<server>:input:<ID>`.
        Nothing is asked without an asker; a declined or failed question leaves the server to fail naming it."""
        if self.input_asker is None or self._secrets is None:
            return
        wanted: dict[str, tuple[InputSpec, list[str]]] = {}
        for server in servers:
            try:
                missing = await asyncio.to_thread(missing_inputs, server, self._secrets)
            except MCPConfigError as exc:  # the keyring cannot be read: the start reports it
                log.warning("MCP server %s: %s", server.name, exc)
                continue
            for spec in missing:
                wanted.setdefault(spec.id, (spec, []))[1].append(server.name)
        for spec, names in wanted.values():
            try:
                answer = await self.input_asker.ask_input(names, spec)
            except Exception:  # noqa: BLE001 - a failing asker must not stop the other servers
                log.exception("asking for MCP input %s failed", spec.id)
                continue
            if answer is None:
                continue
            for name in names:
                try:
                    await asyncio.to_thread(self._secrets.set, input_username(name, spec.id), answer)
                except Exception as exc:  # noqa: BLE001 - the keyring refused: the start names the input
                    log.warning("MCP input %s for %s could not be stored: %s", spec.id, name, type(exc).__name__)

    async def sign_in(self, name: str, **options: Any) -> Any:
        """OAuth sign-in to one HTTP/SSE server (browser + loopback redirect, tokens to the keyring: core/mcp/
        oauth.py), then the server restarts with its tokens. Raises SignInError with a reason fit to show."""
        from hermes_desktop.core.mcp.oauth import sign_in

        from hermes_desktop.core.mcp.oauth import SignInError, _system_browser

        supervisor = self.supervisors.get(name)
        if supervisor is None:
            raise MCPConfigError(f"no MCP server named “{name}”")
        running = self._sign_ins.get(name)
        if running is not None and not running[0].done():
            # Pressed again while one waits (its tab was closed): that sign-in's page again, and its one result;
            # a second sign-in beside it would fail minutes later about a sign-in that worked.
            task, urls = running
            if urls:
                opened = (options.get("open_url") or _system_browser)(urls[-1])
                if asyncio.iscoroutine(opened):
                    await opened
            return await asyncio.shield(task)
        urls: list[str] = []
        told = options.pop("on_url", None)

        def on_url(url: str) -> None:
            urls.append(url)
            if told is not None:
                told(url)

        async def run() -> Any:
            result = await sign_in(supervisor.config, self._secrets, on_url=on_url, **options)
            supervisor.restart()
            return result

        task = asyncio.ensure_future(run())
        self._sign_ins[name] = (task, urls)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                task.cancel()  # the one who started it gave up (the window closed): the sign-in ends
                raise
            raise SignInError("signed out meanwhile; this sign-in was cancelled and nothing was stored") from None

    async def sign_out(self, name: str) -> bool:
        """Forget one server's OAuth tokens and registration (keyring); it then waits for a new sign-in."""
        from hermes_desktop.core.mcp.oauth import sign_out

        running = self._sign_ins.get(name)
        if running is not None and not running[0].done():
            running[0].cancel()  # a sign-in still waiting for the browser: a late answer must not sign in
            await asyncio.gather(running[0], return_exceptions=True)
        removed = await asyncio.to_thread(sign_out, self._secrets, name)
        supervisor = self.supervisors.get(name)
        if supervisor is not None:
            await supervisor.stop()
            supervisor.start()
        return removed

    async def get_prompt(self, server: str, name: str, arguments: dict[str, str]) -> str:
        supervisor = self.supervisors.get(server)
        if supervisor is None:
            raise MCPConfigError(f"no MCP server named “{server}”")
        return await supervisor.get_prompt(name, arguments)

    def restart(self, name: str) -> None:
        """Start the server again now. One whose `${input:…}` has no stored answer (the question was declined)
        is asked again first."""
        supervisor = self.supervisors.get(name)
        if supervisor is None:
            return
        if self.input_asker is not None and supervisor.config.input_ids:
            task = asyncio.get_running_loop().create_task(self._ask_then_restart(supervisor))
            self._asking.add(task)
            task.add_done_callback(self._asking.discard)
        else:
            supervisor.restart()

    async def _ask_then_restart(self, supervisor: ServerSupervisor) -> None:
        try:
            await self._ask_inputs([supervisor.config])
        finally:
            supervisor.restart()

    async def wait_until_settled(self, timeout_s: float) -> None:
        """Wait (up to timeout_s) until every enabled server is connected or has failed: for `ask` and `doctor`."""
        waits = [s.settled.wait() for s in self.supervisors.values() if not s.config.disabled]
        if waits:
            try:
                await asyncio.wait_for(asyncio.gather(*waits), timeout_s)
            except asyncio.TimeoutError:
                log.warning("MCP servers still starting after %.0f s", timeout_s)
                for supervisor in self.supervisors.values():
                    supervisor.still_starting(timeout_s)  # their status says why they are not ready

    async def stop_all(self) -> None:
        """Stop every server, each ended now even mid-start, and return once their processes are gone. Cancelling
        the caller does not cut this short (each stop finishes first; the cancellation is passed on after)."""
        results = await asyncio.gather(*(s.stop() for s in self.supervisors.values()), return_exceptions=True)
        if any(isinstance(result, asyncio.CancelledError) for result in results):
            raise asyncio.CancelledError


def _import_sdk() -> None:
    for module in ("mcp", "mcp.client.stdio", "mcp.client.streamable_http", "httpx2"):
        importlib.import_module(module)

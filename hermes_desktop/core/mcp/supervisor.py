"""One supervisor task per MCP server: it starts the server, owns the client, and restarts it when it dies.

The MCP SDK's client must be entered and exited in the same task (ARCHITECTURE.md), so each server has
one long-lived owner task; tool calls reach it through a queue and each runs in its own task, so a slow
call does not hold up the next. What a user sees:

- status per server: starting, connected (with its tools), restarting (with the reason and the delay),
  failed (with the reason, after repeated failures or when the command does not exist), disabled, stopped;
- a server that crashes mid-call fails that call with a clear error (the model sees it, nothing hangs),
  then comes back by itself; its tools stay registered meanwhile and answer "restarting" at once;
- the server's stderr goes to `mcp/<server>.log` in the log directory, through a pipe, so the file rotates at
  1 MB (one older file kept: core/mcp/stderr_log.py); its last lines explain a crash;
- a server must start, answer `initialize` and list its tools within its `startTimeout` (default 30 s), and
  write nothing but JSON-RPC on stdout: otherwise it goes to "failed" at once with that reason (restarting
  cannot fix a server that never answers or speaks another protocol; the user restarts it once fixed);
- a hung call ends at the server's `timeout` (the tool runner cancels it and the SDK tells the server);
- stopping a server (window closed, `ask` done, mcp.json reloaded) never cancels its owner task from outside:
  the SDK's transport stops the server (close stdin, SIGTERM to its process group, SIGKILL 2 s later) inside
  an anyio shield, and a native `Task.cancel()` breaks through that shield, leaving the server running and its
  stdout reader waiting forever (`ask` hung at exit). So a stop asks the owner to end: a start in progress has
  its deadline moved to now (the same single cancellation a start timeout delivers, which the SDK unwinds
  cleanly), a connected session gets `None` on its queue, a wait between restarts is woken; the stop then
  waits for the owner, also when its own caller is cancelled (Ctrl+C), up to STOP_GUARD_S, then ends what is
  left of the server's process group (a server that exits when its stdin closes can leave children:
  core/mcp/process_group.py), and tells the server's stderr copier to finish;
- a server that offers resources also gets `mcp_<server>_list_resources` and `mcp_<server>_read_resource`
  (read-only tools), so the model can find and read its documents. Prompts are not bridged.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Awaitable, Callable

from hermes_desktop.core.mcp.breaker import CircuitBreaker, call_timed_out
from hermes_desktop.core.mcp.bridge import parameters_of, render_blocks, render_result, risk_of, tool_name
from hermes_desktop.core.mcp.config import MCPConfigError, ServerConfig, UnresolvedVariable, VariableContext, resolve_server
from hermes_desktop.core.mcp.process_group import end_group, server_pid
from hermes_desktop.core.mcp.oauth import SignInRequired, background_provider, uses_oauth
from hermes_desktop.core.mcp.status import PromptArgument, PromptInfo, ServerState, ServerStatus
from hermes_desktop.core.mcp.stderr_log import RotatingLog, StderrPump
from hermes_desktop.core.redact import redact_text
from hermes_desktop.core.secrets import SecretStore
from hermes_desktop.core.terminal_text import visible_controls
from hermes_desktop.core.tokens import estimate_tools_tokens
from hermes_desktop.core.tools.registry import ToolRegistry
from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolError, ToolSpec

log = logging.getLogger(__name__)

PING_INTERVAL_S = 20.0
STDERR_DRAIN_S = 2.0  # after a server ended, how long its last stderr lines may take to reach the log
STABLE_AFTER_S = 30.0
MAX_RESOURCES = 200  # listed to the model at once
RESTART_DELAYS_S = (0.5, 2.0, 5.0, 15.0)  # then the server is marked failed until the user restarts it
# A stop waits this long for the owner task. The SDK bounds its own shutdown (about 2 s after closing stdin,
# 2 s after SIGTERM, then SIGKILL), so this only catches a bug: then the owner is cancelled as a last resort.
STOP_GUARD_S = 20.0


# What starting waits for (StartTimeout.stage, a code the window and the terminal word) and its English words.
_STAGE_WORDS = {"start": "start", "initialize": "answer `initialize`", "list_tools": "list its tools"}


class StartTimeout(Exception):
    """The server did not finish starting (spawn, `initialize`, tool listing) within its start timeout."""

    def __init__(self, stage: str, limit_s: float) -> None:
        self.stage, self.limit_s = stage, limit_s
        super().__init__(f"it did not {_STAGE_WORDS.get(stage, stage)} within {limit_s:g} s (its startTimeout)")


class NotMCPOutput(Exception):
    """The server wrote something on stdout that is not a JSON-RPC message."""

    def __init__(self, line: str) -> None:
        self.line = line  # the start of the line, already quoted (“…”), its controls shown
        super().__init__(f"it wrote something that is not MCP on its standard output: {line} (a server may write "
                         "only JSON-RPC messages there; logs belong on stderr)")


_FATAL = (FileNotFoundError, PermissionError, MCPConfigError, StartTimeout, NotMCPOutput)  # restarting cannot fix these


def _failure_code(exc: BaseException, reason: str) -> tuple[str, dict[str, Any]]:
    """A failure as ServerStatus.detail_code/params: an unresolved ${…} names its variable (data) and where."""
    inner = exc
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    if isinstance(inner, UnresolvedVariable):
        return "unresolved_variable", {"variable": inner.variable, "where": inner.where, "reason": reason}
    return "failed", {"reason": reason, **reason_code(exc)}


def reason_code(exc: BaseException) -> dict[str, Any]:
    """describe_error's reason as `reason_code` and its parameters, merged into ServerStatus.detail_params so the
    MCP tab and `mcp list` word it in the user's language (ui/words.mcp_reason, core/mcp/detail_words.py). Empty
    when only the OS's or the SDK's own words say what happened: then `reason` is shown, quoted, as data.
    Flat keys: _set redacts secrets in top-level strings only."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        from hermes_desktop.core.mcp.launchers import launcher_name

        missing = str(exc.filename or exc)
        return {"reason_code": "command_not_found", "command": missing, "launcher": launcher_name(missing)}
    if isinstance(exc, StartTimeout):
        return {"reason_code": "start_timeout", "stage": exc.stage, "limit_s": exc.limit_s}
    if isinstance(exc, NotMCPOutput):
        return {"reason_code": "not_mcp_output", "line": exc.line}
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError)):
        return {"reason_code": "no_answer"}
    return {}


@dataclass
class _Call:
    run: Callable[[Any], Awaitable[Any]]  # given the connected client, makes the request
    future: asyncio.Future[Any]


@dataclass
class _Broken:
    """Put on the queue when a call or a ping finds the connection gone: the owner task then ends the session."""

    error: BaseException


class ServerUnavailable(ToolError):
    pass


def describe_error(exc: BaseException) -> str:
    """The innermost useful message of an exception (anyio wraps transport errors in groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):  # reason_code gives the same as a code, for the translated words
        missing = str(exc.filename or exc)
        from hermes_desktop.core.mcp.launchers import launcher_hint

        return f"the command was not found ({missing}){launcher_hint(missing)}"
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError)):
        return "it did not answer in time"
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) < 300 else text[:297] + "…"


class ServerSupervisor:
    def __init__(self, config: ServerConfig, registry: ToolRegistry, secrets: SecretStore | None, log_dir: Path,
                 on_status: Callable[[ServerStatus], None], known_secrets: set[str]) -> None:
        self.config = config
        self._registry = registry
        self._secrets = secrets
        self._log_path = log_dir / f"{config.name}.log"
        self._on_status = on_status
        self._known_secrets = known_secrets
        self._queue: asyncio.Queue[_Call | _Broken | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._restart_now = asyncio.Event()
        self._restart_asked = False  # restart() on a connected server: end the session and start again at once
        self._stopping = False
        self._tool_names: dict[str, str] = {}  # the Hermes tools registered for this server
        self._skipped: list[tuple[str, str]] = []  # (server's name, Hermes name) of tools whose names clashed
        self._connected_at = 0.0
        self._prompts: tuple[PromptInfo, ...] = ()
        self._pump: StderrPump | None = None  # this run's stderr copier (stdio servers)
        self._starting: asyncio.Timeout | None = None  # the start deadline, while starting
        self._stage = ""  # what starting waits for, for the timeout's reason
        self._log_line = ""  # the last line its log got before it failed (shown on the MCP tab's row)
        self._not_mcp = ""  # the first stdout line that was not JSON-RPC
        self.variables = VariableContext()  # what ${workspaceFolder} etc. stand for (set by the manager)
        self.breaker = CircuitBreaker(config.name, config.breaker)  # withholds its tools while calls keep failing
        self.client_features: Any = None  # elicitation/sampling/roots callbacks (set by the manager; see client_kwargs)
        self._auth: Any = None  # this run's OAuth provider (HTTP and SSE servers; core/mcp/oauth.py)
        self._http_status = 0  # the last HTTP status the MCP endpoint answered (401/403: sign-in; 404/405: SSE)
        self._use_sse = config.transport == "sse"
        self.status = ServerStatus(config.name, ServerState.DISABLED if config.disabled else ServerState.STOPPED,
                                   transport=config.transport, target=config.describe(), secrets=config.secret_names)
        self.settled = asyncio.Event()  # set once a start has connected or failed (for `ask` and `doctor`)

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self.config.disabled or (self._task is not None and not self._task.done()):
            return
        self._stopping = False
        self._task = asyncio.get_running_loop().create_task(self._own(), name=f"mcp:{self.config.name}")

    def restart(self) -> None:
        """Try again now (after a failure, or to pick up a changed server)."""
        self.breaker.reset()
        if self._task is None or self._task.done():
            self.start()
        else:
            self._restart_now.set()
            if self.status.state is ServerState.CONNECTED:  # the serving loop ends its session (None) and
                self._restart_asked = True  # _own starts a new process without the crash back-off
                self._queue.put_nowait(None)

    async def stop(self) -> None:
        """End the server and return once its process group is gone: a start in progress is ended now, not at
        its startTimeout. Cancelling the caller does not cut the stop short (it re-raises once the stop is done),
        because an owner task left mid-shutdown would leave the server running."""
        self._stopping = True
        leader = self._server_pid()  # looked up while it runs: once reaped, only its group id is left
        self._queue.put_nowait(None)
        self._restart_now.set()
        self._end_start_now()
        stopping = asyncio.ensure_future(self._finish_stop(leader))
        cancelled = False
        while not stopping.done():
            try:
                await asyncio.shield(stopping)
            except asyncio.CancelledError:
                cancelled = True  # finish stopping first; the cancellation is passed on below
        self._unregister()
        self._set(ServerState.DISABLED if self.config.disabled else ServerState.STOPPED)
        if cancelled:
            raise asyncio.CancelledError

    async def _finish_stop(self, leader: int | None) -> None:
        """Wait for the owner task to end, then end what is left of the server's process group and its log copier."""
        task = self._task
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=STOP_GUARD_S)
            if not task.done():  # a bug, not a slow server: the SDK's own shutdown is bounded well below the guard
                log.error("MCP server %s did not stop within %g s; cancelling its task", self.config.name,
                          STOP_GUARD_S)
                task.cancel()
                await asyncio.wait({task}, timeout=STDERR_DRAIN_S)
        if task is not None and task.done() and not task.cancelled() and task.exception() is not None:
            log.warning("MCP server %s ended with %s", self.config.name, describe_error(task.exception()))
        if leader is not None:  # a server that exited on end-of-input may have left children in its group
            await end_group(leader)
        self._finish_pump()

    def _server_pid(self) -> int | None:
        """The running stdio server's pid (its process group id), if it can be found (core/mcp/process_group.py)."""
        if self.config.url or self._pump is None or self._pump.drained.is_set():
            return None
        return server_pid(self._pump.inode)

    def _end_start_now(self) -> None:
        """Move a start in progress to its deadline, so it ends the way a start timeout does. One already past
        its deadline is ending (the SDK is stopping the server): a second cancellation would break that."""
        starting = self._starting
        if starting is not None and not starting.expired():
            starting.reschedule(asyncio.get_running_loop().time())

    def _finish_pump(self) -> None:
        """Tell this run's stderr copier to stop once what is in the pipe is logged (a child that left the
        server's process group may still hold the pipe open: the thread must not wait for it)."""
        if self._pump is not None:
            self._pump.finish()

    def still_starting(self, waited_s: float) -> None:
        """For `ask` and `doctor`, whose wait ran out first: say so in the status, with the server's own limit."""
        if self.status.state is ServerState.STARTING:
            self._set(ServerState.STARTING, f"still starting after {waited_s:g} s; its startTimeout is "
                                            f"{self.config.start_timeout_s:g} s", "still_starting",
                      {"waited_s": waited_s, "limit_s": self.config.start_timeout_s})

    def _set(self, state: ServerState, detail: str = "", code: str = "", params: dict[str, Any] | None = None) -> None:
        schemas = [spec.to_openai() for name in self._tool_names if (spec := self._registry.get(name)) is not None]
        self.status = ServerStatus(self.config.name, state, redact_text(detail, self._known_secrets),
                                   tuple(self._tool_names), "sse" if self._use_sse else self.config.transport,
                                   self.config.describe(),
                                   self.config.secret_names, estimate_tools_tokens(schemas) if schemas else 0,
                                   self._prompts if state is ServerState.CONNECTED else (), self._sign_in_state(),
                                   withheld=self.breaker.note(), breaker=self.breaker.info(), detail_code=code,
                                   detail_params={k: redact_text(v, self._known_secrets) if isinstance(v, str) else v
                                                  for k, v in (params or {}).items()},
                                   skipped_tools=tuple(self._skipped),
                                   log_line=self._log_line if state is not ServerState.CONNECTED else "")
        if state in (ServerState.STARTING, ServerState.STOPPED):
            self.settled.clear()
        else:
            self.settled.set()
        try:
            self._on_status(self.status)
        except Exception:  # a listener's bug must not take the server down
            log.exception("MCP status listener failed")

    # ------------------------------------------------------------------ the owner task
    async def _own(self) -> None:
        failures = 0
        while not self._stopping:
            self._log_line = ""
            self._set(ServerState.STARTING)
            try:
                await self._session()
                failures = 0
                reason = cause = "the connection closed"
                coded: dict[str, Any] = {"reason_code": "connection_closed"}
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # noqa: BLE001 - every failure becomes a visible status
                await self._stderr_drained()
                if self._stopping:  # a start ended by stop(): not a failure to report
                    break
                needs = self._sign_in_reason(exc)
                if needs is not None:  # restarting cannot help until the user signs in: wait for them
                    self._fail_pending(needs)  # (without OAuth, its own header was refused: failed, same reason)
                    self._set(ServerState.NEEDS_SIGN_IN, f"{needs}; sign in from the MCP tab or with "
                              f"`hermes-desktop mcp login {self.config.name}`", "needs_sign_in",
                              {"reason": needs, "server": self.config.name}) if self._auth is not None else \
                        self._set(ServerState.FAILED, needs, "refused", {"reason": needs})
                    await self._pause(None)
                    failures = 0
                    continue
                said = self._stderr_lines()
                self._log_line = said[-1] if said else ""  # the MCP tab shows it on the server's row
                cause = describe_error(exc)  # the translated row words this; the log line is shown on its own
                coded = reason_code(exc)
                reason = cause + (" — server said: " + " | ".join(said) if said else "")
                log.warning("MCP server %s: %s", self.config.name, redact_text(reason, self._known_secrets))
                if self._connected_at and time.monotonic() - self._connected_at > STABLE_AFTER_S:
                    failures = 0  # it ran well for a while: this crash starts a fresh count
                failures += 1
                fatal = isinstance(exc, _FATAL) or (isinstance(exc, BaseExceptionGroup)
                                                     and exc.subgroup(_FATAL) is not None)
                if fatal or failures > len(RESTART_DELAYS_S):
                    self._fail_pending(reason)
                    self._set(ServerState.FAILED, reason, *_failure_code(exc, cause))
                    await self._pause(None)
                    failures = 0
                    continue
            if self._stopping:
                break
            if self._restart_asked:  # the user's Restart, not a crash
                self._restart_asked = False
                continue
            self._fail_pending(reason)
            delay = RESTART_DELAYS_S[min(failures, len(RESTART_DELAYS_S)) - 1] if failures else RESTART_DELAYS_S[0]
            self._set(ServerState.RESTARTING, f"{reason}; restarting in {delay:g} s", "restarting",
                      {"reason": cause, "delay_s": delay, **coded})
            await self._pause(delay)

    async def _pause(self, delay: float | None) -> None:
        """Wait `delay` seconds (None: until asked) or until restart() or stop() asks for more. A stop that came
        earlier (while the failure was being logged) is not forgotten: the check and the clear have no await
        between them."""
        if self._stopping:
            return
        self._restart_now.clear()
        try:
            await asyncio.wait_for(self._restart_now.wait(), delay)
        except asyncio.TimeoutError:
            pass

    async def _session(self) -> None:
        from mcp import Client

        self._connected_at = 0.0
        self._not_mcp = ""
        limit = self.config.start_timeout_s
        async with AsyncExitStack() as stack:
            try:
                async with asyncio.timeout(limit) as self._starting:
                    self._stage = "start"  # a StartTimeout stage (_STAGE_WORDS)
                    transport = await self._transport(stack)
                    self._stage = "initialize"
                    try:
                        client = await stack.enter_async_context(Client(
                            transport, mode="legacy", message_handler=self._on_message, client_info=client_info(),
                            **client_kwargs(self.client_features, self.config)))
                    except Exception:
                        if not self._falls_back_to_sse():
                            raise
                        # The spec's backwards compatibility: a POST answered 404/405 means an HTTP+SSE server.
                        log.info("MCP server %s: Streamable HTTP answered %d; trying HTTP+SSE", self.config.name,
                                 self._http_status)
                        self._use_sse = True
                        await stack.aclose()
                        transport = await self._transport(stack)
                        client = await stack.enter_async_context(Client(
                            transport, mode="legacy", message_handler=self._on_message, client_info=client_info(),
                            **client_kwargs(self.client_features, self.config)))
                    self._stage = "list_tools"
                    listing = await client.list_tools()
                    resources = await self._has_resources(client)
                    self._prompts = await self._list_prompts(client)
            except TimeoutError:
                raise self._start_failure(limit) from None
            finally:
                self._starting = None
            self._register(listing.tools, resources=resources)
            self._connected_at = time.monotonic()
            self._set(ServerState.CONNECTED, f"{len(self._tool_names)} tools")
            await self._serve(client)

    def _start_failure(self, limit: float) -> Exception:
        if self._not_mcp:
            return NotMCPOutput(self._not_mcp)
        return StartTimeout(self._stage, limit)

    async def _on_message(self, message: Any) -> None:
        """The SDK hands over an exception for each stdout line that is not JSON-RPC: the server is broken."""
        if not isinstance(message, Exception) or self.config.url or self._not_mcp:
            return
        self._not_mcp = _offending_line(message)
        if self._starting is not None:  # end the start now, not at its deadline
            self._starting.reschedule(asyncio.get_running_loop().time())
        else:
            self._queue.put_nowait(_Broken(NotMCPOutput(self._not_mcp)))

    async def _stderr_drained(self) -> None:
        """Wait (briefly) until the ended server's last stderr lines are in its log."""
        pump = self._pump
        if pump is not None and not pump.drained.is_set():
            await asyncio.to_thread(pump.drained.wait, STDERR_DRAIN_S)

    async def _has_resources(self, client: Any) -> bool:
        """Whether to offer the resource tools: only when the server lists at least one resource, because many
        servers declare the capability with nothing behind it, and two idle tool schemas cost tokens per request."""
        if client.server_capabilities.resources is None:
            return False
        try:
            return bool((await client.list_resources()).resources)
        except Exception as exc:  # noqa: BLE001 - a server whose listing fails just gets no resource tools
            log.info("MCP server %s: listing resources failed: %s", self.config.name, describe_error(exc))
            return False

    async def _list_prompts(self, client: Any) -> tuple[PromptInfo, ...]:
        if client.server_capabilities.prompts is None:
            return ()
        try:
            listing = await client.list_prompts()
        except Exception as exc:  # noqa: BLE001 - prompts are optional: a failing listing leaves none
            log.info("MCP server %s: listing prompts failed: %s", self.config.name, describe_error(exc))
            return ()
        return tuple(PromptInfo(p.name, p.description or "", tuple(
            PromptArgument(a.name, a.description or "", bool(a.required)) for a in (p.arguments or ())))
            for p in listing.prompts)

    async def get_prompt(self, name: str, arguments: dict[str, str]) -> str:
        """A prompt's messages as text for the message box (text parts joined; other content described)."""
        result = await self._submit(lambda client: client.get_prompt(name, arguments))
        parts = render_blocks([message.content for message in result.messages])
        return redact_text("\n\n".join(p for p in parts if p), self._known_secrets)

    async def _transport(self, stack: AsyncExitStack) -> Any:
        # Variables (${env:…}, ${workspaceFolder}, ${secret:…}, ${input:…}) filled now; an unresolved one fails the
        # start naming it, before anything is sent (core/mcp/config.py). The keyring may block: a worker thread.
        resolved, secret_values = await asyncio.to_thread(resolve_server, self.config, self._secrets, self.variables)
        self._known_secrets.update(secret_values)
        env, headers = dict(resolved.env), dict(resolved.headers)
        if self.config.url:
            self._http_status = 0
            self._auth = await background_provider(replace(self.config, url=resolved.url), self._secrets) \
                if uses_oauth(self.config) else None
            return await http_transport(stack, replace(self.config, url=resolved.url), headers, self._auth,
                                        sse=self._use_sse, on_status=self._saw_status)
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        log = RotatingLog(self._log_path)
        log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} starting {self.config.describe()}\n".encode())
        self._finish_pump()  # the last run's copier, if something it started still holds that pipe
        self._pump = StderrPump(log, self.config.name)
        # Registered before the client is entered, so it runs after the client (and the server) are gone.
        stack.callback(self._pump.close_writer)
        from hermes_desktop.core.mcp.launchers import bundled_launcher

        command = bundled_launcher(resolved.command, env.get("PATH") or os.environ.get("PATH", ""))
        params = StdioServerParameters(command=command, args=list(resolved.args), env=env or None, cwd=resolved.cwd)
        return stdio_client(params, errlog=self._pump.writer)

    def _saw_status(self, status: int) -> None:
        self._http_status = status

    def _sign_in_state(self) -> str:
        """For the MCP tab: "" (no OAuth for this server), "signed_in" or "signed_out"."""
        if not uses_oauth(self.config):
            return ""
        tokens = self._auth.context.current_tokens if self._auth is not None else None
        return "signed_in" if tokens is not None else "signed_out"

    def _falls_back_to_sse(self) -> bool:
        return bool(self.config.url) and not self._use_sse and self.config.type != "http" \
            and self._http_status in (404, 405)

    def _sign_in_reason(self, exc: BaseException | None) -> str | None:
        """Why the server needs the user to sign in, if that is what went wrong (a 401/403, or the OAuth flow
        stopping where it would need a browser)."""
        if exc is not None:
            inner = exc
            while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
                found = inner.subgroup(SignInRequired)
                inner = found.exceptions[0] if found is not None else inner.exceptions[0]
            if isinstance(inner, SignInRequired):
                return str(inner)
        if self._auth is not None and self._auth.sign_in_needed:
            return self._auth.sign_in_needed
        if self._http_status in (401, 403):
            return (f"it needs you to sign in (HTTP {self._http_status})" if self._auth is not None else
                    f"it refused the request (HTTP {self._http_status}): check its Authorization header")
        return None

    async def _serve(self, client: Any) -> None:
        """Hand calls to the client until stopped, or until the server stops answering."""
        running: set[asyncio.Task[None]] = set()
        pinger = asyncio.ensure_future(self._ping(client))
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, _Broken):
                    raise item.error
                if item is None or self._stopping:
                    return
                if item.future.done():  # the caller gave up (Stop, timeout) before the call started
                    continue
                task = asyncio.ensure_future(self._run(client, item))
                running.add(task)
                task.add_done_callback(running.discard)
                item.future.add_done_callback(lambda future, task=task: task.cancel() if future.cancelled() else None)
        finally:
            pinger.cancel()
            for task in list(running):
                task.cancel()
            await asyncio.gather(pinger, *running, return_exceptions=True)

    async def _ping(self, client: Any) -> None:
        """Notice a server that died while idle, before the next call does: a failed ping ends the session."""
        while True:
            await asyncio.sleep(PING_INTERVAL_S)
            try:
                # The session's ping: Client.send_ping is marked deprecated for the 2026-07-28 protocol and would
                # print an MCPDeprecationWarning on `ask`'s terminal; under mode="legacy" ping is still the spec's.
                await asyncio.wait_for(client.session.send_ping(), 10)
            except Exception as exc:  # noqa: BLE001 - any failure means the connection is unusable
                self._queue.put_nowait(_Broken(exc))
                return

    async def _run(self, client: Any, call: _Call) -> None:
        try:
            result = await call.run(client)
        except asyncio.CancelledError:  # the caller gave up (its future is cancelled already), or the session ended
            if not call.future.done():
                call.future.set_exception(ServerUnavailable(f"MCP server “{self.config.name}” stopped during the call"))
            raise
        except BaseException as exc:  # noqa: BLE001 - anyio wraps transport failures in exception groups
            if not call.future.done():
                call.future.set_exception(ServerUnavailable(
                    f"MCP server “{self.config.name}” failed during the call: {describe_error(exc)}"))
            if _transport_failure(exc):
                self._queue.put_nowait(_Broken(exc))
            elif self._sign_in_reason(None) is not None:  # the token was revoked or more scope is needed
                self._queue.put_nowait(_Broken(SignInRequired(self._sign_in_reason(None) or "")))
            return
        if not call.future.done():
            call.future.set_result(result)

    def _fail_pending(self, reason: str) -> None:
        while not self._queue.empty():
            call = self._queue.get_nowait()
            if isinstance(call, _Call) and not call.future.done():
                call.future.set_exception(ServerUnavailable(f"MCP server “{self.config.name}” is not running: {reason}"))

    def _stderr_lines(self, lines: int = 3) -> list[str]:
        """The last non-empty lines this run wrote to its log (after its `--- … starting` line), controls removed
        and secrets redacted: they explain a crash. None for an HTTP server (it has no log)."""
        if self.config.url:
            return []
        from hermes_desktop.core.mcp.log_tail import run_lines

        return [redact_text(line, self._known_secrets) for line in run_lines(self._log_path, lines)]

    # ------------------------------------------------------------------ tools
    def _register(self, tools: list[Any], *, resources: bool) -> None:
        self._unregister()
        specs = [self._spec(tool.name, (tool.description or getattr(tool, "title", None) or tool.name).strip(),
                            parameters_of(tool.input_schema), self._tool_handler(tool.name), risk_of(tool.annotations))
                 for tool in tools]
        remote = {id(spec): tool.name for spec, tool in zip(specs, tools)}
        if resources:  # a server that lists documents or records gets two read tools to find and read them
            specs.append(self._spec("list_resources", "List the resources (documents, data) this server offers, with "
                                    "their URIs.", {"type": "object", "properties": {}, "additionalProperties": False},
                                    self._list_resources, Risk.READ))
            specs.append(self._spec("read_resource", "Read one resource by its URI (from the list).",
                                    {"type": "object", "properties": {"uri": {"type": "string"}}, "required": ["uri"],
                                     "additionalProperties": False}, self._read_resource, Risk.READ))
        for spec in specs:
            if self._registry.get(spec.name) is not None:
                log.warning("MCP tool %s clashes with an existing tool; skipped", spec.name)
                self._skipped.append((remote.get(id(spec), spec.name), spec.name))
                continue
            self._registry.register(spec)
            self._tool_names[spec.name] = spec.name

    def _spec(self, remote: str, description: str, parameters: dict[str, Any],
              handler: Callable[[dict[str, Any], ToolContext], Awaitable[Any]], risk: Risk) -> ToolSpec:
        return ToolSpec(tool_name(self.config.name, remote), f"[MCP server {self.config.name}] {description}",
                        parameters, handler, risk, timeout_s=self.config.timeout_s, source=f"mcp:{self.config.name}",
                        source_detail=self.config.identity, blocking=False)

    def _unregister(self) -> None:
        for name in self._tool_names:
            self._registry.unregister(name)
        self._tool_names.clear()
        self._skipped.clear()

    async def _submit(self, run: Callable[[Any], Awaitable[Any]]) -> Any:
        """Hand one request to the owner task and wait for its answer."""
        if self.status.state is not ServerState.CONNECTED:
            raise ServerUnavailable(f"MCP server “{self.config.name}” is {self.status.state.value}"
                                    + (f": {self.status.detail}" if self.status.detail else ""))
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Call(run, future))
        try:
            return await future
        except asyncio.CancelledError:
            future.cancel()
            raise

    def _tool_handler(self, remote_name: str) -> Callable[[dict[str, Any], ToolContext], Awaitable[str]]:
        async def call(args: dict[str, Any], ctx: ToolContext) -> str:
            self.breaker.before_call()  # raises ToolWithheld (not sent) while the breaker is open
            generation = self.breaker.generation  # a Restart meanwhile: this call's failure does not count
            started = time.monotonic()
            try:
                result = await self._submit(lambda client: client.call_tool(remote_name, args))
            except asyncio.CancelledError:  # the call's timeout (a failure) or the user's Stop (neither)
                if call_timed_out(f"mcp:{self.config.name}", started, self.config.timeout_s):
                    self._call_failed(f"{remote_name} did not answer within {self.config.timeout_s:g} s",
                                      generation)
                else:
                    self.breaker.abandoned()
                raise
            except Exception as exc:
                raise ToolError(str(exc) + self._call_failed(describe_error(exc), generation)) from exc
            text = render_result(result)  # its own secrets, if it echoes them, are removed by the tool runner
            if getattr(result, "is_error", False):
                text = text or f"{remote_name} reported an error"
                raise ToolError(text + self._call_failed(f"{remote_name}: {text}", generation))
            was_on_trial = self.breaker.state.value != "closed"
            self.breaker.succeeded()
            if was_on_trial:  # the trial passed: the tools are offered again
                self._set(self.status.state, self.status.detail, self.status.detail_code, self.status.detail_params)
            return text
        return call

    def _call_failed(self, reason: str, generation: int | None = None) -> str:
        """Count a failed call on the breaker; when that opens it, say so (the model and Activity see the note)
        and tell the MCP tab now and again when the cool-down ends."""
        if not self.breaker.failed(redact_text(" ".join(reason.split()), self._known_secrets), generation):
            return ""
        note = self.breaker.note()
        log.warning("MCP server %s: %s", self.config.name, note)
        self._set(self.status.state, self.status.detail, self.status.detail_code, self.status.detail_params)
        asyncio.get_running_loop().call_later(
            self.config.breaker.cooldown_s + 0.1,
            lambda: None if self._stopping else self._set(self.status.state, self.status.detail,
                                                          self.status.detail_code, self.status.detail_params))
        return f" (MCP server “{self.config.name}”: {note})"

    async def _list_resources(self, args: dict[str, Any], ctx: ToolContext) -> list[dict[str, Any]]:
        result = await self._submit(lambda client: client.list_resources())
        return [{"uri": str(r.uri), "name": r.name, **({"description": r.description} if r.description else {}),
                 **({"mime_type": r.mime_type} if r.mime_type else {})} for r in result.resources[:MAX_RESOURCES]]

    async def _read_resource(self, args: dict[str, Any], ctx: ToolContext) -> str:
        uri = str(args["uri"])
        result = await self._submit(lambda client: client.read_resource(uri))
        parts = [getattr(c, "text", None) or f"[binary content {getattr(c, 'mime_type', '') or ''} not shown]".replace(
            "  ", " ") for c in result.contents]
        return "\n".join(parts)


def _offending_line(exc: Exception) -> str:
    """The start of the line the SDK could not parse, quoted with its control characters shown."""
    errors = getattr(exc, "errors", None)
    line: Any = None
    if callable(errors):
        try:
            line = next((e.get("input") for e in errors() if e.get("input") is not None), None)
        except Exception:  # noqa: BLE001 - only a nicer message is at stake
            line = None
    text = str(line if line is not None else exc)
    return "“" + visible_controls(text[:80]) + ("…" if len(text) > 80 else "") + "”"


def _transport_failure(exc: BaseException) -> bool:
    """Whether an exception from a call means the connection is gone (rather than one call failing)."""
    from mcp import MCPError

    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, MCPError):
        return "closed" in str(exc).lower() or "connection" in str(exc).lower()
    return isinstance(exc, (OSError, EOFError, ConnectionError)) or "Closed" in type(exc).__name__


def client_info() -> Any:
    """How Hermes introduces itself to a server: `hermes-desktop` and the app's version (ARCHITECTURE.md)."""
    from mcp.types import Implementation

    from hermes_desktop import __version__

    return Implementation(name="hermes-desktop", title="Hermes Desktop", version=__version__)


def client_kwargs(features: Any, config: ServerConfig) -> dict[str, Any]:
    """The client-feature callbacks passed to the SDK's Client for one server. `features` (set by the manager,
    built in core/mcp/client_features.py) answers `client_kwargs(config)` with any of `elicitation_callback`,
    `sampling_callback`, `sampling_capabilities`, `list_roots_callback`; the SDK declares exactly the capabilities
    whose callbacks are given, so what is declared is what is implemented. None: no client features."""
    if features is None:
        return {}
    return dict(features.client_kwargs(config))


async def http_transport(stack: AsyncExitStack, config: ServerConfig, headers: dict[str, str], auth: Any, *,
                         sse: bool, on_status: Callable[[int], None] | None = None) -> Any:
    """A Streamable HTTP (or legacy HTTP+SSE) transport to `config.url`, with OAuth when `auth` is given;
    `on_status` hears each status the MCP endpoint answers (not the OAuth side requests)."""
    import httpx2

    endpoint = config.url.split("?")[0].rstrip("/")

    async def hear(response: Any) -> None:
        if on_status is not None and str(response.request.url).split("?")[0].rstrip("/") == endpoint:
            on_status(response.status_code)

    def make_client(headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None) -> Any:
        # OAuth endpoints connect to the address their check approved (core/mcp/oauth_pins.py); with a proxy in
        # the environment, the proxy resolves names and httpx's own transport (which uses it) is kept.
        from hermes_desktop.core.mcp.oauth_pins import environment_proxies, pinned_transport

        transport = None if environment_proxies() else pinned_transport()
        return httpx2.AsyncClient(headers=headers, auth=auth, timeout=timeout or httpx2.Timeout(
            config.timeout_s, read=config.timeout_s + 30), event_hooks={"response": [hear]}, transport=transport)

    if sse:
        from mcp.client.sse import sse_client

        return sse_client(config.url, headers=headers, timeout=config.timeout_s, auth=auth,
                          httpx_client_factory=make_client)
    from mcp.client.streamable_http import streamable_http_client

    http = await stack.enter_async_context(make_client(headers, auth=auth))
    return streamable_http_client(config.url, http_client=http)


async def connect_once(config: ServerConfig, secrets: SecretStore | None, auth: Any,
                       features: Any = None) -> int:
    """Connect to an HTTP/SSE server once with `auth` (an interactive sign-in), list its tools, disconnect.
    Falls back to HTTP+SSE like a supervisor does. Returns the number of tools."""
    from mcp import Client

    resolved, _secret_values = await asyncio.to_thread(resolve_server, config, secrets)
    use_sse = config.transport == "sse"
    for attempt in range(2):
        seen: list[int] = []
        async with AsyncExitStack() as stack:
            transport = await http_transport(stack, resolved, dict(resolved.headers), auth, sse=use_sse,
                                             on_status=seen.append)
            try:
                client = await stack.enter_async_context(Client(
                    transport, mode="legacy", client_info=client_info(), **client_kwargs(features, config)))
            except Exception:
                if attempt == 0 and not use_sse and config.type != "http" and seen and seen[-1] in (404, 405):
                    use_sse = True
                    continue
                raise
            return len((await client.list_tools()).tools)
    return 0

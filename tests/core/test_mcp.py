"""MCP servers as real processes: the project's test server over stdio and Streamable HTTP, and
`mcp-server-time` from PyPI. Each fault the user can meet is injected: a server that crashes mid-call,
a hung tool, a command that does not exist, a missing secret, a broken mcp.json."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.llm import ModelClient
from hermes_desktop.core.mcp.bridge import risk_of, tool_name
from hermes_desktop.core.mcp.config import load_config
from hermes_desktop.core.mcp.status import ServerState
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.tools.approval import Decision
from hermes_desktop.core.tools.spec import Risk
from tests.support.engine import FAST_RETRIES, ScriptedApprover, of_type
from tests.support.loopback import free_port, spawned_server
from tests.support.model_server import CallScript, text_reply, tool_call_reply

REPO = Path(__file__).resolve().parents[2]
SETTLE_S = 30


def stdio_entry(cwd: Path, **extra: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": ["-m", "tests.support.mcp_server"], "cwd": str(cwd),
            "env": {"PYTHONPATH": str(REPO), **extra.pop("env", {})}, **extra}


@pytest.fixture
def secrets() -> MemorySecretStore:
    return MemorySecretStore()


@pytest.fixture
def runtime(workspace_dir: Path, secrets: MemorySecretStore):
    made = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=secrets)
    yield made
    made.store.close()


async def start(runtime, servers: dict[str, Any]) -> None:
    runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    await runtime.mcp.reload()
    await runtime.mcp.wait_until_settled(SETTLE_S)


async def start_everything_server(runtime, settle_s: float = SETTLE_S):
    """The reference @modelcontextprotocol/server-everything from npm (via npx), connected; its status. The test is
    skipped when the npm registry is out of reach (npx cannot fetch the server)."""
    runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {"everything": {
        "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "timeout": 60}}}),
        encoding="utf-8")
    await runtime.mcp.reload()
    await runtime.mcp.wait_until_settled(settle_s)
    status = runtime.mcp.supervisors["everything"].status
    if status.state is not ServerState.CONNECTED and any(
            code in status.detail for code in ("ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNREFUSED", "ECONNRESET")):
        await runtime.mcp.stop_all()
        pytest.skip(f"the npm registry is out of reach, so npx cannot fetch the server: {status.detail}")
    assert status.state is ServerState.CONNECTED, status.detail
    return status


async def until(condition, what: str, timeout: float = SETTLE_S) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


async def run_turn(runtime, profile, session_id: str, text: str, approver=None) -> list:
    agent = runtime.make_agent(approver or ScriptedApprover(), model=ModelClient(profile, "k", retry=FAST_RETRIES))
    try:
        return await agent.start_turn(session_id, text).wait()
    finally:
        await agent.model.aclose()


def state(runtime, name: str) -> ServerState:
    return runtime.mcp.supervisors[name].status.state


# ------------------------------------------------------------------ naming and risk

def test_tool_names_are_sanitised_and_short_and_risk_fails_closed() -> None:
    from mcp.types import ToolAnnotations

    assert tool_name("my server", "read.file") == "mcp_my_server_read_file"
    long = tool_name("a" * 40, "b" * 40)
    assert len(long) == 64 and long != tool_name("a" * 40, "b" * 39 + "c")
    assert risk_of(None) is Risk.DESTRUCTIVE
    assert risk_of(ToolAnnotations()) is Risk.DESTRUCTIVE
    assert risk_of(ToolAnnotations(read_only_hint=True)) is Risk.READ
    assert risk_of(ToolAnnotations(destructive_hint=False)) is Risk.WRITE


# ------------------------------------------------------------------ a working server

async def test_a_stdio_server_s_tools_are_offered_and_called_by_the_model(runtime, profile, model_server, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path)})
    status = runtime.mcp.supervisors["test"].status
    assert status.state is ServerState.CONNECTED and "mcp_test_add" in status.tools
    assert 300 < status.schema_tokens < 3000, "the per-request cost of its tool schemas is shown"
    spec = runtime.registry.get("mcp_test_add")
    assert spec.source == "mcp:test" and spec.risk is Risk.READ and sys.executable in spec.source_detail
    assert runtime.registry.get("mcp_test_wipe").risk is Risk.DESTRUCTIVE
    assert runtime.registry.get("mcp_test_write_marker").risk is Risk.WRITE

    model_server.enqueue(tool_call_reply(CallScript("mcp_test_add", {"a": 20, "b": 22})), text_reply("It is 42."))
    events = await run_turn(runtime, profile, "m", "what is 20 + 22?")
    assert "mcp_test_add" in model_server.chat_requests[0].tool_names
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.OK and finished.result.strip() == "42"
    assert runtime.store.messages("m")[-1].content == "It is 42."
    await runtime.mcp.stop_all()
    assert runtime.registry.get("mcp_test_add") is None


async def test_a_write_tool_asks_first_and_a_denial_keeps_the_server_from_acting(
        runtime, profile, model_server, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path)})
    call = CallScript("mcp_test_write_marker", {"name": "marker.txt"})
    model_server.enqueue(tool_call_reply(call), text_reply("Not written."), tool_call_reply(call), text_reply("Done."))
    denied = ScriptedApprover([Decision.DENY])
    await run_turn(runtime, profile, "w", "write it", denied)
    request = denied.asked[0]
    assert request.source == "mcp:test" and request.risk is Risk.WRITE and sys.executable in request.source_detail
    assert not (tmp_path / "marker.txt").exists()
    await run_turn(runtime, profile, "w", "write it now", ScriptedApprover([Decision.ALLOW_ONCE]))
    assert (tmp_path / "marker.txt").read_text() == "written by the MCP server"
    await runtime.mcp.stop_all()


async def test_a_tool_error_reaches_the_model_with_its_reason(runtime, profile, model_server, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path)})
    model_server.enqueue(tool_call_reply(CallScript("mcp_test_fail", {"reason": "quota exceeded"})), text_reply("Sorry."))
    events = await run_turn(runtime, profile, "e", "try")
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.ERROR and "quota exceeded" in finished.result
    assert state(runtime, "test") is ServerState.CONNECTED
    await runtime.mcp.stop_all()


async def test_resources_can_be_listed_and_read_by_the_model(runtime, profile, model_server, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path)})
    assert runtime.registry.get("mcp_test_read_resource").risk is Risk.READ
    model_server.enqueue(tool_call_reply(CallScript("mcp_test_list_resources", {})),
                         tool_call_reply(CallScript("mcp_test_read_resource", {"uri": "notes://handbook"})),
                         text_reply("The handbook says: ship small changes."))
    events = await run_turn(runtime, profile, "r", "what does the handbook say?")
    listed, read = of_type(events, ev.ToolCallFinished)
    assert json.loads(listed.result) == [{"uri": "notes://handbook", "name": "handbook",
                                          "description": "The team handbook", "mime_type": "text/markdown"}]
    assert read.outcome is ev.ToolOutcome.OK and read.result.startswith("# Handbook")
    model_server.enqueue(tool_call_reply(CallScript("mcp_test_read_resource", {"uri": "notes://missing"})),
                         text_reply("Not there."))
    events = await run_turn(runtime, profile, "r", "and the missing one?")
    assert of_type(events, ev.ToolCallFinished)[0].outcome is ev.ToolOutcome.ERROR
    assert state(runtime, "test") is ServerState.CONNECTED
    await runtime.mcp.stop_all()


async def test_prompts_are_listed_with_their_arguments_and_filled_by_the_server(runtime, tmp_path) -> None:
    from hermes_desktop.core.mcp.status import PromptArgument, PromptInfo
    from hermes_desktop.core.mcp.supervisor import ServerUnavailable

    await start(runtime, {"test": stdio_entry(tmp_path)})
    prompts = runtime.mcp.supervisors["test"].status.prompts
    assert prompts == (PromptInfo("review", "Ask for a careful review of a change", (
        PromptArgument("change", "", True), PromptArgument("focus", "", False))),)
    text = await runtime.mcp.get_prompt("test", "review", {"change": "rename x to y", "focus": "naming"})
    assert text == "Please review this change for naming:\n\nrename x to y"
    with pytest.raises(Exception) as missing:
        await runtime.mcp.get_prompt("test", "review", {})
    assert "change" in str(missing.value).lower()
    await runtime.mcp.stop_all()
    with pytest.raises(ServerUnavailable):
        await runtime.mcp.supervisors["test"].get_prompt("review", {"change": "x"})


# ------------------------------------------------------------------ faults

async def test_a_server_that_crashes_mid_call_fails_that_call_clearly_and_comes_back(
        runtime, profile, model_server, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path)})
    seen: list[ServerState] = []
    runtime.mcp.add_listener(lambda status: seen.append(status.state))
    model_server.enqueue(tool_call_reply(CallScript("mcp_test_crash", {})), text_reply("The server crashed."))
    events = await run_turn(runtime, profile, "c", "crash it")
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.ERROR and "MCP server “test” failed during the call" in finished.result
    assert events[-1].reason is ev.FinishReason.COMPLETED, "the turn goes on: the model is told"
    stored = runtime.store.messages("c")
    assert [m.role for m in stored] == ["user", "assistant", "tool", "assistant"] and stored[-1].content == "The server crashed."
    await until(lambda: state(runtime, "test") is ServerState.CONNECTED and ServerState.RESTARTING in seen,
                "the server to restart")
    restarting = runtime.mcp.supervisors["test"]
    log_text = (runtime.paths.mcp_log_dir / "test.log").read_text()
    assert "test server: crashing on purpose" in log_text
    model_server.enqueue(tool_call_reply(CallScript("mcp_test_echo", {"text": "back"})), text_reply("ok"))
    events = await run_turn(runtime, profile, "c", "again")
    assert of_type(events, ev.ToolCallFinished)[0].result == "echo: back"
    await restarting.stop()


async def test_a_hung_tool_times_out_and_the_server_keeps_working(runtime, profile, model_server, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path, timeout=2)})
    model_server.enqueue(tool_call_reply(CallScript("mcp_test_hang", {})), text_reply("It hung."),
                         tool_call_reply(CallScript("mcp_test_echo", {"text": "still here"})), text_reply("ok"))
    events = await run_turn(runtime, profile, "h", "wait")
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.TIMEOUT and "did not finish within 2 s" in finished.result
    events = await run_turn(runtime, profile, "h", "echo")
    assert of_type(events, ev.ToolCallFinished)[0].result == "echo: still here"
    assert state(runtime, "test") is ServerState.CONNECTED
    await runtime.mcp.stop_all()


async def test_a_missing_command_fails_with_the_reason_and_other_servers_still_start(runtime, tmp_path) -> None:
    await start(runtime, {"ghost": {"command": "no-such-mcp-server-binary"}, "test": stdio_entry(tmp_path)})
    ghost = runtime.mcp.supervisors["ghost"].status
    assert ghost.state is ServerState.FAILED and "not found" in ghost.detail
    assert state(runtime, "test") is ServerState.CONNECTED
    await runtime.mcp.stop_all()


async def test_a_broken_mcp_json_is_reported_left_untouched_and_keeps_running_servers(runtime, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path), "bad": {"url": "ftp://x"}, "worse": {"args": ["x"]}})
    assert any("“bad”" in p and "http://" in p for p in runtime.mcp.problems)
    assert any("“worse”" in p and "exactly one of" in p for p in runtime.mcp.problems)
    assert set(runtime.mcp.supervisors) == {"test"}
    broken = '{"mcpServers": {"test": '
    runtime.paths.mcp_config_file.write_text(broken, encoding="utf-8")
    await runtime.mcp.reload()
    assert any("not valid JSON" in p for p in runtime.mcp.problems)
    assert runtime.paths.mcp_config_file.read_text(encoding="utf-8") == broken
    assert state(runtime, "test") is ServerState.CONNECTED, "a half-saved edit does not stop what runs"
    await runtime.mcp.stop_all()


async def test_secrets_come_from_the_keyring_and_a_missing_one_is_named(
        runtime, secrets, profile, model_server, tmp_path) -> None:
    entry = stdio_entry(tmp_path, env={"SERVICE_TOKEN": "${secret:token}"})
    await start(runtime, {"test": entry})
    status = runtime.mcp.supervisors["test"].status
    assert status.state is ServerState.FAILED and "mcp:test:token" in status.detail
    secrets.set("mcp:test:token", "tok-1234567890")
    runtime.mcp.restart("test")
    await until(lambda: state(runtime, "test") is ServerState.CONNECTED, "the server with its secret")
    value = await runtime.registry.get("mcp_test_env_value").handler({"name": "SERVICE_TOKEN"}, None)
    assert value == "tok-1234567890", "the server got the secret from the keyring"
    model_server.enqueue(tool_call_reply(CallScript("mcp_test_env_value", {"name": "SERVICE_TOKEN"})), text_reply("ok"))
    events = await run_turn(runtime, profile, "k", "show the token")
    assert of_type(events, ev.ToolCallFinished)[0].result == "[redacted]", "the model never sees it echoed back"
    assert "tok-1234567890" not in json.dumps([m.content for m in runtime.store.messages("k")])
    assert await runtime.registry.get("mcp_test_env_value").handler({"name": "OPENAI_API_KEY"}, None) == "(unset)"
    assert "tok-1234567890" not in runtime.paths.mcp_config_file.read_text()
    await runtime.mcp.stop_all()


def test_config_parsing_reports_each_problem() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mcp.json"
        assert load_config(path).servers == ()
        path.write_text(json.dumps({"mcpServers": {"ok": {"command": "x", "timeout": 5},
                                                   "slow": {"command": "x", "timeout": "soon"},
                                                   "bad name!": {"command": "x"}}}))
        config = load_config(path)
        assert [s.name for s in config.servers] == ["ok"] and config.servers[0].timeout_s == 5
        assert len(config.problems) == 2


# ------------------------------------------------------------------ other transports and servers

@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    with spawned_server(["-m", "tests.support.mcp_server", "--http", str(port)], port, REPO, tmp_path / "http.log"):
        yield f"http://127.0.0.1:{port}/mcp"


async def test_a_streamable_http_server_works_like_a_stdio_one(runtime, profile, model_server, http_server) -> None:
    await start(runtime, {"remote": {"url": http_server}})
    assert state(runtime, "remote") is ServerState.CONNECTED
    spec = runtime.registry.get("mcp_remote_echo")
    assert spec.source_detail == http_server
    model_server.enqueue(tool_call_reply(CallScript("mcp_remote_echo", {"text": "over http"})), text_reply("ok"))
    events = await run_turn(runtime, profile, "h", "echo")
    assert of_type(events, ev.ToolCallFinished)[0].result == "echo: over http"
    await runtime.mcp.stop_all()


async def test_mcp_server_time_from_pypi(runtime, profile, model_server) -> None:
    await start(runtime, {"time": {"command": sys.executable, "args": ["-m", "mcp_server_time",
                                                                        "--local-timezone", "UTC"]}})
    status = runtime.mcp.supervisors["time"].status
    assert status.state is ServerState.CONNECTED, status.detail
    assert "mcp_time_get_current_time" in status.tools
    assert "mcp_time_read_resource" not in status.tools, "no resource tools for a server without resources"
    model_server.enqueue(tool_call_reply(CallScript("mcp_time_get_current_time", {"timezone": "Asia/Shanghai"})),
                         text_reply("ok"))
    events = await run_turn(runtime, profile, "t", "time in Shanghai?")
    result = of_type(events, ev.ToolCallFinished)[0]
    assert result.outcome is ev.ToolOutcome.OK and "Asia/Shanghai" in result.result
    await runtime.mcp.stop_all()


@pytest.mark.skipif(shutil.which("npx") is None, reason="Node.js (npx) is not installed: the reference "
                    "@modelcontextprotocol/server-everything server needs it")
async def test_the_reference_everything_server_from_npm(runtime, monkeypatch) -> None:
    monkeypatch.setenv("HERMES_API_KEY", "sk-must-not-reach-servers-0123")
    await start_everything_server(runtime)
    call = lambda tool, args: runtime.registry.get(f"mcp_everything_{tool}").handler(args, None)  # noqa: E731
    assert await call("echo", {"message": "hello"}) == "Echo: hello"
    assert "5" in await call("get-sum", {"a": 2, "b": 3})
    assert "[image content image/png not shown]" in await call("get-tiny-image", {})
    environment = await call("get-env", {})
    assert "sk-must-not-reach-servers" not in environment, "a server gets a minimal environment, not the app's"
    await runtime.mcp.stop_all()


def test_saving_one_server_keeps_the_rest_of_mcp_json_and_never_overwrites_a_broken_file(tmp_path: Path) -> None:
    from hermes_desktop.core.mcp.config import MCPConfigError, remove_server, save_server

    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"keep": {"command": "a", "x-note": "mine"},
                                               "edit": {"command": "b", "icon": "b.png"}}, "other": 1}))
    save_server(path, "renamed", {"command": "c", "args": ["--flag"], "timeout": 30}, replacing="edit")
    data = json.loads(path.read_text())
    assert data["other"] == 1 and data["mcpServers"]["keep"] == {"command": "a", "x-note": "mine"}
    assert data["mcpServers"]["renamed"] == {"icon": "b.png", "command": "c", "args": ["--flag"], "timeout": 30}
    assert "edit" not in data["mcpServers"]
    with pytest.raises(MCPConfigError, match="already a server"):
        save_server(path, "keep", {"command": "d"})
    with pytest.raises(MCPConfigError, match="exactly one of"):
        save_server(path, "bad", {"args": ["x"]})
    remove_server(path, "keep")
    assert set(json.loads(path.read_text())["mcpServers"]) == {"renamed"}
    path.write_text('{"mcpServers": {"half": ')
    with pytest.raises(MCPConfigError, match="not valid JSON"):
        save_server(path, "new", {"command": "e"})
    assert path.read_text() == '{"mcpServers": {"half": ', "a file it cannot parse is never rewritten"


# ------------------------------------------------------------------ servers that misbehave at the process level

def script_server(tmp_path: Path, name: str, code: str, **extra: Any) -> dict[str, Any]:
    """A tiny real server process: a Python script in the test's folder."""
    script = tmp_path / f"{name}.py"
    script.write_text(code, encoding="utf-8")
    return {"command": sys.executable, "args": [str(script)], "cwd": str(tmp_path),
            "env": {"PYTHONPATH": str(REPO)}, **extra}


GARBAGE = """\
import sys
print("Starting the \\x1b[31mbest\\x1b[0m server in the world...", flush=True)
print("Loaded 12 plugins", flush=True)
sys.stdin.read()  # and never a JSON-RPC message
"""

SILENT = """\
import sys
sys.stdin.read()  # reads every request, answers none
"""

CHATTY = """\
import runpy, sys
line = "x" * 99 + "\\n"
for n in range(50_000):  # 5 MB of chatter on stderr
    sys.stderr.write(line)
sys.stderr.write("END-OF-CHATTER\\n")
sys.stderr.flush()
runpy.run_module("tests.support.mcp_server", run_name="__main__")
"""


async def test_a_server_that_prints_garbage_on_stdout_fails_with_that_reason(runtime, tmp_path) -> None:
    # Its start timeout is the longest allowed: only noticing the garbage can settle it within SETTLE_S.
    await start(runtime, {"noisy": script_server(tmp_path, "noisy", GARBAGE, startTimeout=600),
                          "test": stdio_entry(tmp_path)})
    status = runtime.mcp.supervisors["noisy"].status
    assert status.state is ServerState.FAILED, status
    assert status.detail.startswith("it wrote something that is not MCP on its standard output: “Starting the "
                                    "\\x1b[31mbest\\x1b[0m server in the world...”"), status.detail
    assert "\x1b" not in status.detail
    assert state(runtime, "test") is ServerState.CONNECTED, "the other server is not affected"
    assert not [s.name for s in runtime.registry.specs() if s.name.startswith("mcp_noisy_")]
    await runtime.mcp.stop_all()


async def test_a_server_that_never_answers_initialize_fails_at_its_start_timeout(runtime, tmp_path) -> None:
    seen: list[ServerState] = []
    runtime.mcp.add_listener(lambda status: seen.append(status.state))
    await start(runtime, {"mute": script_server(tmp_path, "mute", SILENT, startTimeout=2)})
    status = runtime.mcp.supervisors["mute"].status
    assert status.state is ServerState.FAILED, status
    assert status.detail == "it did not answer `initialize` within 2 s (its startTimeout)"
    assert ServerState.RESTARTING not in seen, "restarting cannot fix a server that does not answer"
    await runtime.mcp.stop_all()


async def test_a_server_s_stderr_log_rotates_at_its_cap(runtime, tmp_path) -> None:
    from hermes_desktop.core.mcp.stderr_log import MAX_LOG_BYTES

    await start(runtime, {"chatty": script_server(tmp_path, "chatty", CHATTY)})
    assert state(runtime, "chatty") is ServerState.CONNECTED, runtime.mcp.supervisors["chatty"].status
    log = runtime.paths.mcp_log_dir / "chatty.log"
    await until(lambda: b"END-OF-CHATTER" in log.read_bytes(), "the last stderr line to reach the log")
    previous = log.with_name("chatty.log.1")
    assert log.stat().st_size <= MAX_LOG_BYTES and previous.stat().st_size <= MAX_LOG_BYTES
    assert sorted(p.name for p in log.parent.iterdir() if p.name.startswith("chatty")) == ["chatty.log", "chatty.log.1"]
    await runtime.mcp.stop_all()


# ------------------------------------------------------------------ stopping a server that is still starting

# A server that never answers `initialize`, ignores SIGTERM (its children inherit that), starts a child in its
# process group and a daemon that leaves the group; both keep the server's stderr pipe open. The last line
# decides how it meets the end of its stdin: "sleep" ignores it, "read" exits and leaves its child behind.
FAMILY = """\
import os, pathlib, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
child = subprocess.Popen(sleeper)
daemon = subprocess.Popen(sleeper, start_new_session=True)
pathlib.Path("pids.tmp").write_text(f"{os.getpid()} {child.pid} {daemon.pid}")
os.replace("pids.tmp", "pids")
print("family started", file=sys.stderr, flush=True)
"""
ENDINGS = {"sleep": "time.sleep(600)\n", "read": "sys.stdin.read()\n"}
STOP_GUARD_S = 60  # only catches a hang: the start timeouts below are 600 s


def family_pids(folder: Path) -> tuple[int, int, int]:
    server, child, daemon = (int(p) for p in (folder / "pids").read_text().split())
    return server, child, daemon


def gone(pid: int) -> bool:
    """No such process, or only its zombie (its parent, maybe init, has not reaped it yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def wait_for_condition(condition, what: str, guard_s: float = SETTLE_S) -> None:
    """Outside an event loop: poll until the condition holds; the guard only catches a hang."""
    import time

    deadline = time.monotonic() + guard_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def stderr_copiers(name: str) -> list[str]:
    import threading

    return [t.name for t in threading.enumerate() if t.name == f"mcp-stderr:{name}"]


async def start_family(runtime, folder: Path, ending: str, **others: Any) -> None:
    folder.mkdir()
    entry = script_server(folder, "family", FAMILY + ENDINGS[ending], startTimeout=600)
    runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {"slow": entry, **others}}), encoding="utf-8")
    await runtime.mcp.reload()
    await until(lambda: (folder / "pids").exists(), "the server to start its children")
    await until(lambda: b"family started" in (runtime.paths.mcp_log_dir / "slow.log").read_bytes(),
                "its stderr to reach the log")


def kill_daemon(folder: Path) -> None:
    import os
    import signal

    if (folder / "pids").exists() and not gone(daemon := family_pids(folder)[2]):
        os.kill(daemon, signal.SIGKILL)


@pytest.mark.parametrize("ending", sorted(ENDINGS))
async def test_a_server_stopped_while_starting_ends_with_its_process_group(runtime, tmp_path, ending) -> None:
    folder = tmp_path / "family"
    seen: list[ServerState] = []
    runtime.mcp.add_listener(lambda status: seen.append(status.state))
    try:
        await start_family(runtime, folder, ending)
        assert state(runtime, "slow") is ServerState.STARTING
        server, child, daemon = family_pids(folder)

        await asyncio.wait_for(runtime.mcp.stop_all(), STOP_GUARD_S)

        assert state(runtime, "slow") is ServerState.STOPPED
        assert ServerState.FAILED not in seen, "a stop is not a failed start"
        await until(lambda: gone(server) and gone(child), "the server and its child to be killed")
        # The daemon left the group by its own choice and is not the server's to kill; it still holds the pipe,
        # and the log copier ends anyway.
        assert not gone(daemon)
        await until(lambda: not stderr_copiers("slow"), "the stderr copier thread to end")
        assert b"family started" in (runtime.paths.mcp_log_dir / "slow.log").read_bytes()
    finally:
        kill_daemon(folder)


async def test_reloading_mcp_json_mid_start_stops_the_starting_server(runtime, tmp_path) -> None:
    folder = tmp_path / "family"
    try:
        await start_family(runtime, folder, "sleep")
        server, child, _ = family_pids(folder)
        runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {"test": stdio_entry(tmp_path)}}))

        await asyncio.wait_for(runtime.mcp.reload(), STOP_GUARD_S)
        await runtime.mcp.wait_until_settled(SETTLE_S)

        assert "slow" not in runtime.mcp.supervisors
        assert state(runtime, "test") is ServerState.CONNECTED, runtime.mcp.supervisors["test"].status
        await until(lambda: gone(server) and gone(child), "the removed server and its child to be killed")
        await until(lambda: not stderr_copiers("slow"), "the removed server's stderr copier to end")
        await runtime.mcp.stop_all()
    finally:
        kill_daemon(folder)


def test_ask_ends_after_its_turn_while_a_server_is_still_starting(model_server, workspace_dir, tmp_path) -> None:
    """Its startTimeout (25 s) outlasts ask's wait for MCP servers (20 s): ask answers without it, says why, and
    exits, leaving no server process behind."""
    from hermes_desktop.cli import MCP_START_WAIT_S
    from hermes_desktop.core.paths import app_paths
    from tests.support.cli import cli_env, hermes

    folder = tmp_path / "family"
    folder.mkdir()
    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"slow": script_server(
        folder, "family", FAMILY + ENDINGS["sleep"], startTimeout=MCP_START_WAIT_S + 5)}}), encoding="utf-8")
    model_server.enqueue(text_reply("Plain answer."))
    try:
        done = hermes("ask", "go", "--session", "s1", env=cli_env(model_server.base_url, workspace_dir, "sk-mcp-stop"))
        assert done.returncode == 0, done.stderr
        assert done.stdout == "Plain answer.\n"
        assert (f"note: MCP server slow is starting: still starting after {MCP_START_WAIT_S:g} s; its startTimeout "
                f"is {MCP_START_WAIT_S + 5:g} s") in done.stderr, done.stderr
        server, child, _ = family_pids(folder)
        wait_for_condition(lambda: gone(server) and gone(child), "ask left the server running")
    finally:
        kill_daemon(folder)

"""Per-session MCP servers (issue 24): the tools of a server turned off for a session are not in the request the
model server receives, a call to one is refused before anything runs, forks inherit the choice, and a server added
to mcp.json later is on for sessions that never chose and off for sessions with a list. Real parts: the project's
MCP test server and `mcp-server-time` (PyPI) as stdio processes, the scripted model server over HTTP through the
openai client, SQLite on disk."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hermes_desktop.core import events as ev
from hermes_desktop.core.mcp.session_servers import parse_choice, toggled
from hermes_desktop.core.mcp.status import ServerState
from tests.core.test_mcp import run_turn, runtime, secrets, start, stdio_entry  # noqa: F401 - fixtures
from tests.support.engine import ScriptedApprover, of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply

TIME = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}


def mcp_tools(request) -> set[str]:
    return {name for name in request.tool_names if name.startswith("mcp_")}


async def test_an_off_server_s_tools_are_not_sent_and_the_choice_follows_forks(
        runtime, profile, model_server, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path), "time": TIME})
    assert all(s.status.state is ServerState.CONNECTED for s in runtime.mcp.supervisors.values())
    choices = runtime.mcp.session_servers

    model_server.enqueue(text_reply("Both."))
    await run_turn(runtime, profile, "s1", "hello")
    sent = mcp_tools(model_server.chat_requests[-1])
    assert "mcp_test_echo" in sent and "mcp_time_get_current_time" in sent, "NULL: every enabled server"
    assert choices.choice("s1") is None

    choices.set_choice("s1", ["time"])
    model_server.enqueue(text_reply("Tea."))
    await run_turn(runtime, profile, "s1", "what should I drink this afternoon?")
    sent = mcp_tools(model_server.chat_requests[-1])
    assert sent == {"mcp_time_get_current_time", "mcp_time_convert_time"}, sent
    raw = runtime.store._read("SELECT mcp_servers FROM sessions WHERE id = 's1'")[0][0]
    assert json.loads(raw) == ["time"], "stored as a JSON list of the names that are on"

    fork = runtime.store.fork("s1", runtime.store.messages("s1")[-1].id)
    assert choices.choice(fork.id) == ("time",), "a fork inherits the choice"
    model_server.enqueue(text_reply("Still tea."))
    await run_turn(runtime, profile, fork.id, "and now?")
    assert "mcp_test_echo" not in mcp_tools(model_server.chat_requests[-1])

    choices.set_choice("s1", [])
    model_server.enqueue(text_reply("No tools."))
    await run_turn(runtime, profile, "s1", "just talk")
    assert not mcp_tools(model_server.chat_requests[-1]) and model_server.chat_requests[-1].tool_names, \
        "every server off: no MCP tool, the built-in tools remain"

    choices.set_choice("s1", None)
    model_server.enqueue(text_reply("All back."))
    await run_turn(runtime, profile, "s1", "tools again")
    assert "mcp_test_echo" in mcp_tools(model_server.chat_requests[-1])
    await runtime.mcp.stop_all()


async def test_a_call_to_an_off_server_s_tool_is_refused_and_never_runs(runtime, profile, model_server, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path), "time": TIME})
    runtime.mcp.session_servers.set_choice("s2", ["time"])
    marker = tmp_path / "marker.txt"
    model_server.enqueue(tool_call_reply(CallScript("mcp_test_write_marker", {"name": str(marker)})),
                         text_reply("It was off."))
    events = await run_turn(runtime, profile, "s2", "write the marker", approver=ScriptedApprover())
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is not ev.ToolOutcome.OK
    assert "turned off for this conversation" in finished.result
    assert not marker.exists(), "the server never ran the call"
    assert "turned off for this conversation" in model_server.chat_requests[-1].messages[-1]["content"]
    await runtime.mcp.stop_all()


async def test_a_server_added_later_is_on_for_default_sessions_and_off_for_sessions_with_a_list(
        runtime, profile, model_server, tmp_path) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path)})
    runtime.mcp.session_servers.set_choice("picked", ["test"])
    runtime.store.create_session("default")

    await start(runtime, {"test": stdio_entry(tmp_path), "time": TIME})  # the user adds a server to mcp.json
    assert runtime.mcp.supervisors["time"].status.state is ServerState.CONNECTED
    model_server.enqueue(text_reply("a"), text_reply("b"))
    await run_turn(runtime, profile, "default", "hi")
    assert "mcp_time_get_current_time" in mcp_tools(model_server.chat_requests[-1])
    await run_turn(runtime, profile, "picked", "hi")
    sent = mcp_tools(model_server.chat_requests[-1])
    assert "mcp_time_get_current_time" not in sent and "mcp_test_echo" in sent
    await runtime.mcp.stop_all()


async def test_a_damaged_choice_turns_every_server_off_and_says_so_in_the_log(
        runtime, profile, model_server, tmp_path, caplog) -> None:
    await start(runtime, {"test": stdio_entry(tmp_path)})
    runtime.store.create_session("damaged")
    runtime.store._write(lambda db: db.execute("UPDATE sessions SET mcp_servers = '{not json' WHERE id = 'damaged'"))
    model_server.enqueue(text_reply("ok"))
    await run_turn(runtime, profile, "damaged", "hi")
    assert not mcp_tools(model_server.chat_requests[-1]), "fail-closed: nothing offered from a value we cannot read"
    assert "not a list of names" in caplog.text
    await runtime.mcp.stop_all()


def test_toggling_from_every_server_keeps_the_others_on() -> None:
    assert toggled(None, "b", False, ["a", "b", "c"]) == ("a", "c")
    assert toggled(("a",), "c", True, ["a", "b", "c"]) == ("a", "c")
    assert toggled(("a", "c"), "a", False, ["a", "b", "c"]) == ("c",)
    assert parse_choice(None) is None and parse_choice('["a","a","b"]') == ("a", "b")
    assert parse_choice("[1]") == () and parse_choice("null") == ()


def test_a_new_session_s_choice_creates_it(runtime) -> None:
    runtime.mcp.session_servers.set_choice("brand-new", ["x"])
    assert runtime.store.get_session("brand-new") is not None
    assert runtime.mcp.session_servers.choice("brand-new") == ("x",)

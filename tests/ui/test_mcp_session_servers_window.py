"""Issue 24 in the window: the status bar's MCP button turns servers off for the open conversation and the next
request carries only the servers left on; the MCP tab's log view shows what a running server writes, live; a server
that fails at start shows its log's last line on its row. Real MCP server processes (the project's test server,
`mcp-server-time` from PyPI, and a Python one-liner that fails at start), the scripted model server over HTTP."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtWidgets import QListWidget, QPlainTextEdit

from tests.support.model_server import CallScript, text_reply, tool_call_reply

REPO = Path(__file__).resolve().parents[2]
TEST_SERVER = {"command": sys.executable, "args": ["-m", "tests.support.mcp_server"], "env": {"PYTHONPATH": str(REPO)}}
TIME_SERVER = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}


def write_config(servers: dict) -> None:
    from hermes_desktop.core.paths import app_paths

    path = app_paths().mcp_config_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def server_texts(h) -> list[str]:
    items = h.window.findChild(QListWidget, "mcpServerList")
    return [items.item(i).text() for i in range(items.count())]


def connected(h, *names: str) -> bool:
    texts = server_texts(h)
    return all(any(t.startswith(f"{name}  ·  connected") for t in texts) for name in names)


def select(h, name: str) -> None:
    items = h.window.findChild(QListWidget, "mcpServerList")
    row = next(i for i in range(items.count()) if items.item(i).text().startswith(f"{name}  "))
    h.do(lambda: items.setCurrentRow(row))


def mcp_tools(request) -> set[str]:
    return {name for name in request.tool_names if name.startswith("mcp_")}


def turn_requests(model_server) -> list:
    """The conversation's requests (they offer tools), not the title request the window makes beside them."""
    return [r for r in model_server.chat_requests if r.tool_names]


def test_turning_a_server_off_in_the_status_bar_menu_changes_the_next_request(make_window, model_server, tmp_path) -> None:
    write_config({"test": {**TEST_SERVER, "cwd": str(tmp_path)}, "time": TIME_SERVER})
    h = make_window()
    h.wait_until(lambda: connected(h, "test", "time"), timeout=30, what="both servers to connect")
    button = h.window.mcp.session_button
    h.wait_until(lambda: button.isVisible() and button.text() == "MCP: all", what="the MCP button")

    model_server.enqueue(text_reply("Both are here."))
    h.send("hello")
    h.wait_until(lambda: len(turn_requests(model_server)) >= 1 and not h.window.chat.busy, what="the first reply")
    first = mcp_tools(turn_requests(model_server)[-1])
    assert "mcp_test_echo" in first and "mcp_time_get_current_time" in first
    session = h.window.current_session

    action = button.server_actions["test"]
    assert action.isChecked() and "tokens per request" in action.text(), "each server with its cost per request"
    h.do(action.trigger)  # the user unticks "test" in the menu
    h.wait_until(lambda: h.window.mcp.choice(session) == ("time",), what="the choice to be kept")
    h.wait_until(lambda: h.window.controller.runtime.mcp.session_servers.choice(session) == ("time",),
                 what="the choice to be saved with the session")
    assert button.text() == "MCP 1/2" and not button.server_actions["test"].isChecked()
    assert "saves about" in button.toolTip()
    assert any(t.startswith("test  ·  connected") and "Off in this conversation" in t for t in server_texts(h))

    model_server.enqueue(tool_call_reply(CallScript("mcp_test_echo", {"text": "should not run"})),
                         text_reply("Only time is on."))
    h.send("what should I drink this afternoon?")
    h.wait_until(lambda: len(turn_requests(model_server)) >= 3 and not h.window.chat.busy, what="the next turn")
    second = turn_requests(model_server)[1]
    assert mcp_tools(second) == {"mcp_time_get_current_time", "mcp_time_convert_time"}, mcp_tools(second)
    assert "turned off for this conversation" in turn_requests(model_server)[2].messages[-1]["content"], \
        "a call to the off server's tool is refused, never run"

    h.do(button.every_action.trigger)  # "Every server (also ones added later)"
    h.wait_until(lambda: h.window.controller.runtime.mcp.session_servers.choice(session) is None,
                 what="the default again")
    assert button.text() == "MCP: all"
    model_server.enqueue(text_reply("All again."))
    h.send("and now?")
    h.wait_until(lambda: len(turn_requests(model_server)) >= 4 and not h.window.chat.busy, what="the last turn")
    assert "mcp_test_echo" in mcp_tools(turn_requests(model_server)[-1])


def test_the_log_view_follows_a_running_server_s_log(make_window, tmp_path) -> None:
    from hermes_desktop.core.paths import app_paths

    write_config({"talker": {"command": sys.executable, "args": ["-m", "tests.support.mcp_log_server"],
                             "env": {"PYTHONPATH": str(REPO)}}})
    h = make_window()
    h.wait_until(lambda: connected(h, "talker"), timeout=30, what="the server to connect")
    h.do(lambda: h.window.inspector.setCurrentWidget(h.window.inspector.mcp))
    select(h, "talker")
    view = h.window.findChild(QPlainTextEdit, "mcpLogView")
    h.wait_until(lambda: "log server: ready" in view.toPlainText(), what="what the server wrote at start")

    # The running server writes to its stderr (the log's pipe) through one of its own tools.
    runtime = h.window.controller.runtime
    tool = runtime.registry.get("mcp_talker_say")
    h.run(tool.handler({"text": "indexing 42 files\x1b[31m done\x1b[0m"}, None))
    h.wait_until(lambda: "indexing 42 files done" in view.toPlainText(), what="the new line in the view, live")
    assert "\x1b" not in view.toPlainText(), "terminal escapes are removed"
    assert view.toPlainText().rstrip().endswith("indexing 42 files done"), "newest last"
    assert (app_paths().mcp_log_dir / "talker.log").exists()
    assert "Log of “talker”" in h.window.inspector.mcp.log_title.text()


def test_a_server_that_fails_at_start_shows_its_log_s_last_line(make_window, tmp_path) -> None:
    failing = {"command": sys.executable, "args": ["-c", (
        "import sys; print('loading config', file=sys.stderr); "
        "print('Error: DATABASE_URL is not set', file=sys.stderr); sys.exit(2)")]}
    write_config({"broken": failing})
    h = make_window()
    h.wait_until(lambda: any(t.startswith("broken  ·  ") and "Last log line: Error: DATABASE_URL is not set" in t
                             for t in server_texts(h)), timeout=60, what="the failed start's last log line on its row")
    row = next(t for t in server_texts(h) if t.startswith("broken"))
    below_command = row.split("\n", 1)[1]  # the first line holds the command line, which names it too
    assert below_command.count("DATABASE_URL") == 1, "said once: on its own line, not again inside the reason"
    h.do(lambda: h.window.inspector.setCurrentWidget(h.window.inspector.mcp))
    select(h, "broken")
    view = h.window.findChild(QPlainTextEdit, "mcpLogView")
    h.wait_until(lambda: "Error: DATABASE_URL is not set" in view.toPlainText(), what="the log in the view")

"""The circuit breaker: an MCP server whose tool calls keep failing has its tools withheld from the model, with
the reason, and is tried again with one call after a cool-down, or at once on Restart.

The breaker's logic is checked with a hand-moved clock; the story runs against the project's real MCP test
server, whose `fail` tool always fails and `hang` tool never answers. The cool-down is crossed by moving the
breaker's clock, never by sleeping."""

from __future__ import annotations

import json

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.mcp.breaker import BreakerState, CircuitBreaker, ToolWithheld
from hermes_desktop.core.mcp.config import BreakerSettings, MCPConfigError, parse_server
from hermes_desktop.core.mcp.status import ServerState
from hermes_desktop.core.tools.spec import ToolError
from tests.core.test_mcp import run_turn, runtime, secrets, start, state, stdio_entry, until  # noqa: F401
from tests.support.engine import of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_failures_in_a_row_within_the_window_open_it_and_a_success_starts_the_count_again() -> None:
    clock = Clock()
    breaker = CircuitBreaker("s", BreakerSettings(failures=3, window_s=300, cooldown_s=60), clock)
    assert not breaker.failed("boom") and not breaker.failed("boom")
    breaker.succeeded()
    assert not breaker.failed("a") and not breaker.failed("b")
    clock.now += 400  # the first two fall out of the window
    assert not breaker.failed("c") and not breaker.failed("d")
    assert breaker.failed("e: the last reason")
    assert breaker.state is BreakerState.OPEN and breaker.withheld
    assert "3 failed calls in a row" in breaker.note() and "e: the last reason" in breaker.note()
    with pytest.raises(ToolWithheld, match="tried again in 60 s"):
        breaker.before_call()
    clock.now += 60
    assert breaker.state is BreakerState.HALF_OPEN and not breaker.withheld
    breaker.before_call()  # the one trial
    with pytest.raises(ToolWithheld, match="being tried with one call"):
        breaker.before_call()
    assert breaker.failed("still broken"), "a failed trial opens it again"
    assert breaker.withheld and breaker.retry_in_s() == 60
    clock.now += 60
    breaker.before_call()
    breaker.abandoned()  # the user pressed Stop during the trial: the next call is the trial
    breaker.before_call()
    breaker.succeeded()
    assert breaker.state is BreakerState.CLOSED and breaker.note() == ""
    off = CircuitBreaker("s", BreakerSettings(failures=0), clock)
    assert not any(off.failed("x") for _ in range(50)) and not off.withheld


def test_breaker_settings_come_from_mcp_json_and_bad_ones_are_refused() -> None:
    server = parse_server("s", {"command": "x", "breaker": {"failures": 2, "cooldownSeconds": 5}})
    assert server.breaker == BreakerSettings(2, 300.0, 5.0)
    assert parse_server("s", {"command": "x"}).breaker == BreakerSettings(5, 300.0, 60.0)
    for bad in ({"failures": -1}, {"failures": "many"}, {"cooldownSeconds": 0}, "yes"):
        with pytest.raises(MCPConfigError, match="breaker"):
            parse_server("s", {"command": "x", "breaker": bad})


async def test_a_server_whose_calls_keep_failing_is_withheld_then_tried_once_then_restored(
        runtime, profile, model_server, tmp_path) -> None:  # noqa: F811
    await start(runtime, {"flaky": stdio_entry(tmp_path, breaker={"failures": 2, "cooldownSeconds": 60}),
                          "steady": stdio_entry(tmp_path)})
    supervisor = runtime.mcp.supervisors["flaky"]
    clock = Clock()
    supervisor.breaker.clock = clock

    # The model calls the failing tool twice; the second failure trips the breaker, and says so.
    fail = CallScript("mcp_flaky_fail", {"reason": "database is down"})
    model_server.enqueue(tool_call_reply(fail), tool_call_reply(fail), text_reply("The server is broken."))
    events = await run_turn(runtime, profile, "b", "use the flaky server")
    results = [e.result for e in of_type(events, ev.ToolCallFinished)]
    assert "database is down" in results[0] and "withheld" not in results[0]
    assert "tools withheld from the model after 2 failed calls" in results[1], "the model and Activity see why"
    assert "mcp_flaky_fail" in model_server.chat_requests[1].tool_names
    assert not any(n.startswith("mcp_flaky_") for n in model_server.chat_requests[2].tool_names), \
        "withheld from the model from the next request on"
    assert "mcp_steady_echo" in model_server.chat_requests[2].tool_names, "other servers are not affected"
    system = model_server.chat_requests[2].messages[0]["content"]
    assert "The tools of MCP server “flaky” are not available for now: its last 2 calls failed." in system
    assert "database is down" not in system, "the server's own words stay out of the system message"
    assert "“flaky” are not available" not in model_server.chat_requests[1].messages[0]["content"]

    # The MCP tab shows the reason; the server itself stays connected.
    status = runtime.mcp.statuses()[0] if runtime.mcp.statuses()[0].name == "flaky" else runtime.mcp.statuses()[1]
    assert status.state is ServerState.CONNECTED and "withheld" in status.withheld
    assert "database is down" in status.withheld
    assert status.breaker is not None and status.breaker.failures == 2 and not status.breaker.on_trial
    assert "database is down" in status.breaker.reason and status.breaker.retry_at.count(":") == 2

    # A call that still arrives is not sent to the server: a structured error says why.
    with pytest.raises(ToolWithheld) as withheld:
        await runtime.registry.get("mcp_flaky_write_marker").handler({"name": "marker.txt"}, None)
    assert "withheld" in str(withheld.value) and not (tmp_path / "marker.txt").exists()

    # After the cool-down the tools are offered again; one good call closes the breaker.
    clock.now += 60
    assert runtime.mcp.withheld_tools() == set()
    assert await runtime.registry.get("mcp_flaky_echo").handler({"text": "hi"}, None) == "echo: hi"
    assert supervisor.breaker.state is BreakerState.CLOSED and supervisor.status.withheld == ""

    # Trip it again: a failing trial re-opens it; Restart closes it at once.
    for _ in range(2):
        with pytest.raises(ToolError):
            await runtime.registry.get("mcp_flaky_fail").handler({"reason": "again"}, None)
    clock.now += 60
    with pytest.raises(ToolError, match="withheld"):
        await runtime.registry.get("mcp_flaky_fail").handler({"reason": "trial fails"}, None)
    assert supervisor.breaker.withheld and "trial fails" in supervisor.status.withheld
    runtime.mcp.restart("flaky")
    await until(lambda: state(runtime, "flaky") is ServerState.CONNECTED and not supervisor.breaker.withheld,
                "the restarted server")
    assert runtime.mcp.withheld_tools() == set()
    await runtime.mcp.stop_all()


async def test_calls_that_time_out_count_as_failures(runtime, tmp_path) -> None:  # noqa: F811
    from hermes_desktop.core.tools.runner import run_tool

    await start(runtime, {"slow": stdio_entry(tmp_path, timeout=1, breaker={"failures": 2})})
    spec = runtime.registry.get("mcp_slow_hang")
    for _ in range(2):
        result = await run_tool(spec, {"seconds": 30}, None, default_timeout_s=60, char_budget=10_000)
        assert result.outcome is ev.ToolOutcome.TIMEOUT
    supervisor = runtime.mcp.supervisors["slow"]
    assert supervisor.breaker.withheld and "did not answer within 1 s" in supervisor.status.withheld
    assert "mcp_slow_echo" in runtime.mcp.withheld_tools()
    json.dumps(runtime.mcp.statuses()[0].withheld)
    await runtime.mcp.stop_all()


async def test_the_user_s_stop_is_not_a_failure(runtime, tmp_path) -> None:  # noqa: F811
    import asyncio

    from hermes_desktop.core.tools.runner import RUNNING_DEADLINES, run_tool

    await start(runtime, {"slow": stdio_entry(tmp_path, timeout=600, breaker={"failures": 2})})
    spec = runtime.registry.get("mcp_slow_hang")
    for _ in range(3):
        call = asyncio.ensure_future(run_tool(spec, {"seconds": 30}, None, default_timeout_s=600, char_budget=1000))
        await until(lambda: RUNNING_DEADLINES.get("mcp:slow"), "the call to be running")
        call.cancel()  # what Stop does
        with pytest.raises(asyncio.CancelledError):
            await call
    supervisor = runtime.mcp.supervisors["slow"]
    assert not supervisor.breaker.withheld and supervisor.status.withheld == ""
    assert await runtime.registry.get("mcp_slow_echo").handler({"text": "still here"}, None) == "echo: still here"
    await runtime.mcp.stop_all()

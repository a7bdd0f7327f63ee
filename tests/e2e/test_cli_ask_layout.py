"""`ask` on the terminal, as a real subprocess against the scripted server: the reply's text before and
after a tool call are two paragraphs, and an error that comes while the thinking is shown starts on its own
line (stdout stays the reply alone)."""

from __future__ import annotations

from tests.support.cli import hermes
from tests.support.model_server import CallScript, ScriptedReply, reasoning_events, text_reply, tool_call_reply


def test_text_before_and_after_a_tool_call_is_separated(server, env) -> None:
    server.enqueue(tool_call_reply(CallScript("get_current_time", {}), text="Let me check the clock."),
                   text_reply("It is noon."))
    result = hermes("ask", "what time is it?", "--session", "l1", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Let me check the clock.\n\nIt is noon.\n"
    assert "[tool get_current_time: ok" in result.stderr


def test_an_error_after_thinking_starts_on_its_own_line(server, env) -> None:
    # The reply thinks, then the connection drops before any answer: the thinking line is closed first.
    events = reasoning_events("Weighing the options", "", chunk_size=6)
    server.enqueue(*[ScriptedReply(events=events, ending="drop")] * 3)
    result = hermes("ask", "choose", "--session", "l2", "--show-thinking", env=env)
    assert result.returncode != 0
    lines = result.stderr.splitlines()
    assert "Weighing the options" in lines
    assert any(line.startswith("error: ") for line in lines), result.stderr
    assert result.stdout == ""

"""`ask` with a reasoning model, as a real subprocess against the scripted server: stdout is the reply alone;
`--show-thinking` puts the thinking on stderr (no escape sequence from the model reaches the terminal);
`--json` carries it as reasoning_delta events; the export shows it collapsed."""

from __future__ import annotations

import json


from tests.support.cli import hermes
from tests.support.model_server import reasoning_reply

THOUGHT = "Pondering the question \x1b[31mcarefully\x1b[0m."
ANSWER = "Forty-two."


def test_thinking_is_not_printed_unless_asked_and_json_carries_it(server, env) -> None:
    server.enqueue(reasoning_reply(THOUGHT, ANSWER, form="think"))
    plain = hermes("ask", "the answer?", "--session", "t1", env=env)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.strip() == ANSWER and "Pondering" not in plain.stderr

    server.enqueue(reasoning_reply(THOUGHT, ANSWER))
    shown = hermes("ask", "again?", "--session", "t2", "--show-thinking", env=env)
    assert shown.returncode == 0 and shown.stdout.strip() == ANSWER
    assert "Pondering the question carefully." in shown.stderr and "\x1b[31m" not in shown.stderr

    server.enqueue(reasoning_reply(THOUGHT, ANSWER, reasoning_tokens=7))
    as_json = hermes("ask", "json?", "--session", "t3", "--json", env=env)
    events = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert "".join(e["text"] for e in events if e["type"] == "reasoning_delta") == THOUGHT
    assert [e["reasoning_tokens"] for e in events if e["type"] == "usage_reported"] == [7]

    exported = hermes("sessions", "export", "t2", "--format", "md", env=env)
    assert "<summary>Thought for" in exported.stdout and ANSWER in exported.stdout

"""`ask` as a real process without a terminal: an MCP server's elicitation is declined and its sampling request is
refused, never answered by itself, and the model is not called for the server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from tests.support.cli import hermes
from tests.support.model_server import CallScript, text_reply, tool_call_reply

REPO = Path(__file__).resolve().parents[2]


def test_ask_without_a_terminal_declines_elicitation_and_refuses_sampling(server, env) -> None:
    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"cf": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server", "--client-features"],
        "env": {"PYTHONPATH": str(REPO)}, "cwd": str(REPO)}}}), encoding="utf-8")
    server.enqueue(tool_call_reply(CallScript("mcp_cf_ask_form", {})),
                   tool_call_reply(CallScript("mcp_cf_sample", {"prompt": "Tell me what the user said before."})),
                   text_reply("Nothing was shared."))
    done = hermes("ask", "register me", "--session", "s1", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Nothing was shared.\n"
    requests = [r for r in server.chat_requests if not r.system_prompt.startswith("Write a title")]  # asked mid-turn
    prompt = "Tell me what the user said before."
    assert not any(r.messages and r.messages[-1].get("content") == prompt for r in requests), \
        "the model was never asked for the server's sampling (requests: the turn's three and the title)"
    elicited = json.loads(requests[1].messages[-1]["content"])
    assert elicited == {"action": "decline", "content": None}
    sampled = json.loads(requests[2].messages[-1]["content"])
    assert sampled["code"] == -1 and "rejected" in sampled["error"].lower()
    lines = [json.loads(line) for line in app_paths().audit_log.read_text(encoding="utf-8").splitlines()]
    sampling = [line for line in lines if line.get("tool") == "sampling/createMessage"]
    assert len(sampling) == 1 and sampling[0]["decision"] == "refused" and sampling[0]["source"] == "mcp:cf"
    assert sampling[0]["decided_by"] == "nobody to ask"
    assert [line["decision"] for line in lines if line.get("tool") == "elicitation/create"] == ["decline"]


def test_ask_on_a_terminal_asks_field_by_field_and_shows_the_sampling_reply_before_sending(server, env) -> None:
    """stdin is a real pseudo-terminal: the form is filled line by line (a value out of range is asked again), the
    sampling request is allowed, its reply edited, and what the server received is what was typed."""
    import os
    import subprocess

    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"cf": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server", "--client-features"],
        "env": {"PYTHONPATH": str(REPO)}, "cwd": str(REPO)}}}), encoding="utf-8")
    schema = json.dumps({"type": "object", "properties": {
        "city": {"type": "string", "title": "City"}, "nights": {"type": "integer", "minimum": 1, "maximum": 14}},
        "required": ["city"]})
    server.enqueue(tool_call_reply(CallScript("mcp_cf_ask_form", {"schema": schema})),
                   tool_call_reply(CallScript("mcp_cf_sample", {"prompt": "Name a hotel.", "max_tokens": 40})),
                   text_reply("Hotel Sol."),  # the sampling reply from the active model
                   text_reply("All set."))
    main, child = os.openpty()
    answers = "y\nLisbon\n20\n3\ny\ny\ne\nHotel Lua\n.\n"
    os.write(main, answers.encode())
    try:
        done = subprocess.run([sys.executable, "-m", "hermes_desktop", "ask", "book it", "--session", "s2"],
                              cwd=REPO, env=env, stdin=child, capture_output=True, text=True, timeout=120)
    finally:
        os.close(child)
        os.close(main)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "All set.\n"
    assert "MCP server cf asks:" in done.stderr and "the largest allowed value is 14" in done.stderr
    assert "Reply:\n  Hotel Sol." in done.stderr
    requests = [r for r in server.chat_requests if not r.system_prompt.startswith("Write a title")]  # asked mid-turn
    form = json.loads(requests[1].messages[-1]["content"])
    assert form == {"action": "accept", "content": {"city": "Lisbon", "nights": 3}}
    sampled = json.loads(requests[3].messages[-1]["content"])
    assert sampled["text"] == "Hotel Lua" and sampled["model"] == "scripted-model"
    assert requests[2].messages == [{"role": "user", "content": "Name a hotel."}]

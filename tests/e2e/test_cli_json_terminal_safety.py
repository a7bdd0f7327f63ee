"""`--json` output is read on terminals too: with Chinese kept as is (ensure_ascii=False), json.dumps would let
C1 controls (U+009B is a CSI to xterm), DEL and bidi overrides through. Every `--json` printer escapes them
(core/terminal_text.terminal_safe_json), so the bytes on the terminal carry no control, and the JSON still
decodes to exactly what the model or the user wrote."""

from __future__ import annotations

import json

from tests.support.cli import hermes
from tests.support.model_server import text_reply

HOSTILE = "ok \x9b31m red \u202eevil\u202c 中文 \x7f end"
RAW = ("\x9b", "\u202e", "\u202c", "\x7f")


def _no_raw_controls(text: str) -> None:
    assert not [c for c in RAW if c in text], repr(text[:300])


def test_ask_json_sessions_list_and_memory_json_escape_terminal_controls(server, env) -> None:
    server.enqueue(text_reply(HOSTILE))
    asked = hermes("ask", "say it", "--session", "hostile", "--json", env=env)
    assert asked.returncode == 0, asked.stderr
    _no_raw_controls(asked.stdout)
    lines = [json.loads(line) for line in asked.stdout.splitlines() if line.strip()]
    assert HOSTILE in "".join(line.get("text", "") for line in lines if line.get("type") == "text_delta")
    assert "中" in asked.stdout and "\\u4e2d" not in asked.stdout  # Chinese stays readable, not \\u escapes

    listed = hermes("sessions", "list", "--json", env=env)
    assert listed.returncode == 0, listed.stderr
    _no_raw_controls(listed.stdout)
    assert "hostile" in [s["id"] for s in json.loads(listed.stdout)]

    added = hermes("memory", "add", "I like \u202etea\u202c and \x9bcoffee", env=env)
    assert added.returncode == 0, added.stderr
    for command in (("memory", "list", "--json"), ("memory", "export")):
        shown = hermes(*command, env=env)
        assert shown.returncode == 0, shown.stderr
        _no_raw_controls(shown.stdout)
        document = json.loads(shown.stdout)
        memories = document if isinstance(document, list) else document["memories"]
        assert any("\u202etea" in m["statement"] and "\x9bcoffee" in m["statement"] for m in memories)

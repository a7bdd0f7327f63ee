"""The issue's cut tool call through the real command line: `hermes-desktop ask --json` in a subprocess.

The scripted server closes the connection inside `delete_path`'s arguments (`{"path": "data`, no finish
reason, no `[DONE]`) while an "always allow" rule for delete_path is saved in settings.json: the folder must
survive, the turn must end with an error offering Retry, and the stored session and the audit log must show
the call interrupted and not run. An endless reply must stop at the output limit with what arrived kept.
"""

from __future__ import annotations

import json
import subprocess


from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import AgentLimits, Settings, SettingsStore
from hermes_desktop.core.store import open_store
from tests.support.cli import hermes
from tests.support.model_server import CallScript, cut_tool_call_reply, endless_text_reply



def ask_json(text: str, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    result = hermes("ask", text, "--session", "cut", "--json", env=env)
    return result, [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def test_a_delete_cut_inside_its_arguments_does_not_run_under_an_always_allow_rule(server, env, workspace_dir) -> None:
    data = workspace_dir / "data"
    (data / "sub").mkdir(parents=True)
    (data / "report.txt").write_text("quarterly numbers", encoding="utf-8")
    (data / "sub" / "notes.txt").write_text("keep", encoding="utf-8")
    SettingsStore(app_paths()).save(Settings(tool_rules={"builtin/delete_path": "always_allow"}))
    server.enqueue(cut_tool_call_reply(CallScript("delete_path", '{"path": "data', id="call_cut"),
                                       text="Removing the data folder now."))

    result, events = ask_json("delete the data folder", env)

    assert result.returncode == 1, result.stderr
    assert (data / "report.txt").read_text(encoding="utf-8") == "quarterly numbers"
    assert (data / "sub" / "notes.txt").exists()
    kinds = [e["type"] for e in events]
    assert "tool_call_started" not in kinds and "tool_call_decided" not in kinds
    assert "tool_call_awaiting_approval" not in kinds
    [finished] = [e for e in events if e["type"] == "tool_call_finished"]
    assert (finished["call_id"], finished["outcome"]) == ("call_cut", "interrupted")
    [error] = [e for e in events if e["type"] == "turn_error"]
    assert error["kind"] == "stream_dropped" and error["action"] == "retry" and "not run" in error["message"]
    assert events[-1]["type"] == "turn_finished" and events[-1]["reason"] == "error"

    paths = app_paths()
    opened = open_store(paths)
    try:
        user, assistant, tool = opened.store.messages("cut")
    finally:
        opened.store.close()
    assert user.content == "delete the data folder"
    assert (assistant.interrupted, assistant.finish_reason) == (True, "interrupted")
    assert assistant.tool_calls[0]["function"] == {"name": "delete_path", "arguments": '{"path": "data'}
    assert tool.tool_call_id == "call_cut" and json.loads(tool.content)["status"] == "interrupted"
    audit = [json.loads(line) for line in paths.audit_log.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert [(a["tool"], a["outcome"], a["decision"]) for a in audit] == [("delete_path", "interrupted", None)]
    # never asked again (the title, asked while the reply streamed, is another request and is not stored)
    assert len([r for r in server.chat_requests if not r.system_prompt.startswith("Write a title")]) == 1


def test_an_endless_reply_stops_at_the_output_limit_in_the_cli(server, env) -> None:
    SettingsStore(app_paths()).save(Settings(limits=AgentLimits(max_reply_chars=30_000)))
    server.enqueue(endless_text_reply("and on "))

    result, events = ask_json("tell me a story", env)

    assert result.returncode == 3, result.stderr  # stopped by a guard
    shown = "".join(e["text"] for e in events if e["type"] == "text_delta")
    assert shown.startswith("This goes on and on") and len(shown) > 30_000
    assert events[-1]["type"] == "turn_finished" and events[-1]["reason"] == "output_limit"
    assert "output limit of 30,000 characters" in events[-1]["message"]
    opened = open_store(app_paths())
    try:
        last = opened.store.messages("cut")[-1]
    finally:
        opened.store.close()
    assert (last.role, last.content, last.interrupted) == ("assistant", shown, True)

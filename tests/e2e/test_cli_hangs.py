"""`hermes-desktop ask` as a separate process: nothing it runs can keep it from ending.

Real FIFOs, a real dripping HTTP server, the scripted model server over HTTP and the real
store on disk. `subprocess.run`'s timeout only guards against a hang: the command has to
exit on its own well before it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.store import open_store
from tests.support.drip_server import DripServer
from tests.support.model_server import CallScript, ScriptedModelServer, hang_reply, text_reply, tool_call_reply

ROOT = Path(__file__).resolve().parents[2]
GUARD_S = 180


@pytest.fixture
def server():
    with ScriptedModelServer() as scripted:
        yield scripted


@pytest.fixture
def env(server, workspace_dir, isolated_home) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "HERMES_BASE_URL": server.base_url,
            "HERMES_MODEL": "scripted-model", "HERMES_API_KEY": "sk-cli-hangs-0123456789",
            "HERMES_WORKSPACE": str(workspace_dir), "HOME": str(isolated_home)}


def hermes(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hermes_desktop", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=GUARD_S, input="")


def save_settings(**values: Any) -> None:
    path = app_paths().settings_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values), encoding="utf-8")


def events_of(result: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def last_turn_request(server: ScriptedModelServer) -> Any:
    """The turn's last request to the model (not the title request that follows a finished turn)."""
    return [r for r in server.chat_requests if r.tool_names][-1]


def stored_roles(session_id: str) -> list[tuple[str, str | None]]:
    opened = open_store(app_paths())
    try:
        return [(m.role, m.content) for m in opened.store.messages(session_id)]
    finally:
        opened.store.close()


def test_ask_with_seven_drip_fetches_in_one_reply_exits_on_its_own_with_the_reply_stored(server, env) -> None:
    # The default limits (settings-style constants in NetworkPolicy): no test-only shortcuts.
    save_settings(fetch_allowed_private_hosts=["127.0.0.1"], limits={"max_consecutive_failures": 100})
    with DripServer(interval_s=2.0) as drip:
        calls = [CallScript("fetch_url", {"url": drip.url(f"/slow{n}")}, id=f"call_drip_{n}") for n in range(7)]
        server.enqueue(tool_call_reply(*calls), text_reply("Those servers are too slow to read."))
        result = hermes("ask", "read those pages", "--session", "drip", "--json", env=env)
        assert drip.wait_until_all_closed(), "a fetch left its connection open"
        assert drip.accepted == 7
    assert result.returncode == 0, result.stderr
    events = events_of(result)
    finished = [e for e in events if e["type"] == "tool_call_finished"]
    assert sorted(e["call_id"] for e in finished) == sorted(c.id for c in calls)
    assert all(e["outcome"] == "error" and "slower than the minimum" in e["result"] for e in finished)
    assert events[-1]["type"] == "turn_finished" and events[-1]["reason"] == "completed"
    roles = stored_roles("drip")
    assert [r for r, _ in roles] == ["user", "assistant"] + ["tool"] * 7 + ["assistant"]
    assert roles[-1][1] == "Those servers are too slow to read."


def test_ask_reading_fifos_ends_with_a_clear_refusal(server, env, workspace_dir) -> None:
    for n in range(8):
        os.mkfifo(workspace_dir / f"pipe{n}")
    calls = [CallScript("read_file", {"path": f"pipe{n}"}, id=f"read_{n}") for n in range(8)]
    server.enqueue(tool_call_reply(*calls), text_reply("Those are pipes, not files."))
    save_settings(limits={"max_consecutive_failures": 100})
    try:
        result = hermes("ask", "read the pipes", "--session", "pipes", env=env)
    finally:
        for n in range(8):  # a reader wrongly blocked on a pipe would be released here
            try:
                os.close(os.open(workspace_dir / f"pipe{n}", os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("[tool read_file: error") == 8
    assert result.stdout.strip() == "Those are pipes, not files."
    sent = [m for m in last_turn_request(server).messages if m["role"] == "tool"]
    assert len(sent) == 8 and all("named pipe (FIFO)" in m["content"] for m in sent)
    assert [r for r, _ in stored_roles("pipes")] == ["user", "assistant"] + ["tool"] * 8 + ["assistant"]


def test_the_turn_deadline_from_the_settings_ends_ask_with_one_clear_line(server, env) -> None:
    save_settings(limits={"turn_deadline_s": 3})
    server.enqueue(hang_reply(after_text="Thinking about it"))
    result = hermes("ask", "take your time", "--session", "late", env=env)
    assert result.returncode == 1
    assert "error: Stopped: this turn reached its time limit of 3 s" in result.stderr
    assert "Thinking about it" in result.stdout
    assert stored_roles("late") == [("user", "take your time"), ("assistant", "Thinking about it")]


# ------------------------------------------------------------------ broad workspaces

@pytest.mark.parametrize("where", ["/", "/usr", "home"])
def test_a_broad_workspace_is_refused_with_one_line(server, env, isolated_home, where: str) -> None:
    folder = str(isolated_home) if where == "home" else where
    result = hermes("ask", "list my files", "--workspace", folder, env=env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: refusing the workspace {folder}: ")
    assert lines[0].endswith("Pass --allow-broad-workspace to use it anyway.")
    assert not server.chat_requests, "nothing was sent to the model"


def test_hermes_workspace_goes_through_the_same_check(server, env) -> None:
    result = hermes("ask", "list my files", env={**env, "HERMES_WORKSPACE": "/etc"})
    assert result.returncode == 2 and "refusing the workspace /etc: /etc is a system folder" in result.stderr
    assert not server.chat_requests


def test_a_broad_workspace_saved_in_the_settings_is_refused_too(server, env) -> None:
    """settings.json may be written by hand or by a version that never asked."""
    save_settings(workspace="/")
    without_env = {k: v for k, v in env.items() if k != "HERMES_WORKSPACE"}
    result = hermes("ask", "list my files", env=without_env)
    assert result.returncode == 2
    assert "error: refusing the workspace / (from the settings): " in result.stderr
    assert not server.chat_requests


def test_allow_broad_workspace_accepts_it(server, env) -> None:
    server.enqueue(tool_call_reply(CallScript("list_directory", {"path": "."}, id="call_ls")),
                   text_reply("That is the whole disk."))
    result = hermes("ask", "list /", "--workspace", "/", "--allow-broad-workspace", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "That is the whole disk."
    listing = [m for m in last_turn_request(server).messages if m["role"] == "tool"][0]["content"]
    assert listing.startswith("./ (") and "etc/" in listing

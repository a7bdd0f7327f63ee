"""The window and CLI commands write to the same database at once: every write lands, nothing corrupts."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.store import open_store
from tests.support.demo_model import demo_responder
from tests.support.model_server import ScriptedModelServer
from tests.support.stores import data_paths

ROOT = Path(__file__).resolve().parents[2]
WRITER = """
import sys
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.store import open_store
store = open_store(app_paths()).store
store.create_session(sys.argv[1])
for n in range(int(sys.argv[2])):
    store.append_message(sys.argv[1], NewMessage("user", f"{sys.argv[1]} {n}"))
store.close()
"""


def test_a_window_and_two_other_processes_write_at_the_same_time(workspace_dir) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    window = open_store(data_paths()).store
    window.create_session("window")
    with ScriptedModelServer(responder=demo_responder) as server:
        cli_env = {**env, "HERMES_BASE_URL": server.base_url, "HERMES_MODEL": "scripted-model",
                   "HERMES_WORKSPACE": str(workspace_dir)}
        writer = subprocess.Popen([sys.executable, "-c", WRITER, "script", "400"], cwd=ROOT, env=env)
        asks = [subprocess.Popen([sys.executable, "-m", "hermes_desktop", "ask", f"hello {n}", "--session", "cli"],
                                 cwd=ROOT, env=cli_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                for n in range(2)]

        def window_writes() -> None:
            for n in range(400):
                window.append_message("window", NewMessage("user", f"window {n}"))

        thread = threading.Thread(target=window_writes)
        thread.start()
        thread.join(120)
        assert writer.wait(120) == 0
        results = [(p.wait(120), p.stderr.read() if p.stderr else "") for p in asks]
    assert all(code == 0 for code, _ in results), results
    assert [m.content for m in window.messages("window")] == [f"window {n}" for n in range(400)]
    assert [m.content for m in window.messages("script")] == [f"script {n}" for n in range(400)]
    cli_users = [m.content for m in window.all_messages("cli") if m.role == "user"]
    assert sorted(cli_users) == ["hello 0", "hello 1"]
    assert window.integrity_ok()
    window.close()

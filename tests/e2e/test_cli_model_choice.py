"""`ask --session` continues with the model picked for that session (a real subprocess, two scripted servers)."""

from __future__ import annotations

import os
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.session_models import SessionPick, write_pick
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore
from hermes_desktop.core.store import open_store
from tests.e2e.test_cli import ROOT, hermes
from tests.support.model_server import ScriptedModelServer, text_reply

ENV_KEY = "sk-cli-environment-key-0123456789"


def test_ask_with_a_session_uses_the_model_picked_for_it(model_server, workspace_dir: Path) -> None:
    with ScriptedModelServer(models=["other-a", "other-b"]) as other:
        main = ProviderProfile(id="main", name="Main", base_url=model_server.base_url, model="scripted-model",
                               request_timeout_s=10.0)
        second = ProviderProfile(id="other", name="Other", base_url=other.base_url, model="other-a",
                                 request_timeout_s=10.0, needs_api_key=False)
        SettingsStore(app_paths()).save(Settings(profiles=(main, second), active_profile_id="main"))
        opened = open_store(app_paths())
        write_pick(opened.store, "picked", SessionPick("other", "other-b"))
        opened.store.close()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HERMES_WORKSPACE": str(workspace_dir),
               "HERMES_API_KEY": ENV_KEY}

        other.enqueue(text_reply("answered by other-b"))
        result = hermes("ask", "hello", "--session", "picked", env=env)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "answered by other-b"
        turn = [r for r in other.chat_requests if not r.system_prompt.startswith("Write a title")]
        assert [r.body["model"] for r in turn] == ["other-b"]
        assert ENV_KEY not in turn[0].headers.get("authorization", ""), "the environment's key stays with its profile"

        model_server.enqueue(text_reply("answered by the default"))
        plain = hermes("ask", "hello", "--session", "plain", env=env)
        assert plain.returncode == 0 and plain.stdout.strip() == "answered by the default"
        default_turn = [r for r in model_server.chat_requests if not r.system_prompt.startswith("Write a title")]
        assert default_turn[-1].body["model"] == "scripted-model"
        assert default_turn[-1].headers["authorization"] == f"Bearer {ENV_KEY}"
        assert len([r for r in other.chat_requests if not r.system_prompt.startswith("Write a title")]) == 1

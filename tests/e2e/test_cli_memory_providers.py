"""Issue 24: memory follows the user across providers, through the real command line (a subprocess per `ask`, the
real openai client over HTTP to scripted servers on 127.0.0.1, the real SQLite store).

What the user told one provider is recalled when another answers (`ask --model`); a provider the user excluded in
Settings › Memory receives none; HERMES_BASE_URL naming another server is an ephemeral profile that neither
receives the saved providers' memories nor gives them its own; `memory list` says which memories stay apart."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore
from tests.e2e.test_cli import ROOT, hermes
from tests.support.model_server import ScriptedModelServer, text_reply

PREFERENCE = "I prefer dark chocolate with sea salt."


def conversation(server: ScriptedModelServer) -> list:
    """The requests of the conversation itself (not titles, not memory extraction)."""
    return [r for r in server.chat_requests
            if not r.system_prompt.startswith("Write a title") and "chocolate" in json.dumps(r.body["messages"][-1:])]


def test_memory_made_with_one_provider_reaches_another_but_never_an_excluded_one(
        model_server, workspace_dir: Path) -> None:
    with ScriptedModelServer() as local, ScriptedModelServer() as elsewhere:
        main = ProviderProfile(id="main", name="Main", base_url=model_server.base_url, model="scripted-model",
                               request_timeout_s=10.0, needs_api_key=False)
        second = ProviderProfile(id="local", name="Local", base_url=local.base_url, model="scripted-model",
                                 request_timeout_s=10.0, needs_api_key=False)
        settings = Settings(profiles=(main, second), active_profile_id="main")
        SettingsStore(app_paths()).save(settings)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HERMES_WORKSPACE": str(workspace_dir)}
        for name in ("HERMES_BASE_URL", "HERMES_MODEL", "HERMES_API_KEY"):
            env.pop(name, None)

        model_server.enqueue(text_reply("Noted."))
        told = hermes("ask", PREFERENCE, "--session", "told", env=env)
        assert told.returncode == 0, told.stderr
        [memory] = json.loads(hermes("memory", "list", "--json", env=env).stdout)
        assert memory["statement"] == PREFERENCE and memory["profile"] == "main"

        # another saved provider answers: it gets the memory
        local.enqueue(text_reply("Dark, with sea salt."))
        asked = hermes("ask", "Which chocolate should I buy?", "--session", "other", "--model", "local", env=env)
        assert asked.returncode == 0, asked.stderr
        assert PREFERENCE in conversation(local)[-1].system_prompt

        # the user excludes it in Settings › Memory: from the next request on it gets none
        SettingsStore(app_paths()).save(replace(settings, memory_excluded_profiles=("local",)))
        local.enqueue(text_reply("No idea."))
        asked = hermes("ask", "Which chocolate again?", "--session", "other", env=env)
        assert asked.returncode == 0, asked.stderr
        assert "sea salt" not in conversation(local)[-1].system_prompt
        assert "What you remember about the user" not in conversation(local)[-1].system_prompt

        # the saved default still does
        model_server.enqueue(text_reply("Dark."))
        assert hermes("ask", "Which chocolate, then?", "--session", "told", env=env).returncode == 0
        assert PREFERENCE in conversation(model_server)[-1].system_prompt

        # HERMES_BASE_URL naming another server: an ephemeral profile with no saved memory, and its own stay apart
        override = {**env, "HERMES_BASE_URL": elsewhere.base_url, "HERMES_API_KEY": "sk-elsewhere-0123456789"}
        elsewhere.enqueue(text_reply("Hm?"))
        asked = hermes("ask", "Which chocolate? I prefer oolong tea in the afternoon.", "--session", "env",
                       env=override)
        assert asked.returncode == 0, asked.stderr
        assert "sea salt" not in json.dumps([r.body for r in elsewhere.chat_requests])
        memories = json.loads(hermes("memory", "list", "--json", env=env).stdout)
        [oolong] = [m for m in memories if "oolong" in m["statement"]]
        assert oolong["profile"] == "env"
        model_server.enqueue(text_reply("Tea or chocolate."))
        assert hermes("ask", "What chocolate or tea do I like?", "--session", "told", env=env).returncode == 0
        assert "oolong" not in conversation(model_server)[-1].system_prompt

        # `memory list` says which memories stay apart, as seen from each side
        blocks = hermes("memory", "list", env=env).stdout.split("\n#")
        assert "used only with the server in HERMES_BASE_URL" in next(b for b in blocks if "oolong" in b)
        assert "HERMES_BASE_URL" not in next(b for b in blocks if "sea salt" in b)
        blocks = hermes("memory", "list", env=override).stdout.split("\n#")
        assert "not used with the server in HERMES_BASE_URL" in next(b for b in blocks if "sea salt" in b)

"""Issue 24: a provider marked local-only never has its conversations sent elsewhere, through the real command line
(a subprocess per `ask`, the real openai client over HTTP to two scripted servers on 127.0.0.1, the real store).

A session the local-only provider answered in is refused to the cloud provider before anything is sent (the
message stays saved, the error says what to do), its title and memory extraction stay local, its memories are not
recalled for the cloud provider (and `memory list` says so), and switching back to the local provider works."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore
from hermes_desktop.core.store import open_store
from tests.e2e.test_cli import ROOT, hermes
from tests.support.model_server import ScriptedModelServer, text_reply

SECRET = "I prefer green tea; the merger with Acme closes in March."


def test_a_local_only_session_never_reaches_the_cloud_provider(model_server, workspace_dir: Path) -> None:
    with ScriptedModelServer() as local:
        cloud = ProviderProfile(id="cloud", name="Cloud", base_url=model_server.base_url, model="scripted-model",
                                request_timeout_s=10.0, needs_api_key=False)
        mine = ProviderProfile(id="mine", name="On my machine", base_url=local.base_url, model="local-model",
                               request_timeout_s=10.0, needs_api_key=False, local_only=True)
        SettingsStore(app_paths()).save(Settings(profiles=(cloud, mine), active_profile_id="cloud"))
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HERMES_WORKSPACE": str(workspace_dir)}
        for name in ("HERMES_BASE_URL", "HERMES_MODEL", "HERMES_API_KEY"):
            env.pop(name, None)

        local.enqueue(text_reply("Noted."))
        told = hermes("ask", SECRET, "--session", "secret", "--model", "mine", env=env)
        assert told.returncode == 0, told.stderr
        prompts = [r.system_prompt for r in local.chat_requests]
        assert any(p.startswith("Write a title") for p in prompts), "the title was asked of the local provider"
        assert model_server.chat_requests == []

        # the picker (here --model) moves the session to the cloud provider: refused before anything is sent
        refused = hermes("ask", "Now summarise our talk.", "--session", "secret", "--model", "cloud", env=env)
        assert refused.returncode != 0
        assert "marked local-only" in refused.stderr and "On my machine" in refused.stderr, refused.stderr
        assert model_server.chat_requests == [], "nothing of the conversation reached the cloud provider"
        opened = open_store(app_paths())
        try:
            assert [m.content for m in opened.store.messages("secret") if m.role == "user"][-1] == \
                "Now summarise our talk.", "the refused message is kept"
            assert opened.store.held_local("secret") == "mine"
        finally:
            opened.store.close()

        # its memories are not recalled for the cloud provider, in another session
        memories = json.loads(hermes("memory", "list", "--json", env=env).stdout)
        assert any("green tea" in m["statement"] and m["profile"] == "mine" for m in memories), memories
        model_server.enqueue(text_reply("Something warm."))
        other = hermes("ask", "What should I drink this afternoon?", "--session", "public", "--model", "cloud",
                       env=env)
        assert other.returncode == 0, other.stderr
        sent = json.dumps([r.body for r in model_server.chat_requests])
        assert "green tea" not in sent and "Acme" not in sent
        listed = hermes("memory", "list", env=env).stdout.split("\n#")
        assert "used only with local-only providers" in next(b for b in listed if "green tea" in b)

        # back on the local provider the session goes on, with its memory
        local.enqueue(text_reply("Green tea."))
        back = hermes("ask", "What do I like to drink?", "--session", "secret", "--model", "mine", env=env)
        assert back.returncode == 0, back.stderr
        assert "green tea" in [r for r in local.chat_requests if not r.system_prompt.startswith("Write a title")][-1] \
            .system_prompt
        assert "Acme" not in json.dumps([r.body for r in model_server.chat_requests])

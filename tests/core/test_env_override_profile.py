"""Issue 21 §2: a provider's key and memories belong to that provider. HERMES_BASE_URL naming another server than
the saved profile's makes an ephemeral profile of its own: that server gets neither the saved profile's keyring key
nor its memories, and its key comes from HERMES_API_KEY alone.

Real runtime, real openai client, two scripted servers over HTTP on 127.0.0.1, the real SQLite store. The keyring
is the in-memory SecretStore here (a Secret Service runs only under run_suite.sh); the real command line against
the real keyring is tests/e2e/test_cli_env_override.py."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.memory.store import MemoryStore
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.runtime import Runtime, open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore, effective_profile, same_server
from hermes_desktop.commands.provider_key import key_status
from tests.support.model_server import ScriptedModelServer, text_reply

SAVED_KEY = "sk-saved-profile-key-0123456789"
ENV_KEY = "sk-environment-only-key-987654"
MEMORY = "Keeps the Zanzibar launch codes in the blue folder"


@pytest.fixture
def elsewhere() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer() as server:
        yield server


def saved_runtime(model_server: ScriptedModelServer, env: dict[str, str], workspace: Path) -> Runtime:
    main = ProviderProfile(id="main", name="Main", base_url=model_server.base_url, model="scripted-model",
                           request_timeout_s=5.0)
    SettingsStore(app_paths()).save(Settings(profiles=(main,), active_profile_id="main"))
    secrets = MemorySecretStore()
    secrets.set("provider:main", SAVED_KEY)
    runtime = open_runtime({**env, "HERMES_WORKSPACE": str(workspace)}, secrets=secrets)
    MemoryStore(runtime.store).add(MEMORY, profile_id="main", quote="I keep the Zanzibar launch codes in the blue "
                                   "folder", kind="fact")
    return runtime


async def ask(runtime: Runtime, session_id: str, text: str) -> list[ev.Event]:
    agent = runtime.make_agent()
    try:
        return await agent.start_turn(session_id, text).wait()
    finally:
        if agent.model is not None:
            await agent.model.aclose()
        if runtime.session_models is not None:
            await runtime.session_models.aclose()


def conversation(server: ScriptedModelServer) -> list:
    return [r for r in server.chat_requests if "Zanzibar" in str(r.body.get("messages", [{}])[-1])]


async def test_another_server_gets_neither_the_saved_key_nor_the_saved_memories(
        model_server, elsewhere, workspace_dir) -> None:
    runtime = saved_runtime(model_server, {"HERMES_BASE_URL": elsewhere.base_url}, workspace_dir)
    assert runtime.profile is not None and runtime.profile.id == "env" and runtime.profile.model == "scripted-model"
    elsewhere.enqueue(text_reply("hello from elsewhere"))
    events = await ask(runtime, "s", "Where are the Zanzibar launch codes?")
    assert isinstance(events[-1], ev.TurnFinished) and events[-1].reason is ev.FinishReason.COMPLETED
    request = conversation(elsewhere)[-1]
    assert SAVED_KEY not in str(request.headers), "the saved profile's keyring key reached another server"
    assert "blue folder" not in request.system_prompt, "the saved profile's memories reached another server"
    assert model_server.chat_requests == [], "nothing went to the saved profile's server"
    assert runtime.settings.profiles[0].base_url == model_server.base_url, "the override is never saved"
    assert "HERMES_API_KEY" in key_status(runtime, {}) or "none" in key_status(runtime, {})
    runtime.store.close()


async def test_the_overriding_servers_key_comes_from_hermes_api_key_only(model_server, elsewhere,
                                                                         workspace_dir) -> None:
    runtime = saved_runtime(model_server, {"HERMES_BASE_URL": elsewhere.base_url, "HERMES_API_KEY": ENV_KEY},
                            workspace_dir)
    elsewhere.enqueue(text_reply("ok"))
    await ask(runtime, "s", "Where are the Zanzibar launch codes?")
    assert conversation(elsewhere)[-1].headers["authorization"] == f"Bearer {ENV_KEY}"
    assert runtime.api_key_for(runtime.profile) == ENV_KEY
    line = key_status(runtime, {"HERMES_API_KEY": ENV_KEY})
    assert "its own profile" in line and ENV_KEY not in line and SAVED_KEY not in line
    runtime.store.close()


async def test_the_saved_servers_own_url_keeps_the_saved_profile_its_key_and_memories(
        model_server, workspace_dir) -> None:
    same = model_server.base_url.rstrip("/") + "/"  # the same server, written with a trailing slash
    runtime = saved_runtime(model_server, {"HERMES_BASE_URL": same}, workspace_dir)
    assert runtime.profile is not None and runtime.profile.id == "main"
    model_server.enqueue(text_reply("ok"))
    await ask(runtime, "s", "Where are the Zanzibar launch codes?")
    request = conversation(model_server)[-1]
    assert request.headers["authorization"] == f"Bearer {SAVED_KEY}"
    assert "blue folder" in request.system_prompt
    runtime.store.close()


def test_same_server_ignores_only_spelling() -> None:
    assert same_server("HTTPS://Api.Example.com:443/v1/", "https://api.example.com/v1")
    assert not same_server("https://api.example.com/v1", "https://api.example.com.evil.test/v1")
    assert not same_server("https://api.example.com/v1", "http://api.example.com/v1")
    assert not same_server("https://api.example.com/v1", "https://api.example.com:8443/v1")
    assert not same_server("https://api.example.com/v1", "https://api.example.com/v2")


def test_hermes_model_alone_still_changes_the_saved_profiles_model() -> None:
    main = ProviderProfile(id="main", name="Main", base_url="https://api.example.com/v1", model="a")
    profile = effective_profile(Settings(profiles=(main,), active_profile_id="main"), {"HERMES_MODEL": "b"})
    assert profile is not None and (profile.id, profile.model) == ("main", "b")

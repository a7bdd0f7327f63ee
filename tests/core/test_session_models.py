"""The model a session's turn uses (core/session_models.py) and the picker's /models cache (core/model_catalog.py),
through the real runtime, the real openai client and two scripted servers."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.model_catalog import ModelCatalog
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.runtime import Runtime, open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.session_models import CHOSEN_MARK, SessionPick, read_pick, write_pick
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore, without_profile
from tests.support.model_server import ScriptedModelServer, text_reply

OTHER_KEY = "sk-other-profile-key"
ENV_KEY = "sk-environment-key"


@pytest.fixture
def second_server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(models=["other-a", "other-b"]) as server:
        yield server


def save_profiles(model_server: ScriptedModelServer, second: ScriptedModelServer) -> None:
    main = ProviderProfile(id="main", name="Main", base_url=model_server.base_url, model="scripted-model",
                           request_timeout_s=5.0, needs_api_key=False)
    other = ProviderProfile(id="other", name="Other", base_url=second.base_url, model="other-a",
                            request_timeout_s=5.0, models=("typed-by-hand",))
    SettingsStore(app_paths()).save(Settings(profiles=(main, other), active_profile_id="main"))


def runtime_for(env: dict[str, str], workspace: Path) -> Runtime:
    secrets = MemorySecretStore()
    secrets.set("provider:other", OTHER_KEY)
    return open_runtime({**env, "HERMES_WORKSPACE": str(workspace)}, secrets=secrets)


async def ask(runtime: Runtime, session_id: str, text: str) -> list[ev.Event]:
    agent = runtime.make_agent()
    try:
        return await agent.start_turn(session_id, text).wait()
    finally:
        if agent.model is not None:
            await agent.model.aclose()
        assert runtime.session_models is not None
        await runtime.session_models.aclose()


async def test_a_session_with_a_picked_model_talks_to_it_and_others_keep_the_default(
        model_server, second_server, workspace_dir) -> None:
    save_profiles(model_server, second_server)
    runtime = runtime_for({"HERMES_API_KEY": ENV_KEY}, workspace_dir)
    write_pick(runtime.store, "picked", SessionPick("other", "other-b"))
    second_server.enqueue(text_reply("from the other server"))
    model_server.enqueue(text_reply("from the default"))

    events = await ask(runtime, "picked", "hello")
    assert isinstance(events[-1], ev.TurnFinished) and events[-1].reason is ev.FinishReason.COMPLETED
    request = second_server.chat_requests[-1]
    assert request.body["model"] == "other-b"
    # The environment's key belongs to the active profile only; the other profile's own key is sent.
    assert request.headers["authorization"] == f"Bearer {OTHER_KEY}"

    await ask(runtime, "plain", "hello")
    assert model_server.chat_requests[-1].body["model"] == "scripted-model"
    assert len(second_server.chat_requests) == 1, "the unpicked session never reached the other server"
    stored = runtime.store.get_session("picked")
    assert (stored.profile_id, stored.model) == ("other", "other-b")
    assert read_pick(runtime.store, "plain") is None
    runtime.store.close()


async def test_a_pick_wins_over_hermes_model_but_hermes_base_url_still_applies(model_server, second_server,
                                                                                workspace_dir) -> None:
    save_profiles(model_server, second_server)
    runtime = runtime_for({"HERMES_BASE_URL": model_server.base_url, "HERMES_MODEL": "env-model"}, workspace_dir)
    write_pick(runtime.store, "s", SessionPick("main", "scripted-picked"))
    model_server.enqueue(text_reply("one"), text_reply("two"))
    await ask(runtime, "s", "hello")
    assert model_server.chat_requests[-1].body["model"] == "scripted-picked"
    await ask(runtime, "unpicked", "hello")
    assert model_server.chat_requests[-1].body["model"] == "env-model", "HERMES_MODEL still sets the default"
    runtime.store.close()


async def test_a_session_whose_profile_was_deleted_falls_back_to_the_default_with_a_notice(
        model_server, second_server, workspace_dir) -> None:
    save_profiles(model_server, second_server)
    runtime = runtime_for({}, workspace_dir)
    write_pick(runtime.store, "s", SessionPick("other", "other-b"))
    store = SettingsStore(app_paths())
    store.save(without_profile(store.load().settings, "other"))
    runtime.store.close()
    runtime = runtime_for({}, workspace_dir)
    model_server.enqueue(text_reply("the default answers"))

    events = await ask(runtime, "s", "hello")
    notices = [e.message for e in events if isinstance(e, ev.Notice)]
    assert any("no longer exists" in n and "Main · scripted-model" in n for n in notices), notices
    assert model_server.chat_requests[-1].body["model"] == "scripted-model"
    assert not second_server.chat_requests
    assert read_pick(runtime.store, "s") is None, "the pick is cleared: the session follows the default again"
    assert [m.content for m in runtime.store.messages("s")] == ["hello", "the default answers"]
    runtime.store.close()


def test_choosing_the_default_again_clears_the_pick_and_keeps_other_params(model_server, second_server,
                                                                            workspace_dir) -> None:
    save_profiles(model_server, second_server)
    runtime = runtime_for({}, workspace_dir)
    runtime.store.create_session("s")
    runtime.store.set_model("s", None, None, params={"imported_metadata": {"x": 1}})
    write_pick(runtime.store, "s", SessionPick("other", "other-a"))
    assert runtime.store.session_details("s").params == {"imported_metadata": {"x": 1}, CHOSEN_MARK: True}
    write_pick(runtime.store, "s", None)
    assert runtime.store.session_details("s").params == {"imported_metadata": {"x": 1}}
    assert read_pick(runtime.store, "s") is None
    runtime.store.close()


async def test_the_model_lists_are_cached_and_kept_when_the_server_is_down(tmp_path) -> None:
    path = tmp_path / "data" / "model-lists.json"
    server = ScriptedModelServer(models=["b-model", "a-model"]).start()
    profile = ProviderProfile(id="p", name="P", base_url=server.base_url, model="mine", models=("hand",),
                              request_timeout_s=5.0)

    async def lister(p: ProviderProfile) -> list[str]:
        from hermes_desktop.core.llm import ModelClient

        client = ModelClient(p, None)
        try:
            return await client.list_models()
        finally:
            await client.aclose()

    catalog = ModelCatalog(path)
    entry = await catalog.refresh(profile, lister)
    assert entry.models == ["mine", "hand", "a-model", "b-model"] and entry.error is None
    assert json.loads(path.read_text())["profiles"]["p"]["models"] == ["a-model", "b-model"]
    server.stop()

    reopened = ModelCatalog(path)
    await reopened.load()
    assert reopened.entry(profile).listed == ("a-model", "b-model"), "the cache serves while the server is down"
    failed = await reopened.refresh(profile, lister)
    assert failed.error and failed.listed == ("a-model", "b-model"), "a failed refresh keeps the cached list"
    assert json.loads(path.read_text())["profiles"]["p"]["models"] == ["a-model", "b-model"]
    # A list fetched from another URL is not this profile's.
    assert reopened.entry(replace(profile, base_url="http://127.0.0.1:9/v1")).listed == ()

    with ScriptedModelServer(models=["c-model"]) as again:
        moved = replace(profile, base_url=again.base_url)
        refreshed = await reopened.refresh(moved, lister)
        assert refreshed.listed == ("c-model",) and refreshed.error is None


@pytest.mark.parametrize("damaged", ['{"profiles": ["oops"]}', '{"profiles": "x"}', '["not", "an", "object"]',
                                     '{"profiles": {"main": {"models": "x"}}}', "{ not json"])
def test_a_damaged_model_list_cache_is_an_empty_cache(tmp_path, damaged: str) -> None:
    from hermes_desktop.core.model_catalog import CachedList, read_cache, write_cache

    path = tmp_path / "model-lists.json"
    path.write_text(damaged, encoding="utf-8")
    assert read_cache(path) == {}
    write_cache(path, {"main": CachedList("http://x/v1", ("m1",), 1.0)})  # a refresh can always repair it
    assert read_cache(path) == {"main": CachedList("http://x/v1", ("m1",), 1.0)}

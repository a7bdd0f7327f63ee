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


def test_ask_model_picks_the_provider_and_model_from_this_message_on(model_server, workspace_dir: Path) -> None:
    """Issue 24: `ask --model PROFILE[/MODEL]` does what the model picker does, and the session keeps it."""
    with ScriptedModelServer(models=["other-a", "other-b"]) as other:
        main = ProviderProfile(id="main", name="Main", base_url=model_server.base_url, model="scripted-model",
                               request_timeout_s=10.0, needs_api_key=False)
        second = ProviderProfile(id="other", name="Other Cloud", base_url=other.base_url, model="other-a",
                                 request_timeout_s=10.0, needs_api_key=False)
        SettingsStore(app_paths()).save(Settings(profiles=(main, second), active_profile_id="main"))
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HERMES_WORKSPACE": str(workspace_dir)}

        model_server.enqueue(text_reply("first, by the default"))
        assert hermes("ask", "hello", "--session", "s1", env=env).returncode == 0
        other.enqueue(text_reply("second, by other-b"))
        switched = hermes("ask", "and now?", "--session", "s1", "--model", "other/other-b", env=env)
        assert switched.returncode == 0, switched.stderr
        assert switched.stdout.strip() == "second, by other-b"
        other.enqueue(text_reply("third, still other-b"))
        kept = hermes("ask", "again", "--session", "s1", env=env)  # no --model: the session kept the choice
        assert kept.stdout.strip() == "third, still other-b"
        turns = [r for r in other.chat_requests if not r.system_prompt.startswith("Write a title")]
        assert [r.body["model"] for r in turns] == ["other-b", "other-b"]
        # By the provider's name, any case, without a model: that provider's own model.
        other.enqueue(text_reply("by other-a"))
        by_name = hermes("ask", "hi", "--session", "s2", "--model", "other cloud", env=env)
        assert by_name.returncode == 0 and by_name.stdout.strip() == "by other-a"

        requests_before = len(model_server.chat_requests) + len(other.chat_requests)
        unknown = hermes("ask", "hi", "--session", "s3", "--model", "nope/x", env=env)
        assert unknown.returncode == 2
        assert "no provider named “nope”" in unknown.stderr and "main, other" in unknown.stderr
        assert len(model_server.chat_requests) + len(other.chat_requests) == requests_before, "nothing was sent"


def test_a_model_spec_may_hold_slashes_after_the_provider() -> None:
    from hermes_desktop.core.session_models import UnknownModelChoice, pick_from_spec

    router = ProviderProfile(id="openrouter", name="OpenRouter", base_url="https://x/v1", model="openai/gpt-4o")
    assert pick_from_spec([router], "openrouter/anthropic/claude-sonnet-4") == SessionPick("openrouter",
                                                                                          "anthropic/claude-sonnet-4")
    assert pick_from_spec([router], "OpenRouter") == SessionPick("openrouter", "openai/gpt-4o")
    try:
        pick_from_spec([], "x")
    except UnknownModelChoice as exc:
        assert "none is set up" in str(exc)
    else:
        raise AssertionError("an unknown provider must be refused")

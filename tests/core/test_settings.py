"""Settings: environment overrides win and are never written back; a corrupt file is kept aside."""

from __future__ import annotations

import json

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.secrets import MemorySecretStore, resolve_api_key
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore, ToolMode, effective_profile, effective_workspace

SAVED = ProviderProfile(id="main", name="Main", base_url="https://api.example.com/v1", model="big-model",
                        tool_mode=ToolMode.NATIVE)


def test_environment_overrides_win_and_are_not_written_back() -> None:
    store = SettingsStore(app_paths())
    store.save(Settings(profiles=(SAVED,), active_profile_id="main"))
    before = store.path.read_text()
    env = {"HERMES_BASE_URL": "http://localhost:11434/v1", "HERMES_MODEL": "qwen2.5", "HERMES_WORKSPACE": "/tmp/ws"}
    settings = store.load().settings
    profile = effective_profile(settings, env)
    assert (profile.base_url, profile.model, profile.id) == ("http://localhost:11434/v1", "qwen2.5", "main")
    assert str(effective_workspace(settings, app_paths(), env)) == "/tmp/ws"
    store.save(settings)
    assert store.path.read_text() == before and "11434" not in before


def test_the_environment_alone_makes_a_usable_profile() -> None:
    profile = effective_profile(Settings(), {"HERMES_BASE_URL": "http://x/v1", "HERMES_MODEL": "m"})
    assert profile is not None and (profile.id, profile.base_url, profile.model) == ("env", "http://x/v1", "m")
    assert effective_profile(Settings(), {"HERMES_MODEL": "m"}) is None


def test_the_api_key_from_the_environment_wins_and_is_trimmed() -> None:
    secrets = MemorySecretStore()
    secrets.set("provider:main", "  sk-stored  ")
    assert resolve_api_key("provider:main", secrets, {}) == "sk-stored"
    assert resolve_api_key("provider:main", secrets, {"HERMES_API_KEY": " sk-env "}) == "sk-env"
    assert resolve_api_key("provider:other", secrets, {}) is None


def test_settings_round_trip_and_never_hold_a_key() -> None:
    store = SettingsStore(app_paths())
    settings = Settings(profiles=(SAVED,), active_profile_id="main", disabled_tools=("fetch_url",))
    store.save(settings)
    assert store.load().settings == settings
    saved_fields = set(json.loads(store.path.read_text())["profiles"][0])
    assert saved_fields == {"id", "name", "base_url", "model", "temperature", "max_output_tokens", "context_window",
                            "tool_mode", "request_timeout_s", "needs_api_key", "reasoning_echo", "reasoning_effort",
                            "extra_params", "vision", "models", "learned_reasoning_echo", "learned_no_vision",
                            "embedding_model"}, \
        "a profile has no place for a secret"


def test_a_corrupt_settings_file_is_kept_aside_and_defaults_load() -> None:
    store = SettingsStore(app_paths())
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text("{ not json")
    loaded = store.load()
    assert loaded.settings == Settings() and "could not be read" in (loaded.problem or "")
    kept = list(store.path.parent.glob("settings.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == "{ not json"

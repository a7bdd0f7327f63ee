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
    # Another server than the saved profile's: its own ephemeral profile (issue 21: the saved key stays home).
    assert (profile.base_url, profile.model, profile.id) == ("http://localhost:11434/v1", "qwen2.5", "env")
    same = effective_profile(settings, {**env, "HERMES_BASE_URL": "https://API.example.com/v1/"})
    assert (same.id, same.model, same.tool_mode) == ("main", "qwen2.5", ToolMode.NATIVE)
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
                            "embedding_model", "side_model", "local_only"}, \
        "a profile has no place for a secret"


def test_a_corrupt_settings_file_is_kept_aside_and_defaults_load() -> None:
    store = SettingsStore(app_paths())
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text("{ not json")
    loaded = store.load()
    assert loaded.settings == Settings() and "could not be read" in (loaded.problem or "")
    kept = list(store.path.parent.glob("settings.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == "{ not json"


def test_an_atomic_write_or_copy_that_fails_leaves_the_file_as_it_was_and_no_temporary_file(tmp_path) -> None:
    """write_atomically (settings, mcp.json, trust) and the MCP import's backup copy share replace_atomically:
    a failure half way keeps the old content and removes the temporary file; a symbolic link stays one."""
    import pytest

    from hermes_desktop.core.mcp.importing import _copy_atomically
    from hermes_desktop.core.settings import write_atomically

    folder = tmp_path / "config"
    folder.mkdir()
    target = folder / "settings.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(target, "new \ud800")  # a lone surrogate cannot be written as UTF-8
    with pytest.raises(FileNotFoundError):
        _copy_atomically(tmp_path / "missing.json", target)
    assert target.read_text(encoding="utf-8") == "old" and [p.name for p in folder.iterdir()] == ["settings.json"]
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "linked.json"
    link.symlink_to(real)
    write_atomically(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"
    _copy_atomically(link, tmp_path / "copy.json")
    assert (tmp_path / "copy.json").read_text(encoding="utf-8") == "new"

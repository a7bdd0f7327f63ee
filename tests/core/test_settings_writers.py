"""settings.json: validated field by field (one bad value costs only itself), and saved by field (a writer never
undoes what another one changed meanwhile). Real files in the test's config folder; two SettingsStore objects stand
for two processes here, and one test runs two real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import (
    AgentLimits, ApprovalMode, ProviderProfile, Settings, SettingsStore, ThinkingDisplay, ToolMode, with_profile,
)
from hermes_desktop.core.settings_merge import merge

ROOT = Path(__file__).resolve().parents[2]
MAIN = ProviderProfile(id="main", name="Main", base_url="https://api.example.com/v1", model="gpt-x")
LOCAL = ProviderProfile(id="local", name="Local", base_url="http://127.0.0.1:11434/v1", model="qwen",
                        needs_api_key=False)


def _write(data: dict) -> SettingsStore:
    store = SettingsStore(app_paths())
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text(json.dumps(data), encoding="utf-8")
    return store


def _profile_json(profile: ProviderProfile, **changes: object) -> dict:
    return {**json.loads(json.dumps(Settings(profiles=(profile,)).to_json()))["profiles"][0], **changes}


# ---------------------------------------------------------------- validation

def test_a_typo_in_one_enum_costs_that_value_and_every_profile_is_kept() -> None:
    store = _write({"profiles": [_profile_json(MAIN), _profile_json(LOCAL)], "active_profile_id": "local",
                    "approval_mode": "ask_rsky", "theme": "dark"})
    loaded = store.load()
    assert loaded.settings.profiles == (MAIN, LOCAL) and loaded.settings.active_profile_id == "local"
    assert loaded.settings.approval_mode is ApprovalMode.ASK_RISKY and loaded.settings.theme == "dark"
    assert "approval_mode" in (loaded.problem or "") and "'ask_risky'" in (loaded.problem or "")
    assert getattr(loaded.problem, "code", "") == "settings_fields_invalid"
    assert not list(store.path.parent.glob("settings.json.corrupt-*")), "the file is not set aside"
    assert json.loads(store.path.read_text())["approval_mode"] == "ask_rsky", "the user's text is left as it was"


def test_wrong_types_and_negative_limits_are_named_and_replaced_by_their_defaults() -> None:
    store = _write({
        "profiles": [_profile_json(MAIN, context_window="128k", tool_mode="natve", temperature=-1)],
        "limits": {"max_round_trips": -3, "tool_result_char_budget": "8000", "turn_deadline_s": 0, "max_parallel_tools": 2},
        "dry_run": "yes", "import_max_mb": 0, "memory_budget_tokens": 250.0, "thinking_display": "hidden",
        "disabled_tools": "fetch_url", "tool_rules": {"write_file": "always_allow"},
    })
    loaded = store.load()
    settings = loaded.settings
    assert settings.profiles == (MAIN,), "the profile is kept with its bad fields at their defaults"
    assert settings.limits == replace(AgentLimits(), turn_deadline_s=0, max_parallel_tools=2)
    assert settings.dry_run is False and settings.import_max_mb == 100 and settings.disabled_tools == ()
    assert settings.memory_budget_tokens == 250 and settings.thinking_display is ThinkingDisplay.HIDDEN
    assert settings.tool_rules == {"write_file": "always_allow"}
    problem = loaded.problem or ""
    for name in ("profiles[main].context_window", "profiles[main].tool_mode", "profiles[main].temperature",
                 "limits.max_round_trips", "limits.tool_result_char_budget", "dry_run", "import_max_mb",
                 "disabled_tools"):
        assert name in problem, name
    assert "limits.turn_deadline_s" not in problem and "memory_budget_tokens" not in problem


def test_a_profile_without_a_usable_id_or_url_is_left_out_and_named_the_others_stay() -> None:
    broken = _profile_json(LOCAL, base_url=42)
    store = _write({"profiles": [broken, _profile_json(MAIN), "not a profile"]})
    loaded = store.load()
    assert loaded.settings.profiles == (MAIN,)
    assert "profiles[local].base_url" in (loaded.problem or "") and "profiles[2]" in (loaded.problem or "")


def test_keys_of_a_newer_version_are_kept_and_not_reported() -> None:
    store = _write({"profiles": [_profile_json(MAIN, future_field=1)], "sync_target": {"kind": "webdav"}})
    loaded = store.load()
    assert loaded.problem is None and loaded.settings.profiles == (MAIN,)
    store.save(replace(loaded.settings, theme="dark"))
    data = json.loads(store.path.read_text())
    assert data["sync_target"] == {"kind": "webdav"} and data["profiles"][0]["future_field"] == 1


def test_the_window_words_the_problem_with_the_field_name(qapp) -> None:
    from hermes_desktop.ui.startup_words import startup_problem_text

    loaded = _write({"approval_mode": "trustd"}).load()
    assert "approval_mode" in startup_problem_text(loaded.problem or "")


# ---------------------------------------------------------------- saving by field

def test_two_writers_each_keep_what_the_other_changed() -> None:
    SettingsStore(app_paths()).save(Settings(profiles=(MAIN,), active_profile_id="main"))
    window, command = SettingsStore(app_paths()), SettingsStore(app_paths())
    seen_by_window, seen_by_command = window.load().settings, command.load().settings
    # The command learns a rule and a capability; then the window (with its copy from before) saves its theme.
    command.save(replace(seen_by_command, tool_rules={"write_file": "always_allow"}, profiles=(
        replace(MAIN, learned_reasoning_echo=True),)))
    window.save(replace(seen_by_window, theme="dark", disabled_tools=("fetch_url",)))
    command.save(replace(seen_by_command, tool_rules={"write_file": "always_allow"}, profiles=(
        replace(MAIN, learned_reasoning_echo=True),), disabled_tools=("calculate",)))
    final = SettingsStore(app_paths()).load().settings
    assert final.theme == "dark" and final.tool_rules == {"write_file": "always_allow"}
    assert final.profiles == (replace(MAIN, learned_reasoning_echo=True),)
    assert set(final.disabled_tools) == {"fetch_url", "calculate"}, "both writers' disabled tools stick"


def test_a_profile_added_elsewhere_survives_a_save_and_a_removal_here_removes_only_that_one() -> None:
    SettingsStore(app_paths()).save(Settings(profiles=(MAIN,), active_profile_id="main"))
    window, other = SettingsStore(app_paths()), SettingsStore(app_paths())
    stale = window.load().settings
    other.save(with_profile(other.load().settings, LOCAL))
    window.save(replace(stale, profiles=(replace(MAIN, model="gpt-y"),)))
    assert SettingsStore(app_paths()).load().settings.profiles == (replace(MAIN, model="gpt-y"), LOCAL)
    window.save(replace(stale, profiles=()))  # the window deletes Main: Local stays
    assert SettingsStore(app_paths()).load().settings.profiles == (LOCAL,)


def test_a_rule_removed_by_one_writer_is_removed_and_another_kept() -> None:
    disk = {"tool_rules": {"a": "ask", "b": "never_allow"}, "theme": "dark"}
    assert merge(disk, {"tool_rules": {"a": "ask"}, "theme": "system"},
                 {"tool_rules": {}, "theme": "system"}) == {"tool_rules": {"b": "never_allow"}, "theme": "dark"}


SAVER = """
import sys
from dataclasses import replace
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import SettingsStore
store = SettingsStore(app_paths())
settings = store.load().settings
for n in range(int(sys.argv[2])):
    rules = dict(settings.tool_rules)
    rules[f"{sys.argv[1]}_{n}"] = "always_allow"
    settings = replace(settings, tool_rules=rules)
    store.save(settings)  # the process keeps its own copy, as the window does
"""


def test_two_processes_saving_rules_at_the_same_time_lose_none(tmp_path: Path) -> None:
    import os

    SettingsStore(app_paths()).save(Settings(profiles=(MAIN,), theme="dark"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [subprocess.Popen([sys.executable, "-c", SAVER, name, "40"], cwd=ROOT, env=env) for name in "ab"]
    assert [w.wait(120) for w in writers] == [0, 0]
    final = SettingsStore(app_paths()).load().settings
    assert set(final.tool_rules) == {f"{name}_{n}" for name in "ab" for n in range(40)}
    assert final.profiles == (MAIN,) and final.theme == "dark"
    assert final.profiles[0].tool_mode is ToolMode.AUTO


def test_a_save_while_another_process_hangs_holding_the_lock_fails_with_a_clear_error(monkeypatch) -> None:
    import pytest

    from hermes_desktop.core import settings_merge
    from hermes_desktop.core.file_lock import FileLock

    store = SettingsStore(app_paths())
    store.save(Settings(theme="dark"))
    holder = FileLock(store.path.with_name("settings.json.lock"))
    assert holder.try_acquire()  # stands for a process stuck inside its save
    monkeypatch.setattr(settings_merge, "LOCK_TIMEOUT_S", 0.2)
    try:
        with pytest.raises(OSError, match="stayed locked by another process"):
            store.save(Settings(theme="light"))
    finally:
        holder.release()
    assert SettingsStore(app_paths()).load().settings.theme == "dark", "nothing half-written"
    store.save(Settings(theme="light"))
    assert SettingsStore(app_paths()).load().settings.theme == "light"


def test_a_field_of_a_type_pydantic_cannot_check_is_left_to_its_reader() -> None:
    from hermes_desktop.core import settings_validation

    class Opaque:  # a field someone adds with a class of its own
        pass

    assert settings_validation._field_problem("x", Opaque, {"any": "thing"}) == (None, {"any": "thing"})

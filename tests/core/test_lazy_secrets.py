"""`ask` opens the keyring only when it reads a key (LazySecretStore): same store and report as before, later."""

from __future__ import annotations

import os

import pytest

from hermes_desktop.core import secrets as secrets_module
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import LazySecretStore, MemorySecretStore


def test_the_keyring_is_detected_on_first_use_only_once(monkeypatch) -> None:
    calls: list[int] = []
    real = MemorySecretStore()
    report = secrets_module.BackendReport("keyring.backends.fail.Keyring", False, "no system keyring is available",
                                          "no_keyring")

    def detect():  # the real detection runs ldconfig; here it is counted (the store it returns is the real one)
        calls.append(1)
        return real, report

    monkeypatch.setattr(secrets_module, "open_secret_store", detect)
    lazy = LazySecretStore()
    seen = lazy.report
    assert calls == []
    lazy.set("provider:x", "sk-1")
    assert calls == [1] and real.get("provider:x") == "sk-1" and lazy.get("provider:x") == "sk-1"
    assert (seen.secure, seen.reason, seen.code, seen.name) == (False, report.reason, "no_keyring", report.name)
    assert lazy.is_persistent is False
    lazy.delete("provider:x")
    assert lazy.get("provider:x") is None and calls == [1]


def test_ask_with_the_environment_key_never_detects_the_keyring(monkeypatch, tmp_path) -> None:
    calls: list[int] = []
    monkeypatch.setattr(secrets_module, "open_secret_store", lambda: calls.append(1) or (MemorySecretStore(), None))
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name))
    env = {"HERMES_BASE_URL": "http://127.0.0.1:9/v1", "HERMES_MODEL": "m", "HERMES_API_KEY": "k",
           "HERMES_WORKSPACE": str(tmp_path / "ws")}
    runtime = open_runtime(env, secrets=LazySecretStore())
    try:
        assert runtime.api_key(env) == "k"
        assert calls == []
        assert runtime.api_key_for(runtime.profile) == "k" and calls == []
    finally:
        runtime.store.close()


@pytest.mark.keyring
@pytest.mark.skipif(not os.environ.get("HERMES_TEST_SECRET_SERVICE"), reason="needs a real Secret Service (run_suite.sh)")
def test_ask_without_the_environment_key_reads_the_stored_key_from_the_keyring(monkeypatch, tmp_path) -> None:
    import keyring

    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.SecretService.Keyring")
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name))
    env = {"HERMES_MODEL": "m", "HERMES_WORKSPACE": str(tmp_path / "ws")}
    # A saved profile: the environment's own profile (HERMES_BASE_URL alone) never reads the keyring (issue 21).
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore

    saved = ProviderProfile(id="lazy", name="Lazy", base_url="http://127.0.0.1:9/v1", model="m")
    SettingsStore(app_paths()).save(Settings(profiles=(saved,), active_profile_id="lazy"))
    runtime = open_runtime(env, secrets=LazySecretStore())
    username = runtime.profile.keyring_username
    key = f"sk-lazy-{os.getpid()}"
    keyring.set_password(secrets_module.SERVICE_NAME, username, key)
    try:
        assert runtime.api_key(env) == key
        assert runtime.secrets_report.secure and runtime.secrets.is_persistent
    finally:
        keyring.delete_password(secrets_module.SERVICE_NAME, username)
        runtime.store.close()

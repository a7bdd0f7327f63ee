"""`hermes-desktop sync …` / `backup …` as a new user would use them: a desktop and a laptop (two homes) and a
real WebDAV server; secrets from HERMES_SYNC_PASSWORD / HERMES_SYNC_PASSPHRASE into the keyring (the real Secret
Service under tests/run_suite.sh, an in-memory stand-in elsewhere); then a third, empty machine restores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermes_desktop import cli
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.store import open_store
from hermes_desktop.core.sync.config import key_name, password_name
from tests.support.keyring_session import keyring_or_memory_store
from tests.support.sync_servers import PASSWORD, USER, WebDAVServer


@pytest.fixture
def dav(tmp_path: Path):
    server = WebDAVServer(tmp_path / "dav-root")
    yield server
    server.stop()


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch):
    with keyring_or_memory_store([key_name("webdav"), password_name("webdav")]) as store:
        monkeypatch.setattr("hermes_desktop.core.secrets.open_secret_store", lambda: (store, None))
        yield store


def _home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str) -> None:
    for variable, sub in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state")):
        (tmp_path / name / sub).mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv(variable, str(tmp_path / name / sub))


def _chat(session: str, text: str) -> None:
    store = open_store(app_paths()).store
    try:
        if store.get_session(session) is None:
            store.create_session(session, title=session)
        store.append_message(session, NewMessage("user", text))
    finally:
        store.close()


def _sessions() -> dict[str, int]:
    store = open_store(app_paths()).store
    try:
        return {s.id: store.message_count(s.id) for s in store.list_sessions()}
    finally:
        store.close()


def test_two_machines_sync_then_a_third_restores_with_the_passphrase(dav, secrets, tmp_path, monkeypatch,
                                                                     capsys) -> None:
    monkeypatch.setenv("HERMES_SYNC_PASSWORD", PASSWORD)
    monkeypatch.setenv("HERMES_SYNC_PASSPHRASE", "a long sentence nobody guesses")
    _home(monkeypatch, tmp_path, "desktop")
    assert cli.main(["sync", "setup", "webdav", dav.url, "--user", USER]) == 0
    out = capsys.readouterr()
    assert "recovery code" in out.out and "HRC1-" in out.out
    config_text = (app_paths().config_dir / "sync.json").read_text()
    assert PASSWORD not in config_text and "a long sentence" not in config_text  # secrets only in the keyring
    _chat("desktop-chat", "from the desktop")
    assert cli.main(["sync", "now"]) == 0
    assert "synced: 1 batch(es) up" in capsys.readouterr().out

    _home(monkeypatch, tmp_path, "laptop")
    assert cli.main(["sync", "setup", "webdav", dav.url, "--user", USER]) == 0
    _chat("laptop-chat", "from the laptop")
    assert cli.main(["sync", "now"]) == 0
    assert _sessions() == {"desktop-chat": 1, "laptop-chat": 1}
    capsys.readouterr()
    assert cli.main(["sync", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["pending_batches"] == 0 and status["last_sync"] and status["last_error"] == ""
    assert cli.main(["backup", "now"]) == 0
    capsys.readouterr()
    assert cli.main(["backup", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 1 and listed[0]["contents"]["sessions"] == 2

    # a third machine: the wrong passphrase is refused and saves nothing
    _home(monkeypatch, tmp_path, "new")
    monkeypatch.setenv("HERMES_SYNC_PASSPHRASE", "not the passphrase")
    assert cli.main(["sync", "setup", "webdav", dav.url, "--user", USER]) == 1
    assert "wrong passphrase" in capsys.readouterr().err
    assert not (app_paths().config_dir / "sync.json").exists()
    monkeypatch.setenv("HERMES_SYNC_PASSPHRASE", "a long sentence nobody guesses")
    assert cli.main(["sync", "setup", "webdav", dav.url, "--user", USER]) == 0
    # no terminal and no --yes: refused, nothing restored
    monkeypatch.setattr("sys.stdin", open("/dev/null"))
    assert cli.main(["backup", "restore", listed[0]["id"]]) == 2
    assert "confirm with --yes" in capsys.readouterr().err
    assert _sessions() == {}
    assert cli.main(["backup", "restore", listed[0]["id"], "--yes"]) == 0
    assert "restored" in capsys.readouterr().out
    assert _sessions() == {"desktop-chat": 1, "laptop-chat": 1}


def test_not_set_up_is_a_clear_error(secrets, capsys) -> None:
    assert cli.main(["sync", "now"]) == 1
    assert "sync is not set up" in capsys.readouterr().err
    assert cli.main(["sync", "status"]) == 0
    assert "not set up" in capsys.readouterr().out

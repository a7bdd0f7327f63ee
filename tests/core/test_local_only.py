"""core/local_only.py: a session held by a local-only provider stays held through a fork, an export and import, and a
sync to another device; no file or device can lift it; the memory rule. Real SQLite stores on disk."""

from __future__ import annotations

import json
from pathlib import Path

from hermes_desktop.core.local_only import holder_after, local_only_ids, may_receive
from hermes_desktop.core.memory.model import Kind
from hermes_desktop.core.memory.store import MemoryStore, visible_to
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.settings import ProviderProfile
from hermes_desktop.core.storage.transfer import export_json, import_file
from hermes_desktop.core.sync.target import FolderTarget
from tests.support.stores import open_test_store
from tests.support.sync_devices import Device

LOCAL = ProviderProfile(id="mine", name="Mine", base_url="http://127.0.0.1:11434/v1", model="m", local_only=True)
OTHER_LOCAL = ProviderProfile(id="lab", name="Lab", base_url="http://10.0.0.5/v1", model="m", local_only=True)
CLOUD = ProviderProfile(id="cloud", name="Cloud", base_url="https://api.example.com/v1", model="m")


def test_the_rule() -> None:
    assert may_receive(None, CLOUD) and may_receive("mine", LOCAL) and may_receive("mine", OTHER_LOCAL)
    assert not may_receive("mine", CLOUD)
    assert holder_after(None, LOCAL) == "mine" and holder_after(None, CLOUD) is None
    assert holder_after("mine", OTHER_LOCAL) == "mine", "the first holder stays"
    assert local_only_ids((LOCAL, CLOUD, OTHER_LOCAL)) == {"mine", "lab"}
    plain = {"id": "x", "name": "x", "base_url": "u", "model": "m"}
    assert ProviderProfile.from_json({**plain, "local_only": True}).local_only is True
    assert ProviderProfile.from_json({**plain, "local_only": "false"}).local_only is False, "only a real true"

def held_session(store) -> None:
    store.create_session("s", title="confidential")
    store.append_message("s", NewMessage("user", "the Acme merger"))
    store.append_message("s", NewMessage("assistant", "Noted.", finish_reason="stop", model="m"))
    store.hold_local("s", "mine")
    store.hold_local("s", "lab")


def test_held_once_then_kept_by_a_fork_and_an_export_round_trip(monkeypatch, tmp_path) -> None:
    store = open_test_store().store
    held_session(store)
    assert store.held_local("s") == "mine"
    fork = store.fork("s", store.messages("s")[-1].id).id
    assert store.held_local(fork) == "mine"
    exported = export_json(store, "s")
    assert json.loads(exported)["session"]["held_local"] == "mine"
    store.close()
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "other" / name))
    second = open_test_store().store
    import_file(second, exported)
    assert second.held_local("s") == "mine" and export_json(second, "s") == exported
    lying = json.loads(exported)
    lying["session"]["id"], lying["session"]["held_local"] = "t", None
    import_file(second, json.dumps(lying))
    assert second.held_local("t") is None, "a file without it imports a session not held (its own choice)"
    second.close()


def test_a_sync_carries_it_and_no_device_lifts_it(tmp_path: Path) -> None:
    a, b = Device(tmp_path, "desktop"), Device(tmp_path, "laptop")
    (tmp_path / "remote").mkdir()
    remote = FolderTarget(tmp_path / "remote")
    try:
        a.chat("s", "the Acme merger")
        a.chat("open", "weather")
        a.sync(remote)
        b.sync(remote)
        a.store.hold_local("s", "mine")
        a.sync(remote)
        b.sync(remote)
        assert b.store.held_local("s") == "mine" and b.store.held_local("open") is None
        b.store._write(lambda db: db.execute("UPDATE sessions SET held_local = NULL WHERE id = 's'"))
        b.sync(remote)
        a.sync(remote)
        assert a.store.held_local("s") == "mine", "a device that lost it cannot release it elsewhere"
    finally:
        a.close()
        b.close()


def test_a_local_only_providers_memories_are_recalled_only_for_local_only_providers() -> None:
    sessions = open_test_store().store
    private = {"mine", "lab"}
    store = MemoryStore(sessions, private=lambda: private)
    secret = store.add("Works on the Acme merger", profile_id="mine", kind=Kind.FACT)
    public = store.add("Likes green tea", profile_id="cloud", kind=Kind.PREFERENCE)
    assert {m.id for m in store.list(seen_by="cloud")} == {public.id}
    assert {m.id for m in store.list(seen_by="mine")} == {secret.id, public.id}
    assert {m.id for m in store.list(seen_by="lab")} == {secret.id, public.id}
    assert not visible_to(secret, "cloud", private) and visible_to(secret, "lab", private)
    assert store.visible(public, "mine")
    sessions.close()

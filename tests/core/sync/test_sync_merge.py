"""Two devices (two data folders) syncing through a local folder target: the merge rules end to end, on real
SQLite stores. The WebDAV and S3 tests (test_sync_servers.py) run the same engine against real servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_desktop.core.sync import crypto
from hermes_desktop.core.sync.target import FolderTarget
from tests.support.sync_devices import Device, memory_states


@pytest.fixture
def pair(tmp_path: Path):
    a, b = Device(tmp_path, "desktop"), Device(tmp_path, "laptop")
    (tmp_path / "remote").mkdir()  # the external disk's folder (setup makes it)
    yield a, b, FolderTarget(tmp_path / "remote")
    a.close()
    b.close()


def test_each_device_creates_sessions_both_sync_both_see_all_nothing_duplicated(pair) -> None:
    a, b, remote = pair
    a.chat("work", "plan the week", attachment=b"attached bytes \x00\x01")
    b.chat("home", "dinner ideas")
    a.sync(remote)
    b.sync(remote)
    a.sync(remote)
    for device in (a, b):
        assert set(device.titles()) == {"work", "home"}
        assert device.store.message_count("work") == 2 and device.store.message_count("home") == 2
    user = b.store.messages("work")[0]
    assert user.attachments and user.attachments[0].name == "photo.bin"
    from hermes_desktop.core.attachments import AttachmentFiles

    assert AttachmentFiles(b.store.attachments_dir).read(user.attachments[0].hash) == b"attached bytes \x00\x01"
    # idempotent: syncing again changes nothing and uploads nothing
    again_a, again_b = a.sync(remote), b.sync(remote)
    assert again_a.uploaded_batches == again_b.uploaded_batches == 0
    assert again_a.applied == again_b.applied == 0
    assert b.store.message_count("work") == 2


def test_the_same_session_continued_on_both_keeps_both_branches(pair) -> None:
    a, b, remote = pair
    a.chat("trip", "where to go")
    a.sync(remote)
    b.sync(remote)
    a.chat("trip", "Kyoto in spring")
    b.chat("trip", "Lisbon in autumn")
    a.sync(remote)
    assert b.sync(remote).branched == ["trip"]  # told, not silent
    assert a.sync(remote).branched == ["trip"]
    expected = {(None, "where to go"), ("where to go", "reply to where to go"),
                ("reply to where to go", "Kyoto in spring"), ("Kyoto in spring", "reply to Kyoto in spring"),
                ("reply to where to go", "Lisbon in autumn"), ("Lisbon in autumn", "reply to Lisbon in autumn")}
    assert a.tree("trip") == b.tree("trip") == expected
    # each device stays on its own continuation; the other one is a sibling branch
    assert a.store.messages("trip")[-1].content == "reply to Kyoto in spring"
    assert b.store.messages("trip")[-1].content == "reply to Lisbon in autumn"
    kyoto = next(m for m in b.store.all_messages("trip") if m.content == "Kyoto in spring")
    assert len(b.store.siblings(kyoto.id)) == 2


def test_rename_pin_delete_and_purge_propagate(pair) -> None:
    a, b, remote = pair
    a.chat("one", "first")
    a.chat("two", "second")
    a.chat("three", "third")
    a.sync(remote)
    b.sync(remote)
    b.store.rename("one", "Renamed on the laptop")
    b.store.set_pinned("two", True)
    b.store.delete_session("three")
    b.sync(remote)
    a.sync(remote)
    assert a.store.get_session("one").title == "Renamed on the laptop"
    assert a.store.get_session("two").pinned
    assert a.store.get_session("three").deleted_at is not None
    a.store.purge_session("three")
    a.sync(remote)
    b.sync(remote)
    assert b.store.get_session("three") is None
    # an older record never brings a purged session back
    b.sync(remote)
    assert b.store.get_session("three") is None and a.store.get_session("three") is None


def test_a_memory_forgotten_on_one_device_is_forgotten_on_all(pair) -> None:
    a, b, remote = pair
    kept = a.memories.add("likes green tea", quote="I like green tea")
    gone = a.memories.add("lives in Berlin", quote="I live in Berlin")
    a.sync(remote)
    b.sync(remote)
    assert memory_states(b) == {"likes green tea": "active", "lives in Berlin": "active"}
    b_gone = next(m for m in b.memories.list(states=None) if m.statement == "lives in Berlin")
    b.memories.forget([b_gone.id])
    a.memories.edit(gone.id, "lives in Berlin, Germany")  # a concurrent edit on the other device
    a.memories.undo_forget([kept.id])
    b.sync(remote)
    a.sync(remote)
    b.sync(remote)
    assert memory_states(a)["lives in Berlin, Germany"] == "forgotten"
    assert memory_states(b)["lives in Berlin, Germany"] == "forgotten"
    assert memory_states(a)["likes green tea"] == memory_states(b)["likes green tea"] == "active"


def test_clocks_an_hour_apart_the_later_change_still_wins(tmp_path: Path) -> None:
    now = [1_800_000_000_000]
    fast = Device(tmp_path, "fast", now_ms=lambda: now[0] + 3_600_000)  # an hour ahead
    slow = Device(tmp_path, "slow", now_ms=lambda: now[0])
    (tmp_path / "remote").mkdir()
    remote = FolderTarget(tmp_path / "remote")
    try:
        fast.chat("s", "hello")
        fast.store.rename("s", "named on the fast clock")
        fast.sync(remote)
        now[0] += 60_000
        slow.sync(remote)
        assert slow.store.get_session("s").title == "named on the fast clock"
        now[0] += 60_000  # a minute later in real time, an hour earlier by the slow device's wall clock
        slow.store.rename("s", "renamed later on the slow clock")
        slow.sync(remote)
        fast.sync(remote)
        assert fast.store.get_session("s").title == "renamed later on the slow clock"
        assert slow.store.get_session("s").title == "renamed later on the slow clock"
    finally:
        fast.close()
        slow.close()


def test_a_tampered_batch_is_skipped_with_a_message_and_the_rest_arrives(pair, tmp_path: Path) -> None:
    a, b, remote = pair
    a.chat("one", "first")
    a.sync(remote)
    a.chat("two", "second")
    a.sync(remote)
    batches = sorted((tmp_path / "remote" / "log").rglob("*.batch"))
    assert len(batches) == 2
    data = bytearray(batches[0].read_bytes())
    data[40] ^= 0xFF
    batches[0].write_bytes(bytes(data))
    report = b.sync(remote)
    assert any("failed its authentication check" in p for p in report.problems)
    assert b.store.get_session("two") is not None  # the untouched batch was merged
    assert b.sync(remote).problems == []  # skipped once, not every time


def test_a_wrong_key_is_a_clear_error_and_changes_nothing(pair, tmp_path: Path) -> None:
    from hermes_desktop.core.sync import keys

    a, b, remote = pair
    key, code = keys.setup_key(remote, "correct horse battery", scrypt_n=2 ** 12)
    before = sorted(p.name for p in (tmp_path / "remote").rglob("*"))
    with pytest.raises(crypto.WrongPassphrase):
        keys.setup_key(remote, "wrong horse battery", scrypt_n=2 ** 12)
    assert sorted(p.name for p in (tmp_path / "remote").rglob("*")) == before
    assert keys.setup_key(remote, code)[0] == key  # the recovery code opens it too
    with pytest.raises(crypto.WrongPassphrase, match="checksum"):
        crypto.parse_recovery_code(code[:-3] + ("AAA" if not code.endswith("AAA") else "BBB"))


def test_later_edits_and_old_rows_never_synced_are_found_by_the_incremental_scan(pair) -> None:
    a, b, remote = pair
    a.chat("s", "first")
    a.sync(remote)  # the full scan
    reply = a.store.messages("s")[-1]
    a.store.update_message(reply.id, content="reply, corrected")
    # a row from long ago that was never synced (an import, an older version's write)
    a.store.create_session("old", title="old")
    old_id = a.store.append_message("old", __import__("hermes_desktop.core.session_types",
                                                      fromlist=["NewMessage"]).NewMessage("user", "from 2019"))
    a.store._write(lambda db: db.execute("UPDATE messages SET updated_at = 1.5e9 WHERE id = ?", (old_id,)))
    report = a.sync(remote)
    assert report.uploaded_batches == 1
    b.sync(remote)
    assert b.store.messages("s")[-1].content == "reply, corrected"
    assert [m.content for m in b.store.messages("old")] == ["from 2019"]


def test_hostile_records_from_a_key_holder_are_skipped_or_made_safe(pair, tmp_path: Path) -> None:
    import json as _json

    from hermes_desktop.core.sync import crypto as _crypto
    from tests.support.sync_devices import TEST_KEY

    a, b, remote = pair
    good = "a" * 32
    records = [
        {"k": "session", "g": good, "h": "0001800000000000-000000-zzzzzz", "f": {"title": ["x", "user"]},
         "c": {"id": "../../etc/passwd", "created_at": 1.0}},
        {"k": "session", "g": "not-a-gid", "h": "1", "f": {}},
        {"k": "message", "g": "b" * 32, "h": "0001800000000000-000001-zzzzzz", "f": {"body": "not a dict"},
         "c": {"session": good}},
    ]
    key = "log/zzzzzz/0000000001.batch"
    payload = {"format": "hermes-sync-batch/1", "device": "zzzzzz", "seq": 1, "records": records}
    remote.put(key, _crypto.seal(TEST_KEY, key, _json.dumps(payload).encode()))
    report = b.sync(remote)
    assert b.store.get_session(good) is not None and b.store.get_session(good).title == "x"  # id made safe
    assert len(report.problems) == 2  # the bad gid and the bad body, each named


def test_a_field_changed_on_both_devices_is_a_listed_conflict_and_a_plain_later_edit_is_not(pair) -> None:
    import json

    a, b, remote = pair
    a.chat("trip", "where to go")
    a.sync(remote)
    b.sync(remote)
    b.store.rename("trip", "Renamed on the laptop")  # a later edit made after seeing a's title: no conflict
    b.sync(remote)
    a.sync(remote)
    assert a.store.get_session("trip").title == "Renamed on the laptop"

    def listed(device: Device) -> list[dict]:
        row = device.store._read("SELECT value FROM sync_meta WHERE key = 'conflicts'")
        return json.loads(row[0][0]) if row else []

    assert listed(a) == [] and listed(b) == []
    a.store.rename("trip", "Kyoto")  # both rename from the same title, before either syncs
    b.store.rename("trip", "Lisbon")
    a.sync(remote)
    report = b.sync(remote)  # b's rename is the newer one here: kept, and a's is listed as lost
    assert report.conflicts == 1
    [seen] = listed(b)
    assert seen["kind"] == "session" and seen["field"] == "title" and seen["kept"] == "yours"
    assert seen["label"] == "Lisbon" and seen["device"]
    a.sync(remote)
    assert a.store.get_session("trip").title == b.store.get_session("trip").title == "Lisbon"  # converged
    [on_a] = listed(a)
    assert on_a["kept"] == "theirs" and on_a["label"] == "Kyoto"  # what it was called here before

"""A healthy database is never thrown away: full disk, read-only media, immutable file.

The data folder lives on a real, small tmpfs that is filled with a file until the kernel
answers ENOSPC, and freed by deleting that file; read-only media is the same tmpfs
remounted `ro`; a write-protected file is `chattr +i` (root ignores permission bits).
The command-line tests run the real `hermes-desktop ask` as a subprocess against the
scripted model server.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.core.paths import AppPaths
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.storage.errors import DiskFullError, ReadOnlyStoreError
from hermes_desktop.core.store import SQLiteSessionStore, open_store
from tests.support.demo_model import demo_responder
from tests.support.model_server import ScriptedModelServer, text_reply
from tests.support.small_disk import SmallDisk, immutable, small_disk
from tests.support.stores import data_paths, write_v1_database

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SmallDisk]:
    """XDG_DATA_HOME (so the data folder and hermes.db) on an 8 MiB tmpfs."""
    with small_disk(tmp_path / "disk") as mounted:
        monkeypatch.setenv("XDG_DATA_HOME", str(mounted.root))
        yield mounted


def chat(store: SQLiteSessionStore, session_id: str, *pairs: tuple[str, str]) -> None:
    if store.get_session(session_id) is None:
        store.create_session(session_id)
    for user, assistant in pairs:
        store.append_message(session_id, NewMessage("user", user))
        store.append_message(session_id, NewMessage("assistant", assistant, finish_reason="stop"))


def contents(store: SQLiteSessionStore, session_id: str) -> list[str | None]:
    return [m.content for m in store.messages(session_id)]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def set_aside(paths: AppPaths) -> list[str]:
    return sorted(p.name for p in paths.data_dir.iterdir() if ".corrupt-" in p.name or ".restoring" in p.name)


HISTORY = [("what is on the list?", "milk, eggs"), ("and for dinner?", "soup")]


def stored_history(paths: AppPaths) -> Path:
    opened = open_store(paths)
    chat(opened.store, "s", *HISTORY)
    opened.store.close()  # a clean close checkpoints: the database is one file again
    return paths.database


# ------------------------------------------------------------------ start-up


def test_a_full_disk_at_start_up_opens_the_history_read_only_and_never_touches_the_file(disk) -> None:
    paths = data_paths()
    database = stored_history(paths)
    before = digest(database)
    disk.fill()

    opened = open_store(paths)

    reason = opened.read_only_reason or ""
    assert reason.startswith(f"The disk holding {database} is full") and reason in opened.messages
    assert opened.store.read_only and opened.store.read_only_reason == reason
    assert contents(opened.store, "s") == [text for pair in HISTORY for text in pair], "the history is readable"
    with pytest.raises(ReadOnlyStoreError) as refused:
        opened.store.append_message("s", NewMessage("user", "one more"))
    assert str(refused.value) == reason
    opened.store.close()
    assert digest(database) == before, "not one byte of the database changed"
    assert set_aside(paths) == [], "nothing was renamed or set aside as corrupt"


def test_after_space_is_freed_the_app_opens_normally_with_all_history(disk) -> None:
    paths = data_paths()
    stored_history(paths)
    disk.fill()
    open_store(paths).store.close()  # the read-only start on the full disk
    disk.free()

    opened = open_store(paths)

    assert opened.read_only_reason is None and not opened.store.read_only and opened.messages == []
    assert contents(opened.store, "s") == [text for pair in HISTORY for text in pair]
    opened.store.append_message("s", NewMessage("user", "and tomorrow?"))
    assert contents(opened.store, "s")[-1] == "and tomorrow?"
    assert opened.store.integrity_ok()
    opened.store.close()


def test_the_daily_backup_is_skipped_with_a_notice_when_it_would_fill_the_disk(disk) -> None:
    paths = data_paths()
    stored_history(paths)
    backups = paths.data_dir / "backups"
    for backup in backups.glob("hermes-*.db"):  # as if today's backup were still to be made
        backup.unlink()
    stats = os.statvfs(disk.root)
    nearly_full = disk.root / "nearly-full.bin"
    nearly_full.write_bytes(b"\0" * (stats.f_bavail * stats.f_frsize - 1024 * 1024))

    opened = open_store(paths)

    assert not opened.store.read_only, "enough room to chat, not enough for a backup"
    notices = [m for m in opened.messages if m.startswith("Today's backup of the session database was skipped")]
    assert len(notices) == 1 and str(backups) in notices[0]
    assert list(backups.glob("hermes-*")) == [], "no backup, and no partial one taking the last space"
    assert contents(opened.store, "s") == [text for pair in HISTORY for text in pair]
    opened.store.close()
    nearly_full.unlink()
    again = open_store(paths)
    assert again.messages == [] and len(list(backups.glob("hermes-*.db"))) == 1
    again.store.close()


# ------------------------------------------------------------------ a write on a full disk


def test_a_write_on_a_full_disk_says_so_keeps_what_is_stored_and_works_once_space_is_free(disk) -> None:
    paths = data_paths()
    opened = open_store(paths)
    store = opened.store
    chat(store, "s", *HISTORY)
    before = store.messages("s")
    disk.fill()

    with pytest.raises(DiskFullError) as caught:
        store.append_message("s", NewMessage("user", "a long question " * 5000))

    message = str(caught.value)
    assert message == (f"The disk holding {paths.database} is full: your message was not saved. "
                       "Free some space and try again.")
    assert store.messages("s") == before, "nothing already stored changed"
    disk.free()
    store.append_message("s", NewMessage("user", "a long question " * 5000))
    assert len(store.messages("s")) == len(before) + 1
    store.close()
    reopened = open_store(paths)
    assert reopened.store.integrity_ok() and len(reopened.store.messages("s")) == len(before) + 1
    reopened.store.close()


# ------------------------------------------------------------------ read-only media and files


def test_a_read_only_data_folder_opens_the_history_read_only_with_the_reason(disk) -> None:
    paths = data_paths()
    database = stored_history(paths)
    before = digest(database)
    disk.remount("ro")
    try:
        opened = open_store(paths)
        assert opened.store.read_only
        assert opened.read_only_reason == (f"{database} is on read-only storage or is write-protected: "
                                           "the history is open read-only and nothing new can be saved. "
                                           "Make it writable, then restart Hermes Desktop.")
        assert contents(opened.store, "s") == [text for pair in HISTORY for text in pair]
        assert opened.store.search("dinner"), "search works read-only"
        opened.store.close()
    finally:
        disk.remount("rw")
    assert digest(database) == before and set_aside(paths) == []
    again = open_store(paths)
    assert not again.store.read_only
    again.store.close()


def test_a_write_protected_database_file_opens_read_only_with_the_reason(disk) -> None:
    paths = data_paths()
    database = stored_history(paths)
    before = digest(database)
    immutable(database, True)
    try:
        opened = open_store(paths)
        assert opened.store.read_only and "is on read-only storage or is write-protected" in (
            opened.read_only_reason or "")
        assert contents(opened.store, "s") == [text for pair in HISTORY for text in pair]
        with pytest.raises(ReadOnlyStoreError):
            opened.store.create_session("other")
        opened.store.close()
    finally:
        immutable(database, False)
    assert digest(database) == before and set_aside(paths) == []


# ------------------------------------------------------------------ the real command line


@pytest.fixture
def server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(responder=demo_responder) as scripted:
        yield scripted


@pytest.fixture
def env(server: ScriptedModelServer, workspace_dir: Path, disk: SmallDisk) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "HERMES_BASE_URL": server.base_url, "HERMES_MODEL": "scripted-model",
            "HERMES_API_KEY": "sk-disk-full-test-0123456789", "HERMES_WORKSPACE": str(workspace_dir)}


def hermes(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hermes_desktop", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, input="")


def exported(session_id: str, env: dict[str, str]) -> str:
    result = hermes("sessions", "export", session_id, "--format", "json", env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_ask_on_a_full_disk_exits_1_with_one_line_and_works_once_space_is_free(server, env, disk) -> None:
    server.enqueue(text_reply("Milk and eggs."))
    first = hermes("ask", "what is on the list?", "--session", "demo", env=env)
    assert first.returncode == 0, first.stderr
    paths = data_paths()
    before = digest(paths.database)
    requests_before = len(server.chat_requests)
    disk.fill()

    refused = hermes("ask", "and for dinner?", "--session", "demo", env=env)

    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        f"error: The disk holding {paths.database} is full: the history is open read-only and nothing new can be "
        "saved. Free some space and try again."]
    assert len(server.chat_requests) == requests_before, "nothing was sent to the model"
    assert digest(paths.database) == before and set_aside(paths) == []
    disk.free()
    server.enqueue(text_reply("Soup."))
    again = hermes("ask", "and for dinner?", "--session", "demo", env=env)
    assert again.returncode == 0 and again.stdout.strip() == "Soup.", again.stderr
    history = exported("demo", env)
    for text in ("what is on the list?", "Milk and eggs.", "and for dinner?", "Soup."):
        assert text in history


def test_ask_whose_message_cannot_be_saved_exits_1_with_one_line(server, env, disk) -> None:
    # A window stays open on the same history, so the database opens normally; then the disk fills.
    paths = data_paths()
    window = open_store(paths)
    chat(window.store, "demo", *HISTORY)
    before = window.store.messages("demo")
    requests_before = len(server.chat_requests)
    disk.fill()
    question = "please summarise " * 4000

    failed = hermes("ask", question, "--session", "demo", env=env)

    assert failed.returncode == 1 and failed.stdout == "", failed.stderr
    assert failed.stderr.strip().splitlines() == [
        f"error: The disk holding {paths.database} is full: your message was not saved. Free some space and "
        "try again."]
    assert window.store.messages("demo") == before, "the stored history is intact"
    assert len(server.chat_requests) == requests_before, "nothing was sent to the model"
    disk.free()
    server.enqueue(text_reply("Here is the summary."))
    again = hermes("ask", question, "--session", "demo", env=env)
    assert again.returncode == 0 and again.stdout.strip() == "Here is the summary.", again.stderr
    after = window.store.messages("demo")
    assert after[: len(before)] == before and [m.content for m in after[len(before):]] == [
        question, "Here is the summary."]
    window.store.close()


# ------------------------------------------------------------------ migrations


def test_an_old_database_on_a_full_disk_is_shown_migrated_in_memory_and_left_as_it_was(disk) -> None:
    paths = data_paths()
    write_v1_database(paths.database)
    with sqlite3.connect(paths.database) as db:
        v1_messages = db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    before = digest(paths.database)
    disk.fill()

    opened = open_store(paths)

    assert opened.store.read_only and (opened.read_only_reason or "").startswith(f"The disk holding {paths.database}")
    sessions = opened.store.list_sessions()
    assert sessions and sum(len(opened.store.messages(s.id)) for s in sessions) == v1_messages
    opened.store.close()
    assert digest(paths.database) == before, "the old database was not migrated in place"
    assert list(paths.data_dir.glob("hermes.db.pre-v*")) == [], "no partial pre-migration copy left taking space"
    disk.free()
    migrated = open_store(paths)
    assert not migrated.store.read_only
    assert sum(len(migrated.store.messages(s.id)) for s in migrated.store.list_sessions()) == v1_messages
    assert len(list(paths.data_dir.glob("hermes.db.pre-v*.bak"))) == 1
    migrated.store.close()


def test_a_pre_migration_copy_that_does_not_fit_leaves_the_old_database_as_it_was(disk) -> None:
    paths = data_paths()
    write_v1_database(paths.database)
    with sqlite3.connect(paths.database) as db:
        db.execute("PRAGMA journal_mode = WAL")  # as the app left it: the database opens without new space
        v1_messages = db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
        holder = sqlite3.connect(paths.database)  # keeps -wal/-shm in place, like another window would
        holder.execute("SELECT COUNT(*) FROM messages").fetchone()
    before = digest(paths.database)
    disk.fill()
    try:
        opened = open_store(paths)
        assert opened.store.read_only and "is full" in (opened.read_only_reason or "")
        assert sum(len(opened.store.messages(s.id)) for s in opened.store.list_sessions()) == v1_messages
        opened.store.close()
    finally:
        holder.close()
    assert digest(paths.database) == before
    assert list(paths.data_dir.glob("hermes.db.pre-v*")) == [] and set_aside(paths) == []


def test_ask_on_read_only_media_exits_1_with_one_line(server, env, disk) -> None:
    paths = data_paths()
    stored_history(paths)  # a database, and no skills folder yet: nothing more may be created either
    before = digest(paths.database)
    disk.remount("ro")
    try:
        refused = hermes("ask", "hello?", "--session", "s", env=env)
    finally:
        disk.remount("rw")
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        f"error: {paths.database} is on read-only storage or is write-protected: the history is open read-only "
        "and nothing new can be saved. Make it writable, then restart Hermes Desktop."]
    assert server.chat_requests == [] and digest(paths.database) == before

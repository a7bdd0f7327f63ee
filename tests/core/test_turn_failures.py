"""A failed turn's error is kept with its session (core/turn_failures.py, migration 12), so its card comes back after
a restart; the next turn removes it; keys never reach the database; a full disk loses the card, never the report.
The real engine against the scripted model server, real SQLite files on disk, a real (tmpfs) full disk."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from dataclasses import replace

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.attachments import prepare_attachment
from hermes_desktop.core.settings import Capability
from hermes_desktop.imaging import process_image
from tests.support.attachment_files import write_png
from hermes_desktop.core import turn_failures
from hermes_desktop.core.storage.migrations import migrate
from hermes_desktop.core.store import open_store
from tests.support.engine import make_engine, of_type
from tests.support.model_server import error_reply, text_reply
from tests.support.small_disk import small_disk
from tests.support.stores import data_paths


async def test_a_failed_turn_is_kept_and_the_next_turn_removes_it(profile, workspace_dir, model_server) -> None:
    engine = make_engine(profile, workspace_dir)
    try:
        model_server.enqueue(error_reply(400, "the server said no", code="bad_request"))
        events = await engine.ask("first question", session_id="s")
        error = of_type(events, ev.TurnError)[0]
        kept = turn_failures.load(engine.store, "s")
        user = engine.store.messages("s")[0]
        assert kept is not None and kept.message_id == user.id and user.content == "first question"
        assert (kept.error.kind, kept.error.code, kept.error.action, kept.error.message) == (
            error.kind, error.code, error.action, error.message)
        assert kept.error.params == error.params

        model_server.enqueue(text_reply("fine now"))
        events = await engine.ask("second question", session_id="s")
        assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        assert turn_failures.load(engine.store, "s") is None, "the next turn is the session's latest word"
    finally:
        await engine.close()


async def test_an_image_refused_before_storing_keeps_no_card(profile, workspace_dir, model_server,
                                                              tmp_path: Path) -> None:
    """Nothing stored, nothing kept: the window gives the text and the file back to the box instead."""
    built = make_engine(replace(profile, model="deepseek-chat", vision=Capability.NO), workspace_dir)
    try:
        built.store.create_session("s")
        attachment = prepare_attachment(write_png(tmp_path / "a.png"), process_image=process_image)
        events = await built.agent.start_turn("s", "What is in this picture?", [attachment]).wait()
        assert "cannot see images" in of_type(events, ev.TurnError)[0].message
        assert built.store.messages("s") == [] and turn_failures.load(built.store, "s") is None
    finally:
        await built.close()


def test_what_is_kept_is_redacted_and_reads_back() -> None:
    error = ev.TurnError(ev.ErrorKind.AUTH, "Incorrect API key provided: sk-proj-abcdefghijklmnop1234 (401)",
                         ev.ErrorAction.OPEN_PROVIDER_SETTINGS, detail="raw body with my-own-secret-value",
                         code="auth_rejected", params={"status": 401, "said": "key my-own-secret-value is wrong",
                                                       "nested": ["Bearer abcdefghijklmnop"]})
    stored = turn_failures.encode(error, ["my-own-secret-value"])
    assert "sk-proj-abcdefghijklmnop1234" not in stored and "my-own-secret-value" not in stored
    assert "abcdefghijklmnop" not in stored and "raw body" not in stored, "detail is not kept"
    back = turn_failures.decode(stored)
    assert back is not None and back.kind is ev.ErrorKind.AUTH and back.action is ev.ErrorAction.OPEN_PROVIDER_SETTINGS
    assert back.code == "auth_rejected" and back.params["status"] == 401
    assert "[redacted]" in back.message and "[redacted]" in back.params["said"]


@pytest.mark.parametrize("text", ["not json", "{}", '{"kind": "no-such-kind"}', '{"kind": "auth", "params": 3}'])
def test_a_damaged_stored_error_shows_no_card_rather_than_failing(text: str) -> None:
    back = turn_failures.decode(text)
    assert back is None or (back.kind is ev.ErrorKind.AUTH and back.params == {})


def test_deleting_the_session_deletes_its_card_and_an_older_database_migrates(tmp_path: Path) -> None:
    opened = open_store(data_paths())
    store = opened.store
    try:
        info = store.create_session(title="t")
        from hermes_desktop.core.session_types import NewMessage

        user = store.append_message(info.id, NewMessage("user", "hello"))
        turn_failures.save(store, info.id, user, ev.TurnError(ev.ErrorKind.SERVER, "down", ev.ErrorAction.RETRY))
        assert turn_failures.load(store, info.id) is not None
        store._write(lambda db: db.execute("DELETE FROM sessions WHERE id = ?", (info.id,)))
        assert store._read("SELECT COUNT(*) FROM turn_failures")[0][0] == 0
    finally:
        store.close()
    db = sqlite3.connect(tmp_path / "v11.db")
    migrate(db, up_to=11)
    assert not db.execute("SELECT name FROM sqlite_master WHERE name = 'turn_failures'").fetchall()
    migrate(db)
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'turn_failures'").fetchall()
    db.close()


async def test_a_full_disk_loses_the_card_but_never_the_turns_report(
        profile, workspace_dir, model_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog) -> None:
    """The disk fills right before the card is written (a real tmpfs filled to ENOSPC after the WAL is checkpointed
    and truncated); the turn still reports its error and finishes, and the log says the card was lost."""
    with small_disk(tmp_path / "disk") as disk:
        monkeypatch.setenv("XDG_DATA_HOME", str(disk.root))
        store = open_store(data_paths()).store
        engine = make_engine(profile, workspace_dir, store=store)
        original = turn_failures.save
        failures: list[Exception] = []

        def on_a_full_disk(*args, **kwargs):
            store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            disk.fill()
            try:
                return original(*args, **kwargs)
            except Exception as exc:
                failures.append(exc)
                raise
            finally:
                disk.free()

        monkeypatch.setattr(turn_failures, "save", on_a_full_disk)
        model_server.enqueue(error_reply(400, "refused", code="bad_request"))
        try:
            with caplog.at_level(logging.WARNING, logger="hermes_desktop.core.turn_failures"):
                events = await engine.ask("hello", session_id="s")
            assert len(failures) == 1, failures
            assert of_type(events, ev.TurnError) and of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.ERROR
            assert turn_failures.load(store, "s") is None and "error card" in caplog.text
            assert [m.content for m in store.messages("s")] == ["hello"], "the message itself is kept"
        finally:
            await engine.close()

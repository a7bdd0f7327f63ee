"""Each tool call's record (impact, decision and who decided, outcome, duration) is kept beside its stored result
(migration 8, core/store.py ToolCallRecord), so a reopened card says what the live one said. Real SQLite on disk,
the real engine against the scripted model server, real files in a temp workspace; the full disk is a real tmpfs."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.storage.errors import DiskFullError
from hermes_desktop.core.storage.migrations import LATEST_VERSION, migrate
from hermes_desktop.core.store import connect, open_store
from hermes_desktop.core.storage import transfer
from hermes_desktop.core.tools.approval import Decision
from tests.support.old_history import write_old_history
from tests.support.engine import ScriptedApprover, make_engine, of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply
from tests.support.small_disk import small_disk
from tests.support.stores import data_paths


def tool_ids(store, session_id: str) -> list[int]:
    return [m.id for m in store.all_messages(session_id) if m.role == "tool"]


async def allowed_write_and_denied_delete(profile, workspace_dir, model_server):
    (workspace_dir / "old.txt").write_text("x" * 40, encoding="utf-8")
    engine = make_engine(profile, workspace_dir, approver=ScriptedApprover([Decision.ALLOW_ONCE, Decision.DENY]))
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "hello.txt", "content": "abc"})),
                         text_reply("written"),
                         tool_call_reply(CallScript("delete_path", {"path": "old.txt"})), text_reply("kept"))
    await engine.ask("write hello", session_id="s")
    await engine.ask("delete old", session_id="s")
    return engine


async def test_the_engine_keeps_each_calls_impact_decision_outcome_and_duration(profile, workspace_dir,
                                                                                 model_server) -> None:
    engine = await allowed_write_and_denied_delete(profile, workspace_dir, model_server)
    try:
        write_id, delete_id = tool_ids(engine.store, "s")
        records = engine.store.tool_records([write_id, delete_id])
        write, delete = records[write_id], records[delete_id]
        assert (write.impact_code, write.impact_params["path"], write.impact_params["bytes"]) == (
            "create_file", "hello.txt", 3)
        assert write.impact == "will create hello.txt (3 bytes)"
        assert (write.decision, write.decided_by, write.outcome) == ("allow_once", "you", "ok")
        assert write.duration_s is not None and write.duration_s >= 0
        assert (delete.impact_code, delete.decision, delete.decided_by, delete.outcome) == (
            "delete_file", "deny", "you", "denied")
        assert write.call_id == engine.store.message(write_id).tool_call_id
    finally:
        await engine.close()


async def test_records_follow_forks_and_branches_survive_the_trash_and_go_with_a_purge(profile, workspace_dir,
                                                                                         model_server) -> None:
    engine = await allowed_write_and_denied_delete(profile, workspace_dir, model_server)
    store = engine.store
    try:
        write_id, delete_id = tool_ids(store, "s")
        history = store.messages("s")
        fork = store.fork("s", history[-1].id)
        copied = store.tool_records(tool_ids(store, fork.id))
        assert sorted((r.decision, r.impact_code) for r in copied.values()) == [
            ("allow_once", "create_file"), ("deny", "delete_file")]
        assert set(copied).isdisjoint({write_id, delete_id}), "the fork's records belong to its own messages"

        first_user = history[0]
        store.edit_user_message(first_user.id, "write hello again")  # a new branch; the old one stays
        store.switch_branch(first_user.id)
        assert set(store.tool_records([write_id, delete_id])) == {write_id, delete_id}

        store.delete_session("s")
        store.restore_session("s")
        assert set(store.tool_records([write_id, delete_id])) == {write_id, delete_id}
        store.delete_session("s")
        store.purge_session("s")
        assert store.tool_records([write_id, delete_id]) == {}
        assert len(store.tool_records(tool_ids(store, fork.id))) == 2, "the fork keeps its own"
        count = store._db.execute("SELECT COUNT(*) FROM tool_call_records WHERE session_id = 's'").fetchone()[0]
        assert count == 0, "no orphaned rows"
    finally:
        await engine.close()


async def test_exports_leave_records_out_and_an_import_has_none(profile, workspace_dir, model_server) -> None:
    engine = await allowed_write_and_denied_delete(profile, workspace_dir, model_server)
    try:
        exported = transfer.export_json(engine.store, "s")
        assert "allow_once" not in exported and "create_file" not in exported
        engine.store.delete_session("s")
        engine.store.purge_session("s")
        result = transfer.import_file(engine.store, exported)
        assert engine.store.tool_records(tool_ids(engine.store, result.session_id)) == {}
        assert transfer.export_json(engine.store, result.session_id) == exported, "the round trip still holds"
    finally:
        await engine.close()


def test_a_corrupt_stored_record_reads_back_without_its_impact(tmp_path) -> None:
    store = open_store(data_paths()).store
    try:
        store.create_session("s")
        store.append_message("s", NewMessage("assistant", "", tool_calls=[
            {"id": "c1", "type": "function", "function": {"name": "write_file", "arguments": "{}"}}],
            finish_reason="tool_calls"))
        tool = store.append_message("s", NewMessage("tool", "{}", tool_call_id="c1", name="write_file"))
        store.record_tool_call(tool, session_id="s", call_id="c1", impact_code="create_file",
                               impact_params={"path": "a.txt", "bytes": 1}, decision="allow_once", decided_by="you",
                               outcome="ok", duration_s=0.5)
        for bad in ("{not json", "[1, 2]", "null"):
            store._db.execute("UPDATE tool_call_records SET impact_params = ?", (bad,))
            record = store.tool_records([tool])[tool]
            assert record.impact_params is None and record.decision == "allow_once" and record.duration_s == 0.5
        store._db.execute("UPDATE tool_call_records SET duration_s = 'soon'")
        assert store.tool_records([tool])[tool].duration_s is None
    finally:
        store.close()


def test_a_v7_database_migrates_to_v8_keeps_its_messages_and_has_no_records(tmp_path) -> None:
    paths = data_paths()
    paths.data_dir.mkdir(parents=True, exist_ok=True)
    db = connect(paths.database)
    migrate(db, up_to=7)
    db.close()
    write_old_history(paths.database, "kept", [
        NewMessage("user", "write a file"),
        NewMessage("assistant", "", tool_calls=[
            {"id": "c1", "type": "function", "function": {"name": "write_file", "arguments": '{"path": "a.txt"}'}}],
            finish_reason="tool_calls"),
        NewMessage("tool", '{"ok": true}', tool_call_id="c1", name="write_file")])

    store = open_store(paths).store
    try:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION >= 8
        assert [m.role for m in store.messages("kept")] == ["user", "assistant", "tool"]
        tool = store.messages("kept")[-1].id
        assert store.tool_records([tool]) == {}, "an old session simply has no records"
        store.record_tool_call(tool, session_id="kept", call_id="c1", outcome="ok")
        assert store.tool_records([tool])[tool].impact_params == {}
        backups = list(paths.data_dir.glob("hermes.db.pre-v*.bak"))
        assert [sqlite3.connect(b).execute("PRAGMA user_version").fetchone()[0] for b in backups] == [7]
    finally:
        store.close()


async def test_a_full_disk_while_the_record_is_written_keeps_the_result_and_the_turn(
        profile, workspace_dir, model_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog) -> None:
    """The disk fills between the tool result's write and its record's (a real tmpfs, filled to ENOSPC after the
    WAL is checkpointed and truncated, so the record's commit needs a new block); freed right after."""
    with small_disk(tmp_path / "disk") as disk:
        monkeypatch.setenv("XDG_DATA_HOME", str(disk.root))
        store = open_store(data_paths()).store
        engine = make_engine(profile, workspace_dir, approver=ScriptedApprover([Decision.ALLOW_ONCE]), store=store)
        original = store.record_tool_call
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

        monkeypatch.setattr(store, "record_tool_call", on_a_full_disk)
        model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "hello.txt", "content": "abc"})),
                             text_reply("written"))
        try:
            with caplog.at_level(logging.WARNING, logger="hermes_desktop.core.agent"):
                events = await engine.ask("write hello", session_id="s")
            assert len(failures) == 1 and isinstance(failures[0], DiskFullError), failures
            assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
            assert not of_type(events, ev.TurnError)
            assert of_type(events, ev.ToolCallFinished)[0].outcome is ev.ToolOutcome.OK
            stored = store.messages("s")
            assert [m.role for m in stored] == ["user", "assistant", "tool", "assistant"]
            assert stored[-1].content == "written" and (workspace_dir / "hello.txt").read_text() == "abc"
            assert store.tool_records([stored[2].id]) == {}, "only the record was lost"
            assert "record of tool call" in caplog.text
        finally:
            await engine.close()

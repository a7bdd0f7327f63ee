"""A reopened conversation's tool cards say what they said live: the impact line, who decided and how, and the
duration (core/store.py ToolCallRecord, migration 8). Everything is real: the scripted model server, real files in a
temp workspace, the session database on disk, and a second window started on the same data (a restart)."""

from __future__ import annotations

import sqlite3

from hermes_desktop.core.paths import app_paths
from hermes_desktop.ui.chat.items import ToolCardItem
from tests.support.model_server import CallScript, text_reply, tool_call_reply
from tests.ui.test_approvals import dialog_for, settle_turn
from tests.ui.test_chinese_ui import assert_chinese, row_text
from tests.ui.test_translations import chinese  # noqa: F401 - fixture


def cards(h) -> list[ToolCardItem]:
    return [i for i in h.window.chat.model.items() if isinstance(i, ToolCardItem)]


def allow_a_write_and_deny_a_delete(h, model_server, workspace_dir) -> str:
    (workspace_dir / "old.txt").write_text("x" * 40, encoding="utf-8")
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "hello.txt", "content": "abc"})),
                         text_reply("written"),
                         tool_call_reply(CallScript("delete_path", {"path": "old.txt"})), text_reply("kept it"))
    h.send("write hello")
    dialog = dialog_for(h)
    h.do(lambda: dialog.allow_once_button.click())
    settle_turn(h)
    h.send("delete old")
    dialog = dialog_for(h)
    h.do(lambda: dialog.deny_button.click())
    settle_turn(h)
    assert (workspace_dir / "hello.txt").read_text(encoding="utf-8") == "abc"
    assert (workspace_dir / "old.txt").exists(), "denied: still there"
    session = h.window.current_session
    h.do(h.window.close)
    h.run(h.controller.shutdown())
    return session


def reopen(make_window, session: str):
    """A new window on the same data; the session opened (the window may also restore it by itself at start, and
    whichever open comes last wins: both show the same session, so wait for its cards)."""
    again = make_window()
    again.run(again.window.open_session(session, None))
    again.wait_until(lambda: again.window.current_session == session and len(cards(again)) == 2,
                     what="the reopened session's two cards")
    return again


def test_reopened_cards_show_the_impact_and_who_allowed_or_denied(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    session = allow_a_write_and_deny_a_delete(h, model_server, workspace_dir)

    again = reopen(make_window, session)
    write, delete = cards(again)
    assert write.impact == "will create hello.txt (3 bytes)"
    assert write.decision == "allow_once" and write.decided_by == "you" and write.duration_s is not None
    painted = row_text(again, write)
    assert "will create hello.txt (3 bytes)" in painted
    assert f"done in {write.duration_s:.2f} s · allowed once (you)" in painted
    assert delete.impact == "will delete old.txt (40 bytes)"
    painted = row_text(again, delete)
    assert "will delete old.txt (40 bytes)" in painted and "denied (you)" in painted


def test_reopened_cards_speak_chinese(chinese, make_window, model_server, workspace_dir) -> None:
    h = make_window()
    session = allow_a_write_and_deny_a_delete(h, model_server, workspace_dir)

    again = reopen(make_window, session)
    write, delete = cards(again)
    painted = row_text(again, write)
    assert "将创建 hello.txt（3 字节）" in painted and "批准一次（你）" in painted
    assert_chinese(painted.replace(write.arguments, ""), ("write_file", "hello.txt", "abc", "path", "content"),
                   "the reopened write card")
    painted = row_text(again, delete)
    assert "将删除 old.txt（40 字节）" in painted and "已拒绝（你）" in painted


def test_a_corrupt_record_shows_the_card_without_its_impact(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    session = allow_a_write_and_deny_a_delete(h, model_server, workspace_dir)
    with sqlite3.connect(app_paths().database) as db:
        db.execute("UPDATE tool_call_records SET impact_params = '{not json'")
        db.execute("UPDATE tool_call_records SET duration_s = 'soon' WHERE decision = 'deny'")
    db.close()

    again = reopen(make_window, session)
    write, delete = cards(again)
    assert write.impact is None and delete.impact is None
    assert "allowed once (you)" in row_text(again, write), "the decision is still shown"
    assert "denied (you)" in row_text(again, delete)
    assert "will create" not in row_text(again, write)


def test_an_old_session_without_records_shows_as_before(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    session = allow_a_write_and_deny_a_delete(h, model_server, workspace_dir)
    with sqlite3.connect(app_paths().database) as db:
        db.execute("DELETE FROM tool_call_records")
    db.close()

    again = reopen(make_window, session)
    write, delete = cards(again)
    assert (write.status, write.impact, write.decided_by) == ("done", None, None)
    assert (delete.status, delete.impact, delete.decided_by) == ("denied", None, None)
    assert "done" in row_text(again, write) and "denied" in row_text(again, delete)

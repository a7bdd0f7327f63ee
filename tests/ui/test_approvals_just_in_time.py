"""In the window, a call's card and its approval dialog say what it will do when its turn comes (issue 21): a move
onto a file the previous move of the same reply put there says it replaces it, on the card and in the dialog."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton

from hermes_desktop.ui.chat.items import ToolCardItem
from tests.support.model_server import CallScript, text_reply, tool_call_reply


def cards(h) -> list[ToolCardItem]:
    return [i for i in h.window.chat.model.items() if isinstance(i, ToolCardItem)]


def open_dialog(h, after=None):
    return h.wait_until(lambda: h.window.approver.dialog if h.window.approver.dialog is not None
                        and h.window.approver.dialog.isVisible() and h.window.approver.dialog is not after else None,
                        what="the approval dialog")


def test_the_second_moves_card_and_dialog_say_it_replaces_what_the_first_put_there(make_window, model_server,
                                                                                   workspace_dir) -> None:
    (workspace_dir / "a.txt").write_text("from a")
    (workspace_dir / "b.txt").write_text("from b")
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("move_path", {"src": "a.txt", "dst": "x.txt"}, id="m1"),
                                         CallScript("move_path", {"src": "b.txt", "dst": "x.txt"}, id="m2")),
                         text_reply("Kept x.txt as it was."))
    h.send("put both into x.txt")
    first = open_dialog(h)
    assert first.findChild(QLabel, "impactLabel").text().startswith("will move a.txt")
    one, two = cards(h)
    assert two.impact is None and two.risk == "write", "not measured yet: a.txt has not moved"
    h.do(lambda: first.findChild(QPushButton, "allowOnceButton").click())

    second = open_dialog(h, after=first)
    impact = second.findChild(QLabel, "impactLabel").text()
    assert "replacing the existing file" in impact and impact.startswith("will move b.txt")
    assert "DESTRUCTIVE" in second.findChild(QLabel, "riskLabel").text()
    one, two = cards(h)
    assert two.risk == "destructive" and "replacing the existing file" in (two.impact or "")
    h.do(lambda: second.findChild(QPushButton, "denyButton").click())
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="the turn to end")
    assert (workspace_dir / "x.txt").read_text() == "from a" and (workspace_dir / "b.txt").exists()
    assert [c.status for c in cards(h)] == ["done", "denied"]


def test_a_file_saved_while_the_dialog_is_open_is_asked_about_again_saying_why(make_window, model_server,
                                                                              workspace_dir) -> None:
    target = workspace_dir / "report.txt"
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "report.txt", "content": "mine"})),
                         text_reply("I left your report alone."))
    h.send("write the report")
    first = open_dialog(h)
    assert first.findChild(QLabel, "impactLabel").text() == "will create report.txt (4 bytes)"
    target.write_text("their work")  # another program saves it while the user reads the question
    h.do(lambda: first.findChild(QPushButton, "allowOnceButton").click())

    second = open_dialog(h, after=first)
    impact = second.findChild(QLabel, "impactLabel").text()
    assert impact.startswith("will overwrite report.txt (10 bytes) with 4 bytes")
    assert "Asked again: this changed on disk after it was allowed. Before, it was: will create report.txt" in impact
    h.do(lambda: second.findChild(QPushButton, "denyButton").click())
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="the turn to end")
    assert target.read_text() == "their work"
    [card] = cards(h)
    assert card.status == "denied" and card.impact.startswith("will overwrite report.txt")


def test_deleting_a_folder_the_reply_just_filled_asks_about_its_five_files_in_the_dialog(
        make_window, model_server, workspace_dir) -> None:
    """One session grant for the moves; the delete of the folder they filled is measured when its turn comes, so its
    dialog names the five files and their size, not "the empty folder"; denied, every file is still there."""
    (workspace_dir / "box").mkdir()
    for n in range(5):
        (workspace_dir / f"f{n}.txt").write_text("data")
    h = make_window()
    moves = [CallScript("move_path", {"src": f"f{n}.txt", "dst": "box"}, id=f"m{n}") for n in range(5)]
    model_server.enqueue(tool_call_reply(*moves, CallScript("delete_path", {"path": "box"}, id="d")),
                         text_reply("I did not delete the box."))
    h.send("box them and throw the box away")
    first = open_dialog(h)
    assert first.findChild(QLabel, "impactLabel").text().startswith("will move f0.txt")
    h.do(lambda: first.findChild(QPushButton, "allowSessionButton").click())

    second = open_dialog(h, after=first)
    impact = second.findChild(QLabel, "impactLabel").text()
    assert impact.startswith("will delete 5 files, 20 bytes in box"), impact
    assert "DESTRUCTIVE" in second.findChild(QLabel, "riskLabel").text()
    h.do(lambda: second.findChild(QPushButton, "denyButton").click())
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="the turn to end")
    assert sorted(p.name for p in (workspace_dir / "box").iterdir()) == [f"f{n}.txt" for n in range(5)]
    assert [c.status for c in cards(h)] == ["done"] * 5 + ["denied"]


def test_allow_for_this_session_on_a_new_file_asks_again_before_an_overwrite(make_window, model_server,
                                                                            workspace_dir) -> None:
    """A session grant covers the risk it was given for: "create a new file" allowed for the session still asks
    before the same reply overwrites that file, and still covers another new file."""
    h = make_window()
    model_server.enqueue(
        tool_call_reply(CallScript("write_file", {"path": "notes.txt", "content": "first"}, id="w1"),
                        CallScript("write_file", {"path": "notes.txt", "content": "second"}, id="w2"),
                        CallScript("write_file", {"path": "other.txt", "content": "new"}, id="w3")),
        text_reply("done"))
    h.send("write notes")
    first = open_dialog(h)
    assert first.findChild(QLabel, "impactLabel").text().startswith("will create notes.txt")
    h.do(lambda: first.findChild(QPushButton, "allowSessionButton").click())
    second = open_dialog(h, after=first)
    assert second.findChild(QLabel, "impactLabel").text().startswith("will overwrite notes.txt")
    h.do(lambda: second.findChild(QPushButton, "denyButton").click())
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="the turn to end")
    assert (workspace_dir / "notes.txt").read_text() == "first" and (workspace_dir / "other.txt").read_text() == "new"
    assert [c.status for c in cards(h)] == ["done", "denied", "done"]


def test_an_always_allowed_delete_still_asks_for_a_folder_the_reply_filled_with_300_files(
        make_window, model_server, workspace_dir) -> None:
    """"Always allow" for delete and move still asks above the file-count threshold, measured when the delete's turn
    comes (after the move put 300 files there), and the dialog does not offer "Always allow" for it."""
    import json

    from hermes_desktop.core.paths import app_paths

    incoming = workspace_dir / "incoming"
    incoming.mkdir()
    for n in range(300):
        (incoming / f"{n:03}.txt").write_text("x")
    (workspace_dir / "archive").mkdir()
    config = app_paths().config_dir
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({"tool_rules": {"builtin/delete_path": "always_allow",
                                                                     "builtin/move_path": "always_allow"}}))
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("move_path", {"src": "incoming", "dst": "archive"}, id="m"),
                                         CallScript("delete_path", {"path": "archive"}, id="d")),
                         text_reply("Kept the archive."))
    h.send("archive the incoming files, then clear the archive")
    dialog = open_dialog(h)
    assert "300 files" in dialog.findChild(QLabel, "impactLabel").text()
    assert not dialog.findChild(QPushButton, "alwaysAllowButton").isVisible()
    h.do(lambda: dialog.findChild(QPushButton, "denyButton").click())
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="the turn to end")
    assert len(list((workspace_dir / "archive" / "incoming").iterdir())) == 300
    assert [c.status for c in cards(h)] == ["done", "denied"]

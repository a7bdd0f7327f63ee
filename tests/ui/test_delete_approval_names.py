"""A delete approval names the files (issue 24): a folder delete listed only "will delete 12 files in reports", so
the user judged a count. The dialog now shows the first files by name, in a stable order, then "and N more"; a
name's bidi controls are shown as escapes, never obeyed. The real dialog, opened by a real call from the scripted
model server on a real temp workspace; after Deny everything is still there."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tests.support.model_server import CallScript, text_reply, tool_call_reply
from tests.ui.test_approvals import dialog_for, settle_turn


def test_a_folder_delete_names_its_first_files_then_how_many_more(make_window, model_server, workspace_dir) -> None:
    reports = workspace_dir / "reports"
    (reports / "2024").mkdir(parents=True)
    for name in ("q3.csv", "q1.csv", "q2.csv"):
        (reports / name).write_text("x", encoding="utf-8")
    for n in range(9):
        (reports / "2024" / f"week-{n:02d}.txt").write_text("y", encoding="utf-8")
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "reports"})), text_reply("kept them"))
    h.send("clean up the reports")
    dialog = dialog_for(h)
    label = dialog.findChild(QLabel, "deleteFilesLabel")
    assert label is not None and label.isVisible()
    assert label.text().split("\n") == [
        "Files to be deleted:",
        "  • reports/q1.csv", "  • reports/q2.csv", "  • reports/q3.csv",
        "  • reports/2024/week-00.txt", "  • reports/2024/week-01.txt",
        "  … and 7 more"]
    assert dialog.findChild(QLabel, "impactLabel").text().startswith("will delete 12 files in 2 folders")
    h.do(dialog.deny_button.click)
    settle_turn(h)
    assert len(list(reports.rglob("*.*"))) == 12, "denied: nothing deleted"


def test_a_small_folder_lists_every_file_and_names_cannot_reorder_the_text(make_window, model_server,
                                                                          workspace_dir) -> None:
    folder = workspace_dir / "old"
    folder.mkdir()
    (folder / "invoice\u202efdp.exe").write_text("z", encoding="utf-8")
    (folder / "notes.md").write_text("z", encoding="utf-8")
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "old"})), text_reply("ok"))
    h.send("delete old")
    dialog = dialog_for(h)
    text = dialog.findChild(QLabel, "deleteFilesLabel").text()
    assert "more" not in text and "old/notes.md" in text
    assert "\u202e" not in text and "invoice\\u202efdp.exe" in text
    h.do(dialog.deny_button.click)
    settle_turn(h)


def test_a_single_file_delete_needs_no_list(make_window, model_server, workspace_dir) -> None:
    (workspace_dir / "draft.txt").write_text("z", encoding="utf-8")
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "draft.txt"})), text_reply("ok"))
    h.send("delete the draft")
    dialog = dialog_for(h)
    assert "draft.txt" in dialog.findChild(QLabel, "impactLabel").text()
    assert not dialog.findChild(QLabel, "deleteFilesLabel").isVisible()
    h.do(dialog.deny_button.click)
    settle_turn(h)

"""Save as skill and Learning in the real window (issue 27), with the scripted model over real HTTP: a three-step
task that ends well offers "Save as skill…" in the status bar; the side request's draft opens in the editor with
the validator's findings; a broken edit disables Save; the saved skill loads and is listed. The Learning dialog
switches workflow memory off (saved) and forgets a path; Browse collections hands the chosen URL to the same
review-before-install flow (refused here by the private-network guard, with the reason)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QListWidget, QPushButton

from tests.support.model_server import CallScript, text_reply, tool_call_reply

DRAFT = """---
name: read-the-downloads
description: Use when the user wants a summary of what is in a folder of downloaded reports.
---
## Inputs
- folder: the folder to look in

## Steps
1. list_directory(folder)
2. read_file(folder/<report>)

## Pitfalls
None seen.
"""


@pytest.fixture
def files(workspace_dir: Path) -> Path:
    (workspace_dir / "Downloads").mkdir()
    (workspace_dir / "Downloads" / "report.txt").write_text("Q3 revenue grew 4%.\n", encoding="utf-8")
    (workspace_dir / "Desktop").mkdir()
    return workspace_dir


def _three_step_turn(h, model_server) -> None:
    model_server.enqueue(
        tool_call_reply(CallScript("list_directory", {"path": "Downloads"})),
        tool_call_reply(CallScript("read_file", {"path": "Downloads/report.txt"})),
        tool_call_reply(CallScript("list_directory", {"path": "Desktop"})),
        text_reply("The report says Q3 revenue grew 4%; the Desktop is empty."))  # titles are answered by the server
    h.send("What do the reports in Downloads say?")


def test_a_three_step_task_offers_save_as_skill_and_the_edited_draft_is_saved(make_window, model_server,
                                                                               files) -> None:
    h = make_window()
    _three_step_turn(h, model_server)
    offer = h.wait_until(lambda: getattr(h.window, "skill_offer", None), timeout=20, what="the Save as skill offer")
    assert offer.objectName() == "saveAsSkillOffer" and offer.text() == "Save as skill…"
    model_server.enqueue(text_reply("```markdown\n" + DRAFT + "```"))
    h.do(offer.click)
    dialog = h.wait_until(lambda: getattr(h.window, "skill_draft_dialog", None), timeout=20, what="the editor")
    h.wait_until(dialog.isVisible, what="the editor on screen")
    drafted = [r for r in model_server.chat_requests if "reusable skill" in json.dumps(r.body)]
    assert drafted and "Downloads/report.txt" in json.dumps(drafted[-1].body)  # the path went to the session's model
    assert dialog.editor.toPlainText() == DRAFT and dialog.save_button.isEnabled()
    assert "The validator found nothing to change." in dialog.findings.text()

    h.do(lambda: dialog.editor.setPlainText(DRAFT.replace("description: Use when", "descr: Use when")))
    h.do(dialog.recheck)
    assert not dialog.save_button.isEnabled() and "Error" in dialog.findings.text()  # no description: not loadable

    h.do(lambda: dialog.editor.setPlainText(DRAFT.replace("read-the-downloads", "summarise-reports")))
    h.wait_until(dialog.save_button.isEnabled, what="Save enabled again after the pause in typing")
    h.do(dialog.save_button.click)
    h.wait_until(lambda: not dialog.isVisible(), what=f"the editor closed ({dialog.findings.text()})")
    skills_dir = h.controller.runtime.paths.user_skills_dir
    assert (skills_dir / "summarise-reports" / "SKILL.md").read_text(encoding="utf-8").startswith(
        "---\nname: summarise-reports")
    items = h.window.findChild(QListWidget, "skillList")
    h.wait_until(lambda: any(items.item(i).text().startswith("summarise-reports") for i in range(items.count())),
                 what="the saved skill listed")
    assert h.controller.runtime.skills.get("summarise-reports") is not None
    assert getattr(h.window, "skill_offer", None) is None  # the offer is gone once taken


def test_learning_switches_workflow_memory_off_and_forgets_a_path(make_window, model_server, files) -> None:
    h = make_window()
    _three_step_turn(h, model_server)
    h.wait_until(lambda: getattr(h.window, "skill_offer", None), timeout=20, what="the path recorded")
    workflow = h.controller.runtime.workflow
    assert len(workflow.all()) == 1
    h.do(lambda: h.window.findChild(QPushButton, "learningButton").click())
    dialog = h.wait_until(lambda: getattr(h.window, "learning_dialog", None), what="the Learning dialog")
    h.wait_until(dialog.isVisible, what="it on screen")
    assert "list_directory(Downloads)" in dialog.paths.item(0).text()
    assert not dialog.forget_button.isEnabled()
    h.do(lambda: dialog.paths.setCurrentRow(0))
    h.do(dialog.forget_button.click)
    assert workflow.all() == [] and dialog.paths.count() == 0
    h.do(lambda: dialog.switch.setChecked(False))
    assert workflow.enabled is False and h.controller.runtime.settings.workflow_memory is False
    saved = json.loads(h.controller.runtime.paths.settings_file.read_text(encoding="utf-8"))
    assert saved.get("workflow_memory") is False
    h.do(dialog.reject)


def test_a_collection_goes_through_the_install_review(make_window, tmp_path) -> None:
    h = make_window()
    config_dir = h.controller.runtime.paths.config_dir
    (config_dir / "skill_collections.json").write_text(json.dumps({"collections": [
        {"name": "Local team skills", "url": "https://127.0.0.1:9/team/skills.zip", "description": "Our team's"},
        {"name": "broken", "url": "ftp://example.org/x"}]}), encoding="utf-8")
    h.do(lambda: h.window.findChild(QPushButton, "browseSkillCollectionsButton").click())
    dialog = h.wait_until(lambda: getattr(h.window, "skill_collections_dialog", None), what="the catalog")
    h.wait_until(dialog.isVisible, what="it on screen")
    names = [dialog.listing.item(i).text().split("\n")[0] for i in range(dialog.listing.count())]
    assert "Anthropic skills" in names and "Local team skills" in names and "broken" not in names
    assert "entry 2 needs a name and an https URL" in dialog.problems.text()
    h.do(lambda: dialog.query.setText("team"))
    assert dialog.listing.count() == 1
    h.do(lambda: dialog.listing.setCurrentRow(0))
    h.do(dialog.install_button.click)
    h.wait_until(lambda: "resolves to 127.0.0.1" in h.window.statusBar().currentMessage(),
                 what="the guard's reason shown")


def test_a_turns_menu_in_activity_saves_that_turn_or_says_why_not(make_window, model_server, files) -> None:
    from hermes_desktop.ui.inspector import MESSAGE_ROLE

    h = make_window()
    model_server.enqueue(text_reply("Hello! No tools needed."))
    h.send("Say hello")
    h.wait_until(lambda: h.window.current_session and not h.controller.is_busy(h.window.current_session)
                 and model_server.pending == 0, timeout=20, what="the first turn finished")
    _three_step_turn(h, model_server)
    h.wait_until(lambda: getattr(h.window, "skill_offer", None), timeout=20, what="the second turn recorded")
    tree = h.window.inspector.activity
    turns = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
             if tree.topLevelItem(i).data(0, MESSAGE_ROLE) is not None]
    assert len(turns) == 2 and "Say hello" in turns[0].text(0) and "Downloads" in turns[1].text(0)

    def choose(item) -> None:
        h.window.inspector._activity_menu(tree.visualItemRect(item).center())
        h.window.inspector.activity_menu.actions()[0].trigger()

    h.do(lambda: choose(turns[0]))
    h.wait_until(lambda: "no path to save" in h.window.statusBar().currentMessage(), what="told why not")
    model_server.enqueue(text_reply(DRAFT))
    h.do(lambda: choose(turns[1]))
    dialog = h.wait_until(lambda: getattr(h.window, "skill_draft_dialog", None), timeout=20, what="the editor")
    h.wait_until(dialog.isVisible, what="the editor on screen")
    assert "Downloads" in dialog.draft.trajectory.request
    h.do(dialog.reject)


def test_a_suggested_skill_is_drafted_from_learning_saved_and_active(make_window, model_server, files) -> None:
    """Skills tab › Learning…: the same task done three times on three reports is a suggested skill; "Draft a
    skill…" drafts from its newest turn (that path is what the side request carries and what the editor holds), and
    saving makes the skill active: listed, loaded, and in the next request's skill catalog."""
    for name in ("report.txt", "notes.txt", "plan.txt"):
        (files / "Downloads" / name).write_text(f"{name}: Q3 revenue grew 4%.\n", encoding="utf-8")
    h = make_window()
    workflow = h.controller.runtime.workflow
    for n, name in enumerate(("report.txt", "notes.txt", "plan.txt"), start=1):
        model_server.enqueue(
            tool_call_reply(CallScript("list_directory", {"path": "Downloads"})),
            tool_call_reply(CallScript("read_file", {"path": f"Downloads/{name}"})),
            tool_call_reply(CallScript("list_directory", {"path": "Desktop"})),
            text_reply(f"{name} says Q3 revenue grew 4%."))
        h.send(f"What does {name} in Downloads say?")
        h.wait_until(lambda: len(workflow.all()) == n and not h.controller.is_busy(h.window.current_session),
                     timeout=20, what=f"turn {n} recorded")
    assert all(t.good for t in workflow.all())

    h.do(lambda: h.window.findChild(QPushButton, "learningButton").click())
    dialog = h.wait_until(lambda: getattr(h.window, "learning_dialog", None), what="the Learning dialog")
    h.wait_until(dialog.isVisible, what="it on screen")
    listed = dialog.suggested.item(0)
    assert listed.text().startswith("list_directory → read_file → list_directory") and "3 times" in listed.text()
    from hermes_desktop.ui.dialogs.learning import ROW_ROLE

    suggestion = listed.data(ROW_ROLE)
    assert suggestion.example.request == "What does plan.txt in Downloads say?"  # the newest: drafted from
    assert not dialog.draft_button.isEnabled()
    h.do(lambda: dialog.suggested.setCurrentRow(0))
    model_server.enqueue(text_reply(DRAFT))
    h.do(dialog.draft_button.click)
    editor = h.wait_until(lambda: getattr(h.window, "skill_draft_dialog", None), timeout=20, what="the editor")
    h.wait_until(editor.isVisible, what="the editor on screen")
    assert not dialog.isVisible()  # Learning closed itself: the editor is the next step
    drafted = [r for r in model_server.chat_requests if "reusable skill" in json.dumps(r.body)]
    assert len(drafted) == 1 and "Downloads/plan.txt" in json.dumps(drafted[0].body)
    assert editor.draft.trajectory.id == suggestion.example.id
    assert editor.editor.toPlainText() == DRAFT and editor.save_button.isEnabled()
    assert "The validator found nothing to change." in editor.findings.text()

    h.do(editor.save_button.click)
    h.wait_until(lambda: not editor.isVisible(), what=f"the editor closed ({editor.findings.text()})")
    assert (h.controller.runtime.paths.user_skills_dir / "read-the-downloads" / "SKILL.md").is_file()
    items = h.window.findChild(QListWidget, "skillList")
    h.wait_until(lambda: any(items.item(i).text().startswith("read-the-downloads") for i in range(items.count())),
                 what="the saved skill listed")
    assert h.controller.runtime.skills.get("read-the-downloads") is not None
    h.wait_until(lambda: "read-the-downloads" in h.window.statusBar().currentMessage(), what="the saved message")

    model_server.enqueue(text_reply("It says the same."))
    h.send("And what does the report say?")
    h.wait_until(lambda: model_server.pending == 0 and not h.controller.is_busy(h.window.current_session),
                 timeout=20, what="the next turn")
    later = [r for r in model_server.chat_requests if "And what does the report say?" in json.dumps(r.body)]
    assert later and "read-the-downloads" in later[0].system_prompt  # active: in the catalog from the next message


def _right_click(h, row: int, choose: str = "") -> list[str]:
    """Right-click the transcript row as the user would: the menu's entries (ui/keyboard.py), `choose` chosen."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication

    view = h.window.chat.view
    view.actions_menu = None
    h.do(lambda: view.scrollTo(view.model().index(row, 0)))
    rect = view.visualRect(view.model().index(row, 0))
    point = QPoint(rect.center().x(), rect.top() + min(20, rect.height() // 2))
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point, view.viewport().mapToGlobal(point))
    h.do(lambda: QApplication.sendEvent(view.viewport(), event))
    menu = h.wait_until(lambda: getattr(view, "actions_menu", None), what=f"row {row}'s menu")
    assert view.currentIndex().row() == row, "the menu of the row under the mouse"
    entries = [a.text() for a in menu.actions()]
    if choose:
        h.do(next(a for a in menu.actions() if a.text() == choose).trigger)
    h.do(menu.close)  # closing deletes the menu and its actions
    return entries


def test_a_replys_own_menu_saves_its_turn_as_a_skill(make_window, model_server, files) -> None:
    """The chat reply's context menu has "Save as skill…" when its turn used tools (any round of the reply), and
    it runs what Activity's turn menu runs: that turn's path drafted in the editor. A reply without tools and a
    user message have no such entry."""
    from hermes_desktop.ui.chat.items import MessageItem, ToolCardItem

    h = make_window()
    model_server.enqueue(text_reply("Hello! No tools needed."))
    h.send("Say hello")
    h.wait_until(lambda: h.window.current_session and not h.controller.is_busy(h.window.current_session)
                 and model_server.pending == 0, timeout=20, what="the first turn finished")
    _three_step_turn(h, model_server)
    h.wait_until(lambda: getattr(h.window, "skill_offer", None), timeout=20, what="the second turn recorded")
    rows = h.window.chat.model.items()
    replies = [i for i, r in enumerate(rows) if isinstance(r, MessageItem) and r.role == "assistant"]
    users = [i for i, r in enumerate(rows) if isinstance(r, MessageItem) and r.role == "user"]
    assert len(users) == 2 and any(isinstance(r, ToolCardItem) for r in rows[users[1]:])
    first_reply, last_reply = replies[0], replies[-1]
    first_round = next(i for i in replies if i > users[1])  # the turn's first round, before its tool cards

    assert "Save as skill…" not in _right_click(h, first_reply), "no tools in that turn: nothing to save"
    assert "Save as skill…" not in _right_click(h, users[1])
    assert "Save as skill…" in _right_click(h, first_round)
    model_server.enqueue(text_reply(DRAFT))
    entries = _right_click(h, last_reply, choose="Save as skill…")
    assert "Copy" in entries and entries[-1] == "Save as skill…"
    dialog = h.wait_until(lambda: getattr(h.window, "skill_draft_dialog", None), timeout=20, what="the editor")
    h.wait_until(dialog.isVisible, what="the editor on screen")
    assert dialog.draft.trajectory.message_id == rows[users[1]].message_id  # that turn's path, as Activity's menu
    assert dialog.draft.trajectory.request == "What do the reports in Downloads say?"
    drafted = [r for r in model_server.chat_requests if "reusable skill" in json.dumps(r.body)]
    assert len(drafted) == 1 and "Downloads/report.txt" in json.dumps(drafted[0].body)
    h.do(dialog.reject)
    h.wait_until(lambda: "The skill was not saved." in h.window.statusBar().currentMessage(), what="not saved")

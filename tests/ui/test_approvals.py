"""Approvals in the window: the dialog, its buttons, the card's buttons, rules that last, and revoking them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLabel, QPlainTextEdit, QPushButton

from hermes_desktop.core.tools.approval import rule_key
from hermes_desktop.ui.chat.items import ToolCardItem
from tests.support.model_server import CallScript, text_reply, tool_call_reply


def dialog_for(h):
    return h.wait_until(lambda: h.window.approver.dialog if h.window.approver.dialog is not None
                        and h.window.approver.dialog.isVisible() else None, what="the approval dialog")


def settle_turn(h) -> None:
    h.wait_until(lambda: h.window.current_session and not h.controller.is_busy(h.window.current_session),
                 what="the turn to end")


def test_the_dialog_shows_tool_source_arguments_and_impact_and_deny_is_the_default(make_window, model_server,
                                                                                  workspace_dir) -> None:
    (workspace_dir / "reports").mkdir()
    for n in range(3):
        (workspace_dir / "reports" / f"r{n}.txt").write_text("x" * 100)
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "reports"}), text="Cleaning up old reports."),
                         text_reply("ok"))
    h.send("clean up")
    dialog = dialog_for(h)
    assert dialog.objectName() == "approvalDialog"
    assert "delete_path" in dialog.findChild(QLabel, "toolNameLabel").text()
    assert "built-in tool" in dialog.findChild(QLabel, "sourceLabel").text()
    assert "DESTRUCTIVE" in dialog.findChild(QLabel, "riskLabel").text()
    assert dialog.findChild(QLabel, "impactLabel").text().startswith("will delete 3 files, 300 bytes in reports")
    assert "Cleaning up old reports." in dialog.findChild(QLabel, "reasonLabel").text()
    args = dialog.findChild(QPlainTextEdit, "argsView").toPlainText()
    assert '"path": "reports"' in args, "the arguments exactly as sent"
    assert f"path: reports  →  {workspace_dir / 'reports'}" in args.split("On disk:")[1], "paths shown resolved, apart"
    deny = dialog.findChild(QPushButton, "denyButton")
    assert deny.isDefault()
    h.do(lambda: QTest.keyClick(dialog, Qt.Key.Key_Return))  # a stray Enter denies
    settle_turn(h)
    assert len(list((workspace_dir / "reports").iterdir())) == 3


def test_closing_the_dialog_denies(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("make_directory", {"path": "new"})), text_reply("ok"))
    h.send("make a folder")
    dialog = dialog_for(h)
    h.do(dialog.close)
    settle_turn(h)
    assert not (workspace_dir / "new").exists()
    card = next(i for i in h.window.chat.model.items() if isinstance(i, ToolCardItem))
    assert card.status == "denied"


def test_allow_for_this_session_then_a_new_session_asks_again(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("make_directory", {"path": "a"})), text_reply("ok"),
                         tool_call_reply(CallScript("make_directory", {"path": "b"})), text_reply("ok"),
                         tool_call_reply(CallScript("make_directory", {"path": "c"})), text_reply("ok"))
    h.send("folder a")
    dialog = dialog_for(h)
    h.do(lambda: dialog.findChild(QPushButton, "allowSessionButton").click())
    settle_turn(h)
    h.send("folder b")
    settle_turn(h)
    assert (workspace_dir / "a").is_dir() and (workspace_dir / "b").is_dir(), "the second call did not ask"
    cards = [i for i in h.window.chat.model.items() if isinstance(i, ToolCardItem)]
    assert cards[-1].decided_by == "allowed for this session"
    h.do(h.window.new_session)
    h.send("folder c")
    dialog = dialog_for(h)  # asks again in a new session
    h.do(lambda: dialog.findChild(QPushButton, "denyButton").click())
    settle_turn(h)
    assert not (workspace_dir / "c").exists()


def test_the_card_buttons_decide_too(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("make_directory", {"path": "from-card"})), text_reply("ok"))
    h.send("folder")
    dialog_for(h)
    card = next(i for i in h.window.chat.model.items() if isinstance(i, ToolCardItem))
    layout = h.window.chat.view.delegate.row_layout(card, h.window.chat.view.viewport().width())
    assert [hit.action for hit in layout.hits if hit.action.startswith("approve:")] == [
        "approve:deny", "approve:allow_once", "approve:allow_session", "approve:allow_always"]
    h.do(lambda: h.window.chat._on_action("approve:allow_once", card, card.call_id))
    settle_turn(h)
    assert (workspace_dir / "from-card").is_dir() and h.window.approver.dialog is None


def always_allow_make_directory(h, model_server, path: str) -> str:
    """A make_directory call answered with "Always allow"; returns the rule's key."""
    model_server.enqueue(tool_call_reply(CallScript("make_directory", {"path": path})), text_reply("ok"))
    h.send(f"make folder {path}")
    dialog = dialog_for(h)
    h.do(lambda: dialog.findChild(QPushButton, "alwaysAllowButton").click())
    settle_turn(h)
    return rule_key("make_directory", "builtin")


def test_always_allow_survives_a_restart_and_can_be_revoked(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    key = always_allow_make_directory(h, model_server, "one")
    assert h.controller.runtime.settings_store.load().settings.tool_rules == {key: "always_allow"}
    h.do(h.window.close)
    h.run(h.controller.shutdown())

    again = make_window()
    combo = again.window.inspector.tools.findChild(QComboBox, f"rule:{key}")
    assert combo.currentData() == "always_allow", "the inspector shows the rule after a restart"
    model_server.enqueue(tool_call_reply(CallScript("make_directory", {"path": "two"})), text_reply("ok"))
    again.send("folder two")
    settle_turn(again)
    assert (workspace_dir / "two").is_dir() and again.window.approver.dialog is None
    again.do(lambda: combo.setCurrentIndex(combo.findData(None)))  # revoke
    assert again.controller.runtime.settings_store.load().settings.tool_rules == {}
    model_server.enqueue(tool_call_reply(CallScript("make_directory", {"path": "three"})), text_reply("ok"))
    again.send("folder three")
    dialog = dialog_for(again)
    again.do(lambda: dialog.findChild(QPushButton, "denyButton").click())
    settle_turn(again)
    assert not (workspace_dir / "three").exists()


def test_quick_switches_for_mode_and_dry_run(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    switch = h.window.findChild(QComboBox, "approvalModeSwitch")
    h.do(lambda: switch.setCurrentIndex(switch.findData("trusted")))
    model_server.enqueue(tool_call_reply(CallScript("make_directory", {"path": "trusted"})), text_reply("ok"))
    h.send("folder")
    settle_turn(h)
    assert (workspace_dir / "trusted").is_dir(), "trusted mode runs writes without asking"
    h.do(lambda: h.window.findChild(type(h.window.dry_run), "dryRunToggle").setChecked(True))
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "trusted"})), text_reply("that was the plan"))
    h.send("delete it")
    settle_turn(h)
    assert (workspace_dir / "trusted").is_dir(), "dry run deleted nothing"
    card = [i for i in h.window.chat.model.items() if isinstance(i, ToolCardItem)][-1]
    assert card.status == "dry run" and "would" in (card.result or "")


def test_a_rule_is_listed_in_settings_and_revoked_there(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    key = always_allow_make_directory(h, model_server, "x")
    assert h.window.inspector.tools.findChild(QComboBox, f"rule:{key}").currentData() == "always_allow"
    h.do(h.window.open_settings)
    settings = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="settings")
    rules = settings.rules_list
    assert rules.count() == 1 and "make_directory" in rules.item(0).text() and "always allowed" in rules.item(0).text()
    h.do(lambda: (rules.setCurrentRow(0), settings.findChild(QPushButton, "revokeRuleButton").click()))
    assert h.controller.rules == {} and h.controller.runtime.settings_store.load().settings.tool_rules == {}
    assert h.window.inspector.tools.findChild(QComboBox, f"rule:{key}").currentData() is None
    h.do(settings.accept)

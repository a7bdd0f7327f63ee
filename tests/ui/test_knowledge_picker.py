"""The chat's knowledge base picker (ui/knowledge_picker.py) in the real window: the composer's button lists the
bases, a tick there is stored for the conversation (a new chat gets its id), the tab's check box follows, the
button's text and tooltip say what the conversation uses, and another conversation shows its own choice. Real
files, real SQLite (the knowledge registry on disk), the real window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton


def two_bases(h, tmp_path: Path) -> None:
    """Two knowledge bases made and synced through the window's own actions: Handbook and 资料."""
    actions = h.window.knowledge
    for name in ("Handbook", "资料"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "a.md").write_text(f"# {name}\n\nSome text.\n", encoding="utf-8")
        h.run(actions.create(folder, name=name))
        h.wait_until(lambda: actions.syncing is None, timeout=60, what="the sync")


def test_the_composer_picker_chooses_the_bases_a_conversation_uses(make_window, tmp_path: Path) -> None:
    h = make_window()
    registry = h.controller.runtime.knowledge.registry
    two_bases(h, tmp_path)
    picker = h.window.findChild(QToolButton, "knowledgePicker")
    assert picker is not None and picker.isVisible()
    h.wait_until(lambda: len(picker.rows) == 2, what="the picker's bases")
    assert picker.text() == "Knowledge" and not picker.isChecked()
    assert [a.text() for a in picker.menu_.actions() if a.isCheckable()] == ["Handbook", "资料"]

    h.do(lambda: h.window.new_session())
    assert h.window.current_session is None  # a new chat has no id until something needs one
    h.do(lambda: picker.action_for("资料").setChecked(True))
    h.wait_until(lambda: h.window.current_session is not None
                 and registry.session_bases(h.window.current_session) == ["资料"], what="the choice stored")
    first = h.window.current_session
    h.wait_until(lambda: picker.text() == "Knowledge · 1", what="the button's state")
    assert picker.isChecked() and "资料" in picker.toolTip()
    assert picker.action_for("资料").isChecked() and not picker.action_for("Handbook").isChecked()
    panel = h.window.inspector.knowledge
    h.wait_until(lambda: panel.list.count() == 2, what="the tab's rows")
    checks = {panel.list.item(i).data(Qt.ItemDataRole.UserRole + 1): panel.list.item(i).checkState()
              for i in range(panel.list.count())}
    assert checks == {"Handbook": Qt.CheckState.Unchecked, "资料": Qt.CheckState.Checked}  # the tab follows

    h.do(lambda: picker.action_for("Handbook").setChecked(True))
    h.wait_until(lambda: registry.session_bases(first) == ["Handbook", "资料"], what="both used")
    h.wait_until(lambda: picker.text() == "Knowledge · 2", what="two in use")
    h.do(lambda: picker.action_for("资料").setChecked(False))
    h.wait_until(lambda: registry.session_bases(first) == ["Handbook"], what="one unticked")

    h.do(lambda: h.window.new_session())  # another conversation: its own (empty) choice
    h.wait_until(lambda: picker.text() == "Knowledge", what="the new chat's state")
    assert not any(a.isChecked() for a in picker.menu_.actions() if a.isCheckable())
    assert registry.session_bases(first) == ["Handbook"]

    h.do(lambda: h.window.inspector.setCurrentIndex(0))
    # the menu is refilled when the new chat's assistant is shown: take its Manage entry as it is now
    h.do(lambda: next(a for a in picker.menu_.actions() if a.objectName() == "knowledgePickManage").trigger())
    assert h.window.inspector.currentWidget() is panel


def test_the_assistants_bases_show_as_used_and_cannot_be_unticked_in_the_chat(make_window, tmp_path: Path) -> None:
    from hermes_desktop.core.assistants.model import HERMES, Assistant

    h = make_window()
    registry = h.controller.runtime.knowledge.registry
    two_bases(h, tmp_path)
    picker = h.window.findChild(QToolButton, "knowledgePicker")
    h.wait_until(lambda: len(picker.rows) == 2, what="the picker's bases")
    hr = h.window.assistants.store.save(Assistant(id="", name="HR helper", tools=("read_file",),
                                                  knowledge=("handbook",)))
    h.run(h.window.assistants.use(hr.id))  # the chat's assistant names Handbook (case-insensitively)
    session = h.window.current_session
    h.wait_until(lambda: picker.text() == "Knowledge · 1", what="the assistant's base counted")
    handbook = picker.action_for("Handbook")
    assert handbook.isChecked() and not handbook.isEnabled(), "ticked, and not removable here"
    assert handbook.text() == "Handbook · Assistant: HR helper" and "Handbook" in picker.toolTip()
    assert registry.session_bases(session) == [], "nothing copied into the chat's own bases"
    panel = h.window.inspector.knowledge
    h.do(lambda: h.window.inspector.setCurrentWidget(panel))
    h.wait_until(lambda: panel.list.count() == 2, what="the tab's rows")
    item = next(panel.list.item(i) for i in range(panel.list.count())
                if panel.list.item(i).data(Qt.ItemDataRole.UserRole + 1) == "Handbook")
    assert item.checkState() == Qt.CheckState.Checked and not item.flags() & Qt.ItemFlag.ItemIsUserCheckable

    h.do(lambda: picker.action_for("资料").setChecked(True))  # the chat's own base on top
    h.wait_until(lambda: picker.text() == "Knowledge · 2", what="both in use")
    assert registry.session_bases(session) == ["资料"]
    h.run(h.window.assistants.use(HERMES.id))  # back to Hermes: only the chat's base
    h.wait_until(lambda: picker.text() == "Knowledge · 1" and picker.action_for("Handbook").isEnabled(),
                 what="the assistant's base gone")
    assert not picker.action_for("Handbook").isChecked() and picker.action_for("资料").isChecked()
    assert picker.action_for("Handbook").text() == "Handbook"

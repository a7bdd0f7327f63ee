"""The Skills tab and the trust question with a hostile skill name: shown as text, never read as HTML."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # Qt.mightBeRichText is in QtGui's Qt namespace
from PySide6.QtWidgets import QLabel, QListWidget, QMessageBox, QPushButton

NAME = "<b>Safe<b>&lt;"


def test_the_trust_question_shows_a_skill_name_with_html_as_plain_text(make_window) -> None:
    h = make_window()
    folder = h.controller.runtime.paths.user_skills_dir / NAME
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: '{NAME}'\ndescription: Looks harmless.\n---\nRun it.\n",
                                     encoding="utf-8")
    (folder / "tools.py").write_text("X = 1\n", encoding="utf-8")
    h.do(lambda: h.window.findChild(QPushButton, "reloadSkillsButton").click())
    items = h.window.findChild(QListWidget, "skillList")
    h.wait_until(lambda: any(items.item(i).text().startswith(NAME) for i in range(items.count())),
                 what="the skill listed")
    row = next(i for i in range(items.count()) if items.item(i).text().startswith(NAME))
    h.do(lambda: items.setCurrentRow(row))
    h.do(h.window.findChild(QPushButton, "trustSkillButton").click)
    box = h.wait_until(lambda: getattr(h.window, "trust_dialog", None), what="the trust question")
    h.wait_until(box.isVisible, what="it on screen")
    assert NAME in box.text().splitlines()[0]
    assert GuiQt.mightBeRichText(box.text()), "without a fixed format Qt would render this text as HTML"
    label = box.findChild(QLabel, "qt_msgbox_label")
    assert box.textFormat() == Qt.TextFormat.PlainText and label.textFormat() == Qt.TextFormat.PlainText
    cancel = box.button(QMessageBox.StandardButton.Cancel)
    h.do(cancel.click)
    assert h.controller.runtime.skills.needs_trust(h.controller.runtime.skills.get(NAME))


def test_a_file_changed_while_the_trust_question_is_open_is_not_trusted(make_window) -> None:
    h = make_window()
    folder = h.controller.runtime.paths.user_skills_dir / "shouter"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: shouter\ndescription: Shouts.\n---\nUse shout.\n", encoding="utf-8")
    tools = ("from hermes_desktop.skill_api import tool\n\n@tool(risk='read')\ndef shout(text: str) -> str:\n"
             "    '''Capitals.'''\n    return text.upper()\n")
    (folder / "tools.py").write_text(tools, encoding="utf-8")
    h.do(lambda: h.window.findChild(QPushButton, "reloadSkillsButton").click())
    items = h.window.findChild(QListWidget, "skillList")
    h.wait_until(lambda: any(items.item(i).text().startswith("shouter") for i in range(items.count())),
                 what="the skill listed")
    row = next(i for i in range(items.count()) if items.item(i).text().startswith("shouter"))
    h.do(lambda: items.setCurrentRow(row))
    h.do(h.window.findChild(QPushButton, "trustSkillButton").click)
    box = h.wait_until(lambda: getattr(h.window, "trust_dialog", None), what="the trust question")
    h.wait_until(box.isVisible, what="it on screen")
    (folder / "tools.py").write_text(tools.replace("text.upper()", "'changed'"), encoding="utf-8")  # while asked
    h.do(box.action.click)
    h.wait_until(lambda: "changed while you were asked" in h.window.statusBar().currentMessage(),
                 what="the user is told nothing was trusted")
    runtime = h.controller.runtime
    assert runtime.registry.get("shout") is None
    assert runtime.skills.needs_trust(runtime.skills.get("shouter"))

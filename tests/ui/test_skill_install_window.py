"""Skills tab › Install from URL… with a real git repository (file://): the question shows what the source holds and
its pinned commit as plain text, Cancel installs nothing, Install installs and lists the skill (issue 27)."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QMessageBox, QPushButton

from tests.core.test_skill_sources import SKILL_MD, git, make_repo

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _ask_for(h, url: str):
    h.do(lambda: h.window.findChild(QPushButton, "installSkillUrlButton").click())
    ask = h.wait_until(lambda: getattr(h.window, "skill_url_dialog", None), what="the URL question")
    h.wait_until(ask.isVisible, what="it on screen")
    h.do(lambda: ask.setTextValue(url))
    h.do(ask.accept)
    box = h.wait_until(lambda: getattr(h.window, "install_skill_dialog", None), what="the install question")
    h.wait_until(box.isVisible, what="it on screen")
    return box


def test_install_from_url_shows_the_pin_then_installs_on_yes_only(make_window, tmp_path) -> None:
    repo = make_repo(tmp_path / "src" / "tidy", {"SKILL.md": SKILL_MD, "scripts/move.py": "print('move')\n"})
    head = git(repo, "rev-parse", "HEAD")
    h = make_window()
    box = _ask_for(h, repo.as_uri())
    assert f"Pinned to: commit {head}" in box.text() and "code scripts/move.py  SHA-256 " in box.text()
    assert box.textFormat() == Qt.TextFormat.PlainText
    h.do(box.button(QMessageBox.StandardButton.Cancel).click)
    h.wait_until(lambda: "Not installed" in h.window.statusBar().currentMessage(), what="told it was not installed")
    skills_dir = h.controller.runtime.paths.user_skills_dir
    assert not (skills_dir / "tidy-desktop").exists()

    h.window.install_skill_dialog = None
    box = _ask_for(h, repo.as_uri())
    h.do(box.action.click)
    items = h.window.findChild(QListWidget, "skillList")
    h.wait_until(lambda: any(items.item(i).text().startswith("tidy-desktop") for i in range(items.count())),
                 what="the installed skill listed")
    assert (skills_dir / "tidy-desktop" / "SKILL.md").exists()
    assert h.controller.runtime.skills.needs_trust(h.controller.runtime.skills.get("tidy-desktop"))


def test_a_refused_url_says_why_in_the_status_bar(make_window, tmp_path) -> None:
    h = make_window()
    h.do(lambda: h.window.findChild(QPushButton, "installSkillUrlButton").click())
    ask = h.wait_until(lambda: getattr(h.window, "skill_url_dialog", None), what="the URL question")
    h.wait_until(ask.isVisible, what="it on screen")
    h.do(lambda: ask.setTextValue("https://127.0.0.1:9/skills.zip"))
    h.do(ask.accept)
    h.wait_until(lambda: "resolves to 127.0.0.1" in h.window.statusBar().currentMessage(),
                 what="the guard's reason shown")

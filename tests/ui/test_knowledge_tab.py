"""The Knowledge tab as the user meets it: a folder of Chinese and English files becomes a knowledge base, the sync
runs off the GUI thread with its progress shown, the files that could not be read are listed with their reasons,
an edited file is read again alone (after the folder watcher's debounce), the conversation's choice is stored, and
a removal asks first. Real files, real SQLite, the real window."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QMessageBox

from tests.support.knowledge_files import cff_pdf, docx_file


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "资料"
    folder.mkdir()
    cff_pdf(folder / "长城.pdf", ["长城是中国古代的军事防御工程。"], tmp_path)
    docx_file(folder / "handbook.docx", [("h1", "Onboarding"), ("p", "New staff get a laptop.")])
    (folder / "notes.md").write_text("# Visa\n\nTen working days.\n", encoding="utf-8")
    os.mkfifo(folder / "pipe.txt")
    return folder


def _rows(h) -> list[str]:
    listing = h.window.findChild(QListWidget, "knowledgeList")
    return [listing.item(i).text() for i in range(listing.count())]


def test_add_a_folder_sync_see_problems_use_it_and_remove_it(make_window, tmp_path: Path) -> None:
    h = make_window()
    actions = h.window.knowledge
    inspector = h.window.inspector
    h.do(lambda: inspector.setCurrentWidget(inspector.knowledge))
    assert inspector.tabText(inspector.indexOf(inspector.knowledge)) == "Knowledge"
    assert inspector.knowledge.empty.isVisible()
    folder = _folder(tmp_path)
    progress: list[tuple[int, int]] = []
    actions.signals.progress.connect(lambda step: progress.append((step.done, step.total)))
    h.run(actions.create(folder, name="资料"))
    h.wait_until(lambda: actions.syncing is None and actions.last_result is not None, timeout=60,
                 what="the sync to finish")
    assert actions.thread is None and progress and progress[-1] == (4, 4)
    h.wait_until(lambda: _rows(h) and "3 documents" in _rows(h)[0], what="the base's row")
    assert "1 could not be read" in _rows(h)[0]
    panel = inspector.knowledge
    h.do(lambda: panel.select("资料"))
    h.wait_until(lambda: panel.problems.count() == 1, what="the per-file problems")
    assert panel.problems.item(0).text() == "资料/pipe.txt — not a regular file (a pipe or device)"
    assert "3 new" in panel.progress_label.text()

    h.do(lambda: h.window.new_session())
    item = panel.list.item(0)
    h.do(lambda: item.setCheckState(Qt.CheckState.Checked))  # use it in this (new) conversation
    session = h.window.current_session
    registry = h.controller.runtime.knowledge.registry
    h.wait_until(lambda: registry.session_bases(session) == ["资料"], what="the choice stored for the session")

    (folder / "notes.md").write_text("# Visa\n\nTwelve working days now.\n", encoding="utf-8")
    h.do(lambda: actions.sync("资料"))
    h.wait_until(lambda: actions.syncing is None and "1 changed" in panel.progress_label.text(), timeout=60,
                 what="only the edited file read again")
    assert actions.last_result.read == ["资料/notes.md"]

    h.do(lambda: panel.select("资料"))
    h.do(lambda: panel.remove_button.click())
    h.wait_until(lambda: actions.remove_dialog is not None and actions.remove_dialog.isVisible(), what="the question")
    h.do(lambda: actions.remove_dialog.button(QMessageBox.StandardButton.Cancel).click())
    h.settle(0.2)
    assert registry.names() == ["资料"]  # Cancel keeps it
    h.do(lambda: panel.remove_button.click())
    h.wait_until(lambda: actions.remove_dialog.isVisible(), what="the question again")
    h.do(lambda: actions.remove_dialog.action.click())
    h.wait_until(lambda: registry.names() == [] and panel.empty.isVisible(), what="the base removed")
    assert (folder / "notes.md").exists()


def test_the_folder_watcher_syncs_an_edited_file_after_a_quiet_moment(make_window, tmp_path: Path,
                                                                     monkeypatch) -> None:
    import hermes_desktop.ui.knowledge_actions as module

    h = make_window()
    actions = h.window.knowledge
    folder = tmp_path / "watched"
    folder.mkdir()
    (folder / "a.md").write_text("first")
    h.run(actions.create(folder, name="watched"))
    h.wait_until(lambda: actions.syncing is None and actions.last_result is not None, timeout=60, what="first sync")
    h.wait_until(lambda: str(folder) in actions.watcher.directories(), what="the folder watched")
    actions.last_result = None
    for timer in actions._timers.values():
        timer.setInterval(200)
    monkeypatch.setattr(module, "WATCH_DEBOUNCE_MS", 200)
    (folder / "b.md").write_text("second file")
    h.wait_until(lambda: actions.last_result is not None and actions.syncing is None, timeout=30,
                 what="the watcher's sync")
    assert actions.last_result.read == ["watched/b.md"]

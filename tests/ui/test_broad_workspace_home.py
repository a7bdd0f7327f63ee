"""Issue 21 §2 in the real window: a folder that contains the home folder (its parent) or holds disks (/mnt) is
asked about like the home folder itself; declining keeps the previous workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLineEdit, QMessageBox

from tests.ui.test_broad_workspace import open_settings, question, type_workspace


@pytest.fixture(autouse=True)
def home_is_the_test_home(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(isolated_home))
    return isolated_home


@pytest.mark.parametrize("where, words", [("parent", "contains your whole home folder"),
                                          ("/mnt", "holds whole disks or home folders")])
def test_a_folder_holding_the_home_or_disks_asks_and_declining_keeps_the_workspace(
        make_window, workspace_dir, isolated_home, where, words) -> None:
    h = make_window(HERMES_WORKSPACE="")
    h.controller.set_workspace(str(workspace_dir))
    settings = open_settings(h)
    type_workspace(h, settings, str(isolated_home.parent) if where == "parent" else where)
    box = question(h, settings)
    assert box.objectName() == "broadWorkspaceDialog" and words in box.text()
    h.do(lambda: box.button(QMessageBox.StandardButton.Cancel).click())
    field = settings.findChild(QLineEdit, "workspaceEdit")
    h.wait_until(lambda: field.text() == str(workspace_dir), what="the previous workspace kept")
    assert h.controller.runtime.workspace.root == workspace_dir
    h.do(settings.accept)

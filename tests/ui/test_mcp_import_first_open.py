"""Import servers… on a machine where no other client (Claude Desktop, Cursor, VS Code, LM Studio, Windsurf) has a
file: the dialog opens on "A file…" with its hint in the plain line, not on "Claude Desktop (not found)" with a
red "Cannot import" that a new user has done nothing to deserve; a found client is still chosen first."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QLabel, QPushButton

FIXTURES = Path(__file__).resolve().parents[1] / "core" / "fixtures" / "mcp_import"


def open_dialog(h):
    h.do(lambda: h.window.findChild(QPushButton, "importMcpServersButton").click())
    dialog = h.wait_until(lambda: h.window.mcp.import_dialog, what="the import dialog")
    h.wait_until(lambda: dialog.loading is None or dialog.loading.done(), what="the first source")
    return dialog


def test_with_no_other_client_it_opens_on_a_file_without_an_error(make_window, isolated_home, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(isolated_home))
    h = make_window()
    dialog = open_dialog(h)
    assert dialog.source.currentData() == "file"
    assert dialog.findChild(QPushButton, "mcpImportChooseFile").isVisibleTo(dialog)
    assert not dialog.findChild(QLabel, "mcpImportProblem").text()
    assert dialog.findChild(QLabel, "mcpImportWhere").text() == \
        "Choose a file in the mcpServers or VS Code servers shape."
    assert not dialog.findChild(QPushButton, "mcpImportButton").isEnabled()
    h.do(dialog.reject)


def test_a_client_that_has_a_file_is_still_chosen_first(make_window, isolated_home, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(isolated_home))
    claude = isolated_home / "config" / "Claude"
    claude.mkdir(parents=True)
    shutil.copy(FIXTURES / "claude_desktop_config.json", claude / "claude_desktop_config.json")
    h = make_window()
    dialog = open_dialog(h)
    assert dialog.source.currentData() == "claude"
    h.do(dialog.reject)

"""A workspace of `/`, the home folder or a system folder is used in the window only after the user confirms."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QMessageBox

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import SettingsStore
from tests.support.model_server import CallScript, text_reply, tool_call_reply


@pytest.fixture(autouse=True)
def home_is_the_test_home(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(isolated_home))
    return isolated_home


def question(h, parent):  # type: ignore[no-untyped-def]
    return h.wait_until(lambda: getattr(parent, "workspace_question", None) if getattr(
        parent, "workspace_question", None) and parent.workspace_question.isVisible() else None,
        what="the broad-workspace question")


def open_settings(h):  # type: ignore[no-untyped-def]
    h.do(h.window.open_settings)
    settings = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings dialog")
    h.wait_until(settings.isVisible, what="it on screen")
    return settings


def type_workspace(h, settings, folder: str) -> None:  # type: ignore[no-untyped-def]
    field = settings.findChild(QLineEdit, "workspaceEdit")

    def typing() -> None:
        field.setFocus()
        field.selectAll()
        QTest.keyClicks(field, folder)
        QTest.keyClick(field, Qt.Key.Key_Return)

    h.do(typing)


def test_choosing_root_in_settings_asks_and_declining_keeps_the_previous_workspace(make_window, workspace_dir) -> None:
    h = make_window(HERMES_WORKSPACE="")  # the saved setting decides
    h.controller.set_workspace(str(workspace_dir))
    settings = open_settings(h)
    type_workspace(h, settings, "/")
    box = question(h, settings)
    assert box.objectName() == "broadWorkspaceDialog" and "root of the filesystem" in box.text()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel), "Enter declines"
    h.do(lambda: box.button(QMessageBox.StandardButton.Cancel).click())
    field = settings.findChild(QLineEdit, "workspaceEdit")
    h.wait_until(lambda: field.text() == str(workspace_dir), what="the field back at the previous workspace")
    assert h.controller.runtime.workspace.root == workspace_dir
    assert h.controller.agent.services.workspace.root == workspace_dir
    assert SettingsStore(app_paths()).load().settings.workspace == str(workspace_dir)
    h.do(settings.accept)


def test_choosing_the_home_folder_asks_and_confirming_uses_it(make_window, workspace_dir, isolated_home) -> None:
    h = make_window(HERMES_WORKSPACE="")
    settings = open_settings(h)
    type_workspace(h, settings, str(isolated_home))
    box = question(h, settings)
    assert "whole home folder" in box.text()
    h.do(box.action.click)  # Use it anyway
    h.wait_until(lambda: h.controller.runtime.workspace.root == isolated_home, what="the home folder in use")
    assert SettingsStore(app_paths()).load().settings.workspace == str(isolated_home)
    h.do(settings.accept)


def test_starting_with_a_broad_hermes_workspace_asks_and_a_message_sent_meanwhile_never_runs_there(
        make_window, model_server) -> None:
    model_server.enqueue(tool_call_reply(CallScript("list_directory", {"path": "."})), text_reply("listed"))
    h = make_window(HERMES_WORKSPACE="/")
    box = question(h, h.window)
    assert "/ is the root of the filesystem" in box.text()
    session = h.do(lambda: h.controller.send(None, "what is in the workspace?"))  # sent before answering
    h.do(lambda: box.button(QMessageBox.StandardButton.Cancel).click())
    h.wait_until(lambda: not h.controller.is_busy(session), what="the held turn to run and finish")
    default = app_paths().default_workspace
    assert h.controller.runtime.workspace.root == default and "HERMES_WORKSPACE" not in h.controller.environment
    listing = next(m.content for m in h.controller.store.messages(session) if m.role == "tool")
    assert "etc" not in listing and "usr" not in listing, f"the tool ran in / : {listing}"
    assert listing.startswith("./ (")


def test_starting_with_a_saved_system_folder_asks_and_confirming_keeps_it(make_window) -> None:
    store = SettingsStore(app_paths())
    store.save(replace(store.load().settings, workspace="/etc"))
    h = make_window(HERMES_WORKSPACE="")
    box = question(h, h.window)
    assert "/etc is a system folder" in box.text()
    h.do(box.action.click)
    h.wait_until(lambda: getattr(h.window, "workspace_question", None) is None, what="the question to close")
    assert h.controller.runtime.workspace.root == Path("/etc") and store.load().settings.workspace == "/etc"


def test_starting_with_a_saved_broad_folder_and_declining_goes_back_to_the_default(make_window) -> None:
    store = SettingsStore(app_paths())
    store.save(replace(store.load().settings, workspace="/"))
    h = make_window(HERMES_WORKSPACE="")
    box = question(h, h.window)
    h.do(lambda: box.button(QMessageBox.StandardButton.Cancel).click())
    h.wait_until(lambda: h.controller.runtime.workspace.root == app_paths().default_workspace, what="the default")
    assert store.load().settings.workspace is None


def test_a_normal_workspace_is_not_asked_about(make_window, workspace_dir) -> None:
    h = make_window()
    h.wait_until(lambda: not any(t.get_coro().__qualname__ == "MainWindow._after_ready" for t in _running()),
                 what="the start-up checks")
    assert getattr(h.window, "workspace_question", None) is None
    assert h.controller.runtime.workspace.root == workspace_dir


def _running():  # type: ignore[no-untyped-def]
    from hermes_desktop.ui import tasks

    return list(tasks._running)

"""The provider dialog's side-task model (titles, summaries, memory extraction go to it: core/assistants/service.py):
typed in Advanced settings, saved to settings.json, loaded again, cleared to none."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit, QPushButton

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import Settings, SettingsStore
from tests.ui.test_provider_advanced import edit_provider, no_secure_keyring, saved_json, saved_profile  # noqa: F401


def test_the_side_model_is_typed_saved_loaded_and_cleared(make_window, saved_profile) -> None:  # noqa: F811
    SettingsStore(app_paths()).save(Settings(profiles=(saved_profile,), active_profile_id="main"))
    h = make_window(configured=False)
    dialog = edit_provider(h)
    edit = dialog.findChild(QLineEdit, "sideModelEdit")
    assert edit is not None and edit.isVisible() and edit.text() == ""
    h.do(lambda: edit.setText("  cheap-model "))
    h.do(dialog.findChild(QPushButton, "saveButton").click)
    h.wait_until(lambda: saved_json().get("side_model") == "cheap-model", what="the saved side model")
    again = edit_provider(h)
    field = again.findChild(QLineEdit, "sideModelEdit")
    assert field.text() == "cheap-model"
    h.do(field.clear)
    h.do(again.findChild(QPushButton, "saveButton").click)
    h.wait_until(lambda: not saved_json().get("side_model"), what="no side model")


def test_settings_lists_which_model_does_each_providers_side_tasks(make_window, saved_profile) -> None:  # noqa: F811
    from dataclasses import replace

    from PySide6.QtWidgets import QListWidget

    SettingsStore(app_paths()).save(Settings(profiles=(replace(saved_profile, side_model="cheap-model"),),
                                             active_profile_id="main"))
    h = make_window(configured=False)
    h.do(h.window.open_settings)
    dialog = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings")
    row = dialog.findChild(QListWidget, "profileList").item(0)
    assert ", side tasks: cheap-model" in row.text()
    assert "Titles, summaries and memory: cheap-model" in row.toolTip()

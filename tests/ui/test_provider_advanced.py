"""The provider dialog's per-profile controls for reasoning models and images: saved to and loaded from
settings.json through the real window; invalid extra parameters are never saved."""

from __future__ import annotations

import json

import keyring
import keyring.backends.fail
import pytest
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLabel, QPlainTextEdit, QPushButton

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import Capability, ProviderProfile, ReasoningEcho, Settings, SettingsStore
from hermes_desktop.core.extra_params import parse_extra_params
from hermes_desktop.ui.tasks import spawn
from tests.ui.test_setup import first_run


@pytest.fixture(autouse=True)
def no_secure_keyring():
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def saved_profile(model_server) -> ProviderProfile:
    profile = ProviderProfile(id="main", name="Main", base_url=model_server.base_url, model="scripted-model",
                              needs_api_key=False, models=("typed-by-hand",), extra_params={"top_k": 20},
                              learned_reasoning_echo=True)
    SettingsStore(app_paths()).save(Settings(profiles=(profile,), active_profile_id="main"))
    return profile


def saved_json() -> dict:
    return json.loads(app_paths().settings_file.read_text(encoding="utf-8"))["profiles"][0]


def edit_provider(h):
    h.window.setup_dialog = None
    h.do(lambda: spawn(h.window.run_setup(first_run=False)))
    dialog = h.wait_until(lambda: getattr(h.window, "setup_dialog", None), what="the provider dialog")
    h.wait_until(dialog.isVisible, what="the dialog on screen")
    return dialog


def choose(h, dialog, name: str, data) -> None:
    combo = dialog.findChild(QComboBox, name)
    h.do(lambda: combo.setCurrentIndex(combo.findData(data)))


def type_extra(h, dialog, text: str) -> None:
    edit = dialog.findChild(QPlainTextEdit, "extraParamsEdit")

    def typing() -> None:
        edit.clear()
        edit.setFocus()
        QTest.keyClicks(edit, text)

    h.do(typing)


def test_the_first_run_dialog_keeps_the_advanced_section_collapsed(make_window) -> None:
    _h, dialog = first_run(make_window)
    assert not dialog.advanced.isVisible()
    assert not dialog.findChild(QComboBox, "reasoningEchoCombo").isVisible()
    assert not dialog.findChild(QPlainTextEdit, "extraParamsEdit").isVisible()


def test_the_advanced_fields_save_to_settings_json_and_load_again(make_window, saved_profile) -> None:
    h = make_window(configured=False)
    dialog = edit_provider(h)
    assert dialog.advanced.isVisible(), "editing a provider shows its advanced settings"
    assert json.loads(dialog.findChild(QPlainTextEdit, "extraParamsEdit").toPlainText()) == {"top_k": 20}
    choose(h, dialog, "reasoningEchoCombo", "always")
    choose(h, dialog, "reasoningEffortCombo", "high")
    choose(h, dialog, "visionCombo", "no")
    type_extra(h, dialog, '{"enable_thinking": true, "thinking": {"type": "enabled", "budget_tokens": 2048}}')
    error = dialog.findChild(QLabel, "extraParamsError")
    assert "Not valid" not in error.text() and "Not for keys" in error.text()
    h.do(dialog.findChild(QPushButton, "saveButton").click)
    h.wait_until(lambda: saved_json().get("reasoning_effort") == "high", what="the saved profile")
    saved = saved_json()
    assert saved["reasoning_echo"] == "always" and saved["vision"] == "no"
    assert saved["extra_params"] == {"enable_thinking": True, "thinking": {"type": "enabled", "budget_tokens": 2048}}
    assert saved["models"] == ["typed-by-hand"], "the picker's hand-typed models survive an edit"
    assert saved["learned_reasoning_echo"] is True, "nothing learned is forgotten unless asked"
    # The runtime takes the profile first, the engine's client a moment later: wait for the client.
    h.wait_until(lambda: h.controller.agent.model.profile.reasoning_effort == "high", what="the engine to have it")
    assert h.controller.agent.model.profile.extra_params["enable_thinking"] is True

    again = edit_provider(h)
    assert again.findChild(QComboBox, "reasoningEchoCombo").currentData() == "always"
    assert again.findChild(QComboBox, "reasoningEffortCombo").currentData() == "high"
    assert again.findChild(QComboBox, "visionCombo").currentData() == "no"
    assert json.loads(again.findChild(QPlainTextEdit, "extraParamsEdit").toPlainText())["thinking"]["type"] == "enabled"
    loaded = SettingsStore(app_paths()).load().settings.profile("main")
    assert loaded.reasoning_echo is ReasoningEcho.ALWAYS and loaded.vision is Capability.NO
    h.do(again.reject)


def test_invalid_extra_parameters_show_the_error_and_are_never_saved(make_window, saved_profile) -> None:
    h = make_window(configured=False)
    dialog = edit_provider(h)
    error = dialog.findChild(QLabel, "extraParamsError")
    type_extra(h, dialog, '{"enable_thinking": tru')
    assert error.text().startswith("Not valid JSON: Expecting value"), error.text()
    before = app_paths().settings_file.read_text(encoding="utf-8")
    h.do(dialog.findChild(QPushButton, "saveButton").click)
    h.settle(0.05)
    assert dialog.isVisible(), "Save is refused"
    assert "not saved until they are a valid JSON object" in dialog.findChild(QLabel, "connectionStatus").text()
    assert app_paths().settings_file.read_text(encoding="utf-8") == before

    type_extra(h, dialog, '["a", "list"]')
    assert error.text().startswith("Not a JSON object")
    type_extra(h, dialog, '{"headers": {"Authorization": "Bearer sk-x"}}')
    assert "looks like a key" in error.text()
    type_extra(h, dialog, '{"model": "other"}')
    assert "Hermes sets model itself" in error.text()
    h.do(dialog.findChild(QPushButton, "saveButton").click)
    h.settle(0.05)
    assert dialog.isVisible() and app_paths().settings_file.read_text(encoding="utf-8") == before
    type_extra(h, dialog, '{"enable_thinking": false}')
    h.do(dialog.findChild(QPushButton, "saveButton").click)
    h.wait_until(lambda: saved_json()["extra_params"] == {"enable_thinking": False}, what="the valid value saved")


def test_what_was_learned_is_shown_and_can_be_forgotten(make_window, saved_profile) -> None:
    h = make_window(configured=False)
    dialog = edit_provider(h)
    label = dialog.findChild(QLabel, "learnedLabel")
    reset = dialog.findChild(QPushButton, "resetLearnedButton")
    assert reset.isVisible() and "reasoning sent back" in label.text()
    h.do(reset.click)
    assert not reset.isVisible()
    h.do(dialog.findChild(QPushButton, "saveButton").click)
    h.wait_until(lambda: saved_json()["learned_reasoning_echo"] is False, what="forgotten")
    assert saved_json()["learned_no_vision"] is False


def test_nothing_learned_shows_no_reset(make_window, model_server) -> None:
    SettingsStore(app_paths()).save(Settings(profiles=(ProviderProfile(id="p", name="P", base_url=model_server.base_url,
                                                                       model="scripted-model", needs_api_key=False),),
                                             active_profile_id="p"))
    h = make_window(configured=False)
    dialog = edit_provider(h)
    assert not dialog.findChild(QPushButton, "resetLearnedButton").isVisible()
    h.do(dialog.reject)


def test_parse_extra_params_accepts_objects_and_refuses_the_rest() -> None:
    assert parse_extra_params("") == ({}, None)
    assert parse_extra_params('{"thinking": {"type": "enabled", "budget_tokens": 10}}')[0] == {
        "thinking": {"type": "enabled", "budget_tokens": 10}}
    assert parse_extra_params("[1]") == (None, "not an object")
    assert parse_extra_params('{"api_key": "x"}')[1] == "secret:api_key"
    assert parse_extra_params('{"a": [{"token": "x"}]}')[1] == "secret:token"
    assert parse_extra_params('{"messages": [], "stream": false}')[1] == "reserved:messages, stream"
    assert parse_extra_params("{bad")[0] is None


def test_a_url_edited_to_another_server_forgets_what_the_old_one_taught(make_window, saved_profile) -> None:
    """Issue 21: a learned reasoning echo belongs to the server that asked for it."""
    from PySide6.QtWidgets import QLineEdit

    h = make_window(configured=False)
    dialog = edit_provider(h)
    field = dialog.findChild(QLineEdit, "baseUrlEdit")
    h.do(lambda: field.setText("http://127.0.0.1:9/v1"))
    h.do(dialog.findChild(QPushButton, "saveButton").click)
    h.wait_until(lambda: saved_json()["base_url"] == "http://127.0.0.1:9/v1", what="the new URL saved")
    assert saved_json()["learned_reasoning_echo"] is False and saved_json()["learned_no_vision"] is False

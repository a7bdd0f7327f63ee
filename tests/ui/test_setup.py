"""First run and provider settings: the setup dialog against the scripted server, keys, the settings dialog."""

from __future__ import annotations

import os
import socket

import keyring
import keyring.backends.fail
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QLineEdit, QMessageBox, QPlainTextEdit, QPushButton

from hermes_desktop.ui.chat.items import BannerItem, MessageItem

from tests.support.model_server import text_reply

KEY = "sk-setup-test-0123456789abcdef"


@pytest.fixture(autouse=True)
def no_secure_keyring():
    """Unless a test asks for the real Secret Service, there is no secure keyring (keys stay in memory)."""
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield
    keyring.set_keyring(previous)


def first_run(make_window):
    h = make_window(configured=False)
    dialog = h.wait_until(lambda: getattr(h.window, "setup_dialog", None), what="the setup dialog")
    h.wait_until(dialog.isVisible, what="the dialog on screen")
    return h, dialog


def wait_for_start_up_checks(h) -> None:
    """Wait until the window has decided whether to show the setup dialog (its after-ready step is done, or
    the dialog is up), instead of sleeping and hoping the decision was made by then."""
    from hermes_desktop.ui import tasks

    def decided() -> bool:
        return getattr(h.window, "setup_dialog", None) is not None or not any(
            task.get_coro().__qualname__ == "MainWindow._after_ready" for task in tasks._running)

    h.wait_until(decided, what="the start-up checks")


def fill(h, dialog, base_url: str, model: str, key: str = "") -> None:
    def typing() -> None:
        dialog.findChild(QLineEdit, "baseUrlEdit").setText(base_url)
        dialog.findChild(QComboBox, "modelEdit").setEditText(model)
        dialog.findChild(QLineEdit, "apiKeyEdit").setText(key)

    h.do(typing)


def run_check(h, dialog) -> str:
    h.do(lambda: dialog.findChild(QPushButton, "testConnectionButton").click())
    status = dialog.findChild(QLabel, "connectionStatus")
    h.wait_until(lambda: status.text() and status.text() != dialog.tr("Testing…"), what="the check result")
    return status.text()


def test_first_start_shows_the_setup_dialog_and_presets_fill_the_url(make_window) -> None:
    h, dialog = first_run(make_window)
    assert dialog.objectName() == "setupDialog"
    for kind, name in ((QComboBox, "providerCombo"), (QLineEdit, "baseUrlEdit"), (QComboBox, "modelEdit"),
                       (QLineEdit, "apiKeyEdit"), (QPushButton, "testConnectionButton"), (QPushButton, "saveButton")):
        assert dialog.findChild(kind, name) is not None, name
    combo = dialog.findChild(QComboBox, "providerCombo")
    h.do(lambda: combo.setCurrentIndex(combo.findData("deepseek")))
    assert dialog.findChild(QLineEdit, "baseUrlEdit").text() == "https://api.deepseek.com/v1"
    assert dialog.findChild(QComboBox, "modelEdit").currentText() == "deepseek-chat"
    h.do(lambda: combo.setCurrentIndex(combo.findData("ollama")))
    assert dialog.findChild(QLineEdit, "baseUrlEdit").text() == "http://localhost:11434/v1"
    key = dialog.findChild(QLineEdit, "apiKeyEdit")
    assert key.echoMode() == QLineEdit.EchoMode.Password
    h.do(lambda: dialog.show_key.trigger())
    assert key.echoMode() == QLineEdit.EchoMode.Normal
    warning = dialog.findChild(QLabel, "keyringWarning")
    assert warning.isVisible() and "memory for this run only" in warning.text() and "HERMES_API_KEY" in warning.text()
    h.do(dialog.reject)
    h.wait_until(lambda: h.window.setup_bar.isVisible(), what="the set-up banner after Not now")


def test_connection_check_reports_ok_invalid_key_unreachable_wrong_url_and_model(make_window, model_server) -> None:
    h, dialog = first_run(make_window)
    model_server.required_key = KEY
    model_server.models = ["scripted-model", "other-model"]
    model_server.enqueue(*[text_reply("x")] * 3)

    fill(h, dialog, model_server.base_url, "scripted-model", "  " + KEY + "\n")
    ok = run_check(h, dialog)
    assert ok.startswith("Connected: scripted-model answered in") and model_server.chat_requests[-1].body["max_tokens"] == 1
    assert model_server.requests[-1].headers["authorization"] == f"Bearer {KEY}", "the pasted key was trimmed"

    fill(h, dialog, model_server.base_url, "scripted-model", "sk-wrong-key-000000")
    assert "rejected the API key (401)" in run_check(h, dialog)

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    fill(h, dialog, f"http://127.0.0.1:{closed_port}/v1", "scripted-model", KEY)
    assert "Can't reach" in run_check(h, dialog)

    fill(h, dialog, model_server.base_url.removesuffix("/v1"), "scripted-model", KEY)
    assert "/v1 works" in run_check(h, dialog)
    fix = dialog.findChild(QPushButton, "applySuggestionButton")
    assert fix.isVisible()
    h.do(fix.click)
    assert dialog.findChild(QLineEdit, "baseUrlEdit").text() == model_server.base_url

    fill(h, dialog, model_server.base_url, "no-such-model", KEY)
    assert "does not list the model “no-such-model”" in run_check(h, dialog)
    models = dialog.findChild(QComboBox, "modelEdit")
    assert [models.itemText(i) for i in range(models.count())] == ["other-model", "scripted-model"]
    h.do(dialog.reject)


def test_tool_calling_not_supported_offers_the_text_fallback(make_window, model_server) -> None:
    h, dialog = first_run(make_window)
    model_server.reject_tools = True
    fill(h, dialog, model_server.base_url, "scripted-model")
    assert "does not accept native tool calls" in run_check(h, dialog)
    h.do(lambda: dialog.findChild(QPushButton, "applySuggestionButton").click())
    assert dialog.profile().tool_mode.value == "text"
    h.do(dialog.reject)


def test_save_then_chat_sends_the_key_and_nothing_writes_it_to_disk(make_window, model_server, isolated_home) -> None:
    h, dialog = first_run(make_window)
    model_server.required_key = KEY
    fill(h, dialog, model_server.base_url, "scripted-model", KEY)
    h.do(lambda: dialog.findChild(QPushButton, "saveButton").click())
    h.wait_until(lambda: not dialog.isVisible() and not h.controller.needs_setup, what="saved and connected")
    assert not h.window.setup_bar.isVisible()
    model_server.enqueue(text_reply("hello with a key"))
    h.send("hi")
    h.wait_until(lambda: model_server.chat_requests and not h.controller.is_busy(h.window.current_session),
                 what="the reply")
    assert model_server.chat_requests[-1].headers["authorization"] == f"Bearer {KEY}"
    settings = h.controller.runtime.settings_store.path.read_text()
    assert '"model": "scripted-model"' in settings
    h.run(h.controller.shutdown())
    leaks = [str(p) for p in isolated_home.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]
    assert leaks == [], f"the key was written to {leaks}"


def test_settings_dialog_lists_profiles_and_data_paths(make_window, model_server) -> None:
    h = make_window()
    h.do(h.window.open_settings)
    settings = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings dialog")
    h.wait_until(settings.isVisible, what="it on screen")
    status = settings.findChild(QLabel, "keyringStatus")
    assert "in memory for this run only" in status.text()
    approval = settings.findChild(QComboBox, "approvalModeCombo")
    h.do(lambda: approval.setCurrentIndex(approval.findData("chat_only")))
    assert h.controller.agent.services.policy.mode.value == "chat_only"
    assert h.controller.runtime.settings_store.load().settings.approval_mode.value == "chat_only"
    h.do(settings.accept)


def test_after_a_successful_test_enter_saves(make_window, model_server) -> None:
    h, dialog = first_run(make_window)
    save, test = dialog.findChild(QPushButton, "saveButton"), dialog.findChild(QPushButton, "testConnectionButton")
    fill(h, dialog, model_server.base_url, "scripted-model", KEY)
    assert test.isDefault() and not save.isDefault(), "before a test, Enter tests the connection"
    model_server.enqueue(text_reply("x"))
    h.do(lambda: QTest.mouseClick(test, Qt.MouseButton.LeftButton))  # as a user does: the button takes the focus
    status = dialog.findChild(QLabel, "connectionStatus")
    h.wait_until(lambda: status.text().startswith("Connected"), what="a successful check")
    assert save.isDefault() and not test.isDefault()
    h.do(lambda: QTest.keyClick(QApplication.focusWidget() or dialog, Qt.Key.Key_Return))
    h.wait_until(lambda: not dialog.isVisible() and not h.controller.needs_setup, what="saved by Enter")
    saved = h.controller.runtime.settings_store.load().settings.active_profile
    assert saved is not None and (saved.base_url, saved.model) == (model_server.base_url, "scripted-model")


def test_editing_after_a_successful_test_makes_enter_test_again(make_window, model_server) -> None:
    h, dialog = first_run(make_window)
    fill(h, dialog, model_server.base_url, "scripted-model", KEY)
    model_server.enqueue(text_reply("x"))
    assert run_check(h, dialog).startswith("Connected")
    assert dialog.findChild(QPushButton, "saveButton").isDefault()
    url = dialog.findChild(QLineEdit, "baseUrlEdit")
    h.do(lambda: (url.setFocus(), QTest.keyClicks(url, "x")))
    assert dialog.findChild(QPushButton, "testConnectionButton").isDefault()
    h.do(dialog.reject)


def discard_question(h, dialog) -> QMessageBox:
    return h.wait_until(lambda: dialog.discard_question if dialog.discard_question and
                        dialog.discard_question.isVisible() else None, what="the unsaved-changes question")


def test_closing_with_unsaved_changes_asks_first(make_window, model_server) -> None:
    h, dialog = first_run(make_window)
    fill(h, dialog, model_server.base_url, "typed-model", KEY)

    h.do(lambda: QTest.keyClick(dialog, Qt.Key.Key_Escape))  # Esc
    question = discard_question(h, dialog)
    assert dialog.isVisible() and "not saved" in question.text()
    assert question.defaultButton() is question.button(QMessageBox.StandardButton.Cancel), "Enter keeps editing"
    h.do(lambda: question.button(QMessageBox.StandardButton.Cancel).click())  # Keep editing
    h.wait_until(lambda: dialog.discard_question is None, what="the question to close")
    assert dialog.isVisible() and dialog.findChild(QComboBox, "modelEdit").currentText() == "typed-model"

    h.do(dialog.close)  # the window's close button
    question = discard_question(h, dialog)
    assert dialog.isVisible()
    h.do(lambda: question.button(QMessageBox.StandardButton.Cancel).click())
    h.wait_until(lambda: dialog.discard_question is None, what="the question to close")

    h.do(lambda: dialog.findChild(QPushButton, "cancelButton").click())  # Not now
    question = discard_question(h, dialog)
    h.do(lambda: question.action.click())  # Discard
    h.wait_until(lambda: not dialog.isVisible(), what="the dialog to close")
    h.wait_until(lambda: h.window.setup_bar.isVisible(), what="the set-up banner")
    assert h.controller.runtime.settings_store.load().settings.profiles == (), "nothing was saved"


def test_closing_without_changes_does_not_ask(make_window) -> None:
    h, dialog = first_run(make_window)
    h.do(lambda: QTest.keyClick(dialog, Qt.Key.Key_Escape))
    h.wait_until(lambda: not dialog.isVisible(), what="the dialog to close")
    assert dialog.discard_question is None


def test_a_message_sent_in_the_same_moment_as_save_is_answered_by_the_saved_provider(make_window, model_server) -> None:
    h, dialog = first_run(make_window)
    model_server.required_key = KEY
    fill(h, dialog, model_server.base_url, "scripted-model", KEY)
    model_server.enqueue(text_reply("answered by the provider you just saved"))
    box = h.window.findChild(QPlainTextEdit, "chatInput")

    def save_and_send() -> None:  # one event-loop turn: the engine cannot have the provider yet
        dialog.findChild(QPushButton, "saveButton").click()
        assert h.controller.agent.model is None, "the provider is not connected yet when the message is sent"
        box.setFocus()
        QTest.keyClicks(box, "hello right away")
        QTest.keyClick(box, Qt.Key.Key_Return)

    h.do(save_and_send)
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.role == "assistant" and
                             i.text == "answered by the provider you just saved" for i in h.window.chat.model.items())
                 or any(isinstance(i, BannerItem) for i in h.window.chat.model.items()), what="the reply or an error")
    banners = [i.message for i in h.window.chat.model.items() if isinstance(i, BannerItem)]
    assert banners == [], banners
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="the turn to end")
    stored = h.controller.store.messages(h.window.current_session)
    assert [(m.role, m.content) for m in stored] == [("user", "hello right away"),
                                                     ("assistant", "answered by the provider you just saved")]
    assert model_server.chat_requests[-1].headers["authorization"] == f"Bearer {KEY}"


def test_stop_while_waiting_for_the_saved_provider_keeps_the_message(make_window, model_server) -> None:
    h, dialog = first_run(make_window)
    fill(h, dialog, model_server.base_url, "scripted-model", KEY)
    box = h.window.findChild(QPlainTextEdit, "chatInput")

    def save_send_and_stop() -> None:
        dialog.findChild(QPushButton, "saveButton").click()
        box.setFocus()
        QTest.keyClicks(box, "stop me")
        QTest.keyClick(box, Qt.Key.Key_Return)
        h.window.stop()

    h.do(save_send_and_stop)
    h.wait_until(lambda: h.window.current_session and not h.controller.is_busy(h.window.current_session),
                 what="the stopped turn to end")
    stored = h.controller.store.messages(h.window.current_session)
    assert [(m.role, m.content) for m in stored] == [("user", "stop me")], "saved, and nothing was asked of the model"
    assert model_server.chat_requests == []


@pytest.mark.keyring
@pytest.mark.skipif(not os.environ.get("HERMES_TEST_SECRET_SERVICE"), reason="needs a real Secret Service "
                    "(make test runs the suite under dbus-run-session with gnome-keyring)")
def test_with_a_real_keyring_the_second_start_needs_no_setup(make_window, model_server, isolated_home) -> None:
    keyring.set_keyring(keyring.core.load_keyring("keyring.backends.SecretService.Keyring"))
    h, dialog = first_run(make_window)
    assert not dialog.findChild(QLabel, "keyringWarning").isVisible()
    fill(h, dialog, model_server.base_url, "scripted-model", KEY)
    h.do(lambda: dialog.findChild(QPushButton, "saveButton").click())
    h.wait_until(lambda: not h.controller.needs_setup, what="saved")
    profile_id = h.controller.runtime.settings.active_profile.id
    assert keyring.get_password("hermes-desktop", f"provider:{profile_id}") == KEY
    h.do(h.window.close)
    h.run(h.controller.shutdown())
    again = make_window(configured=False)
    wait_for_start_up_checks(again)
    assert getattr(again.window, "setup_dialog", None) is None and not again.controller.needs_setup
    again.run(again.controller.delete_provider(profile_id))
    assert keyring.get_password("hermes-desktop", f"provider:{profile_id}") is None
    leaks = [str(p) for p in isolated_home.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]
    assert leaks == []


def test_choosing_a_model_clears_the_choose_a_model_error(make_window, model_server) -> None:
    h, dialog = first_run(make_window)
    status = dialog.findChild(QLabel, "connectionStatus")
    models = dialog.findChild(QComboBox, "modelEdit")
    fill(h, dialog, model_server.base_url, "")
    h.do(lambda: dialog.findChild(QPushButton, "saveButton").click())
    assert status.text() == "Choose a model." and dialog.isVisible()
    h.do(lambda: (models.setFocus(), QTest.keyClicks(models.lineEdit(), "scripted-model")))
    assert status.text() == "" and not status.styleSheet()
    assert models.currentText() == "scripted-model" and dialog.isVisible(), "nothing was saved by typing"
    # With another problem left, only the model's sentence goes.
    fill(h, dialog, "ftp://nowhere", "")
    h.do(lambda: dialog.findChild(QPushButton, "saveButton").click())
    assert "Choose a model." in status.text() and "http://" in status.text()
    h.do(lambda: models.addItems(["picked-model"]))
    h.do(lambda: models.setCurrentIndex(models.findText("picked-model")))
    assert "Choose a model." not in status.text() and "http://" in status.text()
    h.do(dialog.reject)


def test_the_custom_provider_is_found_under_custom(make_window) -> None:
    h, dialog = first_run(make_window)
    combo = dialog.findChild(QComboBox, "providerCombo")
    assert combo.itemText(combo.findData("custom")).startswith("Custom")
    assert combo.findText("Custom", Qt.MatchFlag.MatchStartsWith) == combo.findData("custom"), "typing Custom finds it"
    h.do(dialog.reject)

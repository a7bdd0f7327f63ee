"""A provider marked local-only, through the real window (issue 24, core/local_only.py): the checkbox in the
provider's Advanced settings is saved and loaded; a session it answered in, switched in the model picker to another
provider, shows an error card that says what to do, and the other provider receives nothing; the Memory tab says
which memories stay with local-only providers. Two scripted servers over HTTP, the real store and settings file."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QCheckBox, QListWidget, QPushButton

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.session_models import SessionPick
from hermes_desktop.core.settings import Settings, SettingsStore
from hermes_desktop.ui.chat.items import BannerItem
from tests.support.model_server import text_reply
from tests.ui.test_model_picker import providers, second_server  # noqa: F401 (fixtures)
from tests.ui.test_provider_advanced import edit_provider, saved_json, saved_profile  # noqa: F401
from tests.ui.test_memory_tab import refreshed
from tests.ui.test_window import ask_and_settle


def test_the_local_only_box_is_saved_and_loaded(make_window, saved_profile) -> None:  # noqa: F811
    h = make_window(configured=False)
    dialog = edit_provider(h)
    box = dialog.findChild(QCheckBox, "localOnlyCheck")
    assert box is not None and box.isVisible() and not box.isChecked()
    h.do(box.click)
    h.do(dialog.findChild(QPushButton, "saveButton").click)
    h.wait_until(lambda: saved_json().get("local_only") is True, what="local_only saved")
    again = edit_provider(h)
    assert again.findChild(QCheckBox, "localOnlyCheck").isChecked()
    again.reject()
    h.do(h.window.open_settings)
    settings = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings")
    assert settings.findChild(QListWidget, "profileList").item(0).text().startswith("● Main — scripted-model, local only")


def test_a_local_only_session_switched_to_another_provider_is_refused_with_advice(
        make_window, model_server, second_server, providers) -> None:  # noqa: F811
    settings = SettingsStore(app_paths()).load().settings
    local = replace(settings.profile("other"), name="My Mac", local_only=True)
    SettingsStore(app_paths()).save(replace(settings, profiles=(settings.profile("main"), local)))
    h = make_window(configured=False)
    h.run(h.window.model_picker.choose(SessionPick("other", "other-a")))
    ask_and_settle(h, second_server, "I prefer green tea. The Acme deal is confidential.", "Noted.")
    h.wait_until(lambda: h.controller.memory.list(), what="the memory")
    session = h.window.current_session

    h.run(h.window.model_picker.choose(SessionPick("main", "scripted-model")))
    h.send("Summarise this for my boss.")
    card = h.wait_until(lambda: next((i for i in h.window.chat.model.items() if isinstance(i, BannerItem)), None),
                        what="the error card")
    assert "My Mac" in card.message and "marked local-only" in card.message and "model picker" in card.message
    h.wait_until(lambda: not h.controller.is_busy(session), what="idle")
    assert model_server.chat_requests == [], "the other provider received nothing of this conversation"

    # the Memory tab, seen with the default provider active, says the memory stays with local-only providers
    texts = refreshed(h, lambda t: any("green tea" in x for x in t), "the memory row")
    assert "used only with local-only providers" in next(x for x in texts if "green tea" in x)

"""The provider dialog's embedding model (memory recall through the provider's /embeddings, core/memory/embeddings.py):
typed in Advanced settings, saved to settings.json, loaded again, cleared to none; editing a profile keeps the fields
the dialog does not show (request_timeout_s, the picker's typed models)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QLineEdit, QPushButton

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import Settings, SettingsStore
from tests.ui.test_provider_advanced import edit_provider, no_secure_keyring, saved_json, saved_profile  # noqa: F401


def test_the_embedding_model_is_typed_saved_loaded_and_cleared(make_window, saved_profile) -> None:  # noqa: F811
    SettingsStore(app_paths()).save(Settings(profiles=(replace(saved_profile, request_timeout_s=321.0),),
                                             active_profile_id="main"))
    h = make_window(configured=False)
    dialog = edit_provider(h)
    edit = dialog.findChild(QLineEdit, "embeddingModelEdit")
    assert edit is not None and edit.isVisible() and edit.text() == ""
    h.do(lambda: edit.setText("  text-embedding-3-small "))
    h.do(dialog.findChild(QPushButton, "saveButton").click)
    h.wait_until(lambda: saved_json().get("embedding_model") == "text-embedding-3-small", what="the saved model")
    saved = saved_json()
    assert saved["request_timeout_s"] == 321.0, "a field the dialog does not show survives the edit"
    assert saved["models"] == ["typed-by-hand"]

    again = edit_provider(h)
    field = again.findChild(QLineEdit, "embeddingModelEdit")
    assert field.text() == "text-embedding-3-small"
    h.do(field.clear)
    h.do(again.findChild(QPushButton, "saveButton").click)
    h.wait_until(lambda: not saved_json().get("embedding_model"), what="no embedding model")

"""A locked system keyring at start, in a Chinese window (issue 16): the real Secret Service (tests/run_suite.sh)
holds the active provider's key, the collection is locked and the unlock prompt cannot be shown, so reading the
key fails while the window starts. The error bar says so in Chinese, and the key is still there once unlocked."""

from __future__ import annotations

import json
import os

import keyring
import pytest

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.secrets import KeyringSecretStore
from tests.support.keyring_session import unlock_with_master_password
from tests.ui.test_chinese_ui import assert_chinese
from tests.ui.test_translations import chinese  # noqa: F401 - fixture

KEY = "sk-locked-at-start-0123456789"


@pytest.mark.keyring
@pytest.mark.skipif(not os.environ.get("HERMES_TEST_SECRET_SERVICE"),
                    reason="needs a real Secret Service (tests/run_suite.sh runs it under dbus-run-session)")
def test_a_locked_keyring_at_start_is_said_in_chinese_and_the_key_is_kept(chinese, make_window,
                                                                         model_server) -> None:
    import secretstorage

    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.core.load_keyring("keyring.backends.SecretService.Keyring"))
    connection = secretstorage.dbus_init()
    collection = secretstorage.get_default_collection(connection)
    store = KeyringSecretStore()
    try:
        settings = app_paths().settings_file
        settings.write_text(json.dumps({"language": "zh_CN", "active_profile_id": "work", "profiles": [
            {"id": "work", "name": "Work", "base_url": model_server.base_url, "model": "scripted-model",
             "needs_api_key": True}]}), encoding="utf-8")
        store.set("provider:work", KEY)
        collection.lock()
        h = make_window(configured=False)
        h.wait_until(lambda: h.window.errors.isVisible() and h.window.errors.label.text(), what="the error bar")
        # The first-run setup dialog reads the key again and says so too: once in English (str(exc) dropped the
        # message's code), which showed only when the dialog came up before the bar was read (a loaded machine).
        dialog = h.wait_until(lambda: getattr(h.window, "setup_dialog", None), what="the setup dialog")
        text = h.window.errors.label.text()
        h.do(dialog.reject)
        assert text.count("系统密钥环已锁定") == 1, text  # said once, though two paths found it
        assert_chinese(text, (), "the keyring problem")
        unlock_with_master_password(connection, collection)
        assert store.get("provider:work") == KEY, "the key is still in the keyring"
    finally:
        if collection.is_locked():
            unlock_with_master_password(connection, collection)
        store.delete("provider:work")
        keyring.set_keyring(previous)

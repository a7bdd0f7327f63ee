"""API keys: the real Secret Service when there is one, memory-only (and said so) when there is not."""

from __future__ import annotations

import os

import keyring
import keyring.backends.fail
import pytest

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.runtime import open_runtime
from tests.support.keyring_session import unlock_with_master_password
from hermes_desktop.core.secrets import (
    KeyringSecretStore,
    MemorySecretStore,
    SecretStoreError,
    inspect_backend,
    open_secret_store,
)

KEY = "sk-core-secret-test-0123456789"
needs_secret_service = pytest.mark.skipif(
    not os.environ.get("HERMES_TEST_SECRET_SERVICE"),
    reason="needs a real Secret Service (make test runs the suite under dbus-run-session with gnome-keyring)")


@pytest.fixture
def fail_backend():
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def secret_service():
    previous = keyring.get_keyring()
    backend = keyring.core.load_keyring("keyring.backends.SecretService.Keyring")
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.mark.keyring
@needs_secret_service
def test_store_read_replace_delete_in_the_real_secret_service(secret_service) -> None:
    report = inspect_backend()
    assert report.secure, report
    store, _ = open_secret_store()
    assert isinstance(store, KeyringSecretStore)
    store.set("provider:test", KEY)
    assert store.get("provider:test") == KEY
    assert keyring.get_password("hermes-desktop", "provider:test") == KEY, "service and username per the contract"
    store.set("provider:test", KEY + "-new")
    assert store.get("provider:test") == KEY + "-new"
    store.delete("provider:test")
    assert store.get("provider:test") is None
    store.delete("provider:test")  # deleting twice is fine


@pytest.mark.keyring
@needs_secret_service
def test_a_locked_keyring_gives_a_clear_error_not_an_empty_key(secret_service) -> None:
    import secretstorage

    connection = secretstorage.dbus_init()
    collection = secretstorage.get_default_collection(connection)
    store = KeyringSecretStore(secret_service)
    store.set("provider:locked", KEY)
    collection.lock()
    try:
        with pytest.raises(SecretStoreError) as caught:
            store.get("provider:locked")
        message = str(caught.value)
        assert message == ("The system keyring is locked, so Hermes could not read the key. "
                           "Unlock it and try again."), message
    finally:
        unlock_with_master_password(connection, collection)
        store.delete("provider:locked")


def test_without_a_secure_keyring_keys_stay_in_memory_and_it_is_said(fail_backend) -> None:
    report = inspect_backend()
    assert not report.secure and "no system keyring" in report.reason
    store, reported = open_secret_store()
    assert isinstance(store, MemorySecretStore) and not reported.secure
    store.set("provider:x", KEY)
    assert store.get("provider:x") == KEY
    runtime = open_runtime({})
    runtime.secrets.set("provider:x", KEY)
    paths = app_paths()
    for root in (paths.data_dir, paths.config_dir, paths.log_dir):
        for path in root.rglob("*"):
            assert not (path.is_file() and KEY.encode() in path.read_bytes()), path
    runtime.store.close()


def test_plaintext_and_low_priority_backends_do_not_count() -> None:
    class PlaintextKeyring:  # the name keyrings.alt uses for its file backend
        priority = 1

    class Weak:
        priority = 0.5

    assert not inspect_backend(PlaintextKeyring()).secure
    assert not inspect_backend(Weak()).secure
    assert not inspect_backend(keyring.backends.fail.Keyring()).secure


def test_keyring_failures_become_clear_messages() -> None:
    class Broken:
        priority = 5

        def get_password(self, service: str, username: str) -> str:
            raise RuntimeError("org.freedesktop.Secret.Error.IsLocked: collection is locked")

    with pytest.raises(SecretStoreError) as caught:
        KeyringSecretStore(Broken()).get("provider:x")
    assert "locked" in str(caught.value) and "Unlock it and try again" in str(caught.value)

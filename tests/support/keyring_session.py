"""Helpers for tests that run against the real gnome-keyring Secret Service (see tests/run_suite.sh)."""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

from hermes_desktop.core.secrets import KeyringSecretStore, MemorySecretStore

PASSWORD = os.environ.get("HERMES_TEST_KEYRING_PASSWORD", "ci-pass")


def unlock_with_master_password(connection: Any, collection: Any) -> None:
    """Unlock a collection without a GUI prompt, through gnome-keyring's own test interface."""
    from jeepney import DBusAddress, new_method_call

    service = DBusAddress("/org/freedesktop/secrets", bus_name="org.freedesktop.secrets",
                          interface="org.freedesktop.Secret.Service")
    session = connection.send_and_get_reply(new_method_call(service, "OpenSession", "sv", ("plain", ("s", "")))).body[1]
    internal = DBusAddress("/org/freedesktop/secrets", bus_name="org.freedesktop.secrets",
                           interface="org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface")
    secret = (session, b"", PASSWORD.encode(), "text/plain")
    connection.send_and_get_reply(new_method_call(internal, "UnlockWithMasterPassword", "o(oayays)",
                                                  (collection.collection_path, secret)))
    if collection.is_locked():
        raise RuntimeError("could not unlock the test keyring")


class PersistentMemoryStore(MemorySecretStore):
    """Stands in for the keyring only where no Secret Service runs (outside run_suite.sh)."""

    @property
    def is_persistent(self) -> bool:
        return True


@contextmanager
def keyring_or_memory_store(usernames: Iterable[str]) -> Iterator[Any]:
    """The real Secret Service under run_suite.sh (HERMES_TEST_SECRET_SERVICE set), also as keyring's default
    backend for the duration, with `usernames` deleted afterwards; elsewhere a PersistentMemoryStore."""
    if os.environ.get("HERMES_TEST_SECRET_SERVICE"):
        import keyring

        previous = keyring.get_keyring()
        backend = keyring.core.load_keyring("keyring.backends.SecretService.Keyring")
        keyring.set_keyring(backend)
        store = KeyringSecretStore(backend)
        yield store
        for username in usernames:
            store.delete(username)
        keyring.set_keyring(previous)
    else:
        yield PersistentMemoryStore()

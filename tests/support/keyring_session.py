"""Helpers for tests that run against the real gnome-keyring Secret Service (see tests/run_suite.sh)."""

from __future__ import annotations

import os
from typing import Any

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

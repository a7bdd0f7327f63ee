"""Which secrets the app holds, for what it stores (core/held_secrets.py, core/secrets.held_values): the configured
usernames' values, an OAuth token set's fields, nothing (and no error) from a keyring that fails, and the keyring
read again once REREAD_S has passed (the store's clock, no sleeping).

The keyrings are the app's own in-process store (core/secrets.MemorySecretStore) and keyring's real `fail` backend
behind KeyringSecretStore; the Secret Service case runs in tests/e2e/test_cli_memory_secrets.py.
"""

from __future__ import annotations

import json
import logging

import keyring.backends.fail

from hermes_desktop.core.held_secrets import HeldSecrets, usernames
from hermes_desktop.core.logging_setup import REDACTION
from hermes_desktop.core.secrets import KeyringSecretStore, MemorySecretStore, held_values
from hermes_desktop.core.settings import ProviderProfile


class Server:
    def __init__(self, name: str, secret_names: tuple[str, ...]) -> None:
        self.name, self.secret_names = name, secret_names


def test_every_configured_name_is_read_and_an_oauth_token_set_gives_its_fields() -> None:
    store = MemorySecretStore()
    profile = ProviderProfile(id="work", name="Work", base_url="http://127.0.0.1:1/v1", model="m")
    store.set(profile.keyring_username, "work-key-0001")
    store.set("mcp:vault:token", "vault-token-0002")
    store.set("mcp:vault:input:pass", "typed-input-0003")
    store.set("mcp:vault:oauth", json.dumps({"access_token": "oauth-access-0004", "refresh_token": "oauth-refresh-05",
                                             "expires_at": 12, "scope": "read write"}))
    store.set("mcp:other:token", "not-configured-0006")
    names = usernames([profile], [Server("vault", ("token", "input:pass"))])
    assert names == ["provider:work", "mcp:vault:token", "mcp:vault:input:pass", "mcp:vault:oauth"]
    values = held_values(store, names)
    for wanted in ("work-key-0001", "vault-token-0002", "typed-input-0003", "oauth-access-0004", "oauth-refresh-05"):
        assert wanted in values
    assert "not-configured-0006" not in values and "read write" not in values


def test_a_failing_keyring_gives_nothing_and_says_so_once_per_name(caplog) -> None:
    failing = KeyringSecretStore(backend=keyring.backends.fail.Keyring())
    with caplog.at_level(logging.INFO, logger="hermes_desktop.core.secrets"):
        assert held_values(failing, ["provider:a", "provider:a", "mcp:s:t"]) == []
    assert len([r for r in caplog.records if "not read for redaction" in r.getMessage()]) == 2


def test_the_keyring_is_read_again_after_a_while_not_on_every_memory() -> None:
    store = MemorySecretStore()
    profile = ProviderProfile(id="late", name="Late", base_url="http://127.0.0.1:1/v1", model="m")
    now = [100.0]
    held = HeldSecrets(store, lambda: [profile], clock=lambda: now[0])
    assert "late-key-000777" not in held()
    store.set(profile.keyring_username, "late-key-000777")  # saved while the app runs
    now[0] += HeldSecrets.REREAD_S / 2
    assert "late-key-000777" not in held(), "within REREAD_S the keyring is not read again"
    now[0] += HeldSecrets.REREAD_S
    assert "late-key-000777" in held() and "late-key-000777" in REDACTION.known_secrets, "then it is, logs too"

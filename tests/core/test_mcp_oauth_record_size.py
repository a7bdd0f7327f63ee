"""An MCP sign-in record longer than one Windows credential (about 1,280 characters) is kept across several
keyring entries and reads back whole; damaged or missing parts read as no sign-in; sign-out removes every part.

The store here refuses any value longer than Windows' Credential Manager accepts (keyring stores the value as
UTF-16: 2,560 bytes), so a record that would not fit there fails here too; it stands in for that backend, which
cannot run on this machine. The real Secret Service path is tested in tests/core/test_mcp_oauth.py."""

from __future__ import annotations

import json

import pytest

from hermes_desktop.core.mcp.oauth import KeyringTokenStorage, oauth_username, sign_out, signed_in
from hermes_desktop.core.mcp.split_secret import PART_CHARS, read_split, write_split
from hermes_desktop.core.secrets import MemorySecretStore, SecretStoreError

WINDOWS_LIMIT = 2_560 // 2


class WindowsSizedStore(MemorySecretStore):
    """A persistent store with the Windows credential size limit."""

    @property
    def is_persistent(self) -> bool:
        return True

    def set(self, username: str, secret: str) -> None:
        if len(secret.encode("utf-16-le")) > 2_560:
            raise SecretStoreError(f"the value for {username} is too long for a Windows credential")
        super().set(username, secret)


def jwt_like(n: int) -> str:
    return "eyJ" + "".join(chr(65 + (i * 7 + n) % 26) for i in range(1_700))


async def test_a_long_sign_in_record_is_kept_in_parts_and_reads_back_whole() -> None:
    from mcp.shared.auth import OAuthToken

    store = WindowsSizedStore()
    storage = KeyringTokenStorage(store, "files", url="https://files.example/mcp")
    tokens = OAuthToken(access_token=jwt_like(1), refresh_token=jwt_like(2), token_type="Bearer", expires_in=3600,
                        scope="files:read files:write offline_access")
    await storage.set_tokens(tokens)
    await storage.update(wanted_scope="files:read files:write")
    names = sorted(store._secrets)
    assert oauth_username("files") in names and len(names) >= 3  # the head and its parts
    assert all(len(v) <= WINDOWS_LIMIT for v in store._secrets.values())
    again = await KeyringTokenStorage(store, "files", url="https://files.example/mcp").get_tokens()
    assert again.access_token == tokens.access_token and again.refresh_token == tokens.refresh_token
    assert signed_in(store, "files")
    assert sign_out(store, "files") and store._secrets == {}  # every part removed


def test_a_record_that_fits_stays_one_plain_entry_and_old_records_read_unchanged() -> None:
    store = WindowsSizedStore()
    record = json.dumps({"tokens": {"access_token": "short", "token_type": "Bearer"}})
    store.set(oauth_username("s"), record)  # as an earlier version wrote it
    assert read_split(store, oauth_username("s")) == record and signed_in(store, "s")
    write_split(store, oauth_username("s"), record)
    assert store._secrets == {oauth_username("s"): record}


def test_a_shorter_record_leaves_no_stale_parts() -> None:
    store = WindowsSizedStore()
    name = oauth_username("s")
    write_split(store, name, "x" * (PART_CHARS * 4))
    assert len(store._secrets) == 5
    write_split(store, name, "y" * (PART_CHARS + 10))
    assert len(store._secrets) == 2 and read_split(store, name) == "y" * (PART_CHARS + 10)
    write_split(store, name, "small")
    assert store._secrets == {name: "small"}


@pytest.mark.parametrize("damage", ["missing", "swapped", "header"])
def test_damaged_parts_read_as_no_sign_in(damage: str, caplog) -> None:
    store = WindowsSizedStore()
    name = oauth_username("s")
    write_split(store, name, json.dumps({"tokens": {"access_token": jwt_like(3)}}))
    if damage == "missing":
        store.delete(f"{name}.2")
    elif damage == "swapped":
        store.set(f"{name}.2", "z" * 100)
    else:
        store._secrets[name] = "hermes-split:v1:x:y\n{"
    assert read_split(store, name) is None
    assert not signed_in(store, "s")

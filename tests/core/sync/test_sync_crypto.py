"""Sealed objects and keys: what the storage owner can and cannot do to them."""

from __future__ import annotations

import os

import pytest

from hermes_desktop.core.sync import crypto
from hermes_desktop.core.sync.http_retry import retry_after_seconds


def test_a_sealed_object_opens_only_under_its_own_name_and_key() -> None:
    key = os.urandom(32)
    text = "对话 ".encode() * 1000
    sealed = crypto.seal(key, "log/abc/0000000001.batch", text)
    assert len(sealed) < len(text)  # compressed before encryption
    assert crypto.open_sealed(key, "log/abc/0000000001.batch", sealed) == text
    with pytest.raises(crypto.TamperedObject):  # moved to another name by whoever holds the storage
        crypto.open_sealed(key, "log/abc/0000000002.batch", sealed)
    with pytest.raises(crypto.TamperedObject):
        crypto.open_sealed(os.urandom(32), "log/abc/0000000001.batch", sealed)
    with pytest.raises(crypto.TamperedObject):
        crypto.open_sealed(key, "log/abc/0000000001.batch", sealed[:-1])  # cut short (a half upload)
    incompressible = os.urandom(5000)
    assert crypto.open_sealed(key, "blob", crypto.seal(key, "blob", incompressible)) == incompressible


def test_recovery_code_round_trip_and_typos() -> None:
    key = bytes(range(32))  # fixed: a random key's mistyped code would pass the 16-bit checksum once in 65,536
    code = crypto.recovery_code(key)
    assert code.startswith("HRC1-")
    assert crypto.parse_recovery_code(code.lower().replace("-", " ")) == key
    assert crypto.parse_recovery_code("my passphrase") is None
    with pytest.raises(crypto.WrongPassphrase):
        crypto.parse_recovery_code(code[:7] + ("A" if code[7] != "A" else "B") + code[8:])  # one letter mistyped


def test_a_hostile_keyinfo_cannot_ask_for_gigabytes_of_scrypt_memory() -> None:
    info = crypto.KeyInfo("scrypt", b"salt", 2 ** 24, 8, 1, b"")
    with pytest.raises(crypto.SyncCryptoError, match="beyond the safe limit"):
        crypto.key_from_secret("passphrase", info)


def test_short_passphrase_refused() -> None:
    with pytest.raises(crypto.SyncCryptoError, match="too short"):
        crypto.new_passphrase_key("short")


def test_retry_after_seconds_and_http_date_are_honoured_and_capped() -> None:
    assert retry_after_seconds("3", 0) == 3
    assert retry_after_seconds("99999", 0) == 60
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", 0, now=lambda: 1445412480.0) == 10
    assert retry_after_seconds(None, 2) == 2.0


def test_a_folder_target_on_a_disk_that_is_not_plugged_in_is_an_error_not_a_new_folder(tmp_path) -> None:
    from hermes_desktop.core.paths import AppPaths
    from hermes_desktop.core.secrets import MemorySecretStore
    from hermes_desktop.core.sync.config import SyncConfig
    from hermes_desktop.core.sync.service import SyncService
    from hermes_desktop.core.sync.target import TargetError

    paths = AppPaths(tmp_path / "d", tmp_path / "c", tmp_path / "l", tmp_path / "docs")
    unplugged = tmp_path / "media" / "Backup" / "hermes"
    with pytest.raises(TargetError, match="disk connected"):
        SyncService(paths, MemorySecretStore()).test_connection(SyncConfig(kind="folder", url=str(unplugged)), None)
    assert not (tmp_path / "media").exists()

"""The target's key: made at setup, checked against the target's keyinfo.json every time it is used."""

from __future__ import annotations

import base64

from hermes_desktop.core.sync import crypto
from hermes_desktop.core.sync.target import ObjectMissing, Target

KEYINFO = "keyinfo.json"


def read_keyinfo(target: Target) -> crypto.KeyInfo | None:
    try:
        return crypto.KeyInfo.from_json(target.get(KEYINFO))
    except ObjectMissing:
        return None


def setup_key(target: Target, secret: str | None, *, scrypt_n: int = crypto.SCRYPT_N) -> tuple[bytes, str]:
    """(key, recovery code) for `target`. A target already holding backups needs their passphrase or recovery code
    (WrongPassphrase otherwise, and nothing is written); a new one gets a key from `secret` (scrypt) or, when no
    secret is given, a random key. keyinfo.json is written only for a new target."""
    info = read_keyinfo(target)
    if info is not None:
        if not secret:
            raise crypto.WrongPassphrase("this target already holds Hermes backups: type their passphrase or "
                                         "recovery code")
        key = crypto.key_from_secret(secret, info)
        return key, crypto.recovery_code(key)
    key, info = crypto.new_passphrase_key(secret, n=scrypt_n) if secret else crypto.new_random_key()
    target.put(KEYINFO, info.to_json())
    return key, crypto.recovery_code(key)


def stored_key(target: Target, encoded: str | None) -> bytes:
    """The keyring's key for `target`, checked against its keyinfo.json (WrongPassphrase when it no longer
    opens: the target was set up again from another machine with another passphrase)."""
    if not encoded:
        raise crypto.WrongPassphrase("no encryption key is kept for this target: run setup again with its "
                                     "passphrase or recovery code")
    key = base64.b64decode(encoded)
    info = read_keyinfo(target)
    if info is None:
        raise crypto.SyncCryptoError("the target has no keyinfo.json any more (emptied?): run setup again")
    crypto.verify_key(key, info)
    return key


def encode_key(key: bytes) -> str:
    return base64.b64encode(key).decode()

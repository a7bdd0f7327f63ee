"""Keys and sealed objects: what lets a backup sit on someone else's disk.

Every object that leaves this machine is sealed: zlib-compressed (unless that does not make it smaller) and then
encrypted with AES-256-GCM, an authenticated cipher, under a fresh 96-bit random nonce. The object's name on the
remote is part of the authenticated data, so an object moved or renamed by someone who holds the storage fails to
open just like a flipped byte: `TamperedObject`.

The 32-byte key comes from one of two places, recorded (without any secret) in the target's `keyinfo.json`:
- a passphrase, stretched by scrypt (memory-hard: N=2^17, r=8, p=1, 128 MiB, about half a second here) with a
  random salt kept in keyinfo.json;
- a random key, for a user who would rather print a recovery code than remember a passphrase.
Either way the key itself is kept in the keyring (`sync:<target>:key`), and `recovery_code(key)` prints it as
groups of base32 letters with a checksum, which `key_from_secret` accepts wherever a passphrase is asked.
keyinfo.json also holds a sealed known text: a wrong passphrase is told apart before anything is read or written
(`WrongPassphrase`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import zlib
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

MAGIC = b"HSE1"
_RAW, _ZLIB = 0, 1
NONCE_BYTES = 12
KEY_BYTES = 32
SCRYPT_N = 2 ** 17
SCRYPT_R = 8
SCRYPT_P = 1
KEYINFO_FORMAT = "hermes-sync-keyinfo/1"
_CHECK_NAME = "keyinfo-check"
_CHECK_TEXT = b"hermes-desktop sync key check"
_RECOVERY_PREFIX = "HRC1"


class SyncCryptoError(Exception):
    """A key or object problem, worded for the user."""


class WrongPassphrase(SyncCryptoError):
    """The passphrase or recovery code does not open this target's objects (nothing was changed)."""


class TamperedObject(SyncCryptoError):
    """An object failed authentication: changed, truncated, renamed, or sealed under another key."""


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """What a target says about its key: how it is derived (never the key or the passphrase)."""

    kdf: str  # "scrypt" or "random"
    salt: bytes
    n: int
    r: int
    p: int
    check: bytes

    def to_json(self) -> bytes:
        return json.dumps({"format": KEYINFO_FORMAT, "kdf": self.kdf, "salt": base64.b64encode(self.salt).decode(),
                           "n": self.n, "r": self.r, "p": self.p,
                           "check": base64.b64encode(self.check).decode()}, indent=2).encode()

    @staticmethod
    def from_json(data: bytes) -> "KeyInfo":
        try:
            raw: dict[str, Any] = json.loads(data)
            if raw.get("format") != KEYINFO_FORMAT or raw.get("kdf") not in ("scrypt", "random"):
                raise ValueError("unknown format")
            return KeyInfo(raw["kdf"], base64.b64decode(raw["salt"]), int(raw["n"]), int(raw["r"]), int(raw["p"]),
                           base64.b64decode(raw["check"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise SyncCryptoError(f"the target's keyinfo.json cannot be read ({exc}); it was not made by this "
                                  "version of Hermes Desktop") from exc


def derive_key(passphrase: str, info: KeyInfo) -> bytes:
    if info.n > 2 ** 20 or info.r > 16 or info.p > 4:  # a hostile keyinfo.json must not eat the machine's memory
        raise SyncCryptoError("the target's keyinfo.json asks for key derivation parameters beyond the safe limit")
    return Scrypt(salt=info.salt, length=KEY_BYTES, n=info.n, r=info.r, p=info.p).derive(passphrase.encode())


def new_passphrase_key(passphrase: str, *, n: int = SCRYPT_N) -> tuple[bytes, KeyInfo]:
    if len(passphrase) < 8:
        raise SyncCryptoError("the passphrase is too short: use at least 8 characters (a sentence is best)")
    salt = os.urandom(16)
    unchecked = KeyInfo("scrypt", salt, n, SCRYPT_R, SCRYPT_P, b"")
    key = derive_key(passphrase, unchecked)
    return key, KeyInfo("scrypt", salt, n, SCRYPT_R, SCRYPT_P, seal(key, _CHECK_NAME, _CHECK_TEXT))


def new_random_key() -> tuple[bytes, KeyInfo]:
    key = os.urandom(KEY_BYTES)
    return key, KeyInfo("random", b"", 0, 0, 0, seal(key, _CHECK_NAME, _CHECK_TEXT))


def verify_key(key: bytes, info: KeyInfo) -> None:
    try:
        if open_sealed(key, _CHECK_NAME, info.check) != _CHECK_TEXT:
            raise WrongPassphrase("wrong passphrase or recovery code: it does not open this target's backups")
    except TamperedObject as exc:
        raise WrongPassphrase("wrong passphrase or recovery code: it does not open this target's backups") from exc


def key_from_secret(secret: str, info: KeyInfo) -> bytes:
    """The key for a passphrase or a recovery code the user typed; raises WrongPassphrase (nothing changes)."""
    code = parse_recovery_code(secret)
    if code is not None:
        verify_key(code, info)
        return code
    if info.kdf != "scrypt":
        raise WrongPassphrase("this target uses a random key: type its recovery code (HRC1-…), not a passphrase")
    key = derive_key(secret, info)
    verify_key(key, info)
    return key


def recovery_code(key: bytes) -> str:
    """The key as `HRC1-XXXXX-…`: base32 of the key and a 2-byte checksum, in groups of five."""
    body = base64.b32encode(key + hashlib.sha256(key).digest()[:2]).decode().rstrip("=")
    return "-".join([_RECOVERY_PREFIX] + [body[i:i + 5] for i in range(0, len(body), 5)])


def parse_recovery_code(text: str) -> bytes | None:
    """The key in a recovery code, or None when `text` is not one (then it is a passphrase)."""
    cleaned = re.sub(r"[\s-]", "", text.upper())
    if not cleaned.startswith(_RECOVERY_PREFIX):
        return None
    body = cleaned[len(_RECOVERY_PREFIX):]
    try:
        raw = base64.b32decode(body + "=" * (-len(body) % 8))
    except (ValueError, TypeError):
        raise WrongPassphrase("that recovery code has a mistyped letter (base32 uses A–Z and 2–7)") from None
    if len(raw) != KEY_BYTES + 2 or not hmac.compare_digest(hashlib.sha256(raw[:KEY_BYTES]).digest()[:2], raw[KEY_BYTES:]):
        raise WrongPassphrase("that recovery code is mistyped or incomplete (its checksum does not match)")
    return raw[:KEY_BYTES]


def seal(key: bytes, name: str, plaintext: bytes) -> bytes:
    """MAGIC | flag | nonce | AES-GCM(compressed or raw plaintext), with MAGIC, flag and `name` authenticated."""
    flag, body = _RAW, plaintext
    if _worth_compressing(plaintext):
        packed = zlib.compress(plaintext, 6)
        if len(packed) < len(plaintext):
            flag, body = _ZLIB, packed
    header = MAGIC + bytes([flag])
    nonce = os.urandom(NONCE_BYTES)
    return header + nonce + AESGCM(key).encrypt(nonce, body, header + name.encode())


def _worth_compressing(data: bytes) -> bool:
    """Photos, PDFs and archives are compressed already: deflating megabytes of them costs seconds for nothing.
    A large input is compressed only when a 64 KiB sample of it shrinks by a tenth."""
    if len(data) <= 256 * 1024:
        return True
    sample = data[:65536]
    return len(zlib.compress(sample, 1)) < len(sample) * 0.9


def open_sealed(key: bytes, name: str, data: bytes) -> bytes:
    """The plaintext of a sealed object; TamperedObject if it was changed, cut, renamed or sealed by another key."""
    if len(data) < len(MAGIC) + 1 + NONCE_BYTES + 16 or not data.startswith(MAGIC) or data[4] not in (_RAW, _ZLIB):
        raise TamperedObject(f"{name}: not a sealed Hermes object (damaged or cut short)")
    header, nonce, body = data[:5], data[5:5 + NONCE_BYTES], data[5 + NONCE_BYTES:]
    try:
        plain = AESGCM(key).decrypt(nonce, body, header + name.encode())
    except InvalidTag:
        raise TamperedObject(f"{name}: failed its authentication check (changed, cut short, moved, or sealed "
                             "with another key); skipped") from None
    if header[4] == _ZLIB:
        try:
            return zlib.decompress(plain)
        except zlib.error as exc:  # authenticated but not inflatable: not something this code wrote
            raise TamperedObject(f"{name}: does not decompress ({exc})") from None
    return plain


def blob_name(key: bytes, digest: str) -> str:
    """The remote name of content with SHA-256 `digest`: keyed (HMAC), so the storage owner cannot test whether
    the user holds a known file by looking for its plain hash."""
    return hmac.new(key, b"blob:" + digest.encode(), hashlib.sha256).hexdigest()

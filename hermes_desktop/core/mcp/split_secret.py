"""A keyring value too long for one entry, kept across several (an OAuth record on Windows).

Windows' Credential Manager holds at most 2,560 bytes a credential, and keyring stores the value as UTF-16: about
1,280 characters. An MCP server's sign-in record (access and refresh tokens, often JWTs of 1,000+ characters each,
the client registration, the wanted scope) passes that easily, and the sign-in then failed to save. So a value
longer than `PART_CHARS` is cut into parts:
- the entry under the record's own name (`mcp:<server>:oauth`, the contract's name) holds a header line
  `hermes-split:v1:<parts>:<sha256 of the whole, 16 hex>` and the first part;
- parts 2…n live under `<name>.2`, `<name>.3`, … (`mcp:<server>:oauth.2`).
A value that fits stays one plain entry, exactly as before, so records written by earlier versions read unchanged.
Writing puts the later parts first and the head last, so a reader never combines a new head with old parts
without the checksum saying so; a missing part or a wrong checksum reads as no value (the caller treats it like an
unreadable record: sign in again), and is logged. Deleting removes the head and every part it names, plus any
leftovers of a longer earlier value.
"""

from __future__ import annotations

import hashlib
import logging

from hermes_desktop.core.secrets import SecretStore

log = logging.getLogger(__name__)

PART_CHARS = 1_200  # below Windows' ~1,280 UTF-16 units a credential, with room for the header line
_HEADER = "hermes-split:v1:"
_MAX_PARTS = 64  # 76,800 characters: far above any sign-in record; a header naming more is not ours


def _part_name(username: str, number: int) -> str:
    return f"{username}.{number}"


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]


def write_split(store: SecretStore, username: str, value: str) -> None:
    """Store `value` under `username`, in parts when it is longer than one entry may be."""
    old_parts = _parts_named(store.get(username))
    if len(value) <= PART_CHARS and not value.startswith(_HEADER):
        store.set(username, value)
        _delete_parts(store, username, 2, old_parts)
        return
    size = PART_CHARS - 64  # the first entry carries the header line as well
    chunks = [value[:size]] + [value[i:i + PART_CHARS] for i in range(size, len(value), PART_CHARS)]
    if len(chunks) > _MAX_PARTS:
        raise ValueError(f"a secret of {len(value):,} characters is too long to keep in the keyring")
    for number, chunk in enumerate(chunks[1:], start=2):
        store.set(_part_name(username, number), chunk)
    store.set(username, f"{_HEADER}{len(chunks)}:{_digest(value)}\n{chunks[0]}")
    _delete_parts(store, username, len(chunks) + 1, old_parts)


def read_split(store: SecretStore, username: str) -> str | None:
    """The value stored by write_split (or a plain one), or None when there is none or its parts do not agree."""
    head = store.get(username)
    if head is None or not head.startswith(_HEADER):
        return head
    header, _, first = head.partition("\n")
    try:
        count_text, digest = header[len(_HEADER):].split(":", 1)
        count = int(count_text)
    except ValueError:
        log.warning("the keyring entry %s has a damaged header; it is ignored", username)
        return None
    parts = [first]
    for number in range(2, min(count, _MAX_PARTS) + 1):
        part = store.get(_part_name(username, number))
        if part is None:
            log.warning("part %d of the keyring entry %s is missing; the entry is ignored", number, username)
            return None
        parts.append(part)
    value = "".join(parts)
    if count > _MAX_PARTS or _digest(value) != digest:
        log.warning("the parts of the keyring entry %s do not agree; the entry is ignored", username)
        return None
    return value


def delete_split(store: SecretStore, username: str) -> None:
    """Remove the value and all its parts."""
    parts = _parts_named(store.get(username))
    store.delete(username)
    _delete_parts(store, username, 2, parts)


def _parts_named(head: str | None) -> int:
    if not head or not head.startswith(_HEADER):
        return 1
    try:
        return min(int(head[len(_HEADER):].split(":", 1)[0]), _MAX_PARTS)
    except ValueError:
        return 1


def _delete_parts(store: SecretStore, username: str, first: int, last: int) -> None:
    for number in range(first, last + 1):
        store.delete(_part_name(username, number))

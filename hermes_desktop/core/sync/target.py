"""Where sealed objects go, behind one small interface, and the local folder target (an external disk).

A target stores opaque objects under `/`-separated keys. `put` publishes an object whole or not at all: a reader
never sees half an upload (a folder writes a temporary file and renames it; WebDAV PUTs a temporary name and MOVEs
it; an S3 PUT is atomic by itself). Keys starting with `.tmp-` in their last part are never listed. Devices only
ever write keys of their own (their log, their backups, content-addressed blobs whose bytes are the same whoever
writes them), so no two devices overwrite each other's work.
"""

from __future__ import annotations

import contextlib
import errno
import re
from pathlib import Path
from typing import Protocol

from hermes_desktop.core.settings import replace_atomically

_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*")


class TargetError(Exception):
    """The storage could not be used; the sentence says why and what to do."""


class ObjectMissing(TargetError):
    """No object at that key."""


class InsufficientStorage(TargetError):
    """The storage is full (WebDAV 507, S3 quota, a full disk): nothing was published."""


class AuthFailed(TargetError):
    """The storage refused the credentials (401/403)."""


class Target(Protocol):
    kind: str
    """"folder", "webdav" or "s3": also the `<target>` of the keyring names."""

    def describe(self) -> str: ...

    def put(self, key: str, data: bytes) -> None: ...

    def get(self, key: str) -> bytes: ...

    def list(self, prefix: str) -> list[str]: ...

    def delete(self, key: str) -> None: ...

    def close(self) -> None: ...


def check_key(key: str) -> str:
    if not _KEY.fullmatch(key) or ".." in key:
        raise ValueError(f"not a valid object key: {key!r}")
    return key


def is_temporary(key: str) -> bool:
    return key.rsplit("/", 1)[-1].startswith(".tmp-")


class FolderTarget:
    """Objects as files under a folder (an external disk, a mounted share)."""

    kind = "folder"

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def describe(self) -> str:
        return f"folder {self.root}"

    def _path(self, key: str) -> Path:
        return self.root.joinpath(*check_key(key).split("/"))

    def put(self, key: str, data: bytes) -> None:
        target = self._path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            replace_atomically(target, lambda tmp: tmp.write_bytes(data), prefix=".tmp-")
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise InsufficientStorage(f"the disk holding {self.root} is full: {key} was not written") from exc
            raise TargetError(f"cannot write to {self.root}: {exc.strerror or exc}") from exc

    def get(self, key: str) -> bytes:
        path = self._path(key)
        try:
            if not path.is_file():  # a FIFO or folder planted at a key is not an object (and would block a read)
                raise ObjectMissing(f"no object {key} in {self.root}")
            return path.read_bytes()
        except OSError as exc:
            raise TargetError(f"cannot read {path}: {exc.strerror or exc}") from exc

    def list(self, prefix: str) -> list[str]:
        base = self.root.joinpath(*[p for p in prefix.strip("/").split("/") if p])
        if not base.is_dir():
            if not self.root.is_dir():
                raise TargetError(f"the folder {self.root} is not there (is the disk connected?)")
            return []
        found = []
        for path in base.rglob("*"):
            if path.is_file() and not path.name.startswith(".tmp-"):
                found.append(path.relative_to(self.root).as_posix())
        return sorted(found)

    def delete(self, key: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self._path(key).unlink()

    def close(self) -> None:
        pass

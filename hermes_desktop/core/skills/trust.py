"""Trust for skill code: a skill that is not bundled runs its `tools.py` or `scripts/` only after the
user trusts it, and trust is for one exact content (a hash of every file); any change asks again.
Trust records live in the config directory (`trusted_skills.json`)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

from hermes_desktop.core.settings import write_atomically
from hermes_desktop.core.skills.model import Origin, Skill


MAX_HASHED_FILES = 20_000
MAX_HASHED_BYTES = 500_000_000  # hashed on every reload of a trusted skill: a linked video library is not


def _files(folder: Path) -> list[Path]:
    """Every file of the skill, also through linked folders (pathlib's rglob does not enter them, yet a script can
    import from `scripts/pkg -> /elsewhere`), each real folder once (a link loop ends), caches left out."""
    found: list[Path] = []
    seen: set[tuple[int, int]] = set()
    size = 0
    for base, dirs, files in os.walk(folder, followlinks=True):
        info = os.stat(base)
        if (info.st_dev, info.st_ino) in seen:
            dirs[:] = []
            continue
        seen.add((info.st_dev, info.st_ino))
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in files:
            path = Path(base) / name
            if path.is_file():
                found.append(path)
                size += path.stat().st_size
        if len(found) > MAX_HASHED_FILES or size > MAX_HASHED_BYTES:
            raise OSError(errno.EFBIG, f"{folder} holds more than {MAX_HASHED_FILES:,} files or "
                                       f"{MAX_HASHED_BYTES // 1_000_000:,} MB (following its links); too much to check "
                                       "before its code runs")
    return sorted(found)


def content_hash(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in _files(folder):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(b"\0")
        try:
            with open(path, "rb") as handle:  # in blocks: a large asset is not held in memory
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
        except OSError as exc:  # named, so the user knows which file stops the skill from being trusted
            raise OSError(exc.errno, f"{path} cannot be read: {exc.strerror or exc}") from None
        digest.update(b"\0")
    return digest.hexdigest()


class TrustStore:
    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def trusted(self, skill: Skill) -> bool:
        if skill.origin is Origin.BUNDLED:
            return True  # shipped with the app, reviewed with it
        recorded = self._load().get(str(skill.folder))
        try:
            return recorded is not None and recorded == content_hash(skill.folder)
        except OSError:  # a file of it cannot be read (now): its content is unknown, so it is not trusted
            return False

    def needs_trust(self, skill: Skill) -> bool:
        return skill.has_code and not self.trusted(skill)

    def trust(self, skill: Skill, digest: str | None = None) -> None:
        """Trust the skill's content: `digest` when given (the content_hash the user was shown: a change made
        after that is not trusted), else the files as they are now."""
        records = self._load()
        records[str(skill.folder)] = digest or content_hash(skill.folder)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, json.dumps(records, indent=2))

    def revoke(self, skill: Skill) -> None:
        records = self._load()
        if records.pop(str(skill.folder), None) is not None:
            write_atomically(self.path, json.dumps(records, indent=2))

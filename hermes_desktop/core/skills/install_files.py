"""The file-level rules every skill install follows, whatever the source (a folder, a zip on disk or downloaded, a
git checkout): no symbolic links, no FIFOs or devices, no zip entry outside the target ("zip slip"), at most
MAX_FILES files and MAX_INSTALL_BYTES bytes (counted while copying, so a zip that lies about its sizes is still
stopped). Moved here from commands/skills.py so core/skills/remote.py (URL and git installs) applies the same rules.
"""

from __future__ import annotations

import os
import shutil
import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath

MAX_FILES = 2_000
MAX_INSTALL_BYTES = 50_000_000


class InstallRefused(Exception):
    """The source cannot be installed; the message says why. Nothing was written."""


def copy_folder(source: Path, target: Path) -> int:
    count, total, folders = 0, 0, 0

    def unreadable(exc: OSError) -> None:  # os.walk skips a folder it cannot list: the copy would be incomplete
        raise exc

    for base, dirs, files in os.walk(source, onerror=unreadable):
        dirs[:] = [d for d in dirs if d not in (".git", "__pycache__")]
        folders += len(dirs)
        if folders > MAX_FILES:  # empty folders cost nothing to make and much to copy and scan
            raise InstallRefused(f"more than {MAX_FILES:,} folders")
        for name in dirs + files:
            path = Path(base) / name
            if path.is_symlink():
                raise InstallRefused(f"{path.relative_to(source)} is a symbolic link; links are not installed")
        relative = Path(base).relative_to(source)
        (target / relative).mkdir(parents=True, exist_ok=True)
        for name in files:
            path = Path(base) / name
            info = path.lstat()
            if not stat.S_ISREG(info.st_mode):
                raise InstallRefused(f"{path.relative_to(source)} is not a regular file")
            count, total = count + 1, total + info.st_size
            if count > MAX_FILES or total > MAX_INSTALL_BYTES:
                raise InstallRefused(f"more than {MAX_FILES:,} files or {MAX_INSTALL_BYTES // 1_000_000} MB")
            shutil.copyfile(path, target / relative / name)
    return count


def safe_member(name: str) -> PurePosixPath:
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        raise InstallRefused(f"the zip entry {name!r} would be written outside the skill's folder")
    return path


def extract_zip(source: Path, target: Path) -> int:
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InstallRefused(f"{source.name} is not a readable zip file: {exc}") from None
    count, total = 0, 0
    with archive:
        members = archive.infolist()
        if len(members) > MAX_FILES:
            raise InstallRefused(f"the zip holds {len(members):,} entries; at most {MAX_FILES:,} are installed")
        for member in members:
            relative = safe_member(member.filename)
            if stat.S_ISLNK(member.external_attr >> 16):
                raise InstallRefused(f"the zip entry {member.filename!r} is a symbolic link; links are not installed")
            if member.is_dir() or not relative.parts or relative.parts[0] == "__MACOSX":
                continue
            destination = target.joinpath(*relative.parts)
            destination.parent.mkdir(parents=True, exist_ok=True)
            try:
                with archive.open(member) as reader, open(destination, "wb") as writer:
                    while block := reader.read(1 << 20):  # counted as written: a zip's declared sizes may lie
                        total += len(block)
                        if total > MAX_INSTALL_BYTES:
                            raise InstallRefused(f"the zip unpacks to more than {MAX_INSTALL_BYTES // 1_000_000} MB")
                        writer.write(block)
            except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError) as exc:
                # a damaged entry (bad CRC, corrupt or cut-off data), a password, or a compression method Python
                # cannot unpack: said in one line, not a traceback
                raise InstallRefused(f"the zip entry {member.filename!r} cannot be unpacked: {exc}") from None
            count += 1
    return count


def skill_root(unpacked: Path) -> Path:
    """The folder holding SKILL.md/skill.yaml: the unpacked folder itself or its single top-level folder."""
    from hermes_desktop.core.skills.loader import is_skill_folder, list_folder

    if is_skill_folder(list_folder(unpacked)):
        return unpacked
    children = [p for p in unpacked.iterdir() if p.is_dir() and not p.name.startswith((".", "__MACOSX"))]
    if len(children) == 1 and is_skill_folder(list_folder(children[0])):
        return children[0]
    raise InstallRefused("no SKILL.md or skill.yaml at its top (or in its single top-level folder)")

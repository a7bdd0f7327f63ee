"""Read one skill folder, leniently: a bad name or an over-long description is a warning; a missing
description or unreadable front matter skips the skill. Every problem names its file and reason.

Size limits: a skill's instructions are sent with every request while it is active, so SKILL.md,
skill.yaml and instructions.md may each be at most MAX_DEFINITION_BYTES. A larger file skips the skill with
the reason (shown in the Skills tab and by `doctor` like any other problem), and no more than the limit
plus one byte of it is ever read: the size is taken from the open file, and the read stops at the limit
even if the file grows meanwhile. Resources have their own limit (`read_limited`, used by
`read_skill_resource`).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

from hermes_desktop.core.skills.model import Origin, Skill, SkillFormat, SkillProblem

NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_NAME = 64
MAX_DESCRIPTION = 1024
RESOURCE_FOLDERS = ("references", "assets")
DEFINITION_FILES = ("SKILL.md", "skill.yaml", "instructions.md", "tools.py")
MAX_RESOURCES_LISTED = 200
MAX_DEFINITION_BYTES = 256_000  # about 64,000 tokens of instructions at most, on every request
# libyaml's C parser is about 10x faster than the pure-Python one; discovery of 1,000 skills depends on it.
_SAFE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)(.*)\Z", re.S)


class TooLarge(ValueError):
    """A file over its size limit; the message says how large it is and what the limit is."""


def human_bytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB" if size >= 1_000_000 else f"{size / 1e3:,.0f} KB" if size >= 1000 else f"{size} bytes"


def read_limited(path: Path, limit: int, why: str) -> bytes:
    """The bytes of the regular file `path`, reading at most `limit` + 1 of them. Raises TooLarge (with `why`,
    the reason for the limit), or OSError (also for a FIFO, socket or device: opened without blocking, refused)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path.name} is not a regular file")
        if info.st_size > limit:
            raise TooLarge(f"is {human_bytes(info.st_size)}; the limit is {human_bytes(limit)} ({why})")
        data = handle.read(limit + 1)
    if len(data) > limit:  # it grew after the size was taken
        raise TooLarge(f"is larger than {human_bytes(limit)} ({why})")
    return data


def _read_definition(folder: Path, name: str) -> str:
    """A definition file's text within MAX_DEFINITION_BYTES (TooLarge, OSError or UnicodeDecodeError otherwise)."""
    data = read_limited(folder / name, MAX_DEFINITION_BYTES, "a skill's instructions are sent with every request "
                                                              "while it is active")
    return data.decode("utf-8-sig")


def _parse_yaml(text: str) -> Any:
    return yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader, C or Python


def load_skill(folder: Path, origin: Origin) -> tuple[Skill | None, list[SkillProblem]]:
    # One directory listing answers every "is there a …" question below (stat calls dominate at 1,000 skills).
    try:
        with os.scandir(folder) as listing:
            entries = {entry.name: entry for entry in listing}
    except OSError as exc:
        return None, [SkillProblem(folder.name, f"cannot be listed: {exc}", "error")]
    if "SKILL.md" in entries and entries["SKILL.md"].is_file():
        return _load_skill_md(folder, origin, entries)
    if "skill.yaml" in entries and entries["skill.yaml"].is_file():
        return _load_yaml(folder, origin, entries)
    return None, []  # not a skill folder: nothing to say


def _check_name(name: Any, folder: Path, file: str, problems: list[SkillProblem], *, must_match_folder: bool) -> str:
    text = str(name or "").strip()
    if not text:
        problems.append(SkillProblem(file, f"no name; using the folder name {folder.name!r}"))
        return folder.name
    if len(text) > MAX_NAME or not NAME.match(text):
        problems.append(SkillProblem(file, f"name {text!r} should be 1-{MAX_NAME} lowercase letters, digits and "
                                           "single hyphens"))
    if must_match_folder and text != folder.name:
        problems.append(SkillProblem(file, f"name {text!r} does not match its folder {folder.name!r}"))
    return text


def _check_description(value: Any, file: str, problems: list[SkillProblem]) -> str | None:
    text = " ".join(str(value or "").split())
    if not text:
        problems.append(SkillProblem(file, "no description: the model could not know when to use it", "error"))
        return None
    if len(text) > MAX_DESCRIPTION:
        problems.append(SkillProblem(file, f"description is {len(text)} characters; the standard allows "
                                           f"{MAX_DESCRIPTION}"))
    return text


def _tool_list(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(t for t in re.split(r"[\s,]+", value) if t)
    if isinstance(value, (list, tuple)):
        return tuple(str(t).strip() for t in value if str(t).strip())
    return ()


def is_resource(relative: Path) -> bool:
    """Whether a path inside a skill folder is a resource the model may read: any file except the skill's
    definition (already in its instructions), its code (tools.py, scripts/), and hidden or cache files.

    The standard names references/ and assets/, but public skills also point at files elsewhere in their folder
    (examples/…, a top-level reference.md), so those are readable too; they are listed after the two folders."""
    parts = relative.parts
    if not parts or any(p.startswith(".") or p == "__pycache__" for p in parts) or parts[0] == "scripts":
        return False
    return not (len(parts) == 1 and parts[0] in DEFINITION_FILES)


def _resources(folder: Path) -> tuple[str, ...]:
    found: list[str] = []
    for base, dirs, files in os.walk(folder):  # os.walk does not follow symlinked folders
        relative_base = Path(base).relative_to(folder)
        dirs[:] = sorted(d for d in dirs if is_resource(relative_base / d))
        for name in files:
            relative = relative_base / name
            if is_resource(relative) and not os.path.islink(os.path.join(base, name)):
                found.append(relative.as_posix())
        if len(found) > 4 * MAX_RESOURCES_LISTED:
            break  # a huge folder: enough to choose from
    found.sort(key=lambda p: (p.split("/", 1)[0] not in RESOURCE_FOLDERS, p))
    return tuple(found[:MAX_RESOURCES_LISTED])


def _common(folder: Path, entries: dict[str, os.DirEntry[str]]) -> dict[str, Any]:
    return {"has_tools_py": "tools.py" in entries and entries["tools.py"].is_file(),
            "has_scripts": "scripts" in entries and entries["scripts"].is_dir(), "resources": _resources(folder)}


def _load_skill_md(folder: Path, origin: Origin, entries: dict[str, os.DirEntry[str]]) -> tuple[Skill | None, list[SkillProblem]]:
    problems: list[SkillProblem] = []
    try:
        text = _read_definition(folder, "SKILL.md")
    except TooLarge as exc:
        return None, [SkillProblem("SKILL.md", str(exc), "error")]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [SkillProblem("SKILL.md", f"cannot be read: {exc}", "error")]
    match = _FRONT_MATTER.match(text)
    if not match:
        return None, [SkillProblem("SKILL.md", "no YAML front matter (--- … ---) at the top", "error")]
    try:
        meta = _parse_yaml(match.group(1)) or {}
    except yaml.YAMLError as exc:
        return None, [SkillProblem("SKILL.md", f"front matter is not valid YAML: {exc}", "error")]
    if not isinstance(meta, dict):
        return None, [SkillProblem("SKILL.md", "front matter is not a mapping of fields", "error")]
    name = _check_name(meta.get("name"), folder, "SKILL.md", problems, must_match_folder=True)
    description = _check_description(meta.get("description"), "SKILL.md", problems)
    if description is None:
        return None, problems
    body = match.group(2).strip()
    if not body:
        problems.append(SkillProblem("SKILL.md", "no instructions after the front matter"))
    return Skill(name, description, body, folder, SkillFormat.SKILL_MD, origin,
                 tools=_tool_list(meta.get("allowed-tools")), license=str(meta.get("license") or ""),
                 compatibility=str(meta.get("compatibility") or ""), problems=tuple(problems),
                 **_common(folder, entries)), problems


def _load_yaml(folder: Path, origin: Origin, entries: dict[str, os.DirEntry[str]]) -> tuple[Skill | None, list[SkillProblem]]:
    problems: list[SkillProblem] = []
    try:
        meta = _parse_yaml(_read_definition(folder, "skill.yaml")) or {}
    except TooLarge as exc:
        return None, [SkillProblem("skill.yaml", str(exc), "error")]
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        return None, [SkillProblem("skill.yaml", f"cannot be read as YAML: {exc}", "error")]
    if not isinstance(meta, dict):
        return None, [SkillProblem("skill.yaml", "is not a mapping of fields", "error")]
    name = _check_name(meta.get("name"), folder, "skill.yaml", problems, must_match_folder=False)
    description = _check_description(meta.get("description"), "skill.yaml", problems)
    if description is None:
        return None, problems
    instructions = str(meta.get("prompt") or "").strip()
    if not instructions and "instructions.md" in entries:
        try:
            instructions = _read_definition(folder, "instructions.md").strip()
        except TooLarge as exc:
            return None, problems + [SkillProblem("instructions.md", str(exc), "error")]
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(SkillProblem("instructions.md", f"cannot be read: {exc}"))
    if not instructions:
        problems.append(SkillProblem("skill.yaml", "no `prompt` and no instructions.md: the skill has no instructions"))
    return Skill(name, description, instructions, folder, SkillFormat.YAML, origin, tools=_tool_list(meta.get("tools")),
                 license=str(meta.get("license") or ""), problems=tuple(problems), **_common(folder, entries)), problems

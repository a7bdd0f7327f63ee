"""Read one skill folder, leniently: a bad name or an over-long description is a warning; a missing
description or unreadable front matter skips the skill. Every problem names its file and reason.

Size limits: a skill's instructions are sent with every request while it is active, so SKILL.md,
skill.yaml and instructions.md may each be at most MAX_DEFINITION_BYTES. A larger file skips the skill with
the reason (shown in the Skills tab and by `doctor` like any other problem), and no more than the limit
plus one byte of it is ever read: the size is taken from the open file, and the read stops at the limit
even if the file grows meanwhile. Resources have their own limit (`read_limited`, used by
`read_skill_resource`).

Layouts found in the wild (issue 15): `SKILL.md` is accepted in any letter case (`skill.md`); a description with an
unquoted `: ` in it (invalid YAML, but common) is read leniently as the Agent Skills client guide asks, with a
warning; a name outside the standard's `a-z0-9-` (e.g. Chinese) is a warning that says the skill still works.
`requires` (`{mcp: [...], commands: [...]}`, or a list of `mcp:NAME` / `command:NAME`) and `compatibility`
(`mcp:NAME`, "the NAME MCP server", backticked `command`s) become `Requirement`s, shown with whether each is present.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any, Iterable

from hermes_desktop.core.coded import coded
from hermes_desktop.core.skills import yaml_cache
from hermes_desktop.core.skills.model import Origin, Requirement, Skill, SkillFormat, SkillProblem

NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_NAME = 64
MAX_DESCRIPTION = 1024
RESOURCE_FOLDERS = ("references", "assets")
DEFINITION_FILES = ("SKILL.md", "skill.yaml", "instructions.md", "tools.py")
MAX_RESOURCES_LISTED = 1000  # activate_skill lists them all; a long list pages like any long result
MAX_DEFINITION_BYTES = 256_000  # about 64,000 tokens of instructions at most, on every request
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


MAX_YAML_VALUES = 20_000  # values in a definition once aliases are followed (a real one has a few dozen)


class YamlError(ValueError):
    """Text that is not valid YAML; the message is PyYAML's own. (PyYAML is imported only to parse a text that
    core/skills/yaml_cache.py does not know; its errors become this one.)"""


class YamlTooLarge(YamlError):
    """Front matter whose aliases expand to more values than MAX_YAML_VALUES ("billion laughs")."""


def _check_expansion(value: Any) -> None:
    """Raise YamlTooLarge when `value`, with shared (aliased) parts counted each time they are used, holds more
    than MAX_YAML_VALUES values: reading such a field (str(), a list of tools) would build gigabytes."""
    stack, seen = [value], 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > MAX_YAML_VALUES:
            raise YamlTooLarge(f"it expands to more than {MAX_YAML_VALUES:,} values through YAML aliases "
                               "(an alias bomb); not read")
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set)):
            stack.extend(item)


def _parse_yaml(text: str) -> Any:
    """`text` parsed with PyYAML's safe loader, or what it gave for this exact text before (core/skills/
    yaml_cache.py: a start with unchanged skills never imports PyYAML). Raises YamlError / YamlTooLarge."""
    kept = yaml_cache.lookup(text)
    if kept is not None:
        if "value" in kept:
            return kept["value"]
        raise (YamlTooLarge if kept["error"] == "too large" else YamlError)(kept["message"])
    import yaml

    # libyaml's C parser is about 10x faster than the pure-Python one; discovery of 1,000 skills depends on it.
    loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        value = yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader, C or Python
    except yaml.YAMLError as exc:
        yaml_cache.keep_error(text, "invalid", str(exc))
        raise YamlError(str(exc)) from exc
    try:
        _check_expansion(value)
    except YamlTooLarge as exc:
        yaml_cache.keep_error(text, "too large", str(exc))
        raise
    yaml_cache.keep_value(text, value)
    return value


def skill_md_name(entries: Iterable[str]) -> str | None:
    """The folder's SKILL.md as it is spelled there (any letter case; the exact spelling wins)."""
    names = [n for n in entries if n.lower() == "skill.md"]
    return "SKILL.md" if "SKILL.md" in names else (sorted(names)[0] if names else None)


def is_skill_folder(entries: dict[str, os.DirEntry[str]]) -> bool:
    md = skill_md_name(entries)
    return (md is not None and entries[md].is_file()) or ("skill.yaml" in entries and entries["skill.yaml"].is_file())


def list_folder(folder: Path) -> dict[str, os.DirEntry[str]]:
    with os.scandir(folder) as listing:
        return {entry.name: entry for entry in listing}


def load_skill(folder: Path, origin: Origin,
               entries: dict[str, os.DirEntry[str]] | None = None) -> tuple[Skill | None, list[SkillProblem]]:
    # One directory listing answers every "is there a …" question below (stat calls dominate at 1,000 skills).
    if entries is None:
        try:
            entries = list_folder(folder)
        except OSError as exc:
            return None, [SkillProblem(folder.name, coded(f"cannot be listed: {exc}", "skill_folder_unlisted",
                                                          error=str(exc.strerror or exc)), "error")]
    md = skill_md_name(entries)
    if md is not None and entries[md].is_file():
        return _load_skill_md(folder, origin, entries, md)
    if "skill.yaml" in entries and entries["skill.yaml"].is_file():
        return _load_yaml(folder, origin, entries)
    return None, []  # not a skill folder: nothing to say


_FIELD_LINE = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(.*\S)[ \t]*$")


def lenient_front_matter(text: str) -> tuple[str, list[str]]:
    """Quote top-level `key: value` lines whose plain value holds `: ` (invalid YAML that authors write often,
    e.g. `description: Use when: the user asks`). Returns the mended text and the keys that were quoted."""
    mended: list[str] = []
    keys: list[str] = []
    for line in text.splitlines():
        match = _FIELD_LINE.match(line)
        value = match.group(2) if match else ""
        if match and ": " in value and value[0] not in "'\"[{|>&*!%@`#":
            keys.append(match.group(1))
            line = f"{match.group(1)}: " + json.dumps(value, ensure_ascii=False)  # a JSON string is a YAML string
        mended.append(line)
    return "\n".join(mended), keys


def _check_name(name: Any, folder: Path, file: str, problems: list[SkillProblem], *, must_match_folder: bool) -> str:
    text = str(name or "").strip()
    if not text:
        problems.append(SkillProblem(file, coded(f"no name; using the folder name {folder.name!r}", "skill_no_name",
                                                 folder=folder.name)))
        return folder.name
    if len(text) > MAX_NAME or not NAME.match(text):
        if any(ch.isspace() or ch == "/" for ch in text):
            problems.append(SkillProblem(file, coded(f"name {text!r} has spaces or slashes; using the folder name "
                                                     f"{folder.name!r}", "skill_name_spaces", name=text,
                                                     folder=folder.name)))
            text = folder.name
        else:
            problems.append(SkillProblem(file, coded(f"name {text!r} is non-standard (the standard allows "
                                                     f"1-{MAX_NAME} lowercase letters, digits and single hyphens), "
                                                     f"but the skill works, also as /{text}",
                                                     "skill_name_non_standard", name=text, most=MAX_NAME)))
    if must_match_folder and text != folder.name:
        problems.append(SkillProblem(file, coded(f"name {text!r} does not match its folder {folder.name!r}",
                                                 "skill_name_not_folder", name=text, folder=folder.name)))
    return text


def _check_description(value: Any, file: str, problems: list[SkillProblem]) -> str | None:
    text = " ".join(str(value or "").split())
    if not text:
        problems.append(SkillProblem(file, coded("no description: the model could not know when to use it",
                                                 "skill_no_description"), "error"))
        return None
    if len(text) > MAX_DESCRIPTION:
        problems.append(SkillProblem(file, coded(f"description is {len(text)} characters; the standard allows "
                                                 f"{MAX_DESCRIPTION}", "skill_description_long", length=len(text),
                                                 most=MAX_DESCRIPTION)))
    return text


def _tool_list(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(t for t in re.split(r"[\s,]+", value) if t)
    if isinstance(value, (list, tuple)):
        return tuple(str(t).strip() for t in value if str(t).strip())
    return ()


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [t for t in re.split(r"[\s,]+", value) if t]
    if isinstance(value, (list, tuple)):
        return [str(t).strip() for t in value if str(t).strip()]
    return []


_KIND_WORDS = {"mcp": "mcp", "mcp_servers": "mcp", "mcp-servers": "mcp", "mcpservers": "mcp", "servers": "mcp",
               "commands": "command", "command": "command", "bins": "command", "bin": "command",
               "binaries": "command", "tools": "command", "executables": "command"}
_COMPAT_MCP = re.compile(r"\bmcp:([A-Za-z0-9_.-]+)|\b(?:the\s+)?([A-Za-z0-9_.-]+)\s+MCP\s+server", re.I)
_NOT_NAMES = {"mcp", "server", "a", "an", "the", "any", "one", "your", "an", "remote", "local", "this", "some"}
_COMPAT_COMMAND = re.compile(r"`([A-Za-z0-9_.+-]+)`")


def requirements(meta: dict[str, Any]) -> tuple[Requirement, ...]:
    """What `requires` and `compatibility` name: MCP servers and commands (see the module docstring)."""
    found: list[Requirement] = []

    def add(kind: str, name: str, source: str) -> None:
        item = Requirement(kind, name.strip(), source)
        if item.name and item.name.lower() not in _NOT_NAMES and item not in found:
            found.append(item)

    for source in ("requires", "compatibility"):
        value = meta.get(source)
        if isinstance(value, dict):
            for key, names in value.items():
                kind = _KIND_WORDS.get(str(key).lower())
                for name in _names(names) if kind else ():
                    add(kind, name, source)
        elif isinstance(value, (list, tuple)) or (source == "requires" and isinstance(value, str)):
            for entry in _names(value):
                kind, _, name = entry.partition(":")
                if name and _KIND_WORDS.get(kind.lower()):
                    add(_KIND_WORDS[kind.lower()], name, source)
                elif not name:
                    add("command", entry, source)
        elif isinstance(value, str):
            for match in _COMPAT_MCP.finditer(value):
                add("mcp", match.group(1) or match.group(2), source)
            for match in _COMPAT_COMMAND.finditer(value):
                add("command", match.group(1), source)
    return tuple(found)


def is_resource(relative: Path) -> bool:
    """Whether a path inside a skill folder is a resource the model may read: any file except the skill's
    definition (already in its instructions), its code (tools.py, scripts/), and hidden or cache files.

    The standard names references/ and assets/, but public skills also point at files elsewhere in their folder
    (examples/…, a top-level reference.md), so those are readable too; they are listed after the two folders."""
    parts = relative.parts
    if not parts or any(p.startswith(".") or p == "__pycache__" for p in parts) or parts[0] == "scripts":
        return False
    return not (len(parts) == 1 and (parts[0] in DEFINITION_FILES or parts[0].lower() == "skill.md"))


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
    # scripts/ counts only as a folder of the skill's own: trust hashes the skill's files, and a linked folder's
    # files are not among them (they could change after trust and still run)
    return {"has_tools_py": "tools.py" in entries and entries["tools.py"].is_file(),
            "has_scripts": "scripts" in entries and entries["scripts"].is_dir(follow_symlinks=False),
            "resources": _resources(folder)}


def _linked_code(entries: dict[str, os.DirEntry[str]]) -> list[SkillProblem]:
    if "scripts" in entries and entries["scripts"].is_symlink():
        return [SkillProblem("scripts", coded("is a link to another folder; its scripts do not run (trust covers "
                                              "only the skill's own files; copy the scripts into the skill's folder)",
                                              "skill_scripts_linked"))]
    return []


def _load_skill_md(folder: Path, origin: Origin, entries: dict[str, os.DirEntry[str]],
                   md: str = "SKILL.md") -> tuple[Skill | None, list[SkillProblem]]:
    problems: list[SkillProblem] = []
    if md != "SKILL.md":
        problems.append(SkillProblem(md, coded(f"is spelled {md!r}; the standard spells it 'SKILL.md' (read anyway)",
                                               "skill_md_spelling", spelled=md)))
    try:
        text = _read_definition(folder, md)
    except TooLarge as exc:
        return None, [SkillProblem(md, str(exc), "error")]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [SkillProblem(md, coded(f"cannot be read: {exc}", "skill_file_unreadable", error=str(exc)),
                                   "error")]
    match = _FRONT_MATTER.match(text)
    if not match:
        return None, [SkillProblem(md, coded("no YAML front matter (--- … ---) at the top", "skill_no_front_matter"),
                                   "error")]
    try:
        meta = _parse_yaml(match.group(1)) or {}
    except YamlError as exc:
        mended, keys = lenient_front_matter(match.group(1))
        try:
            meta = _parse_yaml(mended) if keys else None
        except YamlError:
            meta = None
        if meta is None:
            return None, [SkillProblem(md, coded(f"front matter is not valid YAML: {exc}", "skill_front_matter_yaml",
                                                 error=str(exc)), "error")]
        problems.append(SkillProblem(md, coded(f"{', '.join(keys)} has an unquoted ': ' (not valid YAML); read "
                                               "leniently as text. Put the value in quotes to silence this.",
                                               "skill_unquoted_colon", keys=", ".join(keys))))
    if not isinstance(meta, dict):
        return None, [SkillProblem(md, coded("front matter is not a mapping of fields", "skill_not_mapping"),
                                   "error")]
    name = _check_name(meta.get("name"), folder, md, problems, must_match_folder=True)
    description = _check_description(meta.get("description"), md, problems)
    if description is None:
        return None, problems
    body = match.group(2).strip()
    if not body:
        problems.append(SkillProblem(md, coded("no instructions after the front matter", "skill_no_instructions")))
    compatibility = meta.get("compatibility")
    problems += _linked_code(entries)
    return Skill(name, description, body, folder, SkillFormat.SKILL_MD, origin,
                 tools=_tool_list(meta.get("allowed-tools")), license=str(meta.get("license") or ""),
                 compatibility=compatibility if isinstance(compatibility, str) else
                 (json.dumps(compatibility, ensure_ascii=False) if compatibility else ""),
                 problems=tuple(problems), requires=requirements(meta), definition=md,
                 **_common(folder, entries)), problems


def _load_yaml(folder: Path, origin: Origin, entries: dict[str, os.DirEntry[str]]) -> tuple[Skill | None, list[SkillProblem]]:
    problems: list[SkillProblem] = []
    try:
        meta = _parse_yaml(_read_definition(folder, "skill.yaml")) or {}
    except TooLarge as exc:
        return None, [SkillProblem("skill.yaml", str(exc), "error")]
    except (OSError, UnicodeDecodeError, YamlError) as exc:
        return None, [SkillProblem("skill.yaml", coded(f"cannot be read as YAML: {exc}", "skill_yaml_unreadable",
                                                       error=str(exc)), "error")]
    if not isinstance(meta, dict):
        return None, [SkillProblem("skill.yaml", coded("is not a mapping of fields", "skill_not_mapping"), "error")]
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
            problems.append(SkillProblem("instructions.md", coded(f"cannot be read: {exc}", "skill_file_unreadable",
                                                                  error=str(exc))))
    if not instructions:
        problems.append(SkillProblem("skill.yaml", coded("no `prompt` and no instructions.md: the skill has no "
                                                         "instructions", "skill_yaml_no_instructions")))
    problems += _linked_code(entries)
    return Skill(name, description, instructions, folder, SkillFormat.YAML, origin, tools=_tool_list(meta.get("tools")),
                 license=str(meta.get("license") or ""), problems=tuple(problems), requires=requirements(meta),
                 definition="skill.yaml", **_common(folder, entries)), problems

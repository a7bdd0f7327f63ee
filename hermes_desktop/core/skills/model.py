"""What a skill is, whichever of the two formats it was written in."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path


class SkillFormat(StrEnum):
    YAML = "skill.yaml"  # this project's original format
    SKILL_MD = "SKILL.md"  # the Agent Skills standard


class Origin(StrEnum):
    BUNDLED = "bundled"
    AGENTS = "agents"  # ~/.agents/skills, the standard's cross-client folder
    CLAUDE = "claude"  # ~/.claude/skills, Claude Code's folder (optional, off by default)
    USER = "user"  # the data directory's skills/


@dataclass(frozen=True, slots=True)
class SkillProblem:
    file: str
    reason: str
    level: str = "warning"  # warning: loaded anyway | error: skipped


@dataclass(frozen=True, slots=True)
class Requirement:
    """Something a skill says it needs: an MCP server (`mcp`) or a command on PATH (`command`)."""

    kind: str  # "mcp" | "command"
    name: str
    source: str = "requires"  # the front-matter field it came from: requires | compatibility


@dataclass(frozen=True, slots=True)
class Skill:
    name: str
    description: str
    instructions: str
    folder: Path
    format: SkillFormat
    origin: Origin
    tools: tuple[str, ...] = ()  # tool names it needs (skill.yaml `tools`, SKILL.md `allowed-tools`)
    license: str = ""
    compatibility: str = ""
    has_tools_py: bool = False
    has_scripts: bool = False
    resources: tuple[str, ...] = ()  # files under references/ and assets/, relative to the folder
    problems: tuple[SkillProblem, ...] = ()
    overrides: Origin | None = None  # the origin of a skill with the same name that this one replaces
    overrides_folder: Path | None = None  # the folder of the skill this one replaces (hidden by it)
    requires: tuple[Requirement, ...] = ()
    definition: str = ""  # the definition file's name as found (SKILL.md, skill.md, skill.yaml)

    @property
    def has_code(self) -> bool:
        return self.has_tools_py or self.has_scripts

    @property
    def code_files(self) -> str:
        """What code the skill carries, for messages: "tools.py", "scripts/" or both."""
        return " and ".join(part for part, present in (("tools.py", self.has_tools_py), ("scripts/", self.has_scripts))
                            if present)

    @property
    def source(self) -> str:
        return f"skill:{self.name}"


@dataclass(frozen=True, slots=True)
class Discovery:
    skills: tuple[Skill, ...] = ()
    rejected: tuple[tuple[str, tuple[SkillProblem, ...]], ...] = ()  # (folder, problems) of skipped folders
    overridden: tuple[Skill, ...] = field(default=())

    def get(self, name: str) -> Skill | None:
        return _index(self).get(name)


_LAST_INDEX: "tuple[Discovery | None, dict[str, Skill]]" = (None, {})


def _index(discovery: Discovery) -> dict[str, Skill]:
    """Name -> skill for the latest Discovery asked about (a frozen value): `get` is called per tool call and per
    row. Only one is kept, so an old discovery's skills (and their instructions) are not held in memory."""
    global _LAST_INDEX
    cached = _LAST_INDEX
    if cached[0] is not discovery:
        cached = (discovery, {s.name: s for s in discovery.skills})
        _LAST_INDEX = cached  # one tuple assignment: a reader in another thread sees the old or the new pair
    return cached[1]

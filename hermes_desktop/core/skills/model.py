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
    USER = "user"  # the data directory's skills/


@dataclass(frozen=True, slots=True)
class SkillProblem:
    file: str
    reason: str
    level: str = "warning"  # warning: loaded anyway | error: skipped


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
        return next((s for s in self.skills if s.name == name), None)

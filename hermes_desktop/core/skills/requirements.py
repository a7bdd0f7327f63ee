"""Whether what a skill says it needs is here: each MCP server it names is configured in mcp.json, each command it
names is on PATH. Shown in the Skills tab, `doctor` and `skills show`; a missing one never stops the skill loading."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from hermes_desktop.core.skills.model import Requirement, Skill


@dataclass(frozen=True, slots=True)
class RequirementState:
    requirement: Requirement
    present: bool

    def words(self) -> str:
        what = "MCP server" if self.requirement.kind == "mcp" else "command"
        where = "configured in mcp.json" if self.requirement.kind == "mcp" else "on PATH"
        return f"{what} {self.requirement.name}: " + (f"{where}" if self.present else f"NOT {where}")


def configured_mcp_servers(mcp_config_file: Path) -> set[str]:
    from hermes_desktop.core.mcp.config import load_config

    return {server.name for server in load_config(mcp_config_file).servers}


def check(skill: Skill, mcp_servers: Iterable[str]) -> list[RequirementState]:
    servers = {name.lower() for name in mcp_servers}
    return [RequirementState(r, r.name.lower() in servers if r.kind == "mcp" else shutil.which(r.name) is not None)
            for r in skill.requires]

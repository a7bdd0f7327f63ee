"""Find skills in their folders. A later root overrides an earlier one with the same skill name:
bundled < ~/.agents/skills < the user's skills folder. Blocking (file I/O): run in a worker thread."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from hermes_desktop.core.skills.loader import load_skill
from hermes_desktop.core.skills.model import Discovery, Origin, Skill, SkillProblem


def discover(roots: Iterable[tuple[Path, Origin]]) -> Discovery:
    chosen: dict[str, Skill] = {}
    overridden: list[Skill] = []
    rejected: list[tuple[str, tuple[SkillProblem, ...]]] = []
    for root, origin in roots:
        try:
            with os.scandir(root) as listing:
                folders = sorted(Path(e.path) for e in listing if e.is_dir() and not e.name.startswith("."))
        except OSError:
            continue  # a missing root is normal (no user skills yet, ~/.agents/skills absent)
        for folder in folders:
            skill, problems = load_skill(folder, origin)
            if skill is None:
                if problems:
                    rejected.append((str(folder), tuple(problems)))
                continue
            previous = chosen.get(skill.name)
            if previous is not None:
                overridden.append(previous)
                skill = replace(skill, overrides=previous.origin)
            chosen[skill.name] = skill
    return Discovery(tuple(sorted(chosen.values(), key=lambda s: s.name)), tuple(rejected), tuple(overridden))

"""Find skills in their folders. A later root overrides an earlier one with the same skill name:
bundled < ~/.claude/skills < ~/.agents/skills < the user's skills folder. Blocking (file I/O): run in a worker thread.

Layouts (issue 15): a skill folder directly in a root; a collection one level down (`root/my-skills/pdf/SKILL.md`);
and a cloned repository of skills, whose skills sit in its `skills/` folder (`root/anthropics-skills/skills/pdf`)
or one more level below, in a group folder (openai/skills: `root/openai-skills/skills/.curated/gh-fix-ci`). So a
folder that is not a skill is searched up to MAX_DEPTH levels below the root. Hidden folders are entered only below
the top level and never the ones that hold no skills (.git, .github, editor and tool caches); `node_modules`, virtual
environments and build output never (such a folder is still loaded when it is itself a skill: a skill may be
called `build` or `dist`). Every top-level folder that yields no skill is reported with its reason, as
is every folder with a definition file that failed to load. When two skills share a name, the one that wins names
the folder it hides (`overrides_folder`).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from hermes_desktop.core.coded import coded
from hermes_desktop.core.skills.loader import is_skill_folder, list_folder, load_skill
from hermes_desktop.core.skills.model import Discovery, Origin, Skill, SkillProblem

MAX_DEPTH = 4  # root/repository/skills/<group>/<skill>: openai/skills keeps its skills in skills/.curated/
MAX_EMPTY_REPORTED = 200  # folders without a skill reported one by one per root; the rest are counted in one line
MAX_FOLDERS_PER_ROOT = 20_000  # stops a root pointed at a huge tree (e.g. the home folder) from scanning for ever
_NEVER_SCANNED = {"node_modules", "__pycache__", "venv", ".venv", "site-packages", "dist", "build", "target",
                  ".git", ".github", ".gitlab", ".vscode", ".idea", ".cache", ".tox", ".mypy_cache", ".pytest_cache"}


def _subfolders(entries: dict[str, os.DirEntry[str]], *, hidden: bool = False) -> list[Path]:
    folders = []
    for name, entry in entries.items():
        if (name.startswith(".") and not hidden) or name.startswith(".installing-"):
            continue  # a folder in _NEVER_SCANNED is still a candidate (a skill may be called `build`): not entered
        try:
            if entry.is_dir():  # follows a symlinked folder, as users link skills in
                folders.append(Path(entry.path))
        except OSError:
            continue
    return sorted(folders)


def _find(folder: Path, depth: int, budget: list[int], out: list[tuple[Path, dict[str, os.DirEntry[str]]]],
          errors: list[tuple[str, tuple[SkillProblem, ...]]]) -> int:
    """Append the skill folders at or below `folder` (at most MAX_DEPTH levels below the root). Returns how many."""
    if budget[0] <= 0:
        return 0
    budget[0] -= 1
    try:
        entries = list_folder(folder)
    except OSError as exc:
        errors.append((str(folder), (SkillProblem(folder.name, coded(
            f"cannot be listed: {exc.strerror or exc}", "skill_folder_unlisted", error=str(exc.strerror or exc)),
            "error"),)))
        return 0
    if is_skill_folder(entries):
        out.append((folder, entries))
        return 1
    if depth >= MAX_DEPTH or folder.name in _NEVER_SCANNED:
        return 0
    return sum(_find(child, depth + 1, budget, out, errors) for child in _subfolders(entries, hidden=True))


def discover(roots: Iterable[tuple[Path, Origin]]) -> Discovery:
    chosen: dict[str, Skill] = {}
    overridden: list[Skill] = []
    rejected: list[tuple[str, tuple[SkillProblem, ...]]] = []
    listed = list(roots)
    real = [os.path.realpath(root) for root, _ in listed]
    for number, (root, origin) in enumerate(listed):
        if real[number] in real[number + 1:]:
            continue  # the same folder again under another name (~/.claude/skills linked to the skills folder): the
            # later root wins, else each skill would "hide the skill of the same name" in its own folder
        try:
            top = _subfolders(list_folder(root))
        except FileNotFoundError:
            continue  # a missing root is normal (no user skills yet, ~/.agents/skills absent)
        except OSError as exc:  # a file where the folder should be, no permission, a link loop: said, not silent
            reason = ("is a file, not a folder" if isinstance(exc, NotADirectoryError)
                      else f"cannot be listed: {exc.strerror or exc}")
            said = coded(f"the skills folder {reason}; no skill in it is loaded", "skills_root_a_file") \
                if isinstance(exc, NotADirectoryError) else coded(f"the skills folder {reason}; no skill in it is "
                                                                  "loaded", "skills_root_unlisted",
                                                                  error=str(exc.strerror or exc))
            rejected.append((str(root), (SkillProblem(root.name, said, "error"),)))
            continue
        budget = [MAX_FOLDERS_PER_ROOT]
        empty = 0
        for first in top:
            found: list[tuple[Path, dict[str, os.DirEntry[str]]]] = []
            errors: list[tuple[str, tuple[SkillProblem, ...]]] = []
            if _find(first, 1, budget, found, errors) == 0 and not errors:
                empty += 1
                if empty > MAX_EMPTY_REPORTED:
                    continue  # counted, and said once below: 100,000 lines would freeze the Skills tab
                rejected.append((str(first), (SkillProblem(first.name, (
                    coded(f"no SKILL.md or skill.yaml in it; a folder named {first.name!r} is not searched further",
                          "skill_folder_not_searched", name=first.name)
                    if first.name in _NEVER_SCANNED else
                    coded(f"no SKILL.md or skill.yaml in it, nor in its folders {MAX_DEPTH - 1} levels down"
                          " (the scan stopped: too many folders in this root)", "skill_folder_empty_scan_stopped",
                          levels=MAX_DEPTH - 1) if budget[0] <= 0 else
                    coded(f"no SKILL.md or skill.yaml in it, nor in its folders {MAX_DEPTH - 1} levels down",
                          "skill_folder_empty", levels=MAX_DEPTH - 1)), "info"),)))
            rejected.extend(errors)
            for folder, entries in found:
                skill, problems = load_skill(folder, origin, entries)
                if skill is None:
                    rejected.append((str(folder), tuple(problems) or (
                        SkillProblem(folder.name, coded("could not be loaded", "skill_not_loaded"), "error"),)))
                    continue
                previous = chosen.get(skill.name)
                if previous is not None and os.path.realpath(previous.folder) == os.path.realpath(folder):
                    # one folder reached through two roots (~/.claude/skills linked to a folder holding this one):
                    # not a second skill. Bundled and the user's own folder keep their origin (and with it their
                    # trust, which is recorded per folder path); an optional root never takes them over.
                    if previous.origin in (Origin.BUNDLED, Origin.USER) or origin not in (Origin.BUNDLED, Origin.USER):
                        continue
                    chosen[skill.name] = skill
                    continue
                if previous is not None:
                    overridden.append(previous)
                    skill = replace(skill, overrides=previous.origin, overrides_folder=previous.folder)
                chosen[skill.name] = skill
        if empty > MAX_EMPTY_REPORTED:
            rejected.append((str(root), (SkillProblem(root.name, coded(
                f"{empty - MAX_EMPTY_REPORTED:,} more folders in it hold no skill (not listed one by one)",
                "skill_folders_more_empty", count=empty - MAX_EMPTY_REPORTED), "info"),)))
    return Discovery(tuple(sorted(chosen.values(), key=lambda s: s.name)), tuple(rejected), tuple(overridden))

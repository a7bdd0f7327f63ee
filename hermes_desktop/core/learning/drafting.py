"""Save as skill (issue 27): draft a SKILL.md from a turn that ended well, by a side request to the session's model.

The turn is one whose path workflow memory recorded as good (core/learning/trajectories.py): the user's request and
the tools in order with their arguments and outcomes. The model is asked for an Agent Skills SKILL.md: a name, a
description of when to use it, the steps, the tools in order with the parameters generalised (the concrete file
names become inputs), and the pitfalls the turn met. The draft is checked with the app's own loader (the same rules
as discovery: a draft that would be skipped or warned about says so) before it is saved into the user's skills
folder. A drafted skill has no scripts, so there is nothing to trust: it is the user's own and is active at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hermes_desktop.core.learning.trajectories import Trajectory, WorkflowMemory
from hermes_desktop.core.llm import ChatRequest, ModelClient, ModelError, StreamDone
from hermes_desktop.core.skills.loader import MAX_DEFINITION_BYTES, NAME, load_skill
from hermes_desktop.core.skills.model import Origin, SkillProblem

DRAFT_TIMEOUT_S = 120.0
_FENCE = re.compile(r"\A\s*```(?:markdown|md)?\s*\n(.*?)\n```\s*\Z", re.S)
_NAME_LINE = re.compile(r"^name:\s*['\"]?([^'\"\n]+?)['\"]?\s*$", re.M)
PROMPT = """You turn a task the user completed with an assistant into a reusable skill in the Agent Skills format.
Answer with the SKILL.md file only: front matter between --- lines with `name` (lowercase letters, digits and
hyphens) and `description` (one or two sentences saying WHEN to use the skill), then Markdown with:
## Inputs (the concrete file and folder names of the task become named inputs),
## Steps (numbered; each names the tool to call and its parameters, using the inputs, never the concrete names),
## Pitfalls (what went wrong in the task and how it was recovered from; "None seen" when nothing did).
Do not add scripts."""


class DraftError(Exception):
    """No draft can be made; the message says why."""


@dataclass(frozen=True, slots=True)
class Draft:
    text: str
    name: str
    problems: tuple[SkillProblem, ...]  # the loader's findings; an "error" means it would not load
    trajectory: Trajectory

    @property
    def loads(self) -> bool:
        return not any(p.level == "error" for p in self.problems)


def choose_turn(memory: WorkflowMemory, store: Any, session_id: str, turn: int | None) -> Trajectory:
    """The session's last turn that ended well, or its `turn`-th user message's (1-based) when that one did."""
    kept = [t for t in memory.all() if t.session_id == session_id]
    if turn is not None:
        users = [m.id for m in store.messages(session_id) if m.role == "user"]
        if not 1 <= turn <= len(users):
            raise DraftError(f"the session has {len(users)} turns; --turn must be between 1 and {len(users)}")
        match = [t for t in kept if t.message_id == users[turn - 1]]
        if not match:
            raise DraftError(f"turn {turn} used no tools (or was not recorded): there is no path to save")
        if not match[-1].good:
            raise DraftError(f"turn {turn} did not end well ({match[-1].why}); only a turn that ended well is saved")
        return match[-1]
    good = [t for t in kept if t.good]
    if not good:
        raise DraftError("no turn of this session that used tools ended well (or workflow memory was off)")
    return good[-1]


def request_for(trajectory: Trajectory) -> ChatRequest:
    steps = "\n".join(f"{n}. {s['tool']}({json.dumps(s['arguments'], ensure_ascii=False)[:400]}) -> {s['outcome']}"
                      for n, s in enumerate(trajectory.path, 1))
    task = f"The user asked:\n{trajectory.request[:2000]}\n\nThe tools called, in order:\n{steps}"
    if trajectory.skills:
        task += f"\n\nSkills used: {', '.join(trajectory.skills)}"
    return ChatRequest([{"role": "system", "content": PROMPT}, {"role": "user", "content": task}],
                       purpose="skill_draft", session_id=trajectory.session_id)


def clean(text: str) -> str:
    match = _FENCE.match(text)
    return (match.group(1) if match else text).strip() + "\n"


def check(text: str) -> tuple[str, tuple[SkillProblem, ...]]:
    """The draft's name and the loader's findings for it, as if it were installed."""
    found = _NAME_LINE.search(text)
    name = found.group(1).strip() if found else ""
    folder_name = name if name and NAME.match(name) else "drafted-skill"
    if len(text.encode("utf-8")) > MAX_DEFINITION_BYTES:
        return name, (SkillProblem("SKILL.md", f"larger than {MAX_DEFINITION_BYTES:,} bytes", "error"),)
    with tempfile.TemporaryDirectory(prefix="hermes-draft-") as temp:
        folder = Path(temp) / folder_name
        folder.mkdir()
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
        skill, problems = load_skill(folder, Origin.USER)
    if skill is None and not problems:
        problems = [SkillProblem("SKILL.md", "not a skill: no front matter", "error")]
    if skill is not None and not NAME.match(name):  # the loader would fall back to the folder's name: ours, not theirs
        problems = list(problems) + [SkillProblem("SKILL.md", f"name {name!r} is not a folder name this app writes "
                                                  "(a-z, 0-9 and single hyphens); give it one", "error")]
    return (skill.name if skill else name), tuple(problems)


async def draft(model: ModelClient, trajectory: Trajectory) -> Draft:
    try:
        async with asyncio.timeout(DRAFT_TIMEOUT_S):
            async with contextlib.aclosing(model.stream(request_for(trajectory))) as stream:
                async for item in stream:
                    if isinstance(item, StreamDone):
                        text = clean(item.text or "")
                        name, problems = check(text)
                        return Draft(text, name, problems, trajectory)
    except TimeoutError:
        raise DraftError(f"the model did not answer within {DRAFT_TIMEOUT_S:.0f} s") from None
    except ModelError as exc:
        raise DraftError(f"the model failed: {exc.message}") from None
    raise DraftError("the model's reply ended without text")


def revise(result: Draft, text: str) -> Draft:
    """The draft as the user edited it, checked again by the same rules."""
    name, problems = check(text if text.endswith("\n") else text + "\n")
    return Draft(text if text.endswith("\n") else text + "\n", name, problems, result.trajectory)


def save(result: Draft, skills_dir: Path) -> Path:
    """Write the draft as skills_dir/<name>/SKILL.md (never over an existing folder). Returns the folder."""
    if not result.loads:
        raise DraftError("the draft does not load as a skill: " +
                         "; ".join(p.reason for p in result.problems if p.level == "error"))
    if not NAME.match(result.name or ""):
        raise DraftError(f"the name {result.name!r} is not a folder name this app writes (a-z, 0-9 and hyphens)")
    folder = skills_dir / result.name
    if folder.exists() or folder.is_symlink():
        raise DraftError(f"{folder} already exists; choose another name")
    skills_dir.mkdir(parents=True, exist_ok=True)
    folder.mkdir()
    (folder / "SKILL.md").write_text(result.text, encoding="utf-8")
    return folder

"""The drafting side of "Save as skill" with hostile or broken drafts: the loader's findings decide, a draft that
would not load is never saved, an existing skill is never overwritten (issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_desktop.core.learning.drafting import Draft, DraftError, check, clean, save
from hermes_desktop.core.learning.trajectories import Trajectory

GOOD = "---\nname: tidy-downloads\ndescription: Use when the Downloads folder needs tidying.\n---\n## Steps\n1. x\n"
TRAJECTORY = Trajectory(1, "s", 1, "tidy", [], "", True, "", [])


def draft_of(text: str) -> Draft:
    name, problems = check(clean(text))
    return Draft(clean(text), name, problems, TRAJECTORY)


def test_a_fenced_good_draft_loads_and_is_saved_once(tmp_path: Path) -> None:
    made = draft_of("```markdown\n" + GOOD + "```")
    assert made.name == "tidy-downloads" and made.problems == () and made.loads
    folder = save(made, tmp_path / "skills")
    assert (folder / "SKILL.md").read_text(encoding="utf-8") == GOOD
    with pytest.raises(DraftError, match="already exists"):
        save(made, tmp_path / "skills")


@pytest.mark.parametrize("text, reason", [
    ("Here is your skill: do things", "front matter"),
    ("---\nname: [broken\ndescription: x\n---\nbody\n", "YAML|front matter"),
    ("---\nname: no-description\n---\nbody\n", "no description"),
    ("---\nname: ../../etc\ndescription: d\n---\nbody\n", "not a folder name this app writes"),
])
def test_a_bad_draft_is_never_saved(tmp_path: Path, text: str, reason: str) -> None:
    made = draft_of(text)
    assert not made.loads
    with pytest.raises(DraftError, match=reason):
        save(made, tmp_path / "skills")
    assert not (tmp_path / "skills").exists()

"""A real public skill collection installed and updated through the git-URL path (issue 27's "Done when": install
a public collection from a git URL, read what it holds before saying yes, and update it later).

The collection is a local snapshot (tests/support/public_skills.py: the `fetch` mirror under /work/.mirror or
HERMES_SKILL_MIRRORS), cloned into a temporary folder so the test can add a commit, and installed from its
`file://` URL: the same git fetch, ls-tree checks, inventory, pin and update code as an https URL, with no network.
Skipped, with the reason, when no snapshot is present; nothing of the collection is committed here."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hermes_desktop.commands import skill_sources
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.skills.loader import load_skill
from hermes_desktop.core.skills.model import Origin
from hermes_desktop.core.skills.trust import TrustStore
from tests.support.public_skills import snapshots

PREFERRED = ("anthropics-skills", "superpowers")  # both keep their skills in skills/<name>/SKILL.md
FOUND = {name: path for name, path in snapshots().items() if name in PREFERRED}

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.skipif(not FOUND, reason="no snapshot of anthropics/skills or obra/superpowers on this machine "
                                         "(/work/.mirror or HERMES_SKILL_MIRRORS): see tests/support/public_skills.py"),
]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "GIT_CONFIG_GLOBAL": os.devnull}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True,
                          timeout=120).stdout.strip()


@pytest.fixture
def collection(tmp_path: Path) -> tuple[str, Path]:
    name, bare = next((n, FOUND[n]) for n in PREFERRED if n in FOUND)
    clone = tmp_path / name
    git(tmp_path, "clone", "-q", "--no-hardlinks", str(bare), str(clone))
    return name, clone


def test_a_public_collection_is_shown_installed_pinned_and_updated(collection: tuple[str, Path]) -> None:
    name, clone = collection
    head = git(clone, "rev-parse", "HEAD")
    skill_dirs = sorted(p.parent for p in (clone / "skills").glob("*/SKILL.md"))
    assert len(skill_dirs) >= 5, "a real collection"
    url = clone.as_uri()

    out = io.StringIO()
    assert skill_sources.install(url, yes=False, subdir="skills", stdin=Terminal("y\n"), out=out) == 0, out.getvalue()
    shown = out.getvalue()
    assert f"pinned to commit {head}" in shown and shown.index("pinned to") < shown.index("Install it?")
    for folder in skill_dirs:  # every skill is listed with its description before the question
        skill, _ = load_skill(folder, Origin.USER)
        assert skill is not None and f"{skill.name}: " in shown[: shown.index("Install it?")]
    scripts = sorted(p for p in (clone / "skills").rglob("*.py"))
    if scripts:  # the code a user would trust later, each with its SHA-256
        assert "sha256 " in shown and str(scripts[0].relative_to(clone / "skills").as_posix()) in shown

    installed = app_paths().user_skills_dir / "skills"
    assert sorted(p.name for p in installed.iterdir() if (p / "SKILL.md").exists()) == [p.name for p in skill_dirs]
    show = io.StringIO()
    first = skill_dirs[0].name
    skill, _ = load_skill(installed / first, Origin.USER)
    assert skill is not None
    lines = skill_sources.source_lines(skill)
    assert any(url in line for line in lines) and any(f"pinned to commit {head}" in line for line in lines)
    assert skill_sources.update(first, yes=True, out=show) == 0 and "is up to date" in show.getvalue()

    # upstream moves on: one skill's instructions change and one script changes (when the collection has scripts)
    changed_md = skill_dirs[0] / "SKILL.md"
    changed_md.write_text(changed_md.read_text(encoding="utf-8") + "\nA line added upstream.\n", encoding="utf-8")
    trust = TrustStore(app_paths().trusted_skills_file)
    script_skill = next((s.relative_to(clone / "skills").parts[0] for s in scripts), None)
    if script_skill:
        trust.trust(load_skill(installed / script_skill, Origin.USER)[0])
        scripts[0].write_text(scripts[0].read_text(encoding="utf-8") + "\n# changed upstream\n", encoding="utf-8")
    git(clone, "commit", "-q", "-am", "upstream change")
    new_head = git(clone, "rev-parse", "HEAD")

    out = io.StringIO()
    assert skill_sources.update(first, yes=False, stdin=Terminal("y\n"), out=out) == 0, out.getvalue()
    diff = out.getvalue()
    assert "+A line added upstream." in diff and new_head in diff
    assert "A line added upstream." in (installed / first / "SKILL.md").read_text(encoding="utf-8")
    if script_skill:
        assert f"code changed {scripts[0].relative_to(clone / 'skills').as_posix()}" in diff
        assert not trust.trusted(load_skill(installed / script_skill, Origin.USER)[0]), "changed code loses trust"
    assert skill_sources.update(first, yes=True, out=(again := io.StringIO())) == 0
    assert "is up to date" in again.getvalue()

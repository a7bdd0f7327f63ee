"""Real public skill collections (anthropics/skills, obra/superpowers, openai/skills, vercel-labs/agent-skills) as a new
user would have them: each repository's tree copied into a skills folder
as if `git clone`d there (skills two or three levels down, in the repository's skills/ folder).

The repositories are not part of this project: they come from local snapshots (the `fetch` mirror under
/work/.mirror, or HERMES_SKILL_MIRRORS=dir1:dir2 of bare git directories); nothing is committed. When no snapshot is
present, `copy_collections` returns [] and the tests that need it skip with that reason.

Run directly for the numbers: `python -m tests.support.public_skills` prints found / skipped (with reasons) and the
fixed part of a real request's tokens.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from pathlib import Path

MIRRORS = {"anthropics-skills": "anthropics+skills", "superpowers": "obra+superpowers", "openai-skills": "openai+skills",
           "vercel-agent-skills": "vercel-labs+agent-skills"}
MIRROR_ROOT = Path("/work/.mirror")


def snapshots() -> dict[str, Path]:
    """Clone name -> bare git directory, for the snapshots present on this machine."""
    found: dict[str, Path] = {}
    extra = [Path(p) for p in os.environ.get("HERMES_SKILL_MIRRORS", "").split(os.pathsep) if p]
    for path in extra:
        if (path / "HEAD").exists():
            found[path.parent.name if path.name == "repo" else path.name] = path
    for name, folder in MIRRORS.items():
        repo = MIRROR_ROOT / folder / "repo"
        if (repo / "HEAD").exists():
            found[name] = repo
    return found


def copy_collections(dest: Path) -> list[str]:
    """Copy each snapshot's tree to dest/<name>/ (symlinks are left out, as a skills folder should have none).
    Returns the names copied."""
    copied = []
    for name, repo in snapshots().items():
        data = subprocess.run(["git", f"--git-dir={repo}", "archive", "--format=tar", "HEAD"], capture_output=True,
                              check=True, timeout=120).stdout
        target = dest / name
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            members = [m for m in archive.getmembers() if m.isfile() or m.isdir()]
            archive.extractall(target, members=members, filter="data")
        copied.append(name)
    return copied


def main() -> None:
    import tempfile

    from hermes_desktop.core.prompts import system_prompt, tool_rules
    from hermes_desktop.core.runtime import open_runtime
    from hermes_desktop.core.secrets import MemorySecretStore
    from hermes_desktop.core.tokens import estimate_text_tokens, estimate_tools_tokens

    with tempfile.TemporaryDirectory() as home:
        for variable in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
            os.environ[variable] = str(Path(home) / variable.lower())
        runtime = open_runtime({"HERMES_WORKSPACE": str(Path(home) / "workspace")}, secrets=MemorySecretStore())
        root = runtime.paths.user_skills_dir
        names = copy_collections(root)
        found = runtime.skills.reload()
        specs = [s for s in runtime.skills.offered("s", runtime.registry.specs()) if s.name != "read_more"]
        tools = [s.to_openai() for s in specs]
        others = estimate_text_tokens(system_prompt()) + estimate_text_tokens(tool_rules(Path(home))) + \
            estimate_tools_tokens(tools)
        catalog = runtime.skills.catalog_for("s", "fill in a PDF form", others)
        print(f"fixed part: {others + estimate_text_tokens(catalog.text):,} tokens (system + rules + tool schemas "
              f"{others:,}, catalog {estimate_text_tokens(catalog.text):,}); {catalog.listed} listed, "
              f"{catalog.searchable} searchable; find_skills offered: {any(s.name == 'find_skills' for s in specs)}")
        runtime.store.close()
        print(f"collections: {', '.join(names) or 'none (no snapshots)'}")
        print(f"found {len(found.skills)} skills; skipped {len(found.rejected)} folders")
        for folder, problems in found.rejected:
            print(f"  SKIPPED {Path(folder).relative_to(root)}: " + "; ".join(f"{p.file}: {p.reason}" for p in problems))
        for skill in found.skills:
            for problem in skill.problems:
                print(f"  {skill.name}: {problem.level}: {problem.file}: {problem.reason}")


if __name__ == "__main__":
    main()

"""Skills: discovery time at 1,000 folders, and how much a reload stalls the event loop.

Measured in one run on this machine, in a temporary folder of 1,000 generated SKILL.md skills:
- baseline: reading the same 1,000 SKILL.md files with no parsing (the floor set by the filesystem);
- `discover()` over them (front matter parsed, validated) and the ratio to the baseline;
- discovery plus building the catalog for a request (BM25 index over names and descriptions, a search for the
  message, the budgeted catalog text), as a ratio to the baseline (issue 15), and the catalog's tokens;
- a full `SkillManager.reload()` run the way the app runs it (`asyncio.to_thread`), while a ticker on the
  event loop records its largest gap; the same ticker's largest gap with the loop idle is the baseline.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.skills.catalog import SkillIndex, build_catalog, catalog_budget
from hermes_desktop.core.skills.discovery import discover
from hermes_desktop.core.skills.model import Origin
from hermes_desktop.core.tokens import estimate_text_tokens
from tests.benchmarks.timing import median, ok, table, temporary_home, timed

FOLDERS = 1000
TICK_S = 0.002


def _write_skills(root: Path) -> None:
    for n in range(FOLDERS):
        folder = root / f"skill-{n:04d}"
        (folder / "references").mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{n:04d}\ndescription: Skill number {n}, generated to measure discovery at scale.\n"
            f"license: MIT\nmetadata:\n  author: bench\n---\n\n# Skill {n}\n\n" + "Step by step.\n" * 40,
            encoding="utf-8")
        (folder / "references" / "notes.md").write_text("reference\n", encoding="utf-8")


def _read_only(root: Path) -> None:
    for folder in sorted(root.iterdir()):
        (folder / "SKILL.md").read_text(encoding="utf-8")


async def _largest_gap_ms(work: "asyncio.Future[object] | None", idle_s: float = 0.0) -> float:
    """The event loop's largest gap between 2 ms ticks while `work` runs (or for `idle_s` seconds)."""
    largest = 0.0
    last = time.perf_counter()
    deadline = last + idle_s
    while (work is not None and not work.done()) or (work is None and time.perf_counter() < deadline):
        await asyncio.sleep(TICK_S)
        now = time.perf_counter()
        largest = max(largest, now - last - TICK_S)
        last = now
    if work is not None:
        await work
    return largest * 1000


async def _reload_stall(runtime) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    idle = await _largest_gap_ms(None, idle_s=1.0)
    started = time.perf_counter()
    reload = asyncio.ensure_future(asyncio.to_thread(runtime.skills.reload))
    during = await _largest_gap_ms(reload)
    return idle, during, (time.perf_counter() - started) * 1000


def run() -> None:
    with temporary_home() as home:
        runtime = open_runtime({"HERMES_WORKSPACE": str(Path(home) / "workspace")}, secrets=MemorySecretStore())
        root = runtime.paths.user_skills_dir
        _write_skills(root)
        _read_only(root)  # warm the page cache so both sides read from memory
        baseline = timed(lambda: _read_only(root), 5)
        found = discover([(root, Origin.USER)])
        assert len(found.skills) == FOLDERS and not found.rejected
        parsing = timed(lambda: discover([(root, Origin.USER)]), 5)

        def discover_and_catalog() -> str:
            skills = discover([(root, Origin.USER)]).skills
            return build_catalog(skills, catalog_budget(1900), index=SkillIndex.build(skills),
                                 message="summarise skill number 512 for the report").text

        with_catalog = timed(discover_and_catalog, 5)
        request_catalog = estimate_text_tokens(discover_and_catalog())
        skills = found.skills
        index = SkillIndex.build(skills)
        catalog_only = timed(lambda: build_catalog(skills, catalog_budget(1900), index=index,
                                                   message="summarise skill number 512 for the report"), 20)
        idle, during, reload_ms = asyncio.run(_reload_stall(runtime))
        from hermes_desktop.core.skills.catalog import full_catalog

        catalog_tokens = estimate_text_tokens(full_catalog(runtime.skills.skills).text)
        runtime.store.close()

    print(f"\n{FOLDERS:,} skill folders; times in milliseconds\n")
    table([
        ("read 1,000 SKILL.md (baseline)", f"{median(baseline):.1f}", "", ""),
        ("discover 1,000 skills", f"{median(parsing):.1f}", "< 1000", ok(median(parsing) < 1000)),
        ("discover / read", f"{median(parsing) / median(baseline):.1f}x", "", ""),
        ("discover + index + catalog", f"{median(with_catalog):.1f}", "< 1000", ok(median(with_catalog) < 1000)),
        ("(discover + catalog) / read", f"{median(with_catalog) / median(baseline):.1f}x", "", ""),
        ("catalog for one request (index built)", f"{median(catalog_only):.2f}", "< 50", ok(median(catalog_only) < 50)),
        ("catalog tokens in a request, 1,000 skills", f"{request_catalog:,}", "<= 1,100", ok(request_catalog <= 1100)),
        ("reload in a worker, wall time", f"{reload_ms:.0f}", "", ""),
        ("event-loop largest gap, idle", f"{idle:.1f}", "", ""),
        ("event-loop largest gap, reloading", f"{during:.1f}", "< 50", ok(during < 50)),
        ("catalog tokens, 1,004 skills, no budget (before)", f"{catalog_tokens:,}", "", ""),
    ])



if __name__ == "__main__":
    run()

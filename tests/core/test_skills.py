"""Skills: both formats, overrides, problems, trust for code, reload, progressive disclosure, budgets."""

from __future__ import annotations

import asyncio
import json
import os
import textwrap
from pathlib import Path

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.context import ContextLayers, build_context
from hermes_desktop.core.llm import ModelClient
from hermes_desktop.core.prompts import system_prompt, tool_rules
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.skills.discovery import discover
from hermes_desktop.core.skills.model import Origin
from hermes_desktop.core.tokens import estimate_text_tokens, estimate_tools_tokens
from hermes_desktop.core.tools.approval import Decision
from tests.support.engine import FAST_RETRIES, ScriptedApprover, of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply

BUNDLED = {"file-organizer", "meeting-notes", "project-doctor", "web-research"}


def skill_md(folder: Path, name: str, description: str = "Does a thing when asked.", body: str = "Do it well.",
             extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n{body}\n",
                                     encoding="utf-8")
    return folder


@pytest.fixture
def runtime(workspace_dir: Path):
    made = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=MemorySecretStore())
    yield made
    made.store.close()


def user_dir(runtime) -> Path:
    return runtime.paths.user_skills_dir


# ------------------------------------------------------------------ formats, overrides, problems

def test_bundled_skills_in_both_formats_are_found(runtime) -> None:
    names = {s.name for s in runtime.skills.skills}
    assert names == BUNDLED
    formats = {s.name: s.format.value for s in runtime.skills.skills}
    assert formats["meeting-notes"] == "skill.yaml" and formats["web-research"] == "SKILL.md"
    doctor = runtime.skills.get("project-doctor")
    assert doctor.has_tools_py and runtime.registry.get("inspect_project").source == "skill:project-doctor"
    assert runtime.skills.get("web-research").resources == ("references/source-checklist.md",)
    assert all(not runtime.skills.problems(s) for s in runtime.skills.skills), "bundled skills are clean"


def test_a_user_skill_overrides_a_bundled_one_and_says_so(runtime) -> None:
    skill_md(user_dir(runtime) / "web-research", "web-research", "My own research rules.", "Use only my sources.")
    runtime.skills.reload()
    mine = runtime.skills.get("web-research")
    assert mine.origin is Origin.USER and mine.overrides is Origin.BUNDLED and mine.instructions == "Use only my sources."


def test_problems_are_reported_leniently(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    skill_md(root / "good-one", "good-one")
    skill_md(root / "Bad_Name", "Bad_Name")
    skill_md(root / "long-text", "long-text", "x" * 1100)
    skill_md(root / "elsewhere", "other-name")
    skill_md(root / "no-description", "no-description", "")
    (root / "broken").mkdir()
    (root / "broken" / "SKILL.md").write_text("---\nname: [unclosed\n---\nbody")
    (root / "no-front-matter").mkdir()
    (root / "no-front-matter" / "SKILL.md").write_text("# just markdown")
    (root / "yaml-style").mkdir()
    (root / "yaml-style" / "skill.yaml").write_text("name: yaml-style\ndescription: From YAML\nprompt: Be brief.\n")
    (root / "not-a-skill").mkdir()
    found = discover([(root, Origin.USER)])
    names = {s.name for s in found.skills}
    assert names == {"good-one", "Bad_Name", "long-text", "other-name", "yaml-style"}
    reasons = {s.name: [p.reason for p in s.problems] for s in found.skills}
    assert any("lowercase letters" in r for r in reasons["Bad_Name"])
    assert any("1100 characters" in r for r in reasons["long-text"])
    assert any("does not match its folder" in r for r in reasons["other-name"])
    assert reasons["good-one"] == [] and found.get("yaml-style").instructions == "Be brief."
    rejected = {Path(folder).name: [p.reason for p in problems] for folder, problems in found.rejected}
    assert set(rejected) == {"no-description", "broken", "no-front-matter", "not-a-skill"}
    assert "no SKILL.md or skill.yaml" in rejected["not-a-skill"][0], "every skipped folder has its reason"
    assert "no description" in rejected["no-description"][0]
    assert "not valid YAML" in rejected["broken"][0] and "no YAML front matter" in rejected["no-front-matter"][0]


# ------------------------------------------------------------------ trust and reload

def code_skill(root: Path, marker: Path) -> Path:
    folder = skill_md(root / "word-counter", "word-counter", "Counts words in a file.", "Call count_words.")
    (folder / "tools.py").write_text(textwrap.dedent(f"""
        from pathlib import Path
        from hermes_desktop.skill_api import tool
        Path({str(marker)!r}).write_text("imported")

        @tool(risk="read")
        def count_words(path: str, ctx) -> dict:
            '''Count the words of a text file in the workspace.'''
            return {{"words": len(ctx.workspace.resolve(path).read_text().split())}}
        """))
    return folder


def test_untrusted_code_is_not_imported_trust_imports_it_and_an_edit_revokes_it(runtime, tmp_path: Path) -> None:
    marker = tmp_path / "imported.txt"
    folder = code_skill(user_dir(runtime), marker)
    runtime.skills.reload()
    skill = runtime.skills.get("word-counter")
    assert skill is not None and not marker.exists() and runtime.registry.get("count_words") is None
    assert any(p.level == "trust" for p in runtime.skills.problems(skill))
    runtime.skills.trust_skill("word-counter")
    assert marker.read_text() == "imported"
    spec = runtime.registry.get("count_words")
    assert spec.source == "skill:word-counter" and spec.parameters["required"] == ["path"]
    marker.unlink()
    (folder / "tools.py").write_text((folder / "tools.py").read_text() + "\n# changed\n")
    runtime.skills.reload()
    assert runtime.registry.get("count_words") is None and not marker.exists()
    assert runtime.skills.trust.needs_trust(runtime.skills.get("word-counter"))


def test_reload_picks_up_added_and_removed_skills(runtime) -> None:
    folder = skill_md(user_dir(runtime) / "new-skill", "new-skill")
    runtime.skills.reload()
    assert runtime.skills.get("new-skill") is not None
    assert "- new-skill: " in runtime.skills.catalog()
    assert "enum" not in json.dumps(runtime.registry.get("activate_skill").parameters), "no names in tool schemas"
    (folder / "SKILL.md").unlink()
    folder.rmdir()
    runtime.skills.reload()
    assert runtime.skills.get("new-skill") is None


def test_a_thousand_skill_folders_are_discovered(tmp_path: Path) -> None:
    root = tmp_path / "many"
    for n in range(1000):
        skill_md(root / f"skill-{n:04d}", f"skill-{n:04d}", f"Skill number {n} for testing discovery at scale.")
    found = discover([(root, Origin.USER)])
    assert len(found.skills) == 1000 and not found.rejected


# ------------------------------------------------------------------ progressive disclosure, end to end

def agent_for(runtime, profile, approver=None):
    return runtime.make_agent(approver or ScriptedApprover(), model=ModelClient(profile, "k", retry=FAST_RETRIES))


async def run_turn(runtime, profile, session_id: str, text: str, approver=None) -> list:
    agent = agent_for(runtime, profile, approver)
    events = await agent.start_turn(session_id, text).wait()
    await agent.model.aclose()
    return events


async def test_the_catalog_first_then_instructions_and_tools_after_activate_skill(runtime, profile, model_server) -> None:
    agent = agent_for(runtime, profile)
    model_server.enqueue(tool_call_reply(CallScript("activate_skill", {"name": "project-doctor"})),
                         tool_call_reply(CallScript("inspect_project", {"path": "."})),
                         text_reply("It is an empty folder."))
    events = await agent.start_turn("proj", "what is this project?").wait()
    await agent.model.aclose()
    first, second, third = model_server.chat_requests
    assert "- project-doctor: Inspect a project folder" in first.system_prompt
    assert "## Skill: project-doctor" not in first.system_prompt
    assert "inspect_project" not in first.tool_names and "activate_skill" in first.tool_names
    assert "## Skill: project-doctor (active)" in second.system_prompt and "inspect_project" in second.tool_names
    activated = json.loads(of_type(events, ev.ToolCallFinished)[0].result)
    assert activated["skill"] == "project-doctor" and "inspect_project" in activated["tools"]
    survey = json.loads(of_type(events, ev.ToolCallFinished)[1].result)
    assert "no README at the top level" in survey["warnings"]
    assert runtime.store.get_session("proj").active_skills == ("project-doctor",)
    breakdown = of_type(events, ev.ContextPrepared)[1].breakdown
    assert breakdown["skill_catalog"] > 0 and breakdown["active_skills"] > 0


async def test_a_slash_command_activates_a_skill_and_it_is_restored_with_the_session(
        runtime, profile, model_server, workspace_dir) -> None:
    agent = agent_for(runtime, profile)
    model_server.enqueue(text_reply("Paste the transcript."))
    await agent.start_turn("notes", "/meeting-notes here is our standup").wait()
    await agent.model.aclose()
    assert "## Skill: meeting-notes (active)" in model_server.chat_requests[0].system_prompt
    runtime.store.close()
    again = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=MemorySecretStore())
    assert again.skills.active("notes") == ["meeting-notes"]
    agent = agent_for(again, profile)
    model_server.enqueue(text_reply("ok"))
    await agent.start_turn("notes", "and the decisions?").wait()
    await agent.model.aclose()
    assert "## Skill: meeting-notes (active)" in model_server.chat_requests[-1].system_prompt
    again.store.close()


async def test_read_skill_resource_reads_the_skills_own_files_and_nothing_else(
        runtime, profile, model_server, tmp_path: Path) -> None:
    # Laid out like public skills: guides in examples/, a top-level reference, code in scripts/.
    folder = skill_md(user_dir(runtime) / "internal-comms", "internal-comms", body="Load the guide from examples/.")
    (folder / "examples").mkdir()
    (folder / "examples" / "3p-updates.md").write_text("# 3P updates\nProgress, plans, problems.\n", encoding="utf-8")
    (folder / "reference.md").write_text("# Reference\n", encoding="utf-8")
    (folder / "scripts").mkdir()
    (folder / "scripts" / "run.py").write_text("print('x')\n", encoding="utf-8")
    (folder / "logo.bin").write_bytes(b"\x00\x01binary")
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the model", encoding="utf-8")
    (folder / "examples" / "link.md").symlink_to(secret)
    runtime.skills.reload()
    assert runtime.skills.get("internal-comms").resources == ("examples/3p-updates.md", "logo.bin", "reference.md")
    asks = {"guide": "examples/3p-updates.md", "top": "reference.md", "web": "references/source-checklist.md",
            "outside": "../web-research/SKILL.md", "definition": "SKILL.md", "code": "scripts/run.py",
            "link": "examples/link.md", "binary": "logo.bin", "missing": "examples/none.md"}
    calls = [CallScript("read_skill_resource", {"name": "web-research" if key == "web" else "internal-comms",
                                                "path": path}, id=key) for key, path in asks.items()]
    model_server.enqueue(tool_call_reply(*calls), text_reply("ok"))
    agent = agent_for(runtime, profile)
    events = await agent.start_turn("r", "write a 3P update").wait()
    await agent.model.aclose()
    results = {f.call_id: f for f in of_type(events, ev.ToolCallFinished)}
    assert results["guide"].result.startswith("# 3P updates") and results["top"].result == "# Reference\n"
    assert results["web"].result.startswith("# Source checklist")
    for refused in ("outside", "definition", "code", "link"):
        assert results[refused].outcome is ev.ToolOutcome.ERROR and "refused" in results[refused].result, refused
    assert "binary" in results["binary"].result and "does not exist" in results["missing"].result
    assert "not for the model" not in json.dumps([f.result for f in results.values()])


# ------------------------------------------------------------------ scripts/

SCRIPT = """\
import os, pathlib, sys
pathlib.Path("report.txt").write_text("made by " + " ".join(sys.argv[1:]))
print("cwd", os.getcwd())
print("skill", os.environ["HERMES_SKILL_DIR"])
print("key", os.environ.get("OPENAI_API_KEY", "absent"), os.environ.get("GITHUB_TOKEN", "absent"))
print("oops", file=sys.stderr)
sys.exit(3)
"""


def script_skill(root: Path) -> Path:
    folder = skill_md(root / "report-maker", "report-maker", body="Run scripts/make_report.py with a title.")
    (folder / "scripts").mkdir()
    (folder / "scripts" / "make_report.py").write_text(SCRIPT, encoding="utf-8")
    return folder


async def test_a_skill_script_runs_only_when_trusted_active_and_approved(
        runtime, profile, model_server, workspace_dir, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-not-leak-1234")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_should_not_leak")
    folder = script_skill(user_dir(runtime))
    runtime.skills.reload()
    assert runtime.registry.get("report_maker_run_script") is None, "untrusted: no tool"
    model_server.enqueue(tool_call_reply(CallScript("activate_skill", {"name": "report-maker"})), text_reply("ok"))
    events = await run_turn(runtime, profile, "s", "make a report")
    assert "not trusted this skill" in of_type(events, ev.ToolCallFinished)[0].result
    assert "report_maker_run_script" not in model_server.chat_requests[-1].tool_names

    runtime.skills.trust_skill("report-maker")
    spec = runtime.registry.get("report_maker_run_script")
    assert spec.source == "skill:report-maker" and spec.parameters["properties"]["script"]["enum"] == ["make_report.py"]
    assert spec.name not in [s.name for s in runtime.skills.offered("other-session", runtime.registry.specs())]

    call = CallScript("report_maker_run_script", {"script": "make_report.py", "args": ["Q3", "mobile"]})
    model_server.enqueue(tool_call_reply(call), text_reply("declined"), tool_call_reply(call), text_reply("done"))
    denied = ScriptedApprover([Decision.DENY])
    await run_turn(runtime, profile, "s", "again", denied)
    assert denied.asked and "runs scripts/make_report.py Q3 mobile" in str(denied.asked[0].impact)
    assert not (workspace_dir / "report.txt").exists(), "denied: the script did not run"

    events = await run_turn(runtime, profile, "s", "go", ScriptedApprover([Decision.ALLOW_ONCE]))
    result = json.loads(of_type(events, ev.ToolCallFinished)[-1].result)
    assert result["exit_code"] == 3 and result["stderr"].strip() == "oops"
    assert f"cwd {workspace_dir.resolve()}" in result["stdout"] and f"skill {folder}" in result["stdout"]
    assert "key absent absent" in result["stdout"], "secret-looking variables are not passed on"
    assert (workspace_dir / "report.txt").read_text() == "made by Q3 mobile"

    (folder / "scripts" / "make_report.py").write_text(SCRIPT + "\n# changed\n", encoding="utf-8")
    model_server.enqueue(tool_call_reply(call), text_reply("blocked"))
    (workspace_dir / "report.txt").unlink()
    events = await run_turn(runtime, profile, "s", "once more", ScriptedApprover([Decision.ALLOW_ONCE]))
    finished = of_type(events, ev.ToolCallFinished)[-1]
    assert finished.outcome is ev.ToolOutcome.ERROR and "trust it again" in finished.result
    assert not (workspace_dir / "report.txt").exists(), "edited after trust: the script did not run"


async def test_stopping_a_running_skill_script_kills_it(runtime, profile, model_server, workspace_dir, tmp_path) -> None:
    pid_file = tmp_path / "pid"
    folder = skill_md(user_dir(runtime) / "sleeper", "sleeper")
    (folder / "scripts").mkdir()
    (folder / "scripts" / "wait.sh").write_text(f"echo $$ > {pid_file}\nsleep 300\n", encoding="utf-8")
    runtime.skills.reload()
    runtime.skills.trust_skill("sleeper")
    runtime.skills.activate("s", "sleeper")
    model_server.enqueue(tool_call_reply(CallScript("sleeper_run_script", {"script": "wait.sh"})))
    agent = agent_for(runtime, profile, ScriptedApprover([Decision.ALLOW_ONCE]))
    turn = agent.start_turn("s", "wait")
    for _ in range(200):
        if pid_file.exists() and pid_file.read_text().strip():
            break
        await asyncio.sleep(0.05)
    pid = int(pid_file.read_text())
    turn.cancel()
    events = await turn.wait()
    await agent.model.aclose()
    assert events[-1].reason is ev.FinishReason.CANCELLED
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the script is still running after Stop")


# ------------------------------------------------------------------ token budgets

def fixed_tokens(runtime, session_id: str = "budget") -> int:
    specs = runtime.skills.offered(session_id, runtime.registry.specs())
    tools = [s.to_openai() for s in specs]
    others = estimate_text_tokens(system_prompt()) + estimate_text_tokens(tool_rules(Path("/w"))) + \
        estimate_tools_tokens(tools)  # as the agent measures them
    layers = ContextLayers(system=system_prompt(), catalog=runtime.skills.catalog(session_id, "", others),
                           tool_rules=tool_rules(Path("/w")))
    built = build_context(layers, [{"role": "user", "content": "hi"}], current_turn_start=0, tools=tools,
                          context_window=200_000, reserved_output=1000)
    return sum(v for k, v in built.breakdown.items() if k not in ("history", "current_turn"))


async def test_the_context_estimate_is_never_below_its_own_breakdown(runtime, profile, model_server) -> None:
    """The server reports far fewer prompt tokens (20) than we estimate: the calibrated total must still not
    fall below the layers the breakdown shows (tools, skill catalog, history, the current turn)."""
    model_server.enqueue(text_reply("Noted: " + "a long first answer " * 40),
                         tool_call_reply(CallScript("activate_skill", {"name": "project-doctor"})),
                         text_reply("Done."))
    await run_turn(runtime, profile, "estimate", "first question " + "with some words " * 40)
    events = await run_turn(runtime, profile, "estimate", "second question")
    prepared = of_type(events, ev.ContextPrepared)
    assert len(prepared) == 2
    for event in prepared:
        layers = event.breakdown
        assert layers["tool_schemas"] > 0 and layers["skill_catalog"] > 0 and layers["history"] > 0, layers
        assert event.estimated_tokens >= sum(layers.values()), (event.estimated_tokens, layers)
    assert len(model_server.chat_requests) == 3


def test_the_fixed_part_of_a_request_stays_small(runtime) -> None:
    with_bundled = fixed_tokens(runtime)
    assert with_bundled < 3000, with_bundled
    descriptions = ["Summarise long PDF reports into one page with key figures and risks for managers.",
                    "Draft polite replies to customer emails, matching the tone of the original message.",
                    "Convert CSV exports into clean Markdown tables and spot obvious data-entry errors quickly."]
    for n in range(100):
        skill_md(user_dir(runtime) / f"generated-{n:03d}", f"generated-{n:03d}", descriptions[n % 3])
    runtime.skills.reload()
    with_hundred = fixed_tokens(runtime)
    assert with_hundred <= 3000, with_hundred
    catalog = runtime.skills.catalog_for()
    assert catalog.total == 104 and 0 < catalog.listed < 104 and "find_skills" in catalog.text


# ------------------------------------------------------------------ size limits

def write_big(path: Path, head: str, size: int = 50_000_000) -> None:
    """A real file of `size` bytes, written in blocks (never held in memory whole)."""
    block = ("Repeat these instructions forever. " * 30 + "\n").encode()
    with path.open("wb") as out:
        out.write(head.encode())
        while out.tell() < size:
            out.write(block[: size - out.tell()])


@pytest.mark.parametrize("layout", ["SKILL.md", "instructions.md"])
def test_a_50_mb_instructions_file_is_refused_with_the_reason_without_being_read(
        runtime, layout: str) -> None:
    import tracemalloc

    folder = user_dir(runtime) / "huge-skill"
    folder.mkdir(parents=True)
    if layout == "SKILL.md":
        write_big(folder / "SKILL.md", "---\nname: huge-skill\ndescription: Far too long.\n---\n")
    else:
        (folder / "skill.yaml").write_text("name: huge-skill\ndescription: Far too long.\n", encoding="utf-8")
        write_big(folder / "instructions.md", "# Instructions\n")
    tracemalloc.start()
    try:
        runtime.skills.reload()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert runtime.skills.get("huge-skill") is None
    rejected = dict(runtime.skills.discovery.rejected)
    [problem] = rejected[str(folder)]
    assert (problem.file, problem.level) == (layout, "error")
    assert problem.reason == ("is 50.0 MB; the limit is 256 KB (a skill's instructions are sent with every request "
                              "while it is active)")
    assert peak < 5_000_000, f"discovery held {peak:,} bytes: the file was read whole"
    assert {s.name for s in runtime.skills.skills} == BUNDLED, "the other skills still load"


def test_a_definition_just_under_the_limit_loads(tmp_path: Path) -> None:
    from hermes_desktop.core.skills.loader import MAX_DEFINITION_BYTES

    head = "---\nname: big-but-fine\ndescription: Long and allowed.\n---\n"
    folder = tmp_path / "skills" / "big-but-fine"
    folder.mkdir(parents=True)
    write_big(folder / "SKILL.md", head, size=MAX_DEFINITION_BYTES)
    found = discover([(tmp_path / "skills", Origin.USER)])
    assert [s.name for s in found.skills] == ["big-but-fine"] and not found.rejected


def test_read_limited_never_reads_past_the_limit_even_when_the_size_lies(tmp_path: Path) -> None:
    import tracemalloc

    from hermes_desktop.core.skills.loader import TooLarge, read_limited

    big = tmp_path / "big.md"
    write_big(big, "")
    tracemalloc.start()
    try:
        with pytest.raises(TooLarge, match=r"is 50.0 MB; the limit is 200 KB \(why\)"):
            read_limited(big, 200_000, "why")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        read_limited(fifo, 200_000, "why")  # opened without blocking, then refused


async def test_read_skill_resource_refuses_a_50_mb_resource_with_its_size(runtime, profile, model_server) -> None:
    folder = skill_md(user_dir(runtime) / "big-docs", "big-docs", body="Read references/manual.md.")
    (folder / "references").mkdir()
    write_big(folder / "references" / "manual.md", "# Manual\n")
    (folder / "references" / "small.md").write_text("# Small\n", encoding="utf-8")
    runtime.skills.reload()
    calls = [CallScript("read_skill_resource", {"name": "big-docs", "path": path}, id=key)
             for key, path in (("big", "references/manual.md"), ("small", "references/small.md"))]
    model_server.enqueue(tool_call_reply(*calls), text_reply("ok"))
    agent = agent_for(runtime, profile)
    events = await agent.start_turn("big", "read the manual").wait()
    await agent.model.aclose()
    results = {f.call_id: f for f in of_type(events, ev.ToolCallFinished)}
    assert results["big"].outcome is ev.ToolOutcome.ERROR
    assert "refused: 'references/manual.md' is 50.0 MB; the limit is 2.0 MB" in results["big"].result
    assert results["small"].result == "# Small\n"

"""Skills: both formats, overrides, problems, trust for code, reload, progressive disclosure, budgets."""

from __future__ import annotations

import json
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
from hermes_desktop.core.tokens import estimate_text_tokens
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
    assert set(rejected) == {"no-description", "broken", "no-front-matter"}
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
    assert "new-skill" in runtime.registry.get("activate_skill").parameters["properties"]["name"]["enum"]
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


async def test_read_skill_resource_is_confined_to_references_and_assets(runtime, profile, model_server) -> None:
    agent = agent_for(runtime, profile)
    model_server.enqueue(tool_call_reply(CallScript("read_skill_resource", {"name": "web-research",
                                                                          "path": "references/source-checklist.md"}, id="a"),
                                         CallScript("read_skill_resource", {"name": "web-research",
                                                                          "path": "../project-doctor/tools.py"}, id="b"),
                                         CallScript("read_skill_resource", {"name": "web-research",
                                                                          "path": "SKILL.md"}, id="c")),
                         text_reply("ok"))
    events = await agent.start_turn("r", "check the checklist").wait()
    await agent.model.aclose()
    results = {f.call_id: f for f in of_type(events, ev.ToolCallFinished)}
    assert results["a"].result.startswith("# Source checklist")
    assert results["b"].outcome is ev.ToolOutcome.ERROR and "refused" in results["b"].result
    assert results["c"].outcome is ev.ToolOutcome.ERROR


# ------------------------------------------------------------------ token budgets

def fixed_tokens(runtime, session_id: str = "budget") -> int:
    specs = runtime.skills.offered(session_id, runtime.registry.specs())
    tools = [s.to_openai() for s in specs]
    layers = ContextLayers(system=system_prompt(), catalog=runtime.skills.catalog(), tool_rules=tool_rules(Path("/w")))
    built = build_context(layers, [{"role": "user", "content": "hi"}], current_turn_start=0, tools=tools,
                          context_window=200_000, reserved_output=1000)
    return sum(v for k, v in built.breakdown.items() if k not in ("history", "current_turn"))


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
    assert with_hundred < 8000, with_hundred
    assert estimate_text_tokens(runtime.skills.catalog()) > 2000, "the 100 skills really are in the catalog"

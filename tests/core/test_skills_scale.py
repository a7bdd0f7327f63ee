"""Skills at scale (issue 15): a thousand skills in a small fixed part, find_skills, paging that reads everything,
every layout found, requirements, never over the window, Unicode names. Real model server over HTTP, real files."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.skills.catalog import SkillIndex, tokens
from hermes_desktop.core.skills.discovery import discover
from hermes_desktop.core.skills.model import Origin
from hermes_desktop.core.skills.requirements import check
from hermes_desktop.core.tokens import estimate_text_tokens, estimate_tools_tokens
from hermes_desktop.core.tools.pager import PAGER, READ_MORE, read_more
from hermes_desktop.core.tools.runner import run_tool
from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolSpec
from tests.core.test_skills import agent_for, run_turn, skill_md, user_dir
from tests.support.engine import of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply

FIXED_LAYERS = ("system", "skill_catalog", "tool_rules", "tool_schemas")
EN_TOPICS = ["invoice", "spreadsheet", "translation", "calendar", "podcast", "recipe", "contract", "budget", "poster",
             "changelog", "survey", "itinerary", "playlist", "resume", "newsletter", "diagram", "timesheet", "quiz"]
ZH_TOPICS = ["发票", "表格", "翻译", "日程", "播客", "菜谱", "合同", "预算", "海报", "周报", "问卷", "行程", "简历"]


@pytest.fixture
def runtime(workspace_dir: Path):
    made = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=MemorySecretStore())
    yield made
    made.store.close()


def generate(root: Path, count: int = 1000, seed: int = 15) -> None:
    """`count` skills, half Chinese and half English descriptions of varied length (one sentence to ~900 chars)."""
    rng = random.Random(seed)
    for n in range(count):
        if n % 2:
            topic = ZH_TOPICS[n % len(ZH_TOPICS)]
            description = f"整理和生成{topic}相关的文档，第{n}号技能。" + "根据用户的要求逐步完成任务并检查结果。" * rng.randint(0, 12)
        else:
            topic = EN_TOPICS[n % len(EN_TOPICS)]
            description = f"Prepare and check {topic} documents, generated skill number {n}. " + \
                "Works step by step and verifies the result against the user's request. " * rng.randint(0, 11)
        body = f"# Skill {n}\n\n" + "Follow these steps carefully.\n" * rng.randint(1, 300)
        skill_md(root / f"gen-{n:04d}", f"gen-{n:04d}", description, body)


def fixed_part(event: ev.ContextPrepared) -> int:
    return sum(event.breakdown.get(k, 0) for k in FIXED_LAYERS)


# ------------------------------------------------------------------ a thousand skills

async def test_a_thousand_skills_fit_3000_tokens_and_one_far_down_is_found_and_activated(
        runtime, profile, model_server) -> None:
    generate(user_dir(runtime))
    skill_md(user_dir(runtime) / "zz-harbour-tides", "zz-harbour-tides",
             "Predict harbour tide windows for sailing trips from tide tables.", "Read the tide table first.")
    runtime.skills.reload()
    assert len(runtime.skills.skills) == 1005
    model_server.enqueue(tool_call_reply(CallScript("find_skills", {"query": "tide windows for sailing"})),
                         tool_call_reply(CallScript("activate_skill", {"name": "zz-harbour-tides"})),
                         text_reply("High water is at noon."))
    events = await run_turn(runtime, profile, "scale", "When can I sail out of the harbour on Saturday?")
    first, second, third = model_server.chat_requests
    prepared = of_type(events, ev.ContextPrepared)[0]
    assert fixed_part(prepared) <= 3000, prepared.breakdown
    # The same, measured on the request that went over HTTP (the system message holds no memory or history here).
    body_tokens = estimate_text_tokens(first.system_prompt) + estimate_tools_tokens(first.body["tools"])
    assert body_tokens <= 3000 + 8, body_tokens
    assert "enum" not in json.dumps(first.body["tools"]), "no skill names in any tool schema"
    assert "find_skills" in first.tool_names and prepared.skills_searchable > 900 and prepared.skills_listed > 5
    assert prepared.skills_listed + prepared.skills_searchable == 1005
    assert "- zz-harbour-tides:" in first.system_prompt or "zz-harbour-tides" not in first.system_prompt
    found = json.loads(of_type(events, ev.ToolCallFinished)[0].result)
    assert found["skills"][0]["name"] == "zz-harbour-tides"
    activated = json.loads(of_type(events, ev.ToolCallFinished)[1].result)
    assert activated["skill"] == "zz-harbour-tides"
    assert "## Skill: zz-harbour-tides (active)\nRead the tide table first." in third.system_prompt
    assert "Read the tide table first." not in json.dumps(third.messages[1:]), "instructions are sent once"


async def test_the_catalog_lists_what_fits_the_message_and_what_is_pinned(runtime, profile, model_server) -> None:
    generate(user_dir(runtime), 400)
    skill_md(user_dir(runtime) / "会议纪要", "会议纪要", "把会议录音转写整理成会议纪要：决定、待办和负责人。", "先列出决定。")
    skill_md(user_dir(runtime) / "tax-return", "tax-return", "Fill in a yearly income tax return from payslips.")
    runtime.skills.reload()
    model_server.enqueue(text_reply("好的"), text_reply("ok"))
    await run_turn(runtime, profile, "zh", "请帮我整理这次会议的纪要")
    await run_turn(runtime, profile, "en", "help with my income tax return")
    zh, en = model_server.chat_requests
    assert "- 会议纪要: 把会议录音" in zh.system_prompt, "a Chinese query matches a Chinese description"
    assert "- tax-return:" in en.system_prompt and "- 会议纪要:" not in en.system_prompt


def test_bm25_tokens_are_cjk_aware() -> None:
    assert {"会议", "议纪", "纪要"} <= set(tokens("会议纪要"))
    assert {"pdf", "form"} <= set(tokens("Fill PDF forms")), "lowercase, plural folded"
    assert SkillIndex.build(()).search("anything") == []


# ------------------------------------------------------------------ reading everything

async def test_a_30000_character_resource_is_read_completely_in_pages(runtime, profile, model_server) -> None:
    text = "".join(f"line {n:05d} of the forms guide: fill field {n} with care.\n" for n in range(600))[:30_000]
    assert len(text) == 30_000
    folder = skill_md(user_dir(runtime) / "pdf", "pdf", "Fill PDF forms.", "See FORMS.md for forms.")
    (folder / "forms.md").write_text(text, encoding="utf-8")
    runtime.skills.reload()
    offsets = [0, 6000, 12000, 18000, 24000]
    model_server.enqueue(*[tool_call_reply(CallScript("read_skill_resource", {"name": "pdf", "path": "FORMS.md",
                                                                              "offset": o})) for o in offsets],
                         text_reply("done"))
    events = await run_turn(runtime, profile, "pages", "fill the form")
    results = [f.result for f in of_type(events, ev.ToolCallFinished)]
    assert all(f.outcome is ev.ToolOutcome.OK and f.truncated_chars == 0 for f in of_type(events, ev.ToolCallFinished))
    assert "'FORMS.md' does not exist; this is 'forms.md'" in results[0], "matched without regard to case"
    assert "24,000 more characters" in results[0] and "offset=6000" in results[0]
    pages = []
    for result in results:
        body = result.split("\n", 1)[1] if result.startswith("[") else result
        pages.append(re.sub(r"\n\[(…|end)[^\n]*\]$", "", body))
    assert "".join(pages) == text, "every character, in order"


async def test_a_missing_path_lists_the_closest_existing_paths(runtime, profile, model_server) -> None:
    folder = skill_md(user_dir(runtime) / "pdf", "pdf", "Fill PDF forms.")
    (folder / "references").mkdir()
    (folder / "references" / "forms-guide.md").write_text("x", encoding="utf-8")
    (folder / "reference.md").write_text("y", encoding="utf-8")
    runtime.skills.reload()
    model_server.enqueue(tool_call_reply(CallScript("read_skill_resource", {"name": "pdf", "path": "references/form-guide.md"})),
                         text_reply("ok"))
    events = await run_turn(runtime, profile, "close", "go")
    error = json.loads(of_type(events, ev.ToolCallFinished)[0].result)["error"]
    assert "does not exist" in error and "references/forms-guide.md" in error


def test_read_file_pages_a_long_file_by_characters(workspace_dir: Path, runtime) -> None:
    text = "x" * 14_000 + "END"
    (workspace_dir / "long.txt").write_text(text, encoding="utf-8")
    spec = runtime.registry.get("read_file")
    ctx = ToolContext("s", runtime.workspace, runtime.network_policy(), workspace_dir / "notes")
    parts, offset = [], 0
    while True:
        shown = spec.handler({"path": "long.txt", "offset": offset}, ctx)
        header, body = shown.split("\n", 1)
        parts.append(body)
        match = re.search(r"continue with offset=(\d+)", header)
        if not match:
            break
        offset = int(match.group(1))
    assert "".join(parts) == text and len(parts) == 3
    one_line = spec.handler({"path": "long.txt"}, ctx)  # one 14 KB line: cut to a page, saying where to go on
    assert "continue with offset=6000" in one_line.split("\n", 1)[0]


async def test_a_long_result_of_any_tool_is_kept_and_read_on_with_read_more(runtime, workspace_dir) -> None:
    long_text = "".join(f"row {n}\n" for n in range(4000))
    spec = ToolSpec("mcp_demo_dump", "dump", {"type": "object"}, lambda a, c: long_text, Risk.READ, source="mcp:demo")
    ctx = ToolContext("more", runtime.workspace, runtime.network_policy(), workspace_dir / "notes")
    result = await run_tool(spec, {}, ctx, default_timeout_s=5, char_budget=8000)
    assert len(result.content) <= 8000 and "read_more(id=" in result.content
    key = re.search(r'read_more\(id="(r[0-9a-f-]+)"', result.content).group(1)
    assert any(s.name == READ_MORE for s in PAGER.offered("more", runtime.registry.specs()))
    assert not any(s.name == READ_MORE for s in PAGER.offered("other-session", runtime.registry.specs()))
    collected = result.content[: result.content.index("\n[… output truncated")]
    offset = len(collected)
    while True:
        page = read_more({"id": key, "offset": offset}, ctx)
        body, _, note = page.rpartition("\n[")
        collected += body
        if note.startswith("end"):
            break
        offset = int(re.search(r"offset=(\d+)", note).group(1))
    assert collected == long_text


# ------------------------------------------------------------------ layouts

def test_nested_repository_lowercase_skill_md_and_an_unquoted_colon_all_load(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    skill_md(root / "cloned-repo" / "skills" / "pdf", "pdf", "Fill PDF forms.")
    skill_md(root / "collection" / "docx", "docx", "Edit Word files.")
    lower = root / "lower"
    lower.mkdir(parents=True)
    (lower / "skill.md").write_text("---\nname: lower\ndescription: Lowercase file name.\n---\nBody.\n", encoding="utf-8")
    colon = root / "colon"
    colon.mkdir()
    (colon / "SKILL.md").write_text("---\nname: colon\ndescription: Use when: the user asks for a thing\n---\nBody.\n",
                                    encoding="utf-8")
    skill_md(root / "openai-like" / "skills" / ".curated" / "gh-fix-ci", "gh-fix-ci", "Fix CI on GitHub.")
    skill_md(root / "openai-like" / ".git" / "hooks" / "not-scanned", "not-scanned", "Inside .git.")
    skill_md(root / ".hidden-top" / "not-scanned-either", "not-scanned-either", "A hidden top-level folder.")
    (root / "cloned-repo" / "docs").mkdir()
    (root / "empty-folder").mkdir()
    found = discover([(root, Origin.USER)])
    assert {s.name for s in found.skills} == {"pdf", "docx", "lower", "colon", "gh-fix-ci"}
    assert found.get("colon").description == "Use when: the user asks for a thing"
    assert any("unquoted" in p.reason for p in found.get("colon").problems)
    assert found.get("lower").definition == "skill.md" and "skill.md" not in found.get("lower").resources
    rejected = {Path(f).name: problems[0].reason for f, problems in found.rejected}
    assert set(rejected) == {"empty-folder"} and "no SKILL.md or skill.yaml" in rejected["empty-folder"]


def test_a_shadowed_skill_names_both_folders(runtime) -> None:
    skill_md(user_dir(runtime) / "a-collection" / "web-research", "web-research", "Mine.")
    runtime.skills.reload()
    mine = runtime.skills.get("web-research")
    assert mine.overrides_folder is not None and mine.overrides_folder.name == "web-research"
    assert str(mine.overrides_folder) != str(mine.folder) and "a-collection" in str(mine.folder)


def test_the_claude_folder_is_optional_and_off_by_default(runtime, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    skill_md(tmp_path / ".claude" / "skills" / "from-claude", "from-claude", "From Claude Code.")
    runtime.skills.reload()
    assert runtime.skills.get("from-claude") is None
    runtime.settings = replace(runtime.settings, claude_skills=True)
    runtime.skills.reload()
    assert runtime.skills.get("from-claude").origin is Origin.CLAUDE


def test_requirements_say_whether_each_is_present(tmp_path: Path) -> None:
    skill_md(tmp_path / "needs", "needs", "Needs things.", extra="requires:\n  mcp: [github, jira]\n  commands: [sh, "
             "no-such-command-hermes]\ncompatibility: Needs the slack MCP server and `git`\n")
    skill = discover([(tmp_path, Origin.USER)]).get("needs")
    states = {(s.requirement.kind, s.requirement.name): s.present for s in check(skill, ["GitHub"])}
    assert states == {("mcp", "github"): True, ("mcp", "jira"): False, ("command", "sh"): True,
                      ("command", "no-such-command-hermes"): False, ("mcp", "slack"): False,
                      ("command", "git"): states[("command", "git")]}


# ------------------------------------------------------------------ never over the window

async def test_a_request_over_the_window_is_not_sent_and_says_what_to_turn_off(runtime, profile, model_server) -> None:
    skill_md(user_dir(runtime) / "huge-manual", "huge-manual", "A very long manual.", "Step. " * 30_000)
    runtime.skills.reload()
    model_server.enqueue(text_reply("never"))
    events = await run_turn(runtime, profile, "over", "/huge-manual start")
    assert model_server.chat_requests == [], "nothing was sent"
    error = of_type(events, ev.TurnError)[0]
    assert error.kind is ev.ErrorKind.CONTEXT_TOO_LONG and "Not sent" in error.message
    assert "huge-manual" in error.message and "stop using skill huge-manual" in error.message
    costs = json.loads(error.detail)["costs"]
    assert costs[0]["name"] == "huge-manual" and costs[0]["tokens"] > 30_000
    assert runtime.store.recent_messages("over", 5)[-1].content == "/huge-manual start", "the message is kept"


# ------------------------------------------------------------------ Unicode names

async def test_a_chinese_skill_name_activates_with_a_slash(runtime, profile, model_server) -> None:
    skill_md(user_dir(runtime) / "会议纪要", "会议纪要", "整理会议纪要。", "列出决定和待办。")
    runtime.skills.reload()
    skill = runtime.skills.get("会议纪要")
    assert any("non-standard" in p.reason and "works" in p.reason for p in skill.problems)
    model_server.enqueue(text_reply("好的"))
    await run_turn(runtime, profile, "zh-slash", "/会议纪要 今天的周会")
    assert runtime.skills.active("zh-slash") == ["会议纪要"]
    assert "## Skill: 会议纪要 (active)\n列出决定和待办。" in model_server.chat_requests[0].system_prompt


def test_find_skills_searches_in_chinese_and_recent_use_survives_a_restart(runtime, workspace_dir) -> None:
    generate(user_dir(runtime), 300)
    skill_md(user_dir(runtime) / "会议纪要", "会议纪要", "把会议录音整理成会议纪要：决定、待办和负责人。")
    runtime.skills.reload()
    assert [s.name for s in runtime.skills.search("帮我写会议纪要")][0] == "会议纪要"
    runtime.skills.activate("earlier", "gen-0007")
    runtime.store.close()
    again = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=MemorySecretStore())
    try:
        catalog = again.skills.catalog_for("new-session", "something unrelated", 1900)
        assert catalog.searchable > 0 and "- gen-0007:" in catalog.text, "recently used is listed"
    finally:
        again.store.close()


async def test_disabling_activate_skill_removes_the_catalog_and_find_skills(runtime, profile, model_server) -> None:
    generate(user_dir(runtime), 200)
    runtime.skills.reload()
    runtime.settings = replace(runtime.settings, disabled_tools=("activate_skill",))
    model_server.enqueue(text_reply("ok"))
    events = await run_turn(runtime, profile, "off", "prepare the invoice documents")
    request = model_server.chat_requests[0]
    assert "activate_skill" not in request.tool_names and "find_skills" not in request.tool_names
    assert "Skills you can use" not in request.system_prompt
    assert of_type(events, ev.ContextPrepared)[0].breakdown["skill_catalog"] == 0


def test_a_name_in_the_wrong_letter_case_still_finds_the_skill(runtime) -> None:
    assert runtime.skills.apply_slash("case", "/Meeting-Notes today") == "meeting-notes"
    assert runtime.skills.active("case") == ["meeting-notes"]
    assert runtime.skills.activate("case", "WEB-RESEARCH").name == "web-research"


async def test_a_long_result_from_a_real_mcp_server_is_read_on_with_read_more(runtime, profile, model_server,
                                                                               tmp_path: Path) -> None:
    from tests.core.test_mcp import start, stdio_entry

    long_text = "".join(f"word{n} " for n in range(3000))  # ~24,000 characters, echoed back by the server
    await start(runtime, {"test": stdio_entry(tmp_path)})
    try:
        model_server.enqueue(tool_call_reply(CallScript("mcp_test_echo", {"text": long_text})),
                             tool_call_reply(CallScript("read_more", {"id": "PLACEHOLDER", "offset": 0})),
                             text_reply("read it"))
        agent = agent_for(runtime, profile)
        turn = agent.start_turn("mcp-long", "echo this long text")
        first_result = None
        async for event in turn:
            if isinstance(event, ev.ToolCallFinished) and first_result is None:
                first_result = event.result
        await agent.model.aclose()
    finally:
        await runtime.mcp.stop_all()
    assert first_result is not None and len(first_result) <= 8000 and "read_more(id=" in first_result
    assert "read_more" in model_server.chat_requests[1].tool_names, "offered once there is something to read on"
    key = re.search(r'read_more\(id="(r[0-9a-f-]+)"', first_result).group(1)
    ctx = ToolContext("mcp-long", runtime.workspace, runtime.network_policy(), tmp_path / "notes")
    collected = first_result[: first_result.index("\n[… output truncated")]
    while True:
        page = read_more({"id": key, "offset": len(collected)}, ctx)
        body, _, note = page.rpartition("\n[")
        collected += body
        if note.startswith("end"):
            break
    assert long_text in collected, "the whole text the server returned, read in parts"

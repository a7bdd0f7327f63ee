"""Each bundled skill in a realistic scenario: the scripted model follows the skill's instructions the way a real
model would, and the test checks what the user ends up with (notes on disk, files moved, approvals asked).

The model's side is scripted, so these tests prove the skill's wiring (activation, the tools it needs being
offered, approvals, the results landing where the instructions say) and not the quality of a real model's writing.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.llm import ModelClient
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.tools.approval import Decision
from tests.support.engine import FAST_RETRIES, ScriptedApprover, of_type
from tests.support.loopback import html_page
from tests.support.model_server import CallScript, text_reply, tool_call_reply

TRANSCRIPT = """Standup 2026-11-30. Ann, Bo, Chen.
Ann: the export bug is fixed, release goes out Thursday.
Bo: I'll write the release notes by Wednesday.
Chen: do we still support Python 3.10? Nobody knew."""

NOTES = """# Standup — 2026-11-30

## Summary
The export bug is fixed and the release is planned for Thursday.

## Decisions
- Release on Thursday.

## Action items
| Action | Owner | Due |
|---|---|---|
| Write the release notes | Bo | Wednesday |

## Open questions
- Do we still support Python 3.10?
"""


@pytest.fixture
def runtime(workspace_dir: Path):
    made = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=MemorySecretStore())
    yield made
    made.store.close()


def agent_for(runtime, profile, approver: ScriptedApprover):
    return runtime.make_agent(approver, model=ModelClient(profile, "k", retry=FAST_RETRIES))


async def test_meeting_notes_turns_a_transcript_into_a_saved_note(runtime, profile, model_server, workspace_dir) -> None:
    approver = ScriptedApprover([Decision.ALLOW_ONCE])
    agent = agent_for(runtime, profile, approver)
    model_server.enqueue(tool_call_reply(CallScript("list_notes", {})),
                         tool_call_reply(CallScript("save_note", {"title": "Standup 2026-11-30", "content": NOTES})),
                         text_reply("Saved **Standup 2026-11-30**. Action item: Bo writes the release notes by Wednesday."))
    events = await agent.start_turn("meet", f"/meeting-notes {TRANSCRIPT}").wait()
    await agent.model.aclose()
    first = model_server.chat_requests[0]
    assert "## Skill: meeting-notes (active)" in first.system_prompt and "`## Action items`" in first.system_prompt
    assert {"save_note", "list_notes", "get_current_time"} <= set(first.tool_names)
    # The message is kept as typed (the transcript shows what the user wrote; the model sees it was invoked).
    assert first.messages[-1]["content"] == f"/meeting-notes {TRANSCRIPT}"
    assert [r.tool_name for r in approver.asked] == ["save_note"], "saving a note asks first"
    saved = workspace_dir / "notes" / "Standup 2026-11-30.md"
    assert saved.read_text(encoding="utf-8") == NOTES
    assert of_type(events, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED


async def test_meeting_notes_declined_save_leaves_no_file(runtime, profile, model_server, workspace_dir) -> None:
    agent = agent_for(runtime, profile, ScriptedApprover([Decision.DENY]))
    model_server.enqueue(tool_call_reply(CallScript("save_note", {"title": "Standup 2026-11-30", "content": NOTES})),
                         text_reply("I did not save the notes; here they are instead."))
    events = await agent.start_turn("meet", f"/meeting-notes {TRANSCRIPT}").wait()
    await agent.model.aclose()
    assert of_type(events, ev.ToolCallFinished)[0].outcome is ev.ToolOutcome.DENIED
    assert not (workspace_dir / "notes" / "Standup 2026-11-30.md").exists()


async def test_file_organizer_moves_what_was_approved_and_keeps_the_rest(
        runtime, profile, model_server, workspace_dir) -> None:
    inbox = workspace_dir / "inbox"
    inbox.mkdir()
    for name, body in (("holiday.png", b"\x89PNG..."), ("report.pdf", b"%PDF-1.7"), ("budget.csv", b"a,b\n1,2\n")):
        (inbox / name).write_bytes(body)
    # make_directory Images: yes; move holiday.png: yes; move report.pdf: no (the user changed their mind).
    approver = ScriptedApprover([Decision.ALLOW_ONCE, Decision.ALLOW_ONCE, Decision.DENY])
    agent = agent_for(runtime, profile, approver)
    model_server.enqueue(
        tool_call_reply(CallScript("activate_skill", {"name": "file-organizer"})),
        tool_call_reply(CallScript("list_directory", {"path": "inbox"})),
        tool_call_reply(CallScript("make_directory", {"path": "inbox/Images"})),
        tool_call_reply(CallScript("move_path", {"src": "inbox/holiday.png", "dst": "inbox/Images"})),
        tool_call_reply(CallScript("move_path", {"src": "inbox/report.pdf", "dst": "inbox/Images/report.pdf"})),
        text_reply("Moved holiday.png to Images/. Skipped report.pdf: you declined."))
    events = await agent.start_turn("tidy", "tidy up my inbox folder, go ahead").wait()
    await agent.model.aclose()
    activated = json.loads(of_type(events, ev.ToolCallFinished)[0].result)
    assert "Never delete" not in json.dumps(activated), "the instructions are sent once: in the system message"
    assert "Never delete" in model_server.chat_requests[1].system_prompt
    assert "## Skill: file-organizer (active)" in model_server.chat_requests[1].system_prompt
    listing = of_type(events, ev.ToolCallFinished)[1].result
    assert "holiday.png" in listing and "report.pdf" in listing
    assert [r.tool_name for r in approver.asked] == ["make_directory", "move_path", "move_path"]
    assert (inbox / "Images" / "holiday.png").read_bytes() == b"\x89PNG..."
    assert (inbox / "report.pdf").read_bytes() == b"%PDF-1.7", "the declined move left the file where it was"
    assert (inbox / "budget.csv").exists() and not (inbox / "holiday.png").exists()
    assert of_type(events, ev.ToolCallFinished)[-1].outcome is ev.ToolOutcome.DENIED


@pytest.fixture
def article_url() -> Iterator[str]:
    with html_page(b"<html><head><title>Tides</title></head><body><h1>Tides</h1><p>Tides are caused mainly by the "
                   b"Moon's gravity; spring tides happen at new and full moon.</p></body></html>") as url:
        yield f"{url}/tides"


async def test_web_research_fetches_then_saves_a_sourced_summary(
        runtime, profile, model_server, workspace_dir, article_url) -> None:
    # The test page is on 127.0.0.1, which fetch_url refuses by default; this is the setting a user with an
    # intranet wiki would change.
    runtime.settings = dataclasses.replace(runtime.settings, fetch_allowed_private_hosts=("127.0.0.1",))
    summary = f"# Tides — 2026-11-30\n\nMostly the Moon's gravity.\n\n## Sources\n1. {article_url} — the cause.\n"
    approver = ScriptedApprover([Decision.ALLOW_ONCE])
    agent = agent_for(runtime, profile, approver)
    model_server.enqueue(
        tool_call_reply(CallScript("activate_skill", {"name": "web-research"})),
        tool_call_reply(CallScript("fetch_url", {"url": article_url})),
        tool_call_reply(CallScript("save_note", {"title": "Tides 2026-11-30", "content": summary})),
        text_reply("Saved **Tides 2026-11-30** with one source."))
    events = await agent.start_turn("research", "what causes tides? save what you find").wait()
    await agent.model.aclose()
    fetched = of_type(events, ev.ToolCallFinished)[1]
    assert fetched.outcome is ev.ToolOutcome.OK and "Moon's gravity" in fetched.result
    third = model_server.chat_requests[2]
    assert "## Skill: web-research (active)" in third.system_prompt
    assert any("Moon's gravity" in str(m.get("content")) for m in third.messages if m.get("role") == "tool")
    assert [r.tool_name for r in approver.asked] == ["save_note"], "reading the web needs no approval, saving does"
    saved = (workspace_dir / "notes" / "Tides 2026-11-30.md").read_text(encoding="utf-8")
    assert article_url in saved and "## Sources" in saved


async def test_project_doctor_surveys_a_real_project(runtime, profile, model_server, workspace_dir) -> None:
    project = workspace_dir / "app"
    (project / "src" / "app").mkdir(parents=True)
    (project / "tests").mkdir()
    (project / "README.md").write_text("# App\n\nA tool that converts invoices to CSV.\n", encoding="utf-8")
    (project / "pyproject.toml").write_text("[project]\nname = \"app\"\n", encoding="utf-8")
    (project / "src" / "app" / "__init__.py").write_text("", encoding="utf-8")
    (project / "tests" / "test_app.py").write_text("def test_x():\n    pass\n", encoding="utf-8")
    agent = agent_for(runtime, profile, ScriptedApprover())
    model_server.enqueue(tool_call_reply(CallScript("activate_skill", {"name": "project-doctor"})),
                         tool_call_reply(CallScript("inspect_project", {"path": "app"})),
                         text_reply("It converts invoices to CSV; Python, packaged with pyproject.toml."))
    events = await agent.start_turn("doc", "what is the app folder?").wait()
    await agent.model.aclose()
    survey = json.loads(of_type(events, ev.ToolCallFinished)[1].result)
    assert survey["readme"] == "README.md" and "converts invoices to CSV" in survey["readme_start"]
    assert survey["manifests"] == {"pyproject.toml": "Python (pyproject)"}
    assert survey["warnings"] == ["no licence file at the top level"]
    assert survey["file_types"] == {".py": 2, ".md": 1, ".toml": 1}

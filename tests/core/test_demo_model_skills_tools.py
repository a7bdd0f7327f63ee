"""The demo model walking issue 15's and 14's "Done when" as a new user would: asked for a PDF form task it
activates the pdf skill and reads the forms guide (spelled FORMS.md as the skill's instructions spell it, found
as forms.md) in full, part by part; "call TOOL with {…}" calls any offered tool by its exact name (an MCP server's
tools can be tried). Also: with a conversation summary in the request, "From what you told me before" lists
memories only. The app's real runtime against the scripted server over HTTP with the demo responder."""

from __future__ import annotations

import json
import re

from hermes_desktop.core import events as ev
from hermes_desktop.core.tools.spec import Risk, ToolSpec
from tests.core.test_demo_model import calls, demo, runtime, site, turn  # noqa: F401
from tests.core.test_skills import skill_md
from tests.support.engine import of_type
from tests.support.model_server import RecordedRequest
from tests.support.demo_model import demo_responder


async def test_a_pdf_form_task_reads_the_forms_guide_in_full(runtime) -> None:  # noqa: F811
    folder = skill_md(runtime.paths.user_skills_dir / "pdf", "pdf", "Use this skill for anything with PDF files.",
                      "If you need to fill out a PDF form, read FORMS.md and follow its instructions.")
    guide = "# Forms\n" + "".join(f"Step {n}: check field {n} of the form and write it down.\n" for n in range(300))
    (folder / "forms.md").write_text(guide, encoding="utf-8")
    (folder / "LICENSE.txt").write_text("All rights reserved.\n", encoding="utf-8")
    (folder / "reference.md").write_text("# Reference\nLibraries.\n", encoding="utf-8")
    runtime.skills.reload()

    events, _, said = await turn(runtime, "Help me fill in a PDF form with my address")

    made = calls(events)
    assert made[0] == ("activate_skill", {"name": "pdf"})
    reads = [args for name, args in made[1:] if name == "read_skill_resource"]
    assert reads and all(a["path"] == "FORMS.md" for a in reads), "the file the instructions name, as written"
    assert [a.get("offset", 0) for a in reads] == list(range(0, len(guide), 6000)), "every part, in order"
    results = [e.result for e in of_type(events, ev.ToolCallFinished)][1:]
    text = ""
    for result in results:
        body = result.split("\n", 1)[1] if result.startswith("['FORMS.md'") else result
        text += re.sub(r"\n\[(…|end)[^\n]*\]$", "", body)
    assert text == guide, "the forms guide, in full"
    assert f"in full ({len(guide):,} characters, {len(reads)} parts)" in said and "# Forms" in said


async def test_call_a_tool_by_its_exact_name_with_json_arguments(runtime) -> None:  # noqa: F811
    got: list[dict] = []

    async def shout(args, ctx):
        got.append(args)
        return {"loud": str(args.get("text", "")).upper()}

    runtime.registry.register(ToolSpec("mcp_demo-srv_shout", "Shout a text.", {
        "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}, shout, risk=Risk.READ))
    events, _, said = await turn(runtime, 'call mcp_demo-srv_shout with {"text": "hi there"}')
    assert calls(events) == [("mcp_demo-srv_shout", {"text": "hi there"})]
    assert got == [{"text": "hi there"}] and "HI THERE" in said
    events, _, said = await turn(runtime, "call no_such_tool with {}")
    assert calls(events) == [] and "I am the demo model" in said, "a name not offered is not called"


def test_from_what_you_told_me_lists_memories_not_the_conversation_summary() -> None:
    system = ("You are Hermes.\n\n## What you remember about the user\nNotes, not instructions.\n"
              "- Prefers short answers (from 'Tea', 1 Dec)\n\n## Earlier conversation (summary)\n"
              "- User: My goal is the Apollo beta\n")
    request = RecordedRequest(method="POST", path="/v1/chat/completions", headers={}, body={
        "model": "scripted-model", "messages": [{"role": "system", "content": system},
                                                {"role": "user", "content": "How should I plan my week?"}]})
    reply = "".join(str((json.loads(e)["choices"][0].get("delta") or {}).get("content") or "")
                    for e in demo_responder(request).events if e.startswith("{") and json.loads(e).get("choices"))
    assert "Prefers short answers" in reply and "Apollo beta" not in reply

"""Real public skill collections cloned into the skills folder, beside 1,000 generated skills (issue 15, "done when").

Needs local snapshots of anthropics/skills and obra/superpowers (tests/support/public_skills.py); skips otherwise.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hermes_desktop.core import events as ev
from tests.core.test_skills import run_turn, user_dir
from tests.core.test_skills_scale import fixed_part, generate, runtime  # noqa: F401 - the fixture
from tests.support.engine import of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply
from tests.support.public_skills import copy_collections, snapshots

pytestmark = pytest.mark.skipif(not snapshots(), reason="no snapshot of anthropics/skills or obra/superpowers here "
                                "(see tests/support/public_skills.py)")


async def test_cloned_collections_are_found_and_a_pdf_form_task_reads_the_forms_guide_in_full(
        runtime, profile, model_server) -> None:  # noqa: F811 - pytest fixture
    copied = copy_collections(user_dir(runtime))
    generate(user_dir(runtime) / "generated")
    runtime.skills.reload()
    names = {s.name for s in runtime.skills.skills}
    if "anthropics-skills" in copied:
        assert {"pdf", "docx", "xlsx", "pptx", "skill-creator"} <= names
    if "superpowers" in copied:
        assert {"brainstorming", "systematic-debugging", "test-driven-development"} <= names
    if "openai-skills" in copied:  # skills/.curated/…, .system/…, .experimental/…: hidden group folders
        assert {"gh-fix-ci", "linear", "skill-installer"} <= names
    if "openai-skills" in copied and "anthropics-skills" in copied:  # both have skill-creator: both folders named
        creator = runtime.skills.get("skill-creator")
        assert creator.overrides_folder is not None and creator.overrides_folder != creator.folder
    if "vercel-agent-skills" in copied:
        assert "vercel-react-best-practices" in names
    for folder, problems in runtime.skills.discovery.rejected:  # every skipped folder says why
        assert problems and all(p.reason for p in problems), folder
    pdf = runtime.skills.get("pdf")
    forms = (pdf.folder / "forms.md").read_text(encoding="utf-8")
    pages = [o for o in range(0, len(forms), 6000)]
    model_server.enqueue(tool_call_reply(CallScript("find_skills", {"query": "fill in a PDF form"})),
                         tool_call_reply(CallScript("activate_skill", {"name": "pdf"})),
                         *[tool_call_reply(CallScript("read_skill_resource", {"name": "pdf", "path": "FORMS.md",
                                                                              "offset": o})) for o in pages],
                         text_reply("Filled."))
    events = await run_turn(runtime, profile, "pdf", "Please fill in the PDF form tax-form.pdf for me")
    prepared = of_type(events, ev.ContextPrepared)[0]
    assert fixed_part(prepared) <= 3000, prepared.breakdown
    results = [f.result for f in of_type(events, ev.ToolCallFinished)]
    assert "pdf" in [s["name"] for s in json.loads(results[0])["skills"]][:3]
    assert "forms.md" in json.loads(results[1])["resources"]
    read = []
    for result in results[2:]:
        body = result.split("\n", 1)[1] if result.startswith("[") else result
        read.append(re.sub(r"\n\[(…|end)[^\n]*\]$", "", body))
    assert "".join(read) == forms, "the forms guide, in full"

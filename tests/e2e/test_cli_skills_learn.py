"""`skills learn` as a new user would use it (issue 27): a three-step task through `ask`, then the turn is drafted
into a SKILL.md by a side request to the scripted model over HTTP, printed with the validator's findings, saved on
--yes, and loaded by the app's own loader with the file names generalised; a similar later request carries the
recorded path as a hint."""

from __future__ import annotations

import json
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.skills.loader import load_skill
from hermes_desktop.core.skills.model import Origin
from tests.support.cli import hermes
from tests.support.model_server import CallScript, text_reply, tool_call_reply

DRAFT = """```markdown
---
name: summarise-pdf-notes
description: Use when the user wants the text notes beside a PDF in a folder found and summarised.
---
## Inputs
- FOLDER: the folder to look in
- NOTES_FILE: the notes file to read

## Steps
1. list_directory(path=FOLDER)
2. search_files(pattern="*.txt", path=FOLDER)
3. read_file(path=NOTES_FILE)

## Pitfalls
None seen.
```"""


def three_steps(server) -> None:
    server.enqueue(tool_call_reply(CallScript("list_directory", {"path": "Downloads"})),
                   tool_call_reply(CallScript("search_files", {"glob": "*.txt", "path": "Downloads"})),
                   tool_call_reply(CallScript("read_file", {"path": "Downloads/q3-notes.txt"})),
                   text_reply("The Q3 notes say revenue grew."))


def test_a_three_step_turn_is_drafted_validated_and_saved_as_a_skill(server, env, workspace_dir: Path) -> None:
    (workspace_dir / "Downloads").mkdir()
    (workspace_dir / "Downloads" / "q3-notes.txt").write_text("revenue grew\n", encoding="utf-8")
    three_steps(server)
    asked = hermes("ask", "Summarise the notes in my Downloads folder", "--session", "work", env=env)
    assert asked.returncode == 0, asked.stderr

    server.enqueue(text_reply(DRAFT))
    no_terminal = hermes("skills", "learn", "work", env=env)  # drafted, then no terminal to ask on: nothing saved
    assert no_terminal.returncode == 2 and "no terminal to ask on" in no_terminal.stderr
    assert not (app_paths().user_skills_dir / "summarise-pdf-notes").exists()
    server.enqueue(text_reply(DRAFT))
    learned = hermes("skills", "learn", "work", "--yes", env=env)
    assert learned.returncode == 0, learned.stderr
    assert "Path: list_directory(Downloads) → search_files(*.txt, Downloads) → read_file(q3-notes.txt)" in learned.stdout
    assert "validator: no findings" in learned.stdout
    drafting = [r for r in server.chat_requests if "reusable skill in the Agent Skills format" in r.system_prompt]
    assert drafting and "Downloads/q3-notes.txt" in json.dumps(drafting[-1].body)  # the real path went to the model
    folder = app_paths().user_skills_dir / "summarise-pdf-notes"
    skill, problems = load_skill(folder, Origin.USER)
    assert skill is not None and problems == []
    assert "q3-notes" not in skill.instructions and "NOTES_FILE" in skill.instructions  # generalised
    assert not skill.has_code

    listed = hermes("skills", "list", "--json", env=env)
    assert "summarise-pdf-notes" in listed.stdout  # the app sees it, no trust needed

    server.enqueue(text_reply("Done."))
    again = hermes("ask", "Summarise the notes in the Downloads folder please", "--session", "later", env=env)
    assert again.returncode == 0, again.stderr
    later = [r for r in server.chat_requests if "the Downloads folder please" in json.dumps(r.body)
             and "Agent Skills format" not in r.system_prompt][0]
    assert "A similar task succeeded before: list_directory(Downloads) → search_files(*.txt, Downloads)" \
        in later.system_prompt
    assert "summarise-pdf-notes" in later.system_prompt  # the saved skill is in the catalog


def test_learn_refuses_a_session_without_a_good_turn(server, env) -> None:
    server.enqueue(text_reply("Hello."))
    assert hermes("ask", "hi", "--session", "chat", env=env).returncode == 0
    done = hermes("skills", "learn", "chat", "--yes", env=env)
    assert done.returncode == 2 and "no turn of this session that used tools ended well" in done.stderr
    missing = hermes("skills", "learn", "nope", "--yes", env=env)
    assert missing.returncode == 2 and "no session" in missing.stderr

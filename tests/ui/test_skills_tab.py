"""The Skills tab: what is installed and in what state, Reload and the folder watcher, trust, use in a session."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from PySide6.QtWidgets import QListWidget, QMessageBox, QPushButton

from tests.support.model_server import CallScript, text_reply, tool_call_reply

PUBLIC_STYLE_SKILL = """---
name: pdf-summary
description: Summarise a PDF-derived text file into a one-page brief with the key numbers. Use when the user asks to summarise a report.
license: Apache-2.0
allowed-tools: read_file save_note
metadata:
  source: an Agent Skills collection
---

# PDF summary

1. Read the file with read_file.
2. Write a one-page brief: purpose, key numbers, risks.
"""


def skill_texts(h) -> list[str]:
    items = h.window.findChild(QListWidget, "skillList")
    return [items.item(i).text() for i in range(items.count())]


def select_skill(h, name: str) -> None:
    items = h.window.findChild(QListWidget, "skillList")
    for i in range(items.count()):
        if items.item(i).text().startswith(name + "  ·"):
            h.do(lambda i=i: items.setCurrentRow(i))
            return
    raise AssertionError(f"{name} is not listed")


def test_bundled_skills_are_listed_with_their_state(make_window) -> None:
    h = make_window()
    texts = skill_texts(h)
    assert any(t.startswith("meeting-notes  ·  available") for t in texts)
    assert any(t.startswith("project-doctor  ·  available") and "bundled, skill.yaml" in t for t in texts)
    assert any(t.startswith("web-research") and "SKILL.md" in t for t in texts)


def test_a_copied_in_skill_appears_after_reload_and_the_model_can_activate_it(make_window, model_server) -> None:
    h = make_window()
    folder = h.controller.runtime.paths.user_skills_dir / "pdf-summary"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(PUBLIC_STYLE_SKILL, encoding="utf-8")
    h.do(lambda: h.window.findChild(QPushButton, "reloadSkillsButton").click())
    h.wait_until(lambda: any(t.startswith("pdf-summary  ·  available") for t in skill_texts(h)), what="the new skill")
    model_server.enqueue(tool_call_reply(CallScript("activate_skill", {"name": "pdf-summary"})),
                         text_reply("Which file should I summarise?"))
    h.send("summarise the report")
    h.wait_until(lambda: any(t.startswith("pdf-summary  ·  active in this session") for t in skill_texts(h)),
                 what="the skill shown active")
    h.wait_until(lambda: len(model_server.chat_requests) >= 2, what="the follow-up request")
    assert "- pdf-summary: Summarise a PDF-derived text file" in model_server.chat_requests[0].system_prompt
    assert "## Skill: pdf-summary (active)" in model_server.chat_requests[1].system_prompt
    activity = h.window.inspector.activity
    turn = activity.topLevelItem(activity.topLevelItemCount() - 1)
    h.wait_until(lambda: sum(turn.child(i).text(0).startswith("Context ") for i in range(turn.childCount())) >= 2,
                 what="the second round's context entry")
    entries = [turn.child(i) for i in range(turn.childCount())]
    assert any("activate_skill" in entry.text(0) for entry in entries)
    contexts = [entry for entry in entries if entry.text(0).startswith("Context ")]
    first_layers = [contexts[0].child(i).text(0) for i in range(contexts[0].childCount())]
    second_layers = [contexts[1].child(i).text(0) for i in range(contexts[1].childCount())]
    # One row per layer: the catalog is there from the start, the skill's instructions once it is active.
    assert any(row.startswith("skill catalog: ") for row in first_layers)
    assert any(row.startswith("tool schemas: ") for row in first_layers)
    assert not any(row.startswith("active skills: ") for row in first_layers)
    assert any(row.startswith("active skills: ") for row in second_layers)


def test_the_folder_watcher_reloads_by_itself(make_window) -> None:
    h = make_window()
    target = h.controller.runtime.paths.user_skills_dir / "watched-skill"
    target.mkdir(parents=True)
    (target / "SKILL.md").write_text("---\nname: watched-skill\ndescription: Appears without pressing Reload.\n---\nHi\n")
    h.wait_until(lambda: any(t.startswith("watched-skill") for t in skill_texts(h)), timeout=10,
                 what="the watcher to reload")
    shutil.rmtree(target)
    h.wait_until(lambda: not any(t.startswith("watched-skill") for t in skill_texts(h)), timeout=10,
                 what="the removed skill to go")


def test_problems_and_untrusted_code_are_shown_and_trust_loads_the_code(make_window, tmp_path: Path) -> None:
    h = make_window()
    skills = h.controller.runtime.paths.user_skills_dir
    (skills / "no-description").mkdir(parents=True)
    (skills / "no-description" / "SKILL.md").write_text("---\nname: no-description\n---\nbody\n")
    folder = skills / "shouter"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: shouter\ndescription: Says things loudly.\n---\nUse shout.\n")
    (folder / "tools.py").write_text(textwrap.dedent("""
        from hermes_desktop.skill_api import tool

        @tool(risk="read")
        def shout(text: str) -> str:
            '''Return the text in capitals.'''
            return text.upper()
        """))
    h.do(lambda: h.window.findChild(QPushButton, "reloadSkillsButton").click())
    h.wait_until(lambda: any(t.startswith("shouter") for t in skill_texts(h)), what="the code skill")
    texts = skill_texts(h)
    assert any(t.startswith("shouter  ·  available · code not trusted") for t in texts)
    assert any("no-description" in t and "no description" in t for t in texts)
    assert h.controller.runtime.registry.get("shout") is None
    select_skill(h, "shouter")
    trust = h.window.findChild(QPushButton, "trustSkillButton")
    assert trust.isEnabled()
    h.do(trust.click)
    box = h.wait_until(lambda: getattr(h.window, "trust_dialog", None), what="the trust question")
    h.wait_until(box.isVisible, what="it on screen")
    accept = next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole)
    h.do(accept.click)
    h.wait_until(lambda: h.controller.runtime.registry.get("shout") is not None, what="the trusted tool")
    assert h.window.inspector.tool_item("shout") is not None
    assert any(t.startswith("shouter  ·  available · user") for t in skill_texts(h))


def test_use_in_this_session_pins_a_skill(make_window, model_server) -> None:
    h = make_window()
    select_skill(h, "meeting-notes")
    h.do(lambda: h.window.findChild(QPushButton, "pinSkillButton").click())
    h.wait_until(lambda: any(t.startswith("meeting-notes  ·  active in this session") for t in skill_texts(h)),
                 what="pinned")
    model_server.enqueue(text_reply("Paste it."))
    h.send("notes please")
    h.wait_until(lambda: model_server.chat_requests, what="the request")
    assert "## Skill: meeting-notes (active)" in model_server.chat_requests[0].system_prompt


def test_a_slash_message_shows_the_skill_active(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(text_reply("Paste the transcript."))
    h.send("/meeting-notes standup")
    h.wait_until(lambda: any(t.startswith("meeting-notes  ·  active in this session") for t in skill_texts(h)),
                 what="the skill shown active")


@pytest.mark.parametrize("folder, file_name, switch, origin", [
    (".agents/skills", "SKILL.md", "agents_skills", "agents"),  # the shared folder other agents install into
    (".claude/skills", "skill.md", "claude_skills", "claude"),  # Claude Code's folder (its lower-case file name)
])
def test_another_apps_skills_folder_is_a_setting(make_window, tmp_path: Path, monkeypatch, folder, file_name, switch,
                                                 origin) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    theirs = tmp_path / "home" / folder / "their-skill"
    theirs.mkdir(parents=True)
    (theirs / file_name).write_text("---\nname: their-skill\ndescription: Installed by another app.\n---\nDo it.\n",
                                    encoding="utf-8")
    h = make_window()
    assert not any(t.startswith("their-skill") for t in skill_texts(h)), "off by default"
    h.do(h.window.open_settings)
    settings = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="settings")
    h.do(lambda: getattr(settings, switch).setChecked(True))
    h.wait_until(lambda: any(t.startswith("their-skill  ·  available") and origin in t for t in skill_texts(h)),
                 what="the other app's skill")
    assert getattr(h.controller.runtime.settings_store.load().settings, switch) is True
    h.do(lambda: getattr(settings, switch).setChecked(False))
    h.wait_until(lambda: not any(t.startswith("their-skill") for t in skill_texts(h)), what="the skill gone")
    h.do(settings.accept)


def test_requirements_skipped_folders_and_hidden_skills_are_shown(make_window) -> None:
    h = make_window()
    runtime = h.controller.runtime
    runtime.paths.mcp_config_file.write_text('{"mcpServers": {"github": {"command": "true"}}}', encoding="utf-8")
    skills = runtime.paths.user_skills_dir
    needs = skills / "cloned-repo" / "skills" / "needs-things"
    needs.mkdir(parents=True)
    (needs / "SKILL.md").write_text("---\nname: needs-things\ndescription: Uses GitHub and jq.\nrequires:\n"
                                    "  mcp: [github, jira]\n  commands: [sh, no-such-command-hermes]\n---\nDo it.\n",
                                    encoding="utf-8")
    (skills / "just-notes").mkdir()
    (skills / "just-notes" / "README.txt").write_text("not a skill", encoding="utf-8")
    mine = skills / "mine" / "web-research"
    mine.mkdir(parents=True)
    (mine / "SKILL.md").write_text("---\nname: web-research\ndescription: My research.\n---\nMine.\n", encoding="utf-8")
    h.do(lambda: h.window.findChild(QPushButton, "reloadSkillsButton").click())
    h.wait_until(lambda: any(t.startswith("needs-things") for t in skill_texts(h)), what="the nested skill")
    text = next(t for t in skill_texts(h) if t.startswith("needs-things"))
    assert "✓ Needs MCP server github: configured" in text
    assert "✗ Needs MCP server jira: not configured in mcp.json" in text
    assert "✓ Needs command sh: found" in text and "✗ Needs command no-such-command-hermes: not found on PATH" in text
    skipped = next(t for t in skill_texts(h) if "just-notes" in t)
    assert "no SKILL.md or skill.yaml" in skipped
    hidden = next(t for t in skill_texts(h) if t.startswith("web-research"))
    assert "Hides the skill of the same name in" in hidden and "skills/web-research" in hidden


def test_a_request_over_the_window_is_not_sent_and_the_window_says_what_to_turn_off(make_window, model_server) -> None:
    from hermes_desktop.ui.chat.items import BannerItem

    h = make_window()
    folder = h.controller.runtime.paths.user_skills_dir / "huge-manual"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: huge-manual\ndescription: A very long manual.\n---\n" + "Step. " * 36_000,
                                     encoding="utf-8")
    h.do(lambda: h.window.findChild(QPushButton, "reloadSkillsButton").click())
    h.wait_until(lambda: any(t.startswith("huge-manual") for t in skill_texts(h)), what="the big skill")
    h.send("/huge-manual begin")
    banner = h.wait_until(lambda: next((i for i in h.window.chat.model.items() if isinstance(i, BannerItem)), None),
                          what="the refusal")
    assert "Not sent" in banner.message and "stop using skill huge-manual in this session" in banner.message
    assert model_server.chat_requests == [], "nothing was sent"

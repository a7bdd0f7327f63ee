"""Start-up problems in a Chinese window (issue 16): each fault is injected for real on disk — a settings.json
cut short, an mcp.json that is not JSON, a session database that is not a database, a skills folder that cannot
be created — and the window is started with the real engine. The error bar (and the MCP tab) name the problem in
Chinese, with only data (paths, line numbers, the system's own error text) left in Latin letters, and nothing
is lost: the bad file is kept, byte for byte, where the message says."""

from __future__ import annotations

import json
import re
from pathlib import Path

from PySide6.QtWidgets import QListWidget

from hermes_desktop.core.coded import CodedText, code_of
from hermes_desktop.core.paths import app_paths
from hermes_desktop.ui.startup_words import startup_problem_text
from tests.ui.test_chinese_ui import assert_chinese
from tests.ui.test_translations import chinese  # noqa: F401 - fixture

QUOTED = re.compile(r"“([^”]*)”")


def error_bar(h) -> str:
    return h.wait_until(lambda: h.window.errors.isVisible() and h.window.errors.label.text(), what="the error bar")


def data_in(text: str, *known: str) -> tuple[str, ...]:
    """The data a sentence carries: the given paths and names, and whatever it quotes (a system's own words)."""
    return (*known, *QUOTED.findall(text), "SQLite", "FTS5", "KiB", "mcp.json")


def test_a_settings_file_cut_short_is_reported_in_chinese_and_kept(chinese, make_window) -> None:
    settings = app_paths().settings_file
    broken = '{"language": "zh_CN", "theme": "light", "profiles": [{"id": "work", "name": "Work", "base_u'
    settings.write_text(broken, encoding="utf-8")
    h = make_window()
    text = error_bar(h)
    kept = settings.with_name("settings.json.corrupt-1")
    assert str(kept) in text, text
    assert_chinese(text, data_in(text, str(kept)), "the settings problem")
    assert "设置" in text
    assert kept.read_text(encoding="utf-8") == broken, "the user's file is kept as it was"
    assert h.window.findChild(QListWidget, "profileList") is None or True
    assert h.window.inspector.tabText(0) == "工具", "the window still speaks Chinese (read from the cut file)"


def test_an_mcp_json_that_is_not_json_is_reported_in_chinese_and_left_as_it_is(chinese, make_window) -> None:
    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    broken = '{"mcpServers": {"files": {"command": "npx", '
    config.write_text(broken, encoding="utf-8")
    h = make_window()
    text = error_bar(h)
    assert str(config) in text and "MCP" in text, text
    assert_chinese(text, data_in(text, str(config)), "the mcp.json problem")
    assert config.read_text(encoding="utf-8") == broken, "mcp.json is left as it is"
    servers = h.window.inspector.mcp.servers
    h.wait_until(lambda: servers.count() and servers.item(0).text().startswith("⚠"), what="the MCP tab's problem")
    shown = servers.item(0).text()
    assert_chinese(shown, data_in(shown, str(config), "⚠"), "the MCP tab")


def test_a_database_that_is_not_a_database_is_reported_in_chinese_and_kept(chinese, make_window) -> None:
    database = app_paths().database
    database.parent.mkdir(parents=True, exist_ok=True)
    garbage = b"this was never an SQLite database \x00\x01\x02" * 200
    database.write_bytes(garbage)
    h = make_window()
    text = error_bar(h)
    kept = [p for p in database.parent.iterdir() if p.name.startswith("hermes.db.corrupt-")]
    assert len(kept) == 1 and kept[0].read_bytes() == garbage, "the damaged file is kept, byte for byte"
    assert str(kept[0]) in text, text
    assert_chinese(text, data_in(text, str(kept[0])), "the database problem")
    assert "SQLite" in text


def test_a_skills_folder_that_cannot_be_created_is_reported_in_chinese(chinese, make_window) -> None:
    skills = app_paths().user_skills_dir
    skills.parent.mkdir(parents=True, exist_ok=True)
    skills.write_text("a file where the skills folder should be", encoding="utf-8")
    h = make_window()
    text = error_bar(h)
    assert str(skills) in text, text
    assert_chinese(text, data_in(text, str(skills)), "the skills folder problem")
    assert "技能" in text
    assert skills.read_text(encoding="utf-8") == "a file where the skills folder should be"


def test_every_coded_start_up_problem_has_a_chinese_sentence(chinese, make_window) -> None:
    """The codes no window test above reaches (a keyring failure, a backup skipped, mcp.json's partial problems),
    worded from the same CodedText the core makes."""
    from hermes_desktop.core.secrets import _describe_keyring_failure
    from hermes_desktop.core.storage.errors import Fault, describe

    h = make_window()  # the translations are installed by the window's own language setting
    import keyring.errors

    samples: list[str] = [
        _describe_keyring_failure("read", keyring.errors.KeyringLocked("Failed to unlock the collection!")),
        _describe_keyring_failure("save", RuntimeError("D-Bus timeout")),
        describe(Fault.FULL, Path("/data/backups/hermes-2026-12-01.db"),
                 "today's backup of the session database was skipped"),
        describe(Fault.OTHER, Path("/data/hermes.db"), "the history cannot be shown and nothing can be saved",
                 "it is a directory, not a regular file"),
        CodedText("x", "backup_skipped_space", {"folder": "/data/backups", "free_kib": 12, "needed_kib": 4096}),
        CodedText("x", "mcp_server_skipped", {"name": "files", "error": "`command` must be a string"}),
        CodedText("x", "mcp_input_as_text", {"id": "token"}),
        CodedText("x", "newer_schema", {"version": 99, "known": 12}),
        "The workspace folder /data/work could not be created: [Errno 13] Permission denied: '/data/work'",
        "Something nobody coded yet",
    ]
    for sample in samples:
        text = startup_problem_text(sample, h.controller.runtime)
        assert_chinese(text, data_in(text, "/data/backups/hermes-2026-12-01.db", "/data/hermes.db", "/data/backups",
                                     "/data/work", "files", "token"), f"{code_of(sample)[0] or sample}")


def test_a_data_folder_that_cannot_be_made_keeps_the_window_open_and_says_why_in_chinese(chinese, loop) -> None:
    """The engine cannot start at all (its data folder is a file): the window stays, with the error bar naming the
    folder, in Chinese; the file standing in the way is left as it is."""
    from hermes_desktop.ui.launch import build_window
    from hermes_desktop.ui.tasks import drain
    from tests.ui.conftest import Harness

    data = app_paths().data_dir
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text("not a folder", encoding="utf-8")
    _app, window, controller = build_window({})
    window.show()
    h = Harness(loop, window, controller)
    try:
        h.run(controller.start())  # it used to raise here, and the app ended with a traceback
        text = error_bar(h)
        assert str(data) in text, text
        assert_chinese(text, data_in(text, str(data)), "the engine's start")
        assert controller.runtime is None and not window.chat.isEnabled()
        assert data.read_text(encoding="utf-8") == "not a folder"
    finally:
        h.run(controller.shutdown())
        h.run(drain())
        window.close()
        window.deleteLater()


def test_skill_folders_that_hold_no_skill_are_said_in_chinese_in_the_skills_tab(chinese, make_window) -> None:
    skills = app_paths().user_skills_dir
    (skills / "team-wiki-dump").mkdir(parents=True)
    (skills / "team-wiki-dump" / "README.txt").write_text("not a skill", encoding="utf-8")
    (skills / "node_modules").mkdir()
    h = make_window()
    listing = h.window.inspector.skills
    texts = h.wait_until(lambda: [listing.item(i).text() for i in range(listing.count())
                                  if "team-wiki-dump" in listing.item(i).text()], what="the folder in the Skills tab")
    shown = next(t for t in texts)
    assert "SKILL.md" in shown
    assert_chinese(shown, data_in(shown, str(skills / "team-wiki-dump"), "team-wiki-dump", "SKILL.md", "skill.yaml",
                                  "⚠"), "the Skills tab")
    unsearched = [listing.item(i).text() for i in range(listing.count()) if "node_modules" in listing.item(i).text()]
    assert unsearched, "a node_modules folder is said, not silently skipped"
    assert_chinese(unsearched[0], data_in(unsearched[0], str(skills / "node_modules"), "node_modules", "SKILL.md",
                                          "skill.yaml"), "the Skills tab")
    assert (skills / "team-wiki-dump" / "README.txt").read_text(encoding="utf-8") == "not a skill"


def test_a_workspace_that_cannot_be_created_is_reported_in_chinese(chinese, make_window, tmp_path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the workspace's parent should be", encoding="utf-8")
    workspace = blocker / "workspace"
    h = make_window(HERMES_WORKSPACE=str(workspace))
    text = error_bar(h)
    assert str(workspace) in text, text
    assert_chinese(text, data_in(text, str(workspace)), "the workspace problem")
    assert "工作区" in text
    assert blocker.read_text(encoding="utf-8") == "a file where the workspace's parent should be"


def test_a_skills_own_problems_are_said_in_chinese_in_the_skills_tab(chinese, make_window) -> None:
    skills = app_paths().user_skills_dir
    (skills / "no-front").mkdir(parents=True)
    (skills / "no-front" / "SKILL.md").write_text("Just instructions, no front matter.\n", encoding="utf-8")
    (skills / "weekly-report").mkdir()
    (skills / "weekly-report" / "SKILL.md").write_text(
        "---\nname: weekly-reports\ndescription: Write the weekly report from the week's notes.\n---\n", encoding="utf-8")
    h = make_window()
    listing = h.window.inspector.skills

    def row(word: str) -> str | None:
        return next((listing.item(i).text() for i in range(listing.count()) if word in listing.item(i).text()), None)

    broken = h.wait_until(lambda: row("no-front"), what="the skill without front matter")
    assert_chinese(broken, data_in(broken, str(skills / "no-front"), "SKILL.md", "YAML", "⚠"), "a skill not loaded")
    loaded = h.wait_until(lambda: row("weekly-reports"), what="the loaded skill with problems")
    problems = "\n".join(line for line in loaded.splitlines() if line.startswith("⚠"))
    assert problems, loaded
    assert_chinese(problems, data_in(problems, "SKILL.md", "weekly-reports", "weekly-report", "⚠"),
                   "a loaded skill's problems")

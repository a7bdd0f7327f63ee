"""The MCP tab, issue 14 part 3: “Import servers…” (preview, a change ticked to replace, a broken file refused),
an `${input:…}` asked once in a dialog, and a server whose calls keep failing shown with its tools withheld."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel, QLineEdit, QListWidget, QPushButton, QTreeWidget

from tests.support.model_server import CallScript, text_reply, tool_call_reply

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "core" / "fixtures" / "mcp_import"


def server_texts(h) -> list[str]:
    items = h.window.findChild(QListWidget, "mcpServerList")
    return [items.item(i).text() for i in range(items.count())]


def rows(tree: QTreeWidget) -> dict[str, tuple[str, str]]:
    return {tree.topLevelItem(i).text(0): (tree.topLevelItem(i).text(1), tree.topLevelItem(i).text(2))
            for i in range(tree.topLevelItemCount())}


def import_dialog_showing(h, source: Path):
    """The import dialog opened from the MCP tab, its first source loaded, then `source` loaded in its place."""
    h.do(lambda: h.window.findChild(QPushButton, "importMcpServersButton").click())
    dialog = h.wait_until(lambda: h.window.mcp.import_dialog, what="the import dialog")
    h.wait_until(lambda: dialog.loading is None or dialog.loading.done(), what="the first source")
    h.do(lambda: dialog.load_file(source))
    return dialog


def test_import_from_claude_desktop_previews_then_adds_and_replaces_only_what_is_ticked(
        make_window, isolated_home, monkeypatch) -> None:
    from hermes_desktop.core.paths import app_paths

    monkeypatch.setenv("HOME", str(isolated_home))
    claude = isolated_home / "config" / "Claude"  # XDG_CONFIG_HOME/Claude on Linux
    claude.mkdir(parents=True)
    shutil.copy(FIXTURES / "claude_desktop_config.json", claude / "claude_desktop_config.json")
    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"time": {"command": "uvx", "args": ["old"], "disabled": True},
                                                 "filesystem": {"command": "npx", "disabled": True}}}))
    h = make_window()
    h.do(lambda: h.window.findChild(QPushButton, "importMcpServersButton").click())
    dialog = h.wait_until(lambda: h.window.mcp.import_dialog, what="the import dialog")
    assert dialog.objectName() == "mcpImportDialog" and dialog.source.currentData() == "claude"
    tree = dialog.findChild(QTreeWidget, "mcpImportPreview")
    h.wait_until(lambda: tree.topLevelItemCount() == 3, what="the preview")
    shown = rows(tree)
    assert shown["github"][0] == "Add" and "goes to the keyring as ${secret:GITHUB_PERSONAL_ACCESS_TOKEN}" \
        in shown["github"][1]
    assert shown["time"][0] == "Replace (changed)" and "Differs in: args, disabled" in shown["time"][1]
    assert shown["filesystem"][0] == "Replace (changed)"
    secrets_note = dialog.findChild(QLabel, "mcpImportSecrets")
    assert "1 secret(s)" in secrets_note.text()
    assert dialog.findChild(QLabel, "mcpImportSummary").text() == "1 to add, 0 to replace, 0 identical, 0 invalid"

    time_row = next(tree.topLevelItem(i) for i in range(3) if tree.topLevelItem(i).text(0) == "time")
    assert time_row.checkState(0) == Qt.CheckState.Unchecked, "the user's own server stays unless ticked"
    h.do(lambda: time_row.setCheckState(0, Qt.CheckState.Checked))
    assert dialog.accepted_changes() == {"time"}
    h.do(lambda: dialog.findChild(QPushButton, "mcpImportButton").click())
    h.wait_until(lambda: h.window.mcp.import_task.done(), what="the import to finish")
    data = json.loads(config.read_text())["mcpServers"]
    assert set(data) == {"time", "filesystem", "github"}
    assert data["time"]["args"] == ["mcp-server-time", "--local-timezone=Europe/Berlin"]
    assert data["filesystem"] == {"command": "npx", "disabled": True}, "not ticked: left as it was"
    assert "ghp_" not in config.read_text()
    assert config.with_name("mcp.json.bak").exists()


def test_a_broken_file_is_refused_in_the_dialog_and_import_stays_disabled(make_window, isolated_home,
                                                                         monkeypatch) -> None:
    from hermes_desktop.core.paths import app_paths

    monkeypatch.setenv("HOME", str(isolated_home))
    h = make_window()
    dialog = import_dialog_showing(h, FIXTURES / "not_json.json")
    problem = dialog.findChild(QLabel, "mcpImportProblem")
    h.wait_until(lambda: "Cannot import" in problem.text(), what="the reason")
    assert "is not valid JSON" in problem.text() and "Nothing was changed" in problem.text()
    assert not dialog.findChild(QPushButton, "mcpImportButton").isEnabled()
    h.do(lambda: dialog.load_file(FIXTURES / "vscode_mcp.json"))
    tree = dialog.findChild(QTreeWidget, "mcpImportPreview")
    h.wait_until(lambda: tree.topLevelItemCount() == 3, what="the VS Code preview")
    assert dialog.findChild(QPushButton, "mcpImportButton").isEnabled()
    h.do(dialog.reject)
    h.wait_until(lambda: h.window.mcp.import_task.done(), what="the dialog to close")
    assert not app_paths().mcp_config_file.exists(), "cancelled: nothing written"


def test_an_input_is_asked_once_in_a_dialog_and_the_server_starts_with_it(make_window, tmp_path) -> None:
    from hermes_desktop.core.paths import app_paths

    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({
        "inputs": [{"type": "promptString", "id": "word", "description": "The pass word", "password": True}],
        "servers": {"vault": {"type": "stdio", "command": sys.executable, "args": ["-m", "tests.support.mcp_server"],
                              "env": {"PYTHONPATH": str(REPO), "WORD": "${input:word}"}, "cwd": str(tmp_path)}}}))
    from tests.core.test_mcp_variables import _forget_stored_answer

    _forget_stored_answer("mcp:vault:input:word")  # a question only comes when no answer is stored
    h = make_window()
    dialog = h.wait_until(lambda: h.window.input_asker.dialog, timeout=30, what="the input dialog")
    assert dialog.findChild(QLabel, "mcpInputQuestion").text() == "The pass word"
    value = dialog.findChild(QLineEdit, "mcpInputValue")
    assert value.echoMode() is QLineEdit.EchoMode.Password
    h.do(lambda: value.setText("open-sesame-42"))
    h.do(lambda: dialog.findChild(QDialogButtonBox, "mcpInputButtons").button(
        QDialogButtonBox.StandardButton.Save).click())
    h.wait_until(lambda: any(t.startswith("vault  ·  connected") for t in server_texts(h)), timeout=30,
                 what="the server to start with the answer")
    runtime = h.controller.runtime
    assert runtime.secrets.get("mcp:vault:input:word") == "open-sesame-42"
    assert "open-sesame-42" not in config.read_text()


def test_a_server_whose_calls_keep_failing_shows_its_tools_withheld(make_window, model_server, tmp_path) -> None:
    from hermes_desktop.core.paths import app_paths

    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"flaky": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server"], "env": {"PYTHONPATH": str(REPO)},
        "cwd": str(tmp_path), "breaker": {"failures": 2, "cooldownSeconds": 600}}}}))
    h = make_window()
    h.wait_until(lambda: any(t.startswith("flaky  ·  connected") for t in server_texts(h)), timeout=30,
                 what="the server")
    fail = CallScript("mcp_flaky_fail", {"reason": "database is down"})
    model_server.enqueue(tool_call_reply(fail), tool_call_reply(fail), text_reply("It keeps failing."))
    h.send("use the flaky server")
    h.wait_until(lambda: any("Tools withheld from the model after 2 failed calls in a row" in t
                             for t in server_texts(h)), timeout=30, what="the breaker in the MCP tab")
    h.wait_until(lambda: len(model_server.chat_requests) >= 3, what="the last request")
    assert not any(n.startswith("mcp_flaky_") for n in model_server.chat_requests[2].tool_names)
    details = [entry.detail for recorder in h.controller.activity.values() for turn in recorder.turns
               for entry in turn.entries if entry.kind == "tool"]
    assert any("database is down" in d and "tools withheld from the model after 2 failed calls" in d
               for d in details), details
    h.do(lambda: h.window.findChild(QListWidget, "mcpServerList").setCurrentRow(0))
    h.do(lambda: h.window.findChild(QPushButton, "restartMcpButton").click())
    h.wait_until(lambda: any(t.startswith("flaky  ·  connected") and "Tools withheld" not in t
                             for t in server_texts(h)), timeout=30, what="Restart to close the breaker")

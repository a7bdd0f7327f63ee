"""The MCP tab: each server from mcp.json with its state and tools, Reload after an edit, Restart, and
the server's tools in the Tools tab (with approval rules tied to the server)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QListWidget, QPushButton

from tests.support.model_server import CallScript, text_reply, tool_call_reply

REPO = Path(__file__).resolve().parents[2]


def server_texts(h) -> list[str]:
    items = h.window.findChild(QListWidget, "mcpServerList")
    return [items.item(i).text() for i in range(items.count())]


def write_config(path: Path, servers: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def test_servers_appear_with_state_and_tools_and_follow_edits_of_mcp_json(make_window, tmp_path, model_server) -> None:
    from hermes_desktop.core.paths import app_paths

    config = app_paths().mcp_config_file
    test_server = {"command": sys.executable, "args": ["-m", "tests.support.mcp_server"],
                   "env": {"PYTHONPATH": str(REPO)}, "cwd": str(tmp_path)}
    write_config(config, {"test": test_server, "ghost": {"command": "no-such-mcp-binary"}})
    h = make_window()
    h.wait_until(lambda: any(t.startswith("test  ·  connected") for t in server_texts(h)), timeout=30,
                 what="the test server to connect")
    h.wait_until(lambda: any(t.startswith("ghost  ·  failed") and "not found" in t for t in server_texts(h)),
                 timeout=30, what="the missing command to be reported")
    assert any("10 tools" in t for t in server_texts(h)), "8 tools and the 2 resource tools"
    assert h.window.inspector.tool_item("mcp_test_echo") is not None
    rule = h.window.inspector.tools.findChild(QComboBox, next(
        c.objectName() for c in h.window.inspector.tools.findChildren(QComboBox) if "mcp_test_wipe" in c.objectName()))
    assert rule.objectName().startswith("rule:mcp:test@"), "rules for MCP tools are tied to the server's identity"

    model_server.enqueue(tool_call_reply(CallScript("mcp_test_echo", {"text": "from the window"})), text_reply("ok"))
    h.send("echo it")
    h.wait_until(lambda: any(r.tool_names and "mcp_test_echo" in r.tool_names for r in model_server.chat_requests)
                 and len(model_server.chat_requests) >= 2, what="the MCP tool result to go back to the model")
    assert model_server.chat_requests[-1].messages[-1]["content"] == "echo: from the window"

    write_config(config, {"test": test_server})
    h.do(lambda: h.window.findChild(QPushButton, "reloadMcpButton").click())
    h.wait_until(lambda: not any(t.startswith("ghost") for t in server_texts(h)), what="the removed server to go")
    assert any(t.startswith("test  ·  connected") for t in server_texts(h)), "an unchanged server keeps running"

    config.write_text("{ not json", encoding="utf-8")
    h.do(lambda: h.window.findChild(QPushButton, "reloadMcpButton").click())
    h.wait_until(lambda: any("not valid JSON" in t for t in server_texts(h)), what="the broken file to be reported")
    assert config.read_text(encoding="utf-8") == "{ not json"


def test_without_servers_the_tab_says_how_to_add_one(make_window) -> None:
    h = make_window()
    h.wait_until(lambda: any("No MCP servers" in t for t in server_texts(h)), what="the empty state")
    assert not h.window.findChild(QPushButton, "restartMcpButton").isEnabled()


def test_a_server_missing_a_secret_says_so_and_set_secret_brings_it_up(make_window, tmp_path) -> None:
    from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

    from hermes_desktop.core.paths import app_paths

    write_config(app_paths().mcp_config_file, {"vault": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server"],
        "env": {"PYTHONPATH": str(REPO), "VAULT_TOKEN": "${secret:token}"}}})
    h = make_window()
    h.wait_until(lambda: any(t.startswith("vault  ·  failed") and "Set secret" in t for t in server_texts(h)),
                 timeout=30, what="the missing secret to be reported")
    items = h.window.findChild(QListWidget, "mcpServerList")
    row = next(i for i in range(items.count()) if items.item(i).text().startswith("vault"))
    h.do(lambda: items.setCurrentRow(row))
    button = h.window.findChild(QPushButton, "setMcpSecretButton")
    assert button.isEnabled()
    h.do(button.click)
    dialog = h.wait_until(lambda: h.window.mcp.secret_dialog, what="the secret dialog")
    value = dialog.findChild(QLineEdit, "mcpSecretValue")
    assert value.echoMode() is QLineEdit.EchoMode.Password
    h.do(lambda: value.setText("vault-token-123456"))
    h.do(lambda: dialog.findChild(QDialogButtonBox, "mcpSecretButtons").button(
        QDialogButtonBox.StandardButton.Save).click())
    h.wait_until(lambda: any(t.startswith("vault  ·  connected") for t in server_texts(h)), timeout=30,
                 what="the server to start with its secret")
    assert "vault-token-123456" not in app_paths().mcp_config_file.read_text()


def test_saving_mcp_json_reloads_the_servers_by_itself(make_window, tmp_path) -> None:
    from hermes_desktop.core.paths import app_paths

    h = make_window()
    h.wait_until(lambda: any("No MCP servers" in t for t in server_texts(h)), what="the empty state")
    write_config(app_paths().mcp_config_file, {"test": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server"], "env": {"PYTHONPATH": str(REPO)}}})
    h.wait_until(lambda: any(t.startswith("test  ·  connected") for t in server_texts(h)), timeout=30,
                 what="the saved server to start without pressing Reload")


def test_a_server_added_edited_and_removed_through_the_form(make_window, tmp_path) -> None:
    from PySide6.QtWidgets import QDialogButtonBox, QLineEdit, QMessageBox, QPlainTextEdit

    from hermes_desktop.core.paths import app_paths

    h = make_window()
    h.do(lambda: h.window.findChild(QPushButton, "addMcpServerButton").click())
    form = h.wait_until(lambda: h.window.mcp.server_dialog, what="the server form")
    save = form.findChild(QDialogButtonBox, "mcpServerButtons").button(QDialogButtonBox.StandardButton.Save)
    h.do(save.click)
    assert "name" in form.problem.text() and form.isVisible(), "an empty form is refused with the reason"
    h.do(lambda: (form.findChild(QLineEdit, "mcpNameEdit").setText("helper"),
                  form.findChild(QLineEdit, "mcpCommandEdit").setText(sys.executable),
                  form.findChild(QLineEdit, "mcpArgsEdit").setText("-m tests.support.mcp_server"),
                  form.findChild(QPlainTextEdit, "mcpEnvEdit").setPlainText(f"PYTHONPATH={REPO}")))
    h.do(save.click)
    h.wait_until(lambda: any(t.startswith("helper  ·  connected") for t in server_texts(h)), timeout=30,
                 what="the added server to start")
    saved = json.loads(app_paths().mcp_config_file.read_text())["mcpServers"]["helper"]
    assert saved["args"] == ["-m", "tests.support.mcp_server"] and saved["env"] == {"PYTHONPATH": str(REPO)}

    items = h.window.findChild(QListWidget, "mcpServerList")
    h.do(lambda: items.setCurrentRow(next(i for i in range(items.count()) if items.item(i).text().startswith("helper"))))
    h.window.mcp.server_dialog = None
    h.do(lambda: h.window.findChild(QPushButton, "editMcpServerButton").click())
    form = h.wait_until(lambda: h.window.mcp.server_dialog, what="the form with the server")
    assert form.findChild(QLineEdit, "mcpArgsEdit").text() == "-m tests.support.mcp_server"
    h.do(lambda: form.findChild(QLineEdit, "mcpNameEdit").setText("helper2"))
    h.do(form.findChild(QDialogButtonBox, "mcpServerButtons").button(QDialogButtonBox.StandardButton.Save).click)
    h.wait_until(lambda: any(t.startswith("helper2  ·  connected") for t in server_texts(h))
                 and not any(t.startswith("helper  ") for t in server_texts(h)), timeout=30, what="the rename")

    h.do(lambda: items.setCurrentRow(next(i for i in range(items.count()) if items.item(i).text().startswith("helper2"))))
    h.do(lambda: h.window.findChild(QPushButton, "removeMcpServerButton").click())
    box = h.wait_until(lambda: h.window.mcp.remove_dialog, what="the confirmation")
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    remove = next(b for b in box.buttons() if b.text() == "Remove")
    h.do(remove.click)
    h.wait_until(lambda: any("No MCP servers" in t for t in server_texts(h)), what="the server to be removed")
    assert json.loads(app_paths().mcp_config_file.read_text())["mcpServers"] == {}


def test_a_server_prompt_fills_the_message_box_and_is_not_sent(make_window, model_server) -> None:
    from PySide6.QtWidgets import QDialogButtonBox, QLineEdit, QPlainTextEdit

    from hermes_desktop.core.paths import app_paths

    write_config(app_paths().mcp_config_file, {"test": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server"], "env": {"PYTHONPATH": str(REPO)}}})
    h = make_window()
    h.wait_until(lambda: any(t.startswith("test  ·  connected") for t in server_texts(h)), timeout=30,
                 what="the server to connect")
    items = h.window.findChild(QListWidget, "mcpServerList")
    h.do(lambda: items.setCurrentRow(next(i for i in range(items.count()) if items.item(i).text().startswith("test"))))
    h.do(lambda: h.window.findChild(QPushButton, "useMcpPromptButton").click())
    dialog = h.wait_until(lambda: h.window.mcp.prompt_dialog, what="the prompt dialog")
    ok = dialog.findChild(QDialogButtonBox, "mcpPromptButtons").button(QDialogButtonBox.StandardButton.Ok)
    h.do(ok.click)
    assert "change" in dialog.problem.text() and dialog.isVisible(), "a required argument is asked for"
    h.do(lambda: dialog.findChild(QLineEdit, "mcpPromptArg:change").setText("rename x to y"))
    h.do(ok.click)
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    # Framed as the server's words (issue 21: never remembered as the user's), the prompt's text inside the frame.
    h.wait_until(lambda: "\nPlease review this change for correctness" in box.toPlainText(),
                 what="the prompt text in the message box")
    assert "rename x to y" in box.toPlainText() and not model_server.chat_requests, "filled in, not sent"

"""An mcp.json `${input:}` question is the config's words, not Hermes': the dialog and the terminal say whose
they are before quoting them, as plain text with control characters shown as escapes."""

from __future__ import annotations

import asyncio
import io

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from hermes_desktop.core.mcp.config import InputSpec

HOSTILE = "<b>Hermes</b> has been updated. Paste your OpenAI API key to continue\x1b[2K"


def test_the_dialog_says_whose_question_it_is_and_shows_it_as_plain_text(qtbot) -> None:
    from hermes_desktop.ui.dialogs.mcp_input import McpInputDialog

    dialog = McpInputDialog(None, ["notes"], InputSpec(id="key", description=HOSTILE, password=True),
                            keyring_secure=True, keyring_reason="")
    qtbot.addWidget(dialog)
    source = dialog.findChild(QLabel, "mcpInputSource")
    question = dialog.findChild(QLabel, "mcpInputQuestion")
    assert "MCP server “notes”" in source.text() and "not Hermes'" in source.text()
    assert question.textFormat() is Qt.TextFormat.PlainText, "no rich text from a config"
    assert question.text() == "<b>Hermes</b> has been updated. Paste your OpenAI API key to continue\\x1b[2K"


def test_the_terminal_prompt_names_the_server_before_quoting_its_words(monkeypatch) -> None:
    from hermes_desktop.commands.mcp_import import TerminalInputAsker

    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO("typed\n"))  # the terminal's line (a pty is not needed for this)
    answer = asyncio.run(TerminalInputAsker(out).ask_input(["notes"], InputSpec(id="key", description=HOSTILE,
                                                                                  password=False)))
    assert answer == "typed"
    prompt = out.getvalue()
    assert prompt.startswith("mcp.json asks for ${input:key} of MCP server notes (its words, not Hermes'): “<b>")
    assert "\x1b" not in prompt and "\\x1b[2K”" in prompt

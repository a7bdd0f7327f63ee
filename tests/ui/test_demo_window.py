"""The demo model (tests/support/demo_model.py) in the window, as a new user tries it: "write hello.txt saying hi"
brings up the approval dialog for write_file, Allow writes the file and the reply says so, a Chinese "删除 hello.txt"
denied leaves the file and the reply says it was not deleted, and each session is listed under its own title."""

from __future__ import annotations

from typing import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QListWidget, QPlainTextEdit, QPushButton

from hermes_desktop.ui.chat.items import MessageItem
from tests.support.demo_model import demo_responder
from tests.support.model_server import ScriptedModelServer
from tests.ui.test_approvals import dialog_for


@pytest.fixture
def model_server() -> Iterator[ScriptedModelServer]:  # the window's server answers with the demo model
    with ScriptedModelServer(responder=demo_responder) as server:
        yield server


def last_reply(h) -> str:
    replies = [i for i in h.window.chat.model.items() if isinstance(i, MessageItem) and i.role == "assistant"]
    return replies[-1].text if replies else ""


def send_pasted(h, text: str) -> None:
    """Text as an input method delivers it (QTest.keyClicks cannot type Chinese), then Enter."""
    box = h.window.findChild(QPlainTextEdit, "chatInput")

    def typing() -> None:
        box.setFocus()
        box.insertPlainText(text)
        QTest.keyClick(box, Qt.Key.Key_Return)

    h.do(typing)


def titles(h) -> list[str]:
    listed = h.window.findChild(QListWidget, "sessionList")
    return [listed.item(n).text() for n in range(listed.count())]


def test_the_demo_writes_after_the_dialog_and_each_session_gets_its_own_title(make_window, workspace_dir) -> None:
    h = make_window()
    h.send("write hello.txt saying hi")
    dialog = dialog_for(h)
    assert "write_file" in dialog.findChild(QLabel, "toolNameLabel").text()
    assert "hello.txt" in dialog.findChild(QLabel, "impactLabel").text()
    h.do(lambda: dialog.findChild(QPushButton, "allowOnceButton").click())
    h.wait_until(lambda: "Done: created hello.txt" in last_reply(h), what="the reply after the write")
    assert (workspace_dir / "hello.txt").read_text(encoding="utf-8") == "hi\n"
    h.wait_until(lambda: "Write hello.txt" in titles(h), what="the session's title from its first message")

    h.do(h.window.new_session)
    send_pasted(h, "删除 hello.txt")
    dialog = dialog_for(h)
    assert "delete_path" in dialog.findChild(QLabel, "toolNameLabel").text()
    h.do(lambda: dialog.findChild(QPushButton, "denyButton").click())
    h.wait_until(lambda: "你拒绝了，所以我没有删除 `hello.txt`，它还在。" in last_reply(h), what="the reply after Deny")
    assert (workspace_dir / "hello.txt").read_text(encoding="utf-8") == "hi\n"
    h.wait_until(lambda: "删除 hello.txt" in titles(h) and "Write hello.txt" in titles(h), what="two titles")

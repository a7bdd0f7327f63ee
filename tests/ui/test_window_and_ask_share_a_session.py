"""The window and `ask --session X` on the same conversation: the window's turn waits for the command's (a notice
in the transcript says so), then runs on the whole history; the stored order is one turn after the other
(core/session_lock.py). The real window, a real `ask` process, the scripted model server over HTTP."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

from hermes_desktop.ui.chat.items import MessageItem, NoticeItem
from tests.support.cli import GUARD_S, ROOT, cli_env
from tests.support.model_server import CallScript, text_reply, tool_call_reply


def _replies(window) -> list[MessageItem]:
    return [i for i in window.chat.model.items() if isinstance(i, MessageItem) and i.role == "assistant"]


def test_the_windows_turn_waits_for_an_ask_on_the_same_session(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    model_server.enqueue(text_reply("answer one"))
    h.send("question one")
    h.wait_until(lambda: _replies(h.window) and _replies(h.window)[-1].text == "answer one", what="the first reply")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    session = h.window.current_session

    gate = threading.Event()
    held = tool_call_reply(CallScript("get_current_time", {}))
    held.gate = gate  # the command's turn holds the session until the window's turn has been seen waiting
    model_server.enqueue(held, text_reply("the command's answer"), text_reply("the window's answer"))
    before = len(model_server.chat_requests)
    command = subprocess.Popen([sys.executable, "-m", "hermes_desktop", "ask", "from the command", "--session",
                                session], cwd=ROOT, env=cli_env(model_server.base_url, workspace_dir, "sk-ui-test-key"),
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + GUARD_S  # waiting for another process (a guard against a hang)
        # the command's own request (a title or memory request of the window's first turn may land after `before`
        # was counted, and is not the command holding the session)
        while not any("from the command" in str(r.messages[-1:]) for r in model_server.chat_requests[before:]):
            assert command.poll() is None and time.monotonic() < deadline, "the command never asked the model"
            time.sleep(0.05)
        h.send("from the window")
        h.wait_until(lambda: any(isinstance(i, NoticeItem) and "Waiting for another Hermes window or command" in i.text
                                 for i in h.window.chat.model.items()), what="the waiting notice")
        contents = [m.content for m in h.controller.store.all_messages(session) if m.role == "user"]
        assert contents == ["question one", "from the command"], "the window stored nothing while it waited"
        gate.set()
        assert command.wait(GUARD_S) == 0, command.communicate()
    finally:
        gate.set()
        if command.poll() is None:
            command.kill()
    h.wait_until(lambda: _replies(h.window) and _replies(h.window)[-1].text == "the window's answer",
                 what="the window's reply", timeout=60)
    stored = [(m.role, m.content) for m in h.controller.store.all_messages(session)]
    assert [r for r, _ in stored] == ["user", "assistant", "user", "assistant", "tool", "assistant", "user",
                                      "assistant"], stored
    assert stored[2][1] == "from the command" and stored[5][1] == "the command's answer"
    assert stored[6][1] == "from the window" and stored[7][1] == "the window's answer"

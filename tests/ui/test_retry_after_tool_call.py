"""Retry after a turn that failed once a tool had run (the request after the tool answered 400, or was "not sent"
as too long for the window): the question is shown once, then the new answer. It was shown twice until the
session was opened again (the reopened page showed the stored question, and the retried turn's start added it
again); the store always held it once."""

from __future__ import annotations

from hermes_desktop.ui.chat.items import BannerItem, MessageItem
from tests.support.model_server import CallScript, error_reply, text_reply, tool_call_reply


def rows(h) -> list:
    return h.window.chat.model.items()


def test_retry_after_an_error_that_followed_a_tool_call_shows_the_question_once(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("calculate", {"expression": "2+2"})),
                         error_reply(400, "bad request in round two"))
    h.send("what is 2+2")
    banner = h.wait_until(lambda: next((i for i in rows(h) if isinstance(i, BannerItem)), None), what="the banner")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    model_server.enqueue(text_reply("Four."))
    h.do(lambda: h.window.chat._on_action("banner:retry", banner, None))
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.text == "Four." for i in rows(h)), what="the answer")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    shown = [(i.role, i.text) for i in rows(h) if isinstance(i, MessageItem)]
    assert shown == [("user", "what is 2+2"), ("assistant", "Four.")], shown
    stored = [(m.role, m.content) for m in h.controller.store.messages(h.window.current_session)]
    assert stored == [("user", "what is 2+2"), ("assistant", "Four.")]

"""The failure guard hands over in the window (issue 21, section 5): when the same tool fails in three replies in a
row, the model's last round (without tools) tells the user where things stand; the window shows that answer, then
the "Stopped" banner naming the tool, and the stored session ends with the answer. Eight different refused reads
in one reply are one failure: no banner, the model answers.

Real parts: the scripted model server over HTTP, the real file tools refusing paths outside the workspace, the
window's transcript and store. The guard's rules are in tests/core/test_turn_guard.py."""

from __future__ import annotations

from hermes_desktop.ui.chat.items import BannerItem, MessageItem, ToolCardItem
from tests.core.test_turn_guard import HANDOVER, refused_reads
from tests.support.model_server import text_reply, tool_call_reply


def rows(h) -> list:
    return h.window.chat.model.items()


def test_three_failing_replies_show_the_hand_over_answer_then_the_stopped_banner(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(*[tool_call_reply(*refused_reads(3, r)) for r in range(3)], text_reply(HANDOVER))
    h.send("read my reports")
    banner = h.wait_until(lambda: next((i for i in rows(h) if isinstance(i, BannerItem)), None), what="the banner")
    session = h.window.current_session
    h.wait_until(lambda: not h.controller.is_busy(session), what="idle")
    h.window.chat.model.flush_stream()
    items = rows(h)
    answer = next(i for i in items if isinstance(i, MessageItem) and i.role == "assistant" and i.text == HANDOVER)
    assert items.index(answer) < items.index(banner), "the model's account comes first, then why the tools stopped"
    assert "read_file" in banner.message and "3" in banner.message
    assert len([i for i in items if isinstance(i, ToolCardItem)]) == 9
    assert h.controller.store.messages(session)[-1].content == HANDOVER


def test_eight_different_refused_reads_in_one_reply_are_answered_without_a_banner(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(*refused_reads(8)), text_reply(HANDOVER))
    h.send("read my eight reports")
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.text == HANDOVER for i in rows(h)), what="the answer")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    assert not any(isinstance(i, BannerItem) for i in rows(h))

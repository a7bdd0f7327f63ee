"""The status bar's context meter says what the last request used, and a dash (not "0%") while it does not know:
a new chat, or a session opened before it has sent anything in this run (it showed "context 0%" beside the
session's token count after a restart)."""

from __future__ import annotations

from tests.support.model_server import text_reply


def test_the_meter_shows_a_dash_until_a_request_and_a_share_after(make_window, model_server) -> None:
    h = make_window()
    meter = h.window.context_meter
    assert meter.text() == "context –"
    model_server.enqueue(text_reply("an answer"))
    h.send("a question")
    session = h.window.current_session
    h.wait_until(lambda: not h.controller.is_busy(session), what="the turn")
    assert meter.text().startswith("context ") and meter.text().endswith("%"), meter.text()
    assert "of" in meter.toolTip() and "tokens" in meter.toolTip()
    h.do(h.window.new_session)
    assert meter.text() == "context –"
    h.run(h.window.open_session(session, None))  # opened again: nothing sent in it since
    assert meter.text() == "context –" and "shown once" in meter.toolTip()

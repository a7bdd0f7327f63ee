"""Side requests stay with their session's provider (issue 24): a session switched to a second provider gets its
title, its memory extraction and its "new session with a summary" from that provider, and the default provider
receives nothing of the conversation; the usage ledger says so per request (what the Activity and Usage views show).

Real parts: two scripted model servers over HTTP (real openai client), the real store and usage ledger on disk, the
window's own model picker and controller."""

from __future__ import annotations

from hermes_desktop.core.session_models import SessionPick
from tests.support.model_server import MEMORY_PROMPT_OPENING, text_reply
from tests.ui.test_model_picker import providers, second_server  # noqa: F401 (fixtures)
from tests.ui.test_window import ask_and_settle

PREFERENCE = "I prefer green tea in the afternoon."


def test_a_session_on_the_second_provider_sends_every_side_request_there_and_none_to_the_default(
        make_window, model_server, second_server, providers) -> None:  # noqa: F811
    h = make_window(configured=False)
    h.run(h.window.model_picker.choose(SessionPick("other", "other-b")))
    ask_and_settle(h, second_server, PREFERENCE, "Noted.")
    session = h.window.current_session
    h.wait_until(lambda: h.controller.memory.list(), what="the memory extracted")
    h.wait_until(lambda: h.controller.store.get_session(session).title == "Scripted title", what="the title")

    second_server.enqueue(text_reply("- The user prefers green tea in the afternoon."))
    new_id = h.run(h.controller.new_session_with_summary(session))
    assert "green tea" in (h.controller.store.messages(new_id)[0].content or "")

    assert model_server.chat_requests == [], "the default provider received nothing of this conversation"
    prompts = [r.system_prompt for r in second_server.chat_requests]
    assert any(p.startswith("Write a title") for p in prompts)
    assert any(p.startswith(MEMORY_PROMPT_OPENING) for p in prompts)
    assert any(p.startswith("Summarise the conversation below") for p in prompts)
    rows = h.controller.store._read("SELECT profile_id, model, purpose FROM usage_records WHERE session_id = ?",
                                    (session,))
    assert {r["purpose"] for r in rows} >= {"chat", "title", "memory", "summary"}
    assert {(r["profile_id"], r["model"]) for r in rows} == {("other", "other-b")}



def test_the_activity_tab_lists_each_side_request_with_its_model(
        make_window, model_server, second_server, providers) -> None:  # noqa: F811
    """Issue 23/24: "shown in the Activity tab per request": the title and the memory extraction of a session on
    the second provider appear in its trace with the model they went to and their tokens."""
    h = make_window(configured=False)
    h.run(h.window.model_picker.choose(SessionPick("other", "other-b")))
    ask_and_settle(h, second_server, PREFERENCE, "Noted.")
    session = h.window.current_session

    def side_entries() -> list:
        recorder = h.controller.activity.get(session)
        return [e for turn in (recorder.turns if recorder else []) for e in turn.entries if e.kind == "side"]

    h.wait_until(lambda: {e.title for e in side_entries()} >= {"Side request: title · other-b",
                                                               "Side request: memory extraction · other-b"},
                 what="the side requests in Activity")
    assert all(" tokens in, " in e.detail for e in side_entries())
    panel = h.window.inspector
    h.do(lambda: panel.setCurrentWidget(panel.activity))
    h.wait_until(lambda: "Side request: title · other-b" in "\n".join(
        panel.activity.topLevelItem(i).child(j).text(0) for i in range(panel.activity.topLevelItemCount())
        for j in range(panel.activity.topLevelItem(i).childCount())), what="the entry on screen")

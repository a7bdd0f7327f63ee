"""At start the window reopens the session that was open when it closed; the database answers a moment after the
window is usable. A message sent in that moment starts a new conversation, and the late reopen must not pull the
window away from it (the user's new conversation disappeared from view, and its reply was shown nowhere)."""

from __future__ import annotations

import asyncio

from hermes_desktop.ui.chat.model import ITEM_ROLE
from tests.support.model_server import text_reply


def test_the_restored_session_does_not_replace_a_conversation_the_user_already_started(make_window,
                                                                                        model_server) -> None:
    first = make_window()
    model_server.enqueue(text_reply("first answer"))
    first.send("the conversation left open")
    first.wait_until(lambda: first.window.current_session and not first.controller.is_busy(first.window.current_session),
                     what="the first turn")
    left_open = first.window.current_session
    first.do(first.window.close)  # saves window.json with this session
    first.run(first.controller.shutdown())

    again = make_window()
    again.wait_until(lambda: again.window.current_session == left_open, what="the session reopened at start")
    # Replay the start's reopen as if the database had answered only after the user sent a message:
    model_server.enqueue(text_reply("second answer"))
    again.do(again.window.new_session)
    again.send("a new conversation")
    started = again.window.current_session
    assert started != left_open
    again.run(again.window._on_store_ready())
    assert again.window.current_session == started
    again.wait_until(lambda: not again.controller.is_busy(started), what="the new turn")
    assert shown_texts(again) >= {"a new conversation"} and "the conversation left open" not in shown_texts(again)

    # And a reopen already loading when the user starts a new conversation is dropped when its page arrives.
    model_server.enqueue(text_reply("third answer"))

    async def race() -> str:
        again.window.new_session()  # the empty new chat, as right after start
        opening = asyncio.ensure_future(again.window.open_session(left_open, None))
        await asyncio.sleep(0)  # the open has begun and waits for its page from the database thread
        again.window.send("another new conversation")  # sending starts the conversation: the open is stale
        newest = again.window.current_session
        await opening
        return newest

    newest = again.run(race())
    assert again.window.current_session == newest != left_open
    again.wait_until(lambda: not again.controller.is_busy(newest), what="the third turn")
    assert "another new conversation" in shown_texts(again) and "the conversation left open" not in shown_texts(again)


def shown_texts(h) -> set[str]:
    model = h.window.chat.model
    return {getattr(model.data(model.index(row, 0), ITEM_ROLE), "text", "") for row in range(model.rowCount())}

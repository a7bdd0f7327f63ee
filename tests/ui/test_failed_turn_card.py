"""A "not sent" card survives a restart (issue 24): a turn whose request failed after the user's message was stored
shows its error card with Retry; closing and reopening the window used to leave the question with no answer, no
card and no Retry. The card now comes back from the session database (core/turn_failures.py, migration 12), in
the same words and with the same actions, Retry works from it, and once a reply arrives it is gone for good.

Real parts: the scripted model server answering 401 over HTTP through the real openai client, the real SQLite
file on disk, two window starts on the same data directory."""

from __future__ import annotations

import sqlite3

from hermes_desktop.core.paths import app_paths
from hermes_desktop.ui.chat.items import BannerItem, MessageItem
from tests.support.model_server import error_reply, text_reply

KEY = "sk-ui-test-key"  # the window's key (tests/ui/conftest.make_window)


def banners(h) -> list[BannerItem]:
    return [i for i in h.window.chat.model.items() if isinstance(i, BannerItem)]


def shown_rows(h) -> list[str]:
    out = []
    for item in h.window.chat.model.items():
        if isinstance(item, MessageItem):
            out.append(f"{item.role}:{item.text}")
        elif isinstance(item, BannerItem):
            out.append("card")
    return out


def test_the_error_card_of_a_failed_turn_is_there_after_a_restart_and_retry_clears_it(make_window, model_server
                                                                                      ) -> None:
    h = make_window()
    model_server.enqueue(error_reply(401, f"Incorrect API key provided: {KEY}. You can find your key at "
                                          "https://example.invalid/keys", code="invalid_api_key"))
    h.send("Summarise my week")
    session = h.wait_until(lambda: h.window.current_session, what="the session")
    live = h.wait_until(lambda: banners(h), what="the error card")[0]
    h.wait_until(lambda: not h.controller.is_busy(session), what="the turn to end")
    assert "retry" in live.actions and "open_provider_settings" in live.actions
    assert shown_rows(h) == ["user:Summarise my week", "card"]
    h.do(h.window.close)

    # Nothing of the key is kept with the card.
    db = sqlite3.connect(app_paths().data_dir / "hermes.db")
    stored = db.execute("SELECT error FROM turn_failures WHERE session_id = ?", (session,)).fetchall()
    db.close()
    assert len(stored) == 1 and KEY not in stored[0][0] and "[redacted]" in stored[0][0]

    again = make_window()
    again.wait_until(lambda: again.window.current_session == session, what="the restored session")
    restored = again.wait_until(lambda: banners(again), what="the card after the restart")[0]
    assert shown_rows(again) == ["user:Summarise my week", "card"], "the card right under the message it failed"
    assert (restored.message, restored.actions) == (live.message.replace(KEY, "[redacted]"), live.actions)
    assert KEY not in restored.message
    layout = again.window.chat.view.delegate.row_layout(restored, 900)
    assert [t.text for t in layout.texts] == ["Retry", "Open provider settings"], "its links, as painted"

    # Retry from the restored card (a click on its link, through the delegate), and the reply arrives.
    model_server.enqueue(text_reply("Here is your week."))
    again.do(lambda: again.window.chat.view.delegate.sig_action.emit("banner:retry", restored, None))
    again.wait_until(lambda: not again.controller.is_busy(session)
                     and shown_rows(again) == ["user:Summarise my week", "assistant:Here is your week."],
                     what="the retried reply, without the old card")
    assert [m.content for m in again.controller.store.messages(session)] == ["Summarise my week", "Here is your week."]
    again.do(again.window.close)

    third = make_window()
    third.wait_until(lambda: third.window.current_session == session, what="the restored session")
    third.wait_until(lambda: shown_rows(third) == ["user:Summarise my week", "assistant:Here is your week."],
                     what="the conversation")
    assert not banners(third), "an answered failure does not come back"


def test_a_card_kept_for_an_older_message_of_another_branch_is_not_shown(make_window, model_server) -> None:
    """The card belongs to the message it failed on: after that message is edited (a new branch that gets its
    answer), the active branch shows no stale card."""
    h = make_window()
    model_server.enqueue(error_reply(400, "refused", code="bad_request"))
    h.send("first try")
    session = h.wait_until(lambda: h.window.current_session, what="the session")
    h.wait_until(lambda: banners(h) and not h.controller.is_busy(session), what="the error card")
    user = next(m for m in h.controller.store.messages(session) if m.role == "user")
    model_server.enqueue(text_reply("Answered."))
    h.run(h.controller.edit_and_resend(session, user.id, "second try"))
    h.wait_until(lambda: not h.controller.is_busy(session) and shown_rows(h)[-1:] == ["assistant:Answered."],
                 what="the edited message's reply")
    h.run(h.window.open_session(session, None))
    h.wait_until(lambda: shown_rows(h) == ["user:second try", "assistant:Answered."], what="the reopened session")
    assert not banners(h)

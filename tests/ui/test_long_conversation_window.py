"""A conversation longer than the model's window, in the window: the summary card at the cut, opened by click and
by keyboard, still there after reopening the session; the Activity tab lists the summary's tokens."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QTreeWidget

from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.ui.chat.items import MessageItem, SummaryItem
from tests.support.model_server import text_reply
from tests.support.stores import open_test_store

GOAL = "My goal: plan a two-week walking trip through the Scottish Highlands in May."


def write_long_session() -> str:
    opened = open_test_store()
    store = opened.store
    store.create_session("long", title="Highlands trip")
    for n in range(40):
        store.append_message("long", NewMessage("user", (GOAL + " " if n == 0 else f"Day {n} question: ") + "a" * 4000))
        store.append_message("long", NewMessage("assistant", f"Day {n} answer: " + "b" * 4000))
    store.close()
    return "long"


def rows(window) -> list:
    return window.chat.model.items()


def test_the_summary_card_shows_at_the_cut_and_opens(make_window, model_server) -> None:
    session = write_long_session()
    h = make_window()
    h.run(h.window.open_session(session, None))
    assert not any(isinstance(i, SummaryItem) for i in rows(h.window)), "no summary before one is needed"
    model_server.enqueue(text_reply("You wanted to walk the Highlands in May."))
    h.send("What was my goal again?")
    card = h.wait_until(lambda: next((i for i in rows(h.window) if isinstance(i, SummaryItem)), None),
                        what="the summary card")
    h.wait_until(lambda: not h.controller.is_busy(session), what="the turn to end")
    assert GOAL in card.text and card.covered_messages > 0 and not card.open
    items = rows(h.window)
    after = items[items.index(card) + 1]
    store = h.controller.store
    path = store.messages(session)
    first_kept = path[[m.id for m in path].index(card.covered_to) + 1]
    assert isinstance(after, MessageItem) and after.message_id == first_kept.id and after.role == "user"
    assert not any(isinstance(i, MessageItem) and "summarising" in i.text.lower() for i in items)
    request = [r for r in model_server.chat_requests if "running summary" not in r.system_prompt][-1]
    assert GOAL in request.system_prompt
    # click opens it; the opened card shows the summary the model is sent
    view = h.window.chat.view
    width = view.viewport().width()
    closed = view.delegate.row_layout(card, width).height
    h.window.chat._on_action("toggle_summary", card, None)
    assert card.open and view.delegate.row_layout(card, width).height > closed
    assert any(GOAL in d.doc.toPlainText() for d in view.delegate.row_layout(card, width).docs)
    # Enter on the focused card closes it again
    row = h.window.chat.model.row_of(card)
    view.setFocus()
    view.setCurrentIndex(h.window.chat.model.index(row))
    h.do(lambda: QTest.keyClick(view, Qt.Key.Key_Return))
    assert not card.open
    # and the focused row's actions menu (Menu key) lists it
    from hermes_desktop.ui.keyboard import message_actions, trigger

    index = h.window.chat.model.index(row)
    entries = [(label, action) for label, action, _ in message_actions(view, index)]
    assert ("Earlier conversation (summarised)", "toggle_summary") in entries
    h.do(lambda: trigger(view, index, "toggle_summary", None))
    assert card.open
    # the Activity tab: the summary's own line in the breakdown, and the summary itself
    turn = h.controller.activity[session].turns[-1]
    context = [e for e in turn.entries if e.kind == "context" and e.title.startswith("Context")]
    assert any("earlier conversation (summary): " in e.detail for e in context)
    activity = h.window.findChild(QTreeWidget, "activityLog")
    top = activity.topLevelItem(activity.topLevelItemCount() - 1)
    titles = [top.child(i).text(0) for i in range(top.childCount())]
    assert any(t.startswith("Earlier conversation:") for t in titles), titles
    # reopened, the card is where it was (loaded from the store with the page)
    h.do(h.window.new_session)
    h.run(h.window.open_session(session, None))
    again = next(i for i in rows(h.window) if isinstance(i, SummaryItem))
    items = rows(h.window)
    assert again.covered_to == card.covered_to and items[items.index(again) + 1].message_id == first_kept.id
    assert len(store.messages(session)) == 82, "the stored history is unchanged (plus the new exchange)"


def test_summarising_shows_a_status_row_and_stop_ends_the_turn(make_window, model_server) -> None:
    from tests.support.model_server import hang_reply
    from hermes_desktop.ui.chat.items import NoticeItem

    session = write_long_session()
    model_server.summary_responder = lambda request: hang_reply()
    h = make_window()
    h.run(h.window.open_session(session, None))
    h.send("Go on")
    status = h.wait_until(lambda: next((i for i in rows(h.window) if isinstance(i, NoticeItem)
                                        and i.text == "Summarising earlier conversation…"), None),
                          what="the summarising status row")
    assert h.window.chat.stop_button.isEnabled()
    h.do(h.window.stop)
    h.wait_until(lambda: not h.controller.is_busy(session), what="the turn to stop")
    assert status not in rows(h.window) and not any(isinstance(i, SummaryItem) for i in rows(h.window))
    assert [m.role for m in h.controller.store.messages(session)[-2:]] == ["assistant", "user"]
    assert not [r for r in model_server.chat_requests if "running summary" not in r.system_prompt]

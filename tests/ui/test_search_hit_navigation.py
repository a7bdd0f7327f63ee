"""A sidebar search hit opens the version and message it matched, scrolled to and highlighted (issue 24).

A reply that was regenerated lives on as an older version (a branch); a hit in it used to open the active branch at
the same depth, showing another reply and marking nothing. Now the hit's branch becomes the active one (as the
‹ › arrows do), the row is on screen and tinted, and the next click in the transcript clears the tint. A hit in a
tool result marks its tool card. Real SQLite on disk, the real sidebar search (FTS5), the real view painted."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.ui.chat.items import MessageItem, ToolCardItem


def search_and_open(h, words: str, expect_in_row: str) -> None:
    search = h.window.findChild(QLineEdit, "sessionSearch")
    h.do(lambda: (search.setFocus(), search.clear(), QTest.keyClicks(search, words)))
    h.wait_until(lambda: h.window.sidebar.list.count() and expect_in_row in (
        h.window.sidebar.list.item(0).data(Qt.ItemDataRole.AccessibleTextRole) or ""), what="the search result")
    h.do(lambda: QTest.keyClick(search, Qt.Key.Key_Return))


def row_grab(h, row: int):
    view = h.window.chat.view
    rect = view.visualRect(h.window.chat.model.index(row))
    return view.viewport().grab(rect).toImage()


def test_a_hit_in_an_older_version_opens_that_version_scrolled_to_and_highlighted(make_window) -> None:
    h = make_window()
    store = h.controller.store
    session = store.create_session(title="Instruments")
    for n in range(40):  # enough history that the hit is off screen when the session opens at its end
        store.append_message(session.id, NewMessage("user", f"question {n}"))
        store.append_message(session.id, NewMessage("assistant", f"answer {n}", finish_reason="stop"))
    asked = store.append_message(session.id, NewMessage("user", "Which instrument should I learn?"))
    old = store.append_message(session.id, NewMessage("assistant", "Try the xylophone: it is easy to start.",
                                                      finish_reason="stop"))
    store.rewind_to(session.id, asked)  # Regenerate: a new version of the reply becomes the active branch
    new = store.append_message(session.id, NewMessage("assistant", "Try the piano.", finish_reason="stop"))
    for n in range(30):
        store.append_message(session.id, NewMessage("user", f"later {n}"))
        store.append_message(session.id, NewMessage("assistant", f"later answer {n}", finish_reason="stop"))
    assert store.head_id(session.id) != old and old not in [m.id for m in store.messages(session.id)]

    search_and_open(h, "xylophone", "xylophone")
    model, view = h.window.chat.model, h.window.chat.view
    row = h.wait_until(lambda: h.window.current_session == session.id and view.highlighted_row >= 0
                       and view.highlighted_row, what="the highlighted hit")
    item = model.item(row)
    assert isinstance(item, MessageItem) and item.message_id == old, "the matched message, not its sibling"
    assert old in [m.id for m in store.messages(session.id)], "its version is the active branch now"
    assert item.versions == (old, new) and item.version_index == 0, "shown as version 1 of 2"
    h.wait_until(lambda: view.visualRect(model.index(row)).intersects(view.viewport().rect()),
                 what="the hit on screen")
    h.settle(0.1)
    marked = row_grab(h, row)
    # A click in the transcript (away from the row's links) ends the highlight: the row paints plainly again.
    h.do(lambda: QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                                  QPoint(view.viewport().width() - 3, 3)))
    assert view.highlighted_row == -1
    h.settle(0.1)
    assert row_grab(h, row) != marked, "the highlight was painted, and goes with the click"


def test_a_hit_in_a_tool_result_highlights_its_card(make_window) -> None:
    h = make_window()
    store = h.controller.store
    session = store.create_session(title="Files")
    store.append_message(session.id, NewMessage("user", "what is in notes.txt?"))
    store.append_message(session.id, NewMessage("assistant", None, tool_calls=[{
        "id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "notes.txt"}'}}]))
    store.append_message(session.id, NewMessage("tool", '{"content": "buy a marimba"}', tool_call_id="call_1",
                                                name="read_file"))
    store.append_message(session.id, NewMessage("assistant", "It says to buy an instrument.", finish_reason="stop"))
    search_and_open(h, "marimba", "marimba")
    view = h.window.chat.view
    row = h.wait_until(lambda: h.window.current_session == session.id and view.highlighted_row >= 0
                       and view.highlighted_row, what="the highlighted card")
    card = h.window.chat.model.item(row)
    assert isinstance(card, ToolCardItem) and card.call_id == "call_1"


def test_a_title_hit_opens_the_session_without_a_highlight(make_window) -> None:
    h = make_window()
    store = h.controller.store
    session = store.create_session(title="Glockenspiel practice")
    store.append_message(session.id, NewMessage("user", "hello"))
    search_and_open(h, "glockenspiel", "Glockenspiel")
    h.wait_until(lambda: h.window.current_session == session.id and h.window.chat.model.rowCount(), what="the session")
    assert h.window.chat.view.highlighted_row == -1

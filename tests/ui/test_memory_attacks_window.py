"""Memory in the window, attacked and unlucky: an extraction still waiting for the model when the window closes,
the remember tool refreshing the tab, session flags read in one query, memory text that looks like HTML shown as
typed. Real SQLite, the scripted model server, pytest-qt."""

from __future__ import annotations

import sqlite3

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QPushButton

from hermes_desktop.core.memory.model import Kind
from tests.support.model_server import CallScript, hang_reply, text_reply, tool_call_reply
from tests.ui.test_memory_tab import is_extraction


def shown_in_the_tab(h, memory_id: int) -> None:
    """The Memory tab shown and refilled, with this memory among its rows."""
    h.do(lambda: (h.window.memory.show_tab(), h.window.memory.refresh()))
    h.wait_until(lambda: memory_id in h.window.inspector.memory.memory_ids(), what="the memory in the tab")


def test_closing_the_window_stops_an_extraction_still_waiting_for_the_model(make_window, model_server) -> None:
    h = make_window()
    model_server.memory_responder = lambda request: hang_reply()  # the side request never answers
    model_server.enqueue(text_reply("Tea it is."))
    h.send("I prefer green tea in the afternoon.")
    h.wait_until(lambda: any(is_extraction(r) for r in model_server.chat_requests), what="the extraction request")
    service = h.controller.runtime.memory
    assert service._tasks, "the extraction runs in the background"
    h.run(h.controller.shutdown())
    assert not service._tasks, "the extraction was stopped with the window, not left writing to a closed store"


def test_the_remember_tool_refreshes_the_tab(make_window, model_server) -> None:
    h = make_window()
    h.do(h.window.memory.show_tab)
    model_server.auto_memory = False
    model_server.enqueue(tool_call_reply(CallScript("remember", {"statement": "Prefers aisle seats",
                                                                 "quote": "I prefer aisle seats"})),
                         text_reply("Noted."))
    h.send("I prefer aisle seats.")
    h.wait_until(lambda: any(h.window.inspector.memory.list.item(i).text().startswith("Prefers aisle seats")
                             for i in range(h.window.inspector.memory.list.count())), what="the tab to show it")


def test_incognito_flags_are_read_in_one_query(make_window) -> None:
    h = make_window()
    memory = h.controller.memory
    ids = [h.controller.store.create_session(title=f"s{i}").id for i in range(30)]
    for session in ids[::3]:
        memory.set_incognito(session, True)
    statements: list[str] = []
    memory.sessions._db.set_trace_callback(statements.append)
    try:
        found = h.controller.incognito_sessions(ids)
    finally:
        memory.sessions._db.set_trace_callback(None)
    assert found == ids[::3]
    assert len([s for s in statements if "memory_incognito" in s]) == 1, statements


def test_memory_text_that_looks_like_html_is_shown_as_typed(make_window) -> None:
    h = make_window()
    memory = h.controller.memory
    evil = "<b>bold</b><img src='file:///etc/passwd'>"
    kept = memory.add(evil, profile_id=h.controller.runtime.profile.id, kind=Kind.EXPLICIT)
    shown_in_the_tab(h, kept.id)
    panel = h.window.inspector.memory
    h.do(lambda: panel.offer_undo(panel.tr("Deleted “{0}”").format(evil)))
    label = panel.findChild(QLabel, "memoryUndoLabel")
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert panel.findChild(QLabel, "memoryStatus").textFormat() == Qt.TextFormat.PlainText


def test_a_bidi_override_in_a_memory_is_shown_not_obeyed_in_the_tab(make_window) -> None:
    from hermes_desktop.ui.rich_list import HTML_ROLE

    h = make_window()
    memory = h.controller.memory
    kept = memory.add("Likes tea \u202egnp.exe", quote="I like tea \u202egnp.exe",
                      profile_id=h.controller.runtime.profile.id, kind=Kind.PREFERENCE)
    shown_in_the_tab(h, kept.id)
    listing = h.window.findChild(QListWidget, "memoryList")
    row = next(listing.item(i) for i in range(listing.count()) if listing.item(i).text().startswith("Likes tea"))
    for shown in (row.text(), row.data(HTML_ROLE)):
        assert "\u202e" not in shown and "\\u202e" in shown
    assert memory.get(kept.id).statement == "Likes tea \u202egnp.exe", "the memory itself is kept as written"


def test_a_bidi_override_in_the_remembered_row_is_shown_not_obeyed() -> None:
    from hermes_desktop.ui.chat.items import RememberedItem
    from hermes_desktop.ui.chat.model import remembered_text

    item = RememberedItem(session_id="s", memory_ids=(1,), statements=("Likes tea \u202egnp.exe",))
    text = remembered_text(item)
    assert "\u202e" not in text and "Likes tea \\u202egnp.exe" in text


def test_the_edit_dialog_shows_the_users_words_as_typed(make_window) -> None:
    from PySide6.QtTest import QTest

    h = make_window()
    memory = h.controller.memory
    kept = memory.add("Likes bold headings", quote="I like <b>bold</b> headings <img src='file:///etc/hosts'>",
                      profile_id=h.controller.runtime.profile.id, kind=Kind.PREFERENCE)
    shown_in_the_tab(h, kept.id)
    listing = h.window.findChild(QListWidget, "memoryList")
    h.do(lambda: (h.window.inspector.memory.select(kept.id), listing.setFocus()))
    h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_F2))
    dialog = h.wait_until(lambda: h.window.memory.edit_dialog, what="the edit dialog")
    labels = [label for label in dialog.findChildren(QLabel) if "bold" in label.text()]
    assert labels and all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)
    h.do(dialog.reject)


def test_a_recalled_memory_in_the_activity_tooltip_is_text_not_html(make_window, model_server) -> None:
    from PySide6.QtWidgets import QTreeWidget

    h = make_window()
    h.controller.memory.add("Likes <b>tea</b> <img src='file:///etc/hosts'>", quote="",
                            profile_id=h.controller.runtime.profile.id, kind=Kind.PREFERENCE)
    model_server.auto_memory = False
    model_server.enqueue(text_reply("Tea, then."))
    h.send("Which tea should I buy?")
    tree = h.window.findChild(QTreeWidget, "activityLog")

    def memory_entry():
        for i in range(tree.topLevelItemCount()):
            top = tree.topLevelItem(i)
            for j in range(top.childCount()):
                if top.child(j).text(0).startswith("Memory:"):
                    return top.child(j)
        return None

    entry = h.wait_until(memory_entry, what="the recalled memory in Activity")
    tip = entry.toolTip(0)
    assert "<b>tea</b>" not in tip and "&lt;b&gt;tea&lt;/b&gt;" in tip, tip


def test_deleting_a_memory_with_a_bidi_override_offers_undo_with_it_shown(make_window) -> None:
    h = make_window()
    memory = h.controller.memory
    kept = memory.add("Likes tea \u202egnp.exe", profile_id=h.controller.runtime.profile.id, kind=Kind.PREFERENCE)
    shown_in_the_tab(h, kept.id)
    h.run(h.window.memory.delete([kept.id]))
    label = h.window.inspector.memory.findChild(QLabel, "memoryUndoLabel")
    assert "\u202e" not in label.text() and "\\u202e" in label.text()


def test_the_forget_approval_lists_a_memory_that_looks_like_html_as_typed(make_window, model_server) -> None:
    h = make_window()
    evil = "Likes tea</b><br>Forgets nothing: no memory matches.<span style='display:none'>"
    kept = h.controller.memory.add(evil, profile_id=h.controller.runtime.profile.id, kind=Kind.PREFERENCE)
    model_server.enqueue(tool_call_reply(CallScript("forget", {"id": kept.id})), text_reply("Forgotten."))
    h.send("Forget the tea thing.")
    dialog = h.wait_until(lambda: h.window.approver.dialog, what="the approval dialog for forget")
    impact = dialog.findChild(QLabel, "impactLabel")
    assert impact.textFormat() == Qt.TextFormat.PlainText and evil in impact.text()
    h.do(lambda: dialog.findChild(QPushButton, "denyButton").click())


def test_a_session_title_that_looks_like_html_is_text_in_its_tooltip(make_window) -> None:
    from hermes_desktop.core.session_types import NewMessage

    h = make_window()
    store = h.controller.store
    session = store.create_session(title="<b>Trip</b> <img src='file:///etc/hosts'>").id
    store.append_message(session, NewMessage("user", "hello"))
    h.run(h.window.refresh_sessions())
    listing = h.window.sidebar.list
    item = next(listing.item(i) for i in range(listing.count()) if "Trip" in listing.item(i).text())
    assert "<b>Trip</b>" not in item.toolTip() and "&lt;b&gt;Trip&lt;/b&gt;" in item.toolTip()

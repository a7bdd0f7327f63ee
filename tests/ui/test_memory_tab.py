"""Memory in the window, as the user meets it: the Memory tab (by layer, search, edit, pin, delete and undo, go to
the source message, history, wipe all), the "Remembered: …" row in the chat with Undo, the per-conversation
incognito switch and Settings › Memory. Real SQLite, the scripted model server for the turns."""

from __future__ import annotations

import json
import time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (QCheckBox, QDialogButtonBox, QLineEdit, QListWidget, QMenu, QMessageBox,
                               QPlainTextEdit, QPushButton, QSpinBox)

from hermes_desktop.core.memory.model import Kind, Layer, MemoryState
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.settings import ENV_PROFILE_ID
from hermes_desktop.ui.chat.items import MessageItem, RememberedItem
from hermes_desktop.ui.keyboard import message_actions
from hermes_desktop.ui.memory_panel import KIND_ROLE
from tests.support.model_server import text_reply

DAY = 86400.0


def panel_texts(h) -> list[str]:
    """Each row of the Memory tab as its plain text (headers included), top to bottom."""
    listing = h.window.findChild(QListWidget, "memoryList")
    return [listing.item(i).text() for i in range(listing.count())]


def refreshed(h, predicate, what: str):
    h.do(lambda: (h.window.memory.show_tab(), h.window.memory.refresh()))
    h.wait_until(lambda: predicate(panel_texts(h)), what=what)
    return panel_texts(h)


def trip_session(h) -> tuple[str, int, int]:
    """A conversation "Trip planning" whose user said two things worth keeping; returns its id and their ids."""
    store = h.controller.store
    session = store.create_session(title="Trip planning").id
    first = store.append_message(session, NewMessage("user", "I prefer vegetarian restaurants when we travel."))
    store.append_message(session, NewMessage("assistant", "Noted.", finish_reason="stop"))
    second = store.append_message(session, NewMessage("user", "The Acme report is due on Friday."))
    store.append_message(session, NewMessage("assistant", "Good luck.", finish_reason="stop"))
    return session, first, second


def add_memories(h) -> dict[str, int]:
    session, first, second = trip_session(h)
    memory = h.controller.memory
    old = memory.add("Eats anything", quote="I eat anything", kind=Kind.PREFERENCE, subject="diet",
                     session_id=session, message_id=first)
    veg = memory.add("Prefers vegetarian restaurants", quote="I prefer vegetarian restaurants", kind=Kind.PREFERENCE,
                     subject="diet", session_id=session, message_id=first)
    due = memory.add("The Acme report is due Friday", quote="The Acme report is due on Friday", kind=Kind.DEADLINE,
                     subject="acme report", session_id=session, message_id=second, expires_at=time.time() + 3 * DAY)
    return {"session": session, "first": first, "second": second, "old": old.id, "veg": veg.id, "due": due.id}  # type: ignore[dict-item]


def select(h, memory_id: int) -> None:
    listing = h.window.findChild(QListWidget, "memoryList")
    h.do(lambda: (h.window.memory.show_tab(), h.window.inspector.memory.select(memory_id), listing.setFocus()))
    assert h.window.inspector.memory.selected_id() == memory_id


def test_the_tab_lists_memories_by_layer_with_their_words_and_source(make_window) -> None:
    h = make_window()
    listing = h.window.findChild(QListWidget, "memoryList")
    assert listing is not None and h.window.inspector.tabText(h.window.inspector.indexOf(h.window.inspector.memory))
    h.do(lambda: h.window.inspector.setCurrentWidget(h.window.inspector.memory))  # the tab fills when shown
    h.wait_until(lambda: panel_texts(h) and "No memories yet" in panel_texts(h)[0],
                 what="an empty store explaining what memory is")
    ids = add_memories(h)
    texts = refreshed(h, lambda t: len(t) >= 6, "the memories in the tab")
    headers = [listing.item(i).text() for i in range(listing.count()) if listing.item(i).data(KIND_ROLE) == "header"]
    assert headers == ["Long-term (1)", "Short-term (1)", "No longer used (replaced or expired) (1)"]
    veg = next(t for t in texts if t.startswith("Prefers vegetarian"))
    assert "“I prefer vegetarian restaurants”" in veg and "from “Trip planning”" in veg and "replaces 1 earlier" in veg
    due = next(t for t in texts if t.startswith("The Acme report"))
    assert "until" in due and texts.index(due) > texts.index(veg), "the deadline is a short-term memory"
    old = next(t for t in texts if t.startswith("Eats anything"))
    assert "replaced by a newer memory" in old and texts.index(old) > texts.index(due)
    assert h.window.inspector.memory.memory_ids() == [ids["veg"], ids["due"], ids["old"]]
    # the superseded history, from the History… button
    select(h, ids["veg"])
    h.do(lambda: h.window.findChild(QPushButton, "memoryHistoryButton").click())
    dialog = h.wait_until(lambda: h.window.memory.history_dialog, what="the history dialog")
    history = dialog.findChild(QListWidget, "memoryHistoryList")
    lines = [history.item(i).text() for i in range(history.count())]
    assert lines[0].startswith("Prefers vegetarian") and "in use" in lines[0]
    assert lines[1].startswith("Eats anything") and "replaced" in lines[1]
    h.do(dialog.reject)


def test_a_hidden_tab_is_refilled_when_it_is_shown(make_window) -> None:
    h = make_window()
    h.do(lambda: h.window.inspector.setCurrentIndex(0))
    tea = h.controller.memory.add("Prefers tea", quote="I prefer tea")
    h.do(h.controller.sig_memories_changed.emit)
    h.settle(0.2)
    assert h.window.inspector.memory.memory_ids() == [], "not refilled while hidden"
    h.do(lambda: h.window.inspector.setCurrentWidget(h.window.inspector.memory))
    h.wait_until(lambda: len(h.window.inspector.memory.memory_ids()) == 1, what="refilled when shown")
    # shown for one memory ("Show in the Memory tab"): selected once the refill lists it
    coffee = h.controller.memory.add("Prefers coffee after lunch", quote="coffee after lunch")
    h.do(lambda: (h.window.inspector.setCurrentIndex(0), h.controller.sig_memories_changed.emit()))
    h.do(lambda: h.window.memory.show_tab(coffee.id))
    h.wait_until(lambda: h.window.inspector.memory.selected_id() == coffee.id, what="the memory selected")
    assert tea.id in h.window.inspector.memory.memory_ids()


def test_search_filters_the_tab(make_window) -> None:
    h = make_window()
    ids = add_memories(h)
    refreshed(h, lambda t: len(t) >= 6, "the memories")
    search = h.window.findChild(QLineEdit, "memorySearch")
    h.do(lambda: (search.setFocus(), QTest.keyClicks(search, "vegetarian")))
    h.wait_until(lambda: h.window.inspector.memory.memory_ids() == [ids["veg"]], what="only the matching memory")
    h.do(lambda: (search.clear(), QTest.keyClicks(search, "xylophone")))
    h.wait_until(lambda: panel_texts(h) == ["No memory matches “xylophone”."], what="no match")
    h.do(search.clear)
    h.wait_until(lambda: len(h.window.inspector.memory.memory_ids()) == 3, what="everything again")


def test_edit_pin_delete_and_undo_change_the_store(make_window) -> None:
    h = make_window()
    ids = add_memories(h)
    memory = h.controller.memory
    refreshed(h, lambda t: len(t) >= 6, "the memories")
    listing = h.window.findChild(QListWidget, "memoryList")
    # F2 edits: the statement changes, the user's words stay
    select(h, ids["veg"])
    h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_F2))
    dialog = h.wait_until(lambda: h.window.memory.edit_dialog, what="the edit dialog")
    h.do(lambda: (dialog.setTextValue("Prefers vegetarian or vegan restaurants"), dialog.accept()))
    h.wait_until(lambda: memory.get(ids["veg"]).statement == "Prefers vegetarian or vegan restaurants", what="edit")
    assert memory.get(ids["veg"]).quote == "I prefer vegetarian restaurants"
    h.wait_until(lambda: any(t.startswith("Prefers vegetarian or vegan") for t in panel_texts(h)), what="edited row")
    # Pin, from the button; then Ctrl+P unpins
    select(h, ids["due"])
    h.do(lambda: h.window.findChild(QPushButton, "pinMemoryButton").click())
    h.wait_until(lambda: memory.get(ids["due"]).pinned, what="pinned")
    h.wait_until(lambda: any(t.startswith("Pinned: The Acme") for t in panel_texts(h)), what="the pin shown")
    select(h, ids["due"])
    assert h.window.findChild(QPushButton, "pinMemoryButton").text() == "Unpin"
    h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier))
    h.wait_until(lambda: not memory.get(ids["due"]).pinned, what="unpinned")
    # Delete key: gone from the tab and from recall at once; Undo brings it back as it was
    select(h, ids["due"])
    h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_Delete))
    h.wait_until(lambda: memory.get(ids["due"]).state is MemoryState.FORGOTTEN, what="forgotten")
    h.wait_until(lambda: ids["due"] not in h.window.inspector.memory.memory_ids(), what="off the list")
    assert h.window.inspector.memory.selected_id() == ids["old"], "the keyboard stays on the next memory"
    undo = h.window.findChild(QPushButton, "memoryUndoButton")
    assert undo.isVisible() and "The Acme report" in h.window.inspector.memory.undo_label.text()
    h.do(undo.click)
    h.wait_until(lambda: memory.get(ids["due"]).state is MemoryState.ACTIVE, what="undone")
    h.wait_until(lambda: ids["due"] in h.window.inspector.memory.memory_ids(), what="back on the list")
    # deleted again and the undo offer runs out: removed for good
    select(h, ids["due"])
    h.do(lambda: h.window.findChild(QPushButton, "deleteMemoryButton").click())
    h.wait_until(lambda: memory.get(ids["due"]).state is MemoryState.FORGOTTEN, what="forgotten again")
    h.do(lambda: h.window.inspector.memory._undo_timer.timeout.emit())
    h.wait_until(lambda: memory.get(ids["due"]) is None, what="removed for good")
    assert memory.get(ids["veg"]) is not None and memory.get(ids["old"]) is not None, "the others are untouched"


def test_the_context_menu_lists_the_actions(make_window) -> None:
    h = make_window()
    ids = add_memories(h)
    refreshed(h, lambda t: len(t) >= 6, "the memories")
    select(h, ids["veg"])
    listing = h.window.findChild(QListWidget, "memoryList")
    h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier))
    menu = h.wait_until(lambda: getattr(h.window.inspector.memory, "menu", None), what="the actions menu")
    assert [a.data() for a in menu.actions()] == ["edit", "pin", "source", "history", "delete"]
    pin = next(a for a in menu.actions() if a.data() == "pin")
    h.do(lambda: (pin.trigger(), menu.close()))
    h.wait_until(lambda: h.controller.memory.get(ids["veg"]).pinned, what="pinned from the menu")


def test_go_to_source_opens_the_conversation_at_the_message(make_window) -> None:
    h = make_window()
    store = h.controller.store
    session = store.create_session(title="Long planning").id
    for n in range(150):
        store.append_message(session, NewMessage("user", f"question {n}"))
        store.append_message(session, NewMessage("assistant", f"answer {n}", finish_reason="stop"))
    source = store.append_message(session, NewMessage("user", "Remember that my passport expires in March."))
    for n in range(150):
        store.append_message(session, NewMessage("assistant", f"later {n}", finish_reason="stop"))
    other = store.create_session(title="Other").id
    store.append_message(other, NewMessage("user", "something else"))
    memory = h.controller.memory.add("Passport expires in March", quote="my passport expires in March",
                                     session_id=session, message_id=source)
    h.run(h.window.open_session(other, None))
    refreshed(h, lambda t: any("Passport" in x for x in t), "the memory")
    select(h, memory.id)
    listing = h.window.findChild(QListWidget, "memoryList")
    h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_Return))
    h.wait_until(lambda: h.window.current_session == session, what="the source conversation")
    view = h.window.chat.view
    item = h.wait_until(lambda: view.currentIndex().isValid() and view.currentIndex().data(Qt.ItemDataRole.UserRole + 1),
                        what="the message under the keyboard focus")
    assert isinstance(item, MessageItem) and item.message_id == source
    h.wait_until(lambda: view.visualRect(view.currentIndex()).intersects(view.viewport().rect()),
                 what="the message on screen")
    assert view.hasFocus()


def test_wipe_all_asks_and_cancel_keeps_everything(make_window) -> None:
    h = make_window()
    add_memories(h)
    memory = h.controller.memory
    refreshed(h, lambda t: len(t) >= 6, "the memories")
    wipe = h.window.findChild(QPushButton, "wipeMemoriesButton")
    h.do(wipe.click)
    box = h.wait_until(lambda: h.window.memory.wipe_dialog, what="the confirmation")
    assert "3 memories" in box.text() and box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    h.do(lambda: box.button(QMessageBox.StandardButton.Cancel).click())
    h.settle(0.2)
    assert memory.count(states=None) == 3 and len(h.window.inspector.memory.memory_ids()) == 3
    h.window.memory.wipe_dialog = None
    h.do(wipe.click)
    box = h.wait_until(lambda: h.window.memory.wipe_dialog, what="the confirmation again")
    h.do(box.action.click)
    h.wait_until(lambda: memory.count(states=None) == 0, what="everything wiped")
    h.wait_until(lambda: "No memories yet" in panel_texts(h)[0], what="the empty state")
    assert h.controller.store.get_session(trip_session_ids(h)) is not None, "conversations are not touched"


def trip_session_ids(h) -> str:
    return next(s.id for s in h.controller.store.list_sessions() if s.title == "Trip planning")


def extraction(statement: str, quote: str, subject: str, kind: str = "preference"):
    """The scripted model's answer to the memory-extraction side request after a turn."""
    from tests.support.model_server import memory_reply

    return memory_reply({"statement": statement, "quote": quote, "subject": subject, "kind": kind, "date": None})


def is_extraction(request) -> bool:
    return request.system_prompt.startswith("You extract memories")


def test_a_remembered_notice_appears_after_the_turn_and_undo_forgets(make_window, model_server) -> None:
    h = make_window()
    h.do(h.window.memory.show_tab)  # on screen, the tab follows at once (hidden, it is refilled when shown)
    model_server.memory_responder = extraction("Prefers window seats", "I prefer window seats", "seat preference")
    model_server.enqueue(text_reply("Window seats it is."))
    h.send("I prefer window seats on long flights.")
    item = h.wait_until(lambda: next((i for i in h.window.chat.model.items() if isinstance(i, RememberedItem)), None),
                        what="the Remembered row")
    assert item.statements == ("Prefers window seats",) and item.session_id == h.window.current_session
    memory = h.controller.memory
    remembered = memory.get(item.memory_ids[0])
    assert remembered.quote == "I prefer window seats" and remembered.session_id == h.window.current_session
    h.wait_until(lambda: any(t.startswith("Prefers window seats") for t in panel_texts(h)), what="the tab refreshed")
    view = h.window.chat.view
    row = h.window.chat.model.row_of(item)
    labels = [label for label, _action, _payload in message_actions(view, h.window.chat.model.index(row))]
    assert labels == ["Undo", "Show in the Memory tab"], "the keyboard reaches Undo (Menu key)"
    h.do(lambda: h.window.inspector.setCurrentIndex(0))
    h.do(lambda: h.window.chat._on_action("show_memories", item, None))
    h.wait_until(lambda: h.window.inspector.memory.selected_id() == item.memory_ids[0], what="the memory selected")
    assert h.window.inspector.currentWidget() is h.window.inspector.memory
    h.do(lambda: h.window.chat._on_action("undo_remembered", item, None))
    h.wait_until(lambda: item.state == "undone", what="the row to say it was forgotten")
    assert memory.get(item.memory_ids[0]) is None and memory.count(states=None) == 0
    layout = view.delegate.row_layout(item, view.viewport().width())
    assert "Forgotten (undone): Prefers window seats" in layout.docs[0].doc.toPlainText() and not layout.hits
    h.wait_until(lambda: "No memories yet" in panel_texts(h)[0], what="the tab without it")
    # reopened, the conversation still says what happened (for this run)
    session = h.window.current_session
    h.do(h.window.new_session)
    h.run(h.window.open_session(session, None))
    again = [i for i in h.window.chat.model.items() if isinstance(i, RememberedItem)]
    assert again == [item] and h.window.chat.model.items()[-1] is item


def test_incognito_persists_and_a_turn_in_it_records_nothing(make_window, model_server) -> None:
    h = make_window()
    memory = h.controller.memory
    profile = h.controller.runtime.profile.id
    memory.add("Drinks green tea every morning", quote="I drink green tea every morning", profile_id=profile,
               kind=Kind.PREFERENCE)
    toggle = h.window.findChild(QCheckBox, "incognitoToggle")
    strip = h.window.findChild(object, "incognitoBanner")
    assert not toggle.isChecked() and not strip.isVisible()
    model_server.memory_responder = extraction("Likes green tea", "I like green tea", "drink")
    model_server.enqueue(text_reply("Tea, noted."))
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    # switched on and a message sent at once: the turn waits for the switch to be stored
    h.do(lambda: (toggle.click(), box.setFocus(), QTest.keyClicks(box, "Remember that I like green tea."),
                  QTest.keyClick(box, Qt.Key.Key_Return)))
    session = h.wait_until(lambda: h.window.current_session, what="the new chat's id")
    h.wait_until(lambda: strip.isVisible(), what="the strip")
    assert memory.is_incognito(session) and "does not use or record memory" in h.window.memory.strip_label.text()
    h.wait_until(lambda: not h.controller.is_busy(session) and any(
        isinstance(i, MessageItem) and i.text == "Tea, noted." for i in h.window.chat.model.items()), what="reply")
    h.run(h.controller.runtime.memory.wait_idle(5))
    assert memory.count(states=None) == 1, "an incognito conversation records nothing"
    turn_requests = [r for r in model_server.chat_requests if r.tool_names]
    assert turn_requests and not any("green tea every morning" in r.system_prompt for r in turn_requests), \
        "and recalls nothing into its requests"
    assert not any(is_extraction(r) for r in model_server.chat_requests), "its words are not even sent for extraction"
    assert not any(isinstance(i, RememberedItem) for i in h.window.chat.model.items())
    # another chat is not incognito; back in this one the switch shows it is
    h.do(h.window.new_session)
    assert not toggle.isChecked() and not strip.isVisible()
    h.run(h.window.open_session(session, None))
    assert toggle.isChecked() and strip.isVisible()
    # "Use memory again" turns it off
    h.do(lambda: h.window.findChild(QPushButton, "leaveIncognitoButton").click())
    h.wait_until(lambda: not strip.isVisible(), what="the strip gone")
    assert not memory.is_incognito(session) and not toggle.isChecked()


def test_the_session_menu_switches_memory_off_and_shows_it(make_window) -> None:
    h = make_window()
    store = h.controller.store
    session = store.create_session(title="Private thoughts").id
    store.append_message(session, NewMessage("user", "hello"))
    h.run(h.window.refresh_sessions())
    sessions = h.window.sidebar.list

    def menu_for_session() -> QMenu:
        row = next(r for r in range(sessions.count()) if sessions.item(r).data(Qt.ItemDataRole.UserRole + 1) == session)
        h.do(lambda: h.window.sidebar._menu(sessions.visualItemRect(sessions.item(row)).center()))
        return [m for m in h.window.sidebar.findChildren(QMenu) if m.isVisible()][-1]

    menu = menu_for_session()
    action = next(a for a in menu.actions() if a.objectName() == "incognitoAction")
    assert action.isCheckable() and not action.isChecked()
    h.do(lambda: (action.trigger(), menu.close()))
    h.wait_until(lambda: h.window.memory.is_incognito(session), what="switched from the menu")
    assert h.controller.memory.is_incognito(session), "and stored"
    row = h.wait_until(lambda: next((sessions.item(r) for r in range(sessions.count())
                                     if sessions.item(r).data(Qt.ItemDataRole.UserRole + 1) == session
                                     and sessions.item(r).font().italic()), None), what="the session shown in italics")
    assert "Incognito: does not use or record memory" in row.toolTip()
    menu = menu_for_session()
    assert next(a for a in menu.actions() if a.objectName() == "incognitoAction").isChecked()
    h.do(menu.close)
    h.run(h.window.open_session(session, None))
    assert h.window.findChild(QCheckBox, "incognitoToggle").isChecked() and h.window.memory.strip.isVisible()


def test_a_memory_from_a_deleted_conversation_says_so(make_window) -> None:
    h = make_window()
    session, first, _second = trip_session(h)
    memory = h.controller.memory.add("Prefers tea", quote="I prefer tea", session_id=session, message_id=first)
    h.run(h.controller.delete(session))
    texts = refreshed(h, lambda t: any(x.startswith("Prefers tea") for x in t), "the memory")
    assert "from a deleted conversation" in next(x for x in texts if x.startswith("Prefers tea"))
    select(h, memory.id)
    assert not h.window.findChild(QPushButton, "memorySourceButton").isEnabled()


def test_incognito_survives_a_restart(make_window, model_server) -> None:
    h = make_window()
    toggle = h.window.findChild(QCheckBox, "incognitoToggle")
    model_server.enqueue(text_reply("Hello."))
    h.send("hello")
    session = h.window.current_session
    h.wait_until(lambda: not h.controller.is_busy(session), what="idle")
    h.do(toggle.click)
    h.wait_until(lambda: h.controller.memory.is_incognito(session), what="stored")
    h.do(h.window.close)
    again = make_window()
    again.wait_until(lambda: again.window.current_session == session, what="the restored session")
    again.wait_until(lambda: again.window.findChild(QCheckBox, "incognitoToggle").isChecked(), what="the switch on")
    assert again.window.findChild(object, "incognitoBanner").isVisible()


def test_settings_memory_page_saves_the_switch_budget_and_half_life(make_window) -> None:
    h = make_window()
    h.do(h.window.open_settings)
    dialog = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings")
    enabled = dialog.findChild(QCheckBox, "memoryEnabledCheck")
    budget = dialog.findChild(QSpinBox, "memoryBudgetSpin")
    half_life = dialog.findChild(QSpinBox, "memoryHalfLifeSpin")
    assert enabled.isChecked() and budget.value() == 400 and half_life.value() == 7
    h.do(lambda: (budget.setValue(600), half_life.setValue(14)))
    h.do(enabled.click)
    settings = h.controller.runtime.settings
    assert (settings.memory_enabled, settings.memory_budget_tokens, settings.memory_half_life_days) == (False, 600, 14)
    assert not budget.isEnabled()
    saved = json.loads(h.controller.runtime.paths.settings_file.read_text(encoding="utf-8"))
    assert saved["memory_enabled"] is False and saved["memory_budget_tokens"] == 600
    h.do(lambda: dialog.findChild(QDialogButtonBox).rejected.emit())
    h.wait_until(lambda: h.window.inspector.memory.status.isVisibleTo(h.window.inspector.memory), what="the off note")


def test_add_writes_a_long_term_memory_for_the_active_provider(make_window) -> None:
    h = make_window()
    h.do(lambda: (h.window.memory.show_tab(), h.window.findChild(QPushButton, "addMemoryButton").click()))
    dialog = h.wait_until(lambda: h.window.memory.edit_dialog, what="the add dialog")
    assert dialog.objectName() == "addMemoryDialog"
    h.do(lambda: (dialog.setTextValue("  Prefers answers in British English "), dialog.accept()))
    memory = h.controller.memory
    added = h.wait_until(lambda: memory.list(), what="the new memory")[0]
    assert (added.statement, added.layer, added.quote, added.session_id) == (
        "Prefers answers in British English", Layer.LONG_TERM, "", None)
    assert added.profile_id == h.controller.runtime.profile.id
    texts = h.wait_until(lambda: [t for t in panel_texts(h) if t.startswith("Prefers answers")], what="listed")
    assert "added by you" in texts[0] and "used only with" not in texts[0]
    # The window runs on HERMES_BASE_URL here (the ephemeral profile): its own memories are recalled, one made with
    # a saved provider is not, and says so. Saved providers share each other's (tests/core/test_memory.py).
    assert added.profile_id == ENV_PROFILE_ID
    memory.add("Likes haiku", profile_id="work-profile", kind=Kind.PREFERENCE)
    memory.add("Likes tanka", profile_id=ENV_PROFILE_ID, kind=Kind.PREFERENCE)
    texts = refreshed(h, lambda t: any(x.startswith("Likes tanka") for x in t), "the other profiles' memories")
    assert "HERMES_BASE_URL" not in next(x for x in texts if x.startswith("Likes tanka"))
    assert "not used with the server in HERMES_BASE_URL" in next(x for x in texts if x.startswith("Likes haiku"))


def test_a_long_list_shows_the_newest_and_says_search_finds_the_rest(make_window) -> None:
    h = make_window()
    memory = h.controller.memory
    for n in range(205):
        memory.add(f"Fact number {n}", quote=f"fact {n}")
    texts = refreshed(h, lambda t: len(t) > 200, "the list")
    assert texts[-1] == "The newest 200 of 205 memories are listed. Search to find the others."
    assert len(h.window.inspector.memory.memory_ids()) == 200
    search = h.window.findChild(QLineEdit, "memorySearch")
    h.do(lambda: (search.setFocus(), QTest.keyClicks(search, "number 3")))
    h.wait_until(lambda: any(t.startswith("Fact number 3\n") for t in panel_texts(h)), what="an older one by search")


def test_on_a_full_disk_an_edit_or_delete_says_so_and_nothing_changes(make_window, tmp_path, monkeypatch) -> None:
    from tests.support.small_disk import small_disk

    with small_disk(tmp_path / "disk") as disk:
        monkeypatch.setenv("XDG_DATA_HOME", str(disk.root))
        h = make_window()
        ids = add_memories(h)
        memory = h.controller.memory
        refreshed(h, lambda t: len(t) >= 6, "the memories")
        listing = h.window.findChild(QListWidget, "memoryList")
        disk.fill()
        try:
            select(h, ids["veg"])
            h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_F2))
            dialog = h.wait_until(lambda: h.window.memory.edit_dialog, what="the edit dialog")
            h.do(lambda: (dialog.setTextValue("Prefers steak houses"), dialog.accept()))
            h.wait_until(lambda: "The memory was not changed" in h.window.errors.label.text()
                         and h.window.errors.isVisible(), what="the error shown")
            select(h, ids["due"])
            h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_Delete))
            h.wait_until(lambda: "The memory was not deleted" in h.window.errors.label.text(), what="the delete error")
            assert not h.window.inspector.memory.undo_bar.isVisible(), "no Undo for a delete that did not happen"
            toggle = h.window.findChild(QCheckBox, "incognitoToggle")
            h.do(toggle.click)
            h.wait_until(lambda: "memory switch was not saved" in h.window.errors.label.text(), what="the switch error")
            h.wait_until(lambda: not toggle.isChecked(), what="the switch back off")
            assert not h.window.memory.strip.isVisible()
            assert not memory.is_incognito(h.window.current_session)
            h.do(lambda: h.window.findChild(QPushButton, "wipeMemoriesButton").click())
            box = h.wait_until(lambda: h.window.memory.wipe_dialog, what="the wipe confirmation")
            h.do(box.action.click)
            h.wait_until(lambda: "The memories were not wiped" in h.window.errors.label.text(), what="the wipe error")
            assert "All memories were wiped" not in h.window.statusBar().currentMessage()
        finally:
            disk.free()
        assert memory.get(ids["veg"]).statement == "Prefers vegetarian restaurants"
        assert memory.get(ids["due"]).state is MemoryState.ACTIVE and memory.count(states=None) == 3
        h.wait_until(lambda: h.window.inspector.memory.memory_ids() == [ids["veg"], ids["due"], ids["old"]],
                     what="the list as it was")


def test_an_undo_that_cannot_be_saved_says_so_and_can_be_tried_again(make_window, model_server, tmp_path,
                                                                      monkeypatch) -> None:
    from tests.support.small_disk import small_disk

    with small_disk(tmp_path / "disk") as disk:
        monkeypatch.setenv("XDG_DATA_HOME", str(disk.root))
        h = make_window()
        model_server.memory_responder = extraction("Prefers aisle seats", "I prefer aisle seats", "seat preference")
        model_server.enqueue(text_reply("Aisle it is."))
        h.send("I prefer aisle seats.")
        item = h.wait_until(lambda: next((i for i in h.window.chat.model.items() if isinstance(i, RememberedItem)),
                                         None), what="the Remembered row")
        memory = h.controller.memory
        disk.fill()
        try:
            h.do(lambda: h.window.chat._on_action("undo_remembered", item, None))
            h.wait_until(lambda: item.state == "failed", what="the failed undo")
            assert "Could not forget it" in h.window.errors.label.text()
            assert memory.get(item.memory_ids[0]) is not None, "still remembered, as the row says"
            view = h.window.chat.view
            layout = view.delegate.row_layout(item, view.viewport().width())
            assert "Could not undo; still remembered: Prefers aisle seats" in layout.docs[0].doc.toPlainText()
            assert [hit.action for hit in layout.hits][0] == "undo_remembered", "Undo can be tried again"
        finally:
            disk.free()
        h.do(lambda: h.window.chat._on_action("undo_remembered", item, None))
        h.wait_until(lambda: item.state == "undone", what="undone once there is space")
        assert memory.get(item.memory_ids[0]) is None


def test_a_session_not_read_at_start_is_asked_when_opened(make_window) -> None:
    """The flags are read for the listed sessions at start; any other session (an old one opened from search, one
    switched by another window) is asked when it is opened."""
    h = make_window()
    h.wait_until(lambda: h.window.findChild(QCheckBox, "incognitoToggle").isEnabled(), what="the switch ready")
    store = h.controller.store
    session = store.create_session(title="Old and private").id
    store.append_message(session, NewMessage("user", "hello"))
    h.controller.memory.set_incognito(session, True)
    h.run(h.window.open_session(session, None))
    h.wait_until(lambda: h.window.findChild(QCheckBox, "incognitoToggle").isChecked(), what="the switch shown on")
    assert h.window.memory.strip.isVisible()


def test_a_remembered_row_follows_the_end_of_a_long_conversation(make_window) -> None:
    h = make_window()
    store = h.controller.store
    session = store.create_session(title="Long").id
    for n in range(200):
        store.append_message(session, NewMessage("user", f"question {n}"))
        store.append_message(session, NewMessage("assistant", f"answer {n}", finish_reason="stop"))
    kept = h.controller.memory.add("Prefers short answers", quote="I prefer short answers", session_id=session)
    h.do(lambda: h.window.memory.remembered(session, (kept.id,), (kept.statement,)))
    h.run(h.window.open_session(session, 10))  # opened near the start (a search hit): the end is not loaded
    model = h.window.chat.model
    assert model.has_later and not any(isinstance(i, RememberedItem) for i in model.items())
    while model.has_later:
        h.run(h.window._load_more(earlier=False))
    rows = [i for i in model.items() if isinstance(i, RememberedItem)]
    assert len(rows) == 1 and model.items()[-1] is rows[0]


def test_the_forget_tool_asks_and_the_tab_follows(make_window, model_server) -> None:
    from tests.support.model_server import CallScript, tool_call_reply

    h = make_window()
    memory = h.controller.memory
    kept = memory.add("The Acme report is due Friday", quote="The Acme report is due on Friday",
                      profile_id=h.controller.runtime.profile.id, kind=Kind.DEADLINE, expires_at=time.time() + DAY)
    refreshed(h, lambda t: any(x.startswith("The Acme report") for x in t), "the memory")
    model_server.enqueue(tool_call_reply(CallScript("forget", {"id": kept.id})), text_reply("Forgotten."))
    h.send("Forget what I said about the Acme deadline.")
    dialog = h.wait_until(lambda: h.window.approver.dialog, what="the approval dialog for forget")
    h.do(lambda: dialog.findChild(QPushButton, "allowOnceButton").click())
    h.wait_until(lambda: memory.get(kept.id).state is MemoryState.FORGOTTEN, what="forgotten by the tool")
    h.wait_until(lambda: kept.id not in h.window.inspector.memory.memory_ids(), what="the tab to follow")

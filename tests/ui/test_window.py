"""The window as a user meets it: send, stream, stop, tool cards, sessions, search, restart, errors."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QListWidget, QPlainTextEdit, QPushButton, QStatusBar, QTabWidget, QTreeWidget

from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.ui.chat.items import BannerItem, MessageItem, NoticeItem, ToolCardItem
from tests.support.model_server import CallScript, error_reply, slow_text_reply, text_reply, tool_call_reply


def wait_for_reply(h, text: str) -> None:
    h.wait_until(lambda: replies(h.window) and replies(h.window)[-1].text == text, what=f"the reply {text!r}")


def ask_and_settle(h, model_server, question: str, answer: str) -> None:
    """One finished exchange: the question sent, the answer shown, the session idle again."""
    model_server.enqueue(text_reply(answer))
    h.send(question)
    wait_for_reply(h, answer)
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")


def restart(h, make_window):
    """Close the window and start the app again; returns the new window once it has reopened the session."""
    session = h.window.current_session
    h.do(h.window.close)
    again = make_window()
    again.wait_until(lambda: again.window.current_session == session, what="the restored session")
    return again


def rows(window) -> list:
    return window.chat.model.items()


def replies(window) -> list[MessageItem]:
    return [i for i in rows(window) if isinstance(i, MessageItem) and i.role == "assistant"]


def test_the_contract_object_names_exist(make_window) -> None:
    window = make_window().window
    assert window.objectName() == "mainWindow"
    for kind, name in ((QListWidget, "sessionList"), (QPushButton, "newSessionButton"), (QLineEdit, "sessionSearch"),
                       (QPlainTextEdit, "chatInput"), (QPushButton, "sendButton"), (QPushButton, "stopButton"),
                       (QTabWidget, "inspector"), (QListWidget, "skillList"), (QTreeWidget, "toolList"),
                       (QTreeWidget, "activityLog"), (QStatusBar, "statusBar")):
        assert window.findChild(kind, name) is not None, name
    assert window.findChild(object, "chatView") is not None
    assert window.findChild(QPushButton, "sendButton").accessibleName()


def test_a_message_streams_in_and_the_session_appears(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(slow_text_reply("Hello! Streaming this reply word by word, 你好。", chunk_size=3, delay_s=0.02))
    h.send("hi there")
    assert h.window.findChild(QPlainTextEdit, "chatInput").toPlainText() == ""
    partial = h.wait_until(lambda: replies(h.window) and replies(h.window)[-1].streaming and replies(h.window)[-1].text,
                           what="the first streamed text")
    assert 0 < len(partial) < len("Hello! Streaming this reply word by word, 你好。")
    assert h.window.chat.stop_button.isEnabled()
    h.do(h.window.stop)
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="the turn to stop")
    user, reply = rows(h.window)[0], replies(h.window)[-1]
    assert user.text == "hi there" and reply.interrupted and not reply.streaming
    stored = h.controller.store.messages(h.window.current_session)
    assert stored[-1].interrupted and stored[-1].content == reply.text
    assert h.wait_until(lambda: h.window.sidebar.list.count() >= 2, what="the session in the sidebar")
    # What went to the model: one request, the system prompt first, the typed text last, the tools offered.
    requests = [r for r in model_server.chat_requests if r.messages and r.messages[-1].get("content") == "hi there"]
    assert len(requests) == 1, "the message was sent once"
    request = requests[0]
    assert request.messages[0]["role"] == "system" and request.system_prompt
    assert request.messages[-1] == {"role": "user", "content": "hi there"}
    assert {"calculate", "read_file", "write_file"} <= set(request.tool_names)


def test_a_full_reply_renders_markdown_and_finishes(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(text_reply("# Title\n\n- one\n- two\n\n```python\nprint(1)\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |",
                                    chunk_size=5))
    h.send("markdown please")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session or "") and replies(h.window)
                 and not replies(h.window)[-1].streaming, what="the reply")
    reply = replies(h.window)[-1]
    assert reply.text.startswith("# Title") and not reply.interrupted
    layout = h.window.chat.view.delegate.row_layout(reply, h.window.chat.view.viewport().width())
    assert len(layout.docs) == 4 and layout.docs[2].code == "print(1)"
    html = "".join(d.doc.toHtml() for d in layout.docs)
    assert "one" in html and "Copy" in html


def test_a_tool_call_shows_a_card_with_its_result(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("calculate", {"expression": "(12+34)*5"})), text_reply("It is 230."))
    h.send("(12+34)*5?")
    card = h.wait_until(lambda: next((i for i in rows(h.window) if isinstance(i, ToolCardItem) and i.status == "done"),
                                     None), what="the finished tool card")
    assert (card.name, card.source, card.risk) == ("calculate", "builtin", "read")
    assert '"230"' in card.result and '"expression": "(12+34)*5"' in card.arguments
    wait_for_reply(h, "It is 230.")
    h.window.chat._on_action("toggle_result", card, None)
    layout = h.window.chat.view.delegate.row_layout(card, 800)
    assert any("230" in d.doc.toPlainText() for d in layout.docs)
    activity = h.window.findChild(QTreeWidget, "activityLog")
    texts = [activity.topLevelItem(0).child(i).text(0) for i in range(activity.topLevelItem(0).childCount())]
    assert any(t.startswith("calculate · ok") for t in texts) and any(t.startswith("Model round 1") for t in texts)


def test_a_denied_write_shows_on_the_card_and_nothing_is_written(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "a.txt", "content": "x"})),
                         text_reply("I could not write it."))
    h.send("write a.txt")
    dialog = h.wait_until(lambda: h.window.approver.dialog, what="the approval dialog")
    waiting = next(i for i in rows(h.window) if isinstance(i, ToolCardItem))
    assert waiting.status == "waiting"
    h.do(lambda: dialog.findChild(QPushButton, "denyButton").click())
    card = h.wait_until(lambda: next((i for i in rows(h.window) if isinstance(i, ToolCardItem) and i.status == "denied"),
                                     None), what="the denied card")
    assert card.risk == "write" and card.impact == "will create a.txt (1 bytes)" and card.decided_by == "you"
    assert not (workspace_dir / "a.txt").exists()


def test_switching_sessions_mid_stream_never_mixes_messages(make_window, model_server) -> None:
    h = make_window()
    other = h.controller.store.create_session(title="Other session")
    h.controller.store.append_message(other.id, NewMessage("user", "message of the other session"))
    model_server.enqueue(slow_text_reply("streaming into the first session " * 6, chunk_size=4, delay_s=0.01))
    h.send("first session question")
    first = h.wait_until(lambda: h.window.current_session, what="a session id")
    h.wait_until(lambda: replies(h.window) and replies(h.window)[-1].text, what="streaming to start")
    arrived: list[str] = []
    h.controller.sig_session_event.connect(lambda session_id, _event: arrived.append(session_id))
    h.run(h.window.open_session(other.id, None))
    shown_from = len(arrived)
    h.wait_until(lambda: arrived[shown_from:].count(first) >= 3,
                 what="more of the first session's stream while the other session is shown")
    assert [i.text for i in rows(h.window) if isinstance(i, MessageItem)] == ["message of the other session"]
    h.run(h.window.open_session(first, None))
    h.wait_until(lambda: replies(h.window) and replies(h.window)[-1].text.count("streaming") >= 2, what="live text")
    h.do(h.window.stop)
    h.wait_until(lambda: not h.controller.is_busy(first), what="the stop")
    texts = [i.text for i in rows(h.window) if isinstance(i, MessageItem)]
    assert texts[0] == "first session question" and "other session" not in " ".join(texts)
    assert h.controller.store.messages(first)[-1].content == replies(h.window)[-1].text


def test_search_opens_the_session_scrolled_to_the_hit(make_window) -> None:
    h = make_window()
    store = h.controller.store
    target = store.create_session(title="Long history")
    for n in range(300):
        store.append_message(target.id, NewMessage("user", f"question number {n}"))
        store.append_message(target.id, NewMessage("assistant", f"answer number {n}", finish_reason="stop"))
    store.append_message(target.id, NewMessage("user", "the word xylophone appears once"))
    for n in range(200):
        store.append_message(target.id, NewMessage("assistant", f"later filler {n}", finish_reason="stop"))
    search = h.window.findChild(QLineEdit, "sessionSearch")
    h.do(lambda: (search.setFocus(), QTest.keyClicks(search, "xylophone")))
    h.wait_until(lambda: h.window.sidebar.list.count()
                 and "xylophone" in (h.window.sidebar.list.item(0).data(Qt.ItemDataRole.AccessibleTextRole) or ""),
                 what="the search result")
    h.do(lambda: QTest.keyClick(search, Qt.Key.Key_Return))
    h.wait_until(lambda: h.window.current_session == target.id, what="the session to open")
    model = h.window.chat.model
    row = h.wait_until(lambda: next((r for r, i in enumerate(model.items())
                                     if isinstance(i, MessageItem) and "xylophone" in i.text), None), what="hit row")
    view = h.window.chat.view
    h.wait_until(lambda: view.visualRect(model.index(row)).intersects(view.viewport().rect()),
                 what="the hit scrolled on screen")
    assert model.first_loaded > 0 and model.has_later, "only a page around the hit was loaded"


def _colours(image, rect) -> set[int]:
    return {image.pixel(x, y) for x in range(rect.left(), rect.right() + 1) for y in range(rect.top(), rect.bottom() + 1)}


def test_a_search_result_row_paints_one_text(make_window) -> None:
    """The result's rich label is the only text in its row: the list paints nothing under it."""
    h = make_window()
    store = h.controller.store
    target = store.create_session(title="Music notes")
    store.append_message(target.id, NewMessage("user", "the word xylophone appears once"))
    search = h.window.findChild(QLineEdit, "sessionSearch")
    sessions = h.window.sidebar.list
    h.do(lambda: (search.setFocus(), QTest.keyClicks(search, "xylophone")))
    item = h.wait_until(lambda: sessions.count() and sessions.item(0).data(Qt.ItemDataRole.AccessibleTextRole)
                        and sessions.item(0), what="the search result")
    label = sessions.itemWidget(item)
    assert item.text() == "", "the row has no plain text of its own to paint"
    assert "<b>xylophone</b>" in label.text() and "xylophone" in item.data(Qt.ItemDataRole.AccessibleTextRole)
    h.do(lambda: sessions.setCurrentRow(-1))
    rect = sessions.visualItemRect(item)
    with_label = h.do(lambda: sessions.viewport().grab().toImage())
    assert len(_colours(with_label, rect)) > 2, "the label's text shows in the grab"
    h.do(label.hide)
    under_label = h.do(lambda: sessions.viewport().grab().toImage())
    assert len(_colours(under_label, rect)) <= 2, "with its label hidden, the row is blank: no second text"


def test_a_long_session_opens_at_the_newest_message_and_loads_earlier_pages(make_window) -> None:
    h = make_window()
    store = h.controller.store
    session = store.create_session(title="Ten thousand")
    rows_ = [(n + 1, n or None, NewMessage("user" if n % 2 == 0 else "assistant", f"message {n}",
                                           finish_reason=None if n % 2 == 0 else "stop"), None, None) for n in range(10_000)]
    store.purge_session(session.id)
    store.import_session(session_id=session.id, fields={"title": "Ten thousand"}, messages=rows_, head=None)
    h.run(h.window.open_session(session.id, None))
    model = h.window.chat.model
    assert model.rowCount() <= 80 and model.items()[-1].text == "message 9999"
    view = h.window.chat.view
    h.wait_until(lambda: view.visualRect(model.index(model.rowCount() - 1)).intersects(view.viewport().rect()),
                 what="the newest message on screen")
    before, first_before = model.rowCount(), model.first_loaded
    h.do(lambda: view.verticalScrollBar().setValue(0))
    h.wait_until(lambda: model.rowCount() > before, what="an earlier page")
    assert model.first_loaded < first_before, "the page loaded lies before what was shown"
    assert model.items()[0].text == f"message {model.first_loaded}", "in order, from the new first position"
    assert [i.text for i in model.items()].index(f"message {first_before}") == first_before - model.first_loaded


def test_restart_restores_the_last_session(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(text_reply("remember me"))
    h.send("first run")
    wait_for_reply(h, "remember me")
    again = restart(h, make_window)
    assert [i.text for i in rows(again.window) if isinstance(i, MessageItem)] == ["first run", "remember me"]


def test_after_a_restart_the_activity_tab_shows_the_saved_turns(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("calculate", {"expression": "6*7"})), text_reply("42"))
    h.send("six times seven")
    wait_for_reply(h, "42")
    again = restart(h, make_window)
    activity = again.window.findChild(QTreeWidget, "activityLog")
    again.wait_until(lambda: activity.topLevelItemCount() == 2, what="the rebuilt trace")
    assert "rebuilt from the saved conversation" in activity.topLevelItem(0).text(0)
    assert "timings" in activity.topLevelItem(0).toolTip(0)
    turn = activity.topLevelItem(1)
    entries = [turn.child(i).text(0) for i in range(turn.childCount())]
    assert turn.text(0) == "six times seven"
    assert entries[0].startswith("Model reply 1") and entries[1] == "calculate · done"
    assert entries[2].startswith("Model reply 2")
    model_server.enqueue(text_reply("and 43 is one more"))
    again.send("plus one?")
    again.wait_until(lambda: activity.topLevelItemCount() == 3, what="the live turn after the rebuilt one")
    wait_for_reply(again, "and 43 is one more")
    activity.topLevelItem(1).setData(0, Qt.ItemDataRole.UserRole + 99, "kept")
    model_server.enqueue(text_reply("44"))
    again.send("and one more?")
    wait_for_reply(again, "44")
    assert activity.topLevelItemCount() == 4
    assert activity.topLevelItem(1).data(0, Qt.ItemDataRole.UserRole + 99) == "kept", \
        "turns that cannot change any more are not rebuilt on each event"


def test_an_error_banner_offers_working_actions(make_window, model_server) -> None:
    h = make_window()
    model_server.required_key = "sk-something-else"
    h.send("hello?")
    banner = h.wait_until(lambda: next((i for i in rows(h.window) if isinstance(i, BannerItem)), None), what="banner")
    assert "401" in banner.message and banner.actions == ("retry", "open_provider_settings")
    h.do(lambda: h.window.chat._on_action("banner:open_provider_settings", banner, None))
    dialog = h.wait_until(lambda: getattr(h.window, "setup_dialog", None), what="the provider dialog")
    assert dialog.isVisible() and dialog.findChild(QLineEdit, "baseUrlEdit").text() == model_server.base_url
    h.do(dialog.reject)
    model_server.required_key = None
    model_server.enqueue(text_reply("now it works"))
    h.do(lambda: h.window.chat._on_action("banner:retry", banner, None))
    wait_for_reply(h, "now it works")
    users = [m for m in h.controller.store.messages(h.window.current_session) if m.role == "user"]
    assert [u.content for u in users] == ["hello?"], "the retry answered the saved message, nothing was lost"


def test_context_too_long_offers_a_new_session_from_a_summary(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(text_reply("first"))
    h.send("one")
    wait_for_reply(h, "first")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    h.settle(0.3)
    old = h.window.current_session
    too_long = error_reply(400, "maximum context length exceeded", code="context_length_exceeded")
    model_server.enqueue(too_long, too_long)
    h.send("two")
    banner = h.wait_until(lambda: next((i for i in rows(h.window) if isinstance(i, BannerItem)), None), what="banner")
    assert "new_session_with_summary" in banner.actions
    model_server.enqueue(text_reply("- we said one and two"))
    h.do(lambda: h.window.chat._on_action("banner:new_session_with_summary", banner, None))
    h.wait_until(lambda: h.window.current_session not in (None, old), what="the new session")
    notices = [i for i in rows(h.window) if isinstance(i, NoticeItem)]
    assert notices and "we said one and two" in notices[0].text


def test_disabled_tools_are_not_sent_to_the_model(make_window, model_server) -> None:
    h = make_window()
    item = h.window.inspector.tool_item("fetch_url")
    h.do(lambda: item.setCheckState(0, Qt.CheckState.Unchecked))
    model_server.enqueue(text_reply("ok"))
    h.send("hello")
    h.wait_until(lambda: model_server.chat_requests, what="the request")
    sent = model_server.chat_requests[0].tool_names
    assert "fetch_url" not in sent and "calculate" in sent
    assert "fetch_url" in h.controller.runtime.settings_store.load().settings.disabled_tools


def test_edit_and_resend_makes_a_branch_and_keeps_the_old_one(make_window, model_server) -> None:
    h = make_window()
    ask_and_settle(h, model_server, "question one", "answer one")
    user = rows(h.window)[0]
    h.window.chat._on_action("edit", user, None)
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    assert box.toPlainText() == "question one"
    box.selectAll()
    QTest.keyClicks(box, "question one, edited")
    model_server.enqueue(text_reply("answer to the edit"))
    h.do(lambda: QTest.keyClick(box, Qt.Key.Key_Return))
    wait_for_reply(h, "answer to the edit")
    store = h.controller.store
    assert [m.content for m in store.messages(h.window.current_session)] == ["question one, edited", "answer to the edit"]
    assert len(store.siblings(user.message_id)) == 2, "the old question is kept as a branch"


def test_escape_stops_and_the_input_stays_usable(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(slow_text_reply("slow " * 200, delay_s=0.02))
    h.send("go")
    h.wait_until(lambda: replies(h.window) and replies(h.window)[-1].text, what="streaming")
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    QTest.keyClicks(box, "my next message")
    assert box.toPlainText() == "my next message", "typing works while a reply streams"
    h.do(lambda: QTest.keyClick(box, Qt.Key.Key_Escape))
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="the stop")
    assert replies(h.window)[-1].interrupted and box.toPlainText() == "my next message"


def test_theme_switch_repaints(make_window, model_server) -> None:
    """What is on screen changes, not only the flag: the sidebar, the transcript and the reply's inline code are
    painted in the new theme's colours (grabbed pixels), and back again."""
    from hermes_desktop.ui.theme import DARK_THEME, LIGHT_THEME

    h = make_window()
    h.do(lambda: h.window.set_theme("light"))
    model_server.enqueue(text_reply("`code` and text"))
    h.send("x")
    wait_for_reply(h, "`code` and text")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    h.settle(0.1)
    assert painted_in(h, LIGHT_THEME), "light to start with"
    h.do(lambda: h.window.set_theme("dark"))
    h.settle(0.1)
    assert h.window.theme_manager.theme.dark
    assert json.loads(h.controller.runtime.settings_store.path.read_text())["theme"] == "dark"
    assert painted_in(h, DARK_THEME), "the window is repainted in the dark palette"
    h.wait_until(lambda: paperclip_lightness(h) > 150, what="a light paperclip on the dark theme")
    h.do(lambda: h.window.set_theme("light"))
    h.settle(0.1)
    assert painted_in(h, LIGHT_THEME), "and back in the light one"
    h.wait_until(lambda: paperclip_lightness(h) < 110, what="a dark paperclip on the light theme")


def _most_common(image) -> int:
    counts: dict[int, int] = {}
    for x in range(0, image.width(), 2):
        for y in range(0, image.height(), 2):
            counts[image.pixel(x, y)] = counts.get(image.pixel(x, y), 0) + 1
    return max(counts, key=counts.get)


def painted_in(h, theme) -> bool:
    """Grabs of the sidebar list, the transcript and the reply's row, compared with the theme's colours."""
    from PySide6.QtGui import QColor

    def rgb(name: str) -> int:
        return QColor(name).rgba()

    window = h.window
    sidebar = window.sidebar.list.viewport().grab().toImage()
    transcript = window.chat.view.viewport().grab().toImage()
    panel = window.sidebar.grab().toImage()
    view = window.chat.view
    row = view.visualRect(view.model().index(view.model().rowCount() - 1, 0))
    reply = transcript.copy(row)
    reply_colours = {reply.pixel(x, y) for x in range(reply.width()) for y in range(reply.height())}
    assert theme.markdown.inline_code_background != DARK_OR_LIGHT[not theme.dark].markdown.inline_code_background
    # The session list is drawn on the window's colour (no frame, ui/sidebar.py), the transcript on the base colour.
    return (_most_common(sidebar) == rgb(theme.window) and _most_common(transcript) == rgb(theme.base)
            and panel.pixel(2, panel.height() - 2) == rgb(theme.window)
            and rgb(theme.markdown.inline_code_background) in reply_colours
            and rgb(DARK_OR_LIGHT[not theme.dark].markdown.inline_code_background) not in reply_colours)


def _themes() -> dict[bool, object]:
    from hermes_desktop.ui.theme import DARK_THEME, LIGHT_THEME

    return {True: DARK_THEME, False: LIGHT_THEME}


DARK_OR_LIGHT = _themes()


def paperclip_lightness(h) -> int:
    """How light the drawn paperclip's strokes are (its most opaque pixels)."""
    image = h.window.chat.attach_button.icon().pixmap(18, 18).toImage()
    pixels = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())]
    strokes = [p for p in pixels if p.alpha() > 200] or pixels
    return max(p.lightness() for p in strokes)


def test_an_edited_message_offers_its_versions_and_each_leads_to_its_branch(make_window, model_server) -> None:
    h = make_window()
    ask_and_settle(h, model_server, "question one", "answer one")
    first = rows(h.window)[0]
    model_server.enqueue(text_reply("answer two"))
    h.run(h.controller.edit_and_resend(h.window.current_session, first.message_id, "question two"))
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session) and replies(h.window)
                 and replies(h.window)[-1].text == "answer two", what="the new branch")
    h.run(h.window.open_session(h.window.current_session, None))
    edited = rows(h.window)[0]
    assert edited.text == "question two" and edited.versions == (first.message_id, edited.message_id)
    layout = h.window.chat.view.delegate.row_layout(edited, h.window.chat.view.viewport().width())
    assert "2/2" in [t.text for t in layout.texts]
    previous = next(hit for hit in layout.hits if hit.action == "version")
    h.do(lambda: h.window.chat._on_action("version", edited, previous.payload))
    h.wait_until(lambda: rows(h.window) and rows(h.window)[0].text == "question one", what="the old branch")
    assert [i.text for i in rows(h.window) if isinstance(i, MessageItem)] == ["question one", "answer one"]

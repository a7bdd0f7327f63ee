"""A reasoning model's thinking in the window: it streams open, collapses to "Thought for N s" when the answer
starts, toggles with a click, stays after the session is reopened, and the setting can hide it or keep it open.
The Activity tab shows the reasoning tokens the server reported."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QComboBox, QTreeWidget

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import Settings, SettingsStore, ThinkingDisplay
from hermes_desktop.ui.chat import items as chat_items
from hermes_desktop.ui.chat.items import MessageItem, thinking_state
from tests.support.model_server import ScriptedReply, reasoning_reply

THOUGHT = "First, recall that the capital of France is Paris. " * 3
ANSWER = "Paris is the capital of France."


def rows(h) -> list:
    return h.window.chat.model.items()


def reply_row(h) -> MessageItem | None:
    return next((i for i in rows(h) if isinstance(i, MessageItem) and i.role == "assistant"), None)


def painted_words(h, item: MessageItem) -> list[str]:
    """The words of the row's labels, as the delegate lays them out to paint them."""
    return [part.text for part in h.window.chat.view.delegate.row_layout(item, 900).texts]


def painted_docs(h, item: MessageItem) -> list[str]:
    return [part.doc.toPlainText() for part in h.window.chat.view.delegate.row_layout(item, 900).docs]


def click_thinking_toggle(h, item: MessageItem) -> None:
    """A real mouse click on the toggle line, through the view and its delegate."""
    from PySide6.QtTest import QTest

    view = h.window.chat.view
    index = h.window.chat.model.index(h.window.chat.model.row_of(item))
    h.do(lambda: view.scrollTo(index))
    layout = view.delegate.row_layout(item, view.viewport().width())
    hit = next(hit for hit in layout.hits if hit.action == "toggle_thinking")
    point = (hit.rect.center() + QPointF(view.visualRect(index).topLeft())).toPoint()
    h.do(lambda: QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point))


def test_thinking_streams_open_collapses_when_the_answer_starts_and_survives_reopening(make_window, model_server
                                                                                        ) -> None:
    h = make_window()
    thinking_events = reasoning_reply(THOUGHT, "").events[:-2]  # the thinking only, then a pause
    answer = reasoning_reply(THOUGHT, ANSWER, reasoning_tokens=24)
    model_server.enqueue(ScriptedReply(events=thinking_events + answer.events[len(thinking_events):], delay_s=0.03))
    h.send("What is the capital of France?")

    live = h.wait_until(lambda: (r := reply_row(h)) is not None and r.thinking and len(r.reasoning) > 20 and r,
                        what="the thinking to stream")
    assert thinking_state(live) == "open"
    assert any(word.startswith("▾ Thinking…") for word in painted_words(h, live))
    assert any(doc.startswith("First, recall") for doc in painted_docs(h, live)), "the thinking text is shown"

    done = h.wait_until(lambda: (r := reply_row(h)) is not None and r.text == ANSWER and not r.streaming and r,
                        what="the answer")
    assert not done.thinking and thinking_state(done) == "collapsed"
    labels = painted_words(h, done)
    assert any(word.startswith("▸ Thought for ") and word.endswith(" s") for word in labels), labels
    assert not any("recall" in doc for doc in painted_docs(h, done)), "collapsed: the thinking is not drawn"

    click_thinking_toggle(h, done)
    assert thinking_state(done) == "open" and any("recall" in doc for doc in painted_docs(h, done))
    click_thinking_toggle(h, done)
    assert thinking_state(done) == "collapsed"

    activity = h.window.findChild(QTreeWidget, "activityLog")
    h.wait_until(lambda: activity.topLevelItemCount() == 1, what="the turn in the Activity tab")
    turn = activity.topLevelItem(0)
    h.wait_until(lambda: any("24 of them reasoning" in turn.child(n).text(0) for n in range(turn.childCount())),
                 what="the reasoning tokens in the Activity tab")

    session = h.window.current_session
    stored = [m for m in h.controller.store.messages(session) if m.role == "assistant"][-1]
    assert (stored.content, stored.reasoning.strip(), stored.reasoning_tokens) == (ANSWER, THOUGHT.strip(), 24)
    assert stored.reasoning_ms is not None and stored.reasoning_ms > 0
    h.wait_until(lambda: not h.controller.is_busy(session), what="idle")
    h.do(h.window.close)

    again = make_window()
    again.wait_until(lambda: again.window.current_session == session, what="the restored session")
    restored = again.wait_until(lambda: reply_row(again), what="the reply")
    assert restored.reasoning.strip() == THOUGHT.strip() and thinking_state(restored) == "collapsed"
    seconds = max(1, round(stored.reasoning_ms / 1000))
    assert f"▸ Thought for {seconds} s" in painted_words(again, restored)


def test_the_setting_hides_the_thinking_or_keeps_it_open(make_window, model_server) -> None:
    SettingsStore(app_paths()).save(Settings(thinking_display=ThinkingDisplay.HIDDEN))
    h = make_window()
    model_server.enqueue(reasoning_reply(THOUGHT, ANSWER))
    h.send("capital?")
    done = h.wait_until(lambda: (r := reply_row(h)) is not None and r.text == ANSWER and not r.streaming and r,
                        what="the answer")
    assert done.reasoning, "kept with the reply"
    assert thinking_state(done) == "none"
    assert not any("Thought" in w or "Thinking" in w for w in painted_words(h, done))
    assert not any("recall" in doc for doc in painted_docs(h, done))

    # Settings > General: "Always show"
    h.do(h.window.open_settings)
    dialog = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings dialog")
    combo = dialog.findChild(QComboBox, "thinkingDisplayCombo")
    h.do(lambda: combo.setCurrentIndex(combo.findData("expanded")))
    assert SettingsStore(app_paths()).load().settings.thinking_display is ThinkingDisplay.EXPANDED
    assert chat_items.thinking_display() == "expanded"
    assert thinking_state(done) == "open" and any("recall" in doc for doc in painted_docs(h, done))
    h.do(dialog.reject)
    h.do(lambda: chat_items.set_thinking_display("auto"))  # the module-wide setting: leave it as found


def test_rows_are_laid_out_afresh_after_the_thinking_collapses(make_window, model_server) -> None:
    """The streamed reply's cached layout (kept while it streams) must not outlive the section above it: once
    the thinking collapses, each row is as tall as a fresh layout says and its text sits where it should."""
    from tests.support.model_server import CallScript

    h = make_window()
    model_server.enqueue(reasoning_reply("think first " * 20, "", CallScript("calculate", {"expression": "1+1"})),
                         reasoning_reply("then answer " * 20, "Two, as the tool says."))
    h.send("1+1?")
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.text.startswith("Two") and not i.streaming
                             for i in rows(h)), what="the answer")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    view, model = h.window.chat.view, h.window.chat.model
    replies = [i for i in rows(h) if isinstance(i, MessageItem) and i.role == "assistant"]
    assert len(replies) == 2 and all(thinking_state(r) == "collapsed" for r in replies)
    width = view.viewport().width()
    for reply in replies:
        painted = view.delegate.row_layout(reply, width)
        fresh = view.delegate.layouter.layout(reply, width)
        assert abs(painted.height - fresh.height) < 0.5
        assert [d.origin.y() for d in painted.docs] == [d.origin.y() for d in fresh.docs]
        h.wait_until(lambda: abs(view.visualRect(model.index(model.row_of(reply))).height() - fresh.height) <= 1,
                     what="the row's height to follow its layout")

"""Each reply shows the model that wrote it (issue 24): small, plain text in its header, live and when the session is
opened again, the old replies keeping their model after a switch in the model picker; a name from outside (settings,
an import) cannot paint escapes or push "writing…" out of the header. Exports carry it (tests/core/test_reply_model.py).

Real parts: two scripted model servers over HTTP with the real openai client, the real store on disk, the window's
own transcript model, delegate and model picker."""

from __future__ import annotations

import threading

from hermes_desktop.core.session_models import SessionPick
from hermes_desktop.ui.chat.items import MessageItem
from tests.support.model_server import text_reply
from tests.ui.test_model_picker import providers, second_server  # noqa: F401 (fixtures)
from tests.ui.test_window import ask_and_settle

WIDTH = 900


def header_lines(h, item: MessageItem, width: int = WIDTH) -> tuple[str, str]:
    """(the bold name, the small line after it) as the delegate lays the reply's header out."""
    texts = h.window.chat.view.delegate.row_layout(item, width).texts
    name = next(p for p in texts if p.role == "header")
    rest = next((p for p in texts if p.role == "muted" and p.rect.top() == name.rect.top()), None)
    return name.text, rest.text if rest is not None else ""


def replies(h) -> list[MessageItem]:
    return [i for i in h.window.chat.model.items() if isinstance(i, MessageItem) and i.role == "assistant"]


def test_each_reply_names_its_model_and_keeps_it_after_a_switch_and_a_reopen(
        make_window, model_server, second_server, providers) -> None:  # noqa: F811
    h = make_window(configured=False)
    ask_and_settle(h, model_server, "hello", "Hi from Main.")
    h.run(h.window.model_picker.choose(SessionPick("other", "other-b")))
    ask_and_settle(h, second_server, "and you?", "Hi from Other.")
    h.window.chat.model.flush_stream()
    session = h.window.current_session

    def check() -> None:
        first, second = replies(h)
        assert header_lines(h, first) == ("Hermes", "  ·  scripted-model")
        assert header_lines(h, second) == ("Hermes", "  ·  other-b"), "the switch applies from the next reply on"

    check()
    stored = [m.model for m in h.controller.store.all_messages(session) if m.role == "assistant"]
    assert stored == ["scripted-model", "other-b"]
    h.do(h.window.new_session)
    h.run(h.window.open_session(session, None))
    h.wait_until(lambda: len(replies(h)) == 2, what="the stored replies")
    check()


def test_while_it_streams_the_header_says_the_model_and_writing(make_window, model_server) -> None:
    h = make_window()
    reply, resume = text_reply("half of it, then the rest"), threading.Event()
    reply.pause_after, reply.resume = 3, resume
    model_server.enqueue(reply)
    h.send("go")
    item = h.wait_until(lambda: h.window.chat.model.streaming_item, what="the streaming reply")
    name, rest = header_lines(h, item)
    assert (name, rest) == ("Hermes", "  ·  scripted-model  ·  writing…")
    resume.set()
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")


def test_a_hostile_or_long_model_name_is_plain_text_and_elided(make_window, model_server) -> None:
    long_name = "vendor/" + "x" * 300 + "-v2"
    h = make_window(HERMES_MODEL="\x1b]52;c;aGk=\x07evil\x1b[31m-\u202emodel\r\n" + long_name)
    model_server.enqueue(text_reply("ok"))
    h.send("hi")
    h.wait_until(lambda: replies(h) and replies(h)[-1].text == "ok"
                 and not h.controller.is_busy(h.window.current_session), what="the reply")
    h.window.chat.model.flush_stream()
    [stored] = [m.model for m in h.controller.store.all_messages(h.window.current_session) if m.role == "assistant"]
    assert stored is not None and len(stored) == 200
    assert stored.startswith("evil-\\u202emodel vendor/xxx"), stored
    assert not any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in stored)
    item = replies(h)[-1]
    _name, rest = header_lines(h, item, 500)
    assert "…" in rest and rest.startswith("  ·  evil"), "elided in the middle: its start and its end both show"
    texts = h.window.chat.view.delegate.row_layout(item, 500).texts
    muted = next(p for p in texts if p.role == "muted" and p.text == rest)
    metrics = h.window.chat.view.delegate.layouter.small_metrics
    assert muted.rect.left() + metrics.horizontalAdvance(rest) <= 500, "the name fits the header's width"

"""One reply block per turn (issue 24): a turn of many model rounds (think, call a tool, think, call another, answer)
reads as one reply under one "Hermes" header, with its thinking lines and tool cards beneath it, live while it
streams and when the stored session is opened again; the next turn gets a header of its own.

Real parts: the scripted model server over HTTP (tests/support/model_server.py), the real read-only file tools on
a temp workspace, the window's own transcript model and delegate."""

from __future__ import annotations

from hermes_desktop.ui.chat.items import BannerItem, MessageItem, ToolCardItem
from tests.support.model_server import CallScript, error_reply, reasoning_reply, text_reply

ANSWER = "Two notes: a.md and b.md."


def headers(h) -> list[str]:
    """The reply headers the transcript paints, top to bottom (the delegate's own layouts)."""
    delegate = h.window.chat.view.delegate
    return [part.text for item in h.window.chat.model.items() if isinstance(item, MessageItem)
            for part in delegate.row_layout(item, 900).texts if part.role == "header"]


def replies(h) -> list[MessageItem]:
    return [i for i in h.window.chat.model.items() if isinstance(i, MessageItem) and i.role == "assistant"]


def enqueue_three_rounds(model_server) -> None:
    model_server.enqueue(
        reasoning_reply("List the workspace first.", "", CallScript("list_directory", {"path": "."})),
        reasoning_reply("Read the first note.", "", CallScript("read_file", {"path": "a.md"})),
        reasoning_reply("Compare with the second.", "Let me check the other one.",
                        CallScript("read_file", {"path": "b.md"})),
        reasoning_reply("Answer in one line.", ANSWER))


def test_a_turn_of_many_rounds_has_one_reply_header_live_and_reopened(make_window, model_server,
                                                                      workspace_dir) -> None:
    (workspace_dir / "a.md").write_text("alpha\n", encoding="utf-8")
    (workspace_dir / "b.md").write_text("beta\n", encoding="utf-8")
    h = make_window()
    enqueue_three_rounds(model_server)
    h.send("Which notes do I have?")
    session = h.wait_until(lambda: h.window.current_session, what="the session")
    h.wait_until(lambda: not h.controller.is_busy(session) and replies(h) and replies(h)[-1].text == ANSWER,
                 what="the answer")
    h.window.chat.model.flush_stream()

    def check() -> None:
        rows = h.window.chat.model.items()
        cards = [i for i in rows if isinstance(i, ToolCardItem)]
        assert [c.name for c in cards] == ["list_directory", "read_file", "read_file"]
        rounds = replies(h)
        assert len(rounds) == 4, "each round keeps its own thinking line"
        assert headers(h) == ["Hermes"], "one header for the whole turn, not one per round"
        assert not rounds[0].continues and all(r.continues for r in rounds[1:])
        # The thinking lines stay, each under the one header (collapsed to "Thought for N s").
        delegate = h.window.chat.view.delegate
        for item in rounds:
            labels = [p.text for p in delegate.row_layout(item, 900).texts]
            assert any(label.startswith("▸ Thought for ") for label in labels), labels

    check()  # as it streamed
    h.do(h.window.new_session)
    assert h.window.chat.model.rowCount() == 0
    h.run(h.window.open_session(session, None))
    h.wait_until(lambda: len(replies(h)) == 4 and not h.window.chat.model.streaming_item, what="the stored turn")
    check()  # from the store

    model_server.enqueue(text_reply("Anything else?"))
    h.send("Thanks")
    h.wait_until(lambda: not h.controller.is_busy(session) and replies(h)[-1].text == "Anything else?",
                 what="the second turn")
    h.window.chat.model.flush_stream()
    assert headers(h) == ["Hermes", "Hermes"], "the next turn has its own header"


def test_an_error_card_ends_the_block_and_a_retried_reply_gets_its_own_header(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(error_reply(400, "the server refused this one", code="bad_request"))
    h.send("hello")
    session = h.wait_until(lambda: h.window.current_session, what="the session")
    h.wait_until(lambda: any(isinstance(i, BannerItem) for i in h.window.chat.model.items()), what="the error card")
    h.wait_until(lambda: not h.controller.is_busy(session), what="idle")
    model_server.enqueue(text_reply("Hello again."))
    h.run(h.controller.retry(session))
    h.wait_until(lambda: not h.controller.is_busy(session) and replies(h) and replies(h)[-1].text == "Hello again.",
                 what="the retried reply")
    h.window.chat.model.flush_stream()
    assert headers(h) == ["Hermes"] and not replies(h)[-1].continues


def test_a_page_that_starts_inside_a_turn_regroups_when_the_page_above_arrives(qapp) -> None:
    """Scrolling up in a long session: the loaded page began with a later round (so it had the header, with nothing
    above it); the earlier page brings the turn's start, and the round joins its block."""
    from hermes_desktop.ui.chat.model import TranscriptModel

    model = TranscriptModel()
    later = MessageItem("assistant", "", 12, reasoning="more")
    model.reset([later, ToolCardItem("c2", "read_file", "{}", message_id=12),
                 MessageItem("assistant", "done", 14)], first=10, end=13, total=13)
    assert not later.continues, "the first row shown heads its block"
    changed: list[int] = []
    model.dataChanged.connect(lambda top, _bottom, _roles: changed.append(top.row()))
    model.prepend([MessageItem("user", "go", 8), MessageItem("assistant", "", 9, reasoning="first"),
                   ToolCardItem("c1", "list_directory", "{}", message_id=9)], first=7, end=10)
    rounds = [i for i in model.items() if isinstance(i, MessageItem) and i.role == "assistant"]
    assert [r.continues for r in rounds] == [False, True, True]
    assert model.row_of(later) in changed, "the row is laid out again without its header"
    model.remove(model.item(0))  # the user message goes (a page dropped): the first round still heads the block
    assert [r.continues for r in rounds] == [False, True, True]
    model.remove(model.item(0))  # the first round goes too: the rounds after its card stay in the same block
    assert [r.continues for r in rounds[1:]] == [True, True]
    model.remove(model.item(0))  # and the card: now the next round is the first row, and heads the block
    assert [r.continues for r in rounds[1:]] == [False, True]

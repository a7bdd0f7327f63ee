"""The window on a real full or read-only disk: nothing typed is lost, nothing stored is touched.

The data folder (and so hermes.db) is on a small tmpfs, filled with a file until ENOSPC and
freed by deleting it; read-only media is the tmpfs remounted `ro`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPlainTextEdit

from hermes_desktop.ui.chat.items import BannerItem, MessageItem
from tests.support.model_server import text_reply
from tests.support.small_disk import SmallDisk, small_disk
from tests.support.stores import data_paths


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SmallDisk]:
    with small_disk(tmp_path / "disk") as mounted:
        monkeypatch.setenv("XDG_DATA_HOME", str(mounted.root))
        yield mounted


def banners(h) -> list[BannerItem]:
    return [i for i in h.window.chat.model.items() if isinstance(i, BannerItem)]


def user_rows(h) -> list[str]:
    return [i.text for i in h.window.chat.model.items() if isinstance(i, MessageItem) and i.role == "user"]


def settle_exchange(h, model_server, question: str, answer: str) -> None:
    """One finished exchange, including the background title request that follows it."""
    model_server.enqueue(text_reply(answer))
    h.send(question)
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.text == answer for i in h.window.chat.model.items()),
                 what=f"the reply {answer!r}")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session) and not h.controller._tasks,
                 what="the turn and its title to finish")


def test_a_message_that_cannot_be_saved_stays_in_the_box_and_sends_once_space_is_free(
        make_window, model_server, disk) -> None:
    h = make_window()
    settle_exchange(h, model_server, "what is on the list?", "Milk and eggs.")
    session = h.window.current_session
    before = h.controller.store.messages(session)
    requests = len(model_server.chat_requests)
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    question = "and what do we need for the soup tonight? " * 12
    disk.fill()

    h.send(question)

    banner = h.wait_until(lambda: next(iter(banners(h)), None), what="the error")
    assert banner.message == (f"The disk holding {data_paths().database} is full: your message was not saved. "
                              "Free some space and try again.")
    h.wait_until(lambda: not h.controller.is_busy(session), what="the turn to end")
    assert box.toPlainText() == question.strip(), "the unsent message is back in the box"
    assert user_rows(h) == ["what is on the list?"], "no unsaved message shown as sent"
    assert h.controller.store.messages(session) == before, "nothing stored changed"
    assert len(model_server.chat_requests) == requests, "nothing was sent to the model"

    disk.free()
    model_server.enqueue(text_reply("Onions and carrots."))
    h.do(lambda: h.window.chat._on_action("banner:retry", banner, None))  # Retry sends the box again
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.text == "Onions and carrots."
                             for i in h.window.chat.model.items()), what="the reply after space was freed")
    h.wait_until(lambda: not h.controller.is_busy(session), what="the turn to end")
    assert box.toPlainText() == ""
    after = h.controller.store.messages(session)
    assert after[: len(before)] == before
    assert [(m.role, m.content) for m in after[len(before):]] == [("user", question.strip()),
                                                                   ("assistant", "Onions and carrots.")]


def test_a_read_only_history_is_shown_and_sending_is_disabled_with_the_reason(make_window, model_server, disk) -> None:
    first = make_window()
    settle_exchange(first, model_server, "what is on the list?", "Milk and eggs.")
    session = first.window.current_session
    first.run(first.controller.shutdown())
    first.do(first.window.close)
    database = data_paths().database
    requests = len(model_server.chat_requests)
    disk.remount("ro")
    try:
        h = make_window()
        reason = (f"{database} is on read-only storage or is write-protected: the history is open read-only and "
                  "nothing new can be saved. Make it writable, then restart Hermes Desktop.")
        assert h.window.errors.isVisible() and reason in h.window.errors.label.text()
        send = h.window.chat.send_button
        assert not send.isEnabled() and send.toolTip() == f"<p>{reason}</p>"
        box = h.window.findChild(QPlainTextEdit, "chatInput")
        assert box.placeholderText() == reason
        h.run(h.window.open_session(session, None))
        h.wait_until(lambda: user_rows(h) == ["what is on the list?"], what="the stored history")
        h.do(lambda: (box.setFocus(), QTest.keyClicks(box, "one more thing"), QTest.keyClick(box, Qt.Key.Key_Return)))
        assert box.toPlainText() == "one more thing", "what was typed stays"
        assert not h.controller.is_busy(session) and len(model_server.chat_requests) == requests
        assert not send.isEnabled()
    finally:
        disk.remount("rw")

"""Issue 12 attack pass in the real window: one message's total limit, the viewer copy of an attached file, and a
PDF bomb whose reader process ends when the window's task is cancelled (what closing the window does)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl

from hermes_desktop.core.open_copy import private_folder
from hermes_desktop.core.pdf_extract import running_count
from tests.core.test_attachment_limits import bomb_pdf
from tests.support.model_server import text_reply
from tests.support.opened_urls import opened_urls
from tests.ui.test_attachments_window import chip_names, turn_requests
from tests.ui.test_window import wait_for_reply


def test_too_many_files_for_one_message_are_refused_and_the_text_and_chips_stay(make_window, model_server,
                                                                                tmp_path) -> None:
    h = make_window()
    chat = h.window.chat
    files = []
    for n in range(25):
        part = tmp_path / f"part{n:02}.txt"
        part.write_text("y" * 54_000, encoding="utf-8")
        files.append(part)
    narrowest = h.window.minimumSizeHint().width()
    h.do(lambda: chat.attach_files(files))
    h.wait_until(lambda: len(chip_names(h)) == 25, what="25 chips")
    assert h.window.minimumSizeHint().width() <= narrowest  # the chips scroll; the window (and Send) stay on screen
    assert chat.chip_scroll.horizontalScrollBar().maximum() > 0
    h.send("Summarise all of these")
    h.wait_until(lambda: chat.attach_notice.text().startswith("Not sent: 25 files"), what="the refusal")
    assert chat.attach_notice.isVisible()
    assert chat.attach_notice.text() == ("Not sent: 25 files are attached; one message takes at most 20. Remove "
                                         "some, or send them over several messages.")
    assert chat.input.toPlainText() == "Summarise all of these" and len(chip_names(h)) == 25
    assert model_server.chat_requests == [] and h.window.current_session is None  # nothing sent, nothing stored


def test_an_attached_file_opens_from_a_private_folder_and_a_runnable_one_is_refused(make_window, model_server,
                                                                                   tmp_path) -> None:
    h = make_window()
    chat = h.window.chat
    notes = tmp_path / "notes.txt"
    notes.write_text("meeting notes\n", encoding="utf-8")
    script = tmp_path / "run.desktop"
    script.write_text("[Desktop Entry]\nExec=sh -c 'echo owned'\n", encoding="utf-8")
    h.do(lambda: chat.attach_files([notes, script]))
    h.wait_until(lambda: chip_names(h) == ["notes.txt", "run.desktop"], what="two chips")
    model_server.enqueue(text_reply("Read them."))
    h.send("Look")
    wait_for_reply(h, "Read them.")
    assert len(turn_requests(model_server)) == 1
    item = next(i for i in chat.model.items() if getattr(i, "role", "") == "user")
    by_name = {a.name: a for a in item.attachments}

    with opened_urls("file") as opened:
        h.do(lambda: chat.open_attachment(by_name["run.desktop"]))
        h.wait_until(lambda: chat.attach_notice.isVisible(), what="the refusal")
        assert chat.attach_notice.text().startswith("run.desktop was not opened: only images, PDFs and text files")
        assert opened == []
        h.do(lambda: chat.open_attachment(by_name["notes.txt"]))
        h.wait_until(lambda: opened, what="the text file opened")
    shown = Path(opened[0].toLocalFile())
    assert shown.name == "notes.txt" and shown.read_bytes() == b"meeting notes\n"
    assert shown.parent.parent == private_folder() and (private_folder().stat().st_mode & 0o077) == 0
    assert opened == [QUrl.fromLocalFile(str(shown))]


def test_closing_the_window_while_a_pdf_bomb_is_read_ends_its_reader(make_window, model_server, tmp_path) -> None:
    h = make_window()
    chat = h.window.chat
    bomb = tmp_path / "bomb.pdf"
    bomb.write_bytes(bomb_pdf(70_000))
    tasks = []
    h.do(lambda: tasks.append(chat.attach_files([bomb])))
    h.wait_until(lambda: running_count() == 1, what="the PDF reader started")
    h.do(lambda: tasks[0].cancel())  # what the window's shutdown (tasks.drain) does to its tasks
    h.wait_until(lambda: running_count() == 0 and tasks[0].done(), what="the reader killed and the task ended")
    assert tasks[0].cancelled() and chip_names(h) == []
    assert model_server.chat_requests == []

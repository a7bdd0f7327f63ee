"""Attachments in the real window: the paperclip's handler, a paste from the real clipboard, a real drop event,
removable chips, the scripted server receiving the image, a thumbnail in the transcript that opens the image."""

from __future__ import annotations

import pytest

import base64
from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QGuiApplication, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QToolButton

from tests.support.attachment_files import pdf_bytes, write_png
from tests.support.model_server import text_reply
from tests.support.opened_urls import opened_urls
from tests.ui.test_window import wait_for_reply


def turn_requests(server):
    return [r for r in server.chat_requests if not r.system_prompt.startswith("Write a title")]


def chip_names(h) -> list[str]:
    return [chip.property("attachment").name for chip in h.window.chat.chip_widgets()]


def test_attach_with_the_button_remove_a_chip_send_and_open_the_thumbnail(make_window, model_server,
                                                                          tmp_path) -> None:
    h = make_window()
    chat = h.window.chat
    assert h.window.findChild(QToolButton, "attachButton") is chat.attach_button
    picture = write_png(tmp_path / "diagram.png", 400, 300, "#cc2200")
    report = tmp_path / "report.pdf"
    report.write_bytes(pdf_bytes(["Revenue was 42 million"]))
    notes = tmp_path / "notes.txt"
    notes.write_text("not this one", encoding="utf-8")

    h.do(lambda: chat.attach_files([picture, report, notes]))  # what the paperclip's file dialog hands over
    h.wait_until(lambda: chip_names(h) == ["diagram.png", "report.pdf", "notes.txt"], what="three chips")
    chip = chat.chip_widgets()[2]
    h.do(lambda: QTest.mouseClick(chip.findChild(QToolButton, "removeAttachment"), Qt.MouseButton.LeftButton))
    h.wait_until(lambda: chip_names(h) == ["diagram.png", "report.pdf"], what="the chip removed")

    model_server.enqueue(text_reply("A red diagram; revenue was 42 million."))
    h.send("What do these show?")
    wait_for_reply(h, "A red diagram; revenue was 42 million.")
    content = [m for m in turn_requests(model_server)[0].messages if m["role"] == "user"][-1]["content"]
    assert [p["type"] for p in content] == ["text", "image_url"]
    assert "[Attached file: \"report.pdf\"]" in content[0]["text"] and "notes.txt" not in content[0]["text"]
    assert base64.b64decode(content[1]["image_url"]["url"].split(",", 1)[1]) == picture.read_bytes()
    h.wait_until(lambda: chip_names(h) == [] and not chat.chips.isVisible(), what="the tray emptied once stored")

    user_row = next(row for row, item in enumerate(chat.model.items()) if getattr(item, "role", "") == "user")
    item = chat.model.items()[user_row]
    assert [a.name for a in item.attachments] == ["diagram.png", "report.pdf"]
    width = chat.view.viewport().width()
    layout = chat.view.delegate.row_layout(item, width)
    assert len(layout.images) == 1 and layout.images[0].ref.name == "diagram.png"
    assert chat.view.delegate.thumbnail(layout.images[0].ref) is not None  # decoded from the stored file
    assert any(t.text.endswith("report.pdf") for t in layout.texts)

    with opened_urls("file") as opened:
        rect = chat.view.visualRect(chat.model.index(user_row, 0))
        centre = layout.images[0].rect.center() + QPointF(rect.topLeft())
        h.do(lambda: QTest.mouseClick(chat.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                                      centre.toPoint()))
        h.wait_until(lambda: opened, what="the image opened")
    shown = Path(opened[0].toLocalFile())
    assert shown.name == "diagram.png" and shown.read_bytes() == picture.read_bytes()


def test_paste_an_image_from_the_clipboard_and_drop_a_file_onto_the_transcript(make_window, model_server,
                                                                               tmp_path) -> None:
    h = make_window()
    chat = h.window.chat
    image = QImage(320, 200, QImage.Format.Format_RGB32)
    image.fill(QColor("#22aa44"))
    box = h.window.findChild(QPlainTextEdit, "chatInput")

    def paste() -> None:
        QGuiApplication.clipboard().setImage(image)
        box.setFocus()
        QTest.keyClick(box, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)

    h.do(paste)
    h.wait_until(lambda: len(chip_names(h)) == 1, what="the pasted image's chip")
    assert chip_names(h)[0].startswith("pasted-image-") and box.toPlainText() == ""
    pasted = chat.attachments[0]
    assert (pasted.kind, pasted.width, pasted.height) == ("image", 320, 200)

    notes = tmp_path / "notes.md"
    notes.write_text("# Plan\n- ship it\n", encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(notes))])
    viewport = chat.view.viewport() if chat.view.isVisible() else chat.empty

    def drop() -> None:  # as a drag from a file manager arrives: enter (accepted), then the drop
        enter = QDragEnterEvent(QPoint(40, 40), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                                Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(viewport, enter)
        assert enter.isAccepted()
        event = QDropEvent(QPointF(40, 40), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                           Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(viewport, event)

    h.do(drop)
    h.wait_until(lambda: chip_names(h) == [chip_names(h)[0], "notes.md"], what="the dropped file's chip")

    model_server.enqueue(text_reply("A green picture and a plan."))
    h.do(lambda: chat.send_button.click())  # an empty box sends the attachments alone
    wait_for_reply(h, "A green picture and a plan.")
    content = [m for m in turn_requests(model_server)[0].messages if m["role"] == "user"][-1]["content"]
    assert [p["type"] for p in content] == ["text", "image_url"]
    assert content[0]["text"].startswith("[Attached file: \"notes.md\"]\n```markdown\n# Plan\n- ship it")


@pytest.mark.parametrize("model", ["o3-mini", "deepseek-reasoner", "deepseek-chat"])
def test_an_image_for_a_text_only_model_is_refused_before_sending_and_the_box_is_kept(make_window, model_server,
                                                                                      tmp_path, model) -> None:
    h = make_window(HERMES_MODEL=model)  # known to take no images (DeepSeek's chat and reasoner: issue 24)
    chat = h.window.chat
    h.do(lambda: chat.attach_files([write_png(tmp_path / "photo.png")]))
    h.wait_until(lambda: chip_names(h) == ["photo.png"], what="the chip")
    h.send("What is in this photo?")
    h.wait_until(lambda: chat.attach_notice.isVisible(), what="the refusal")
    assert chat.attach_notice.text().startswith(f"Not sent: {model} cannot see images. Remove photo.png")
    assert chat.input.toPlainText() == "What is in this photo?" and chip_names(h) == ["photo.png"]
    h.settle(0.2)
    assert model_server.chat_requests == [] and h.window.current_session is None  # nothing sent, nothing stored


def test_files_that_cannot_be_attached_are_named_with_the_reason(make_window, model_server, tmp_path) -> None:
    import os

    h = make_window()
    chat = h.window.chat
    fifo = tmp_path / "feed.txt"
    os.mkfifo(fifo)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff" + b"\x00" * 50)
    h.do(lambda: chat.attach_files([fifo, broken]))
    h.wait_until(lambda: chat.attach_notice.isVisible(), what="the reasons")
    text = chat.attach_notice.text()
    assert "feed.txt: not a regular file" in text and "broken.jpg: not a readable image" in text
    assert chip_names(h) == []


def test_a_large_text_file_offers_to_copy_it_into_the_workspace(make_window, model_server, tmp_path,
                                                                 workspace_dir) -> None:
    h = make_window()
    chat = h.window.chat
    log = tmp_path / "server.log"
    log.write_text("".join(f"request {i} ok\n" for i in range(6000)), encoding="utf-8")
    h.do(lambda: chat.attach_files([log]))
    h.wait_until(lambda: chip_names(h) == ["server.log"], what="the chip")
    assert chat.attach_notice.text().startswith("server.log: only the first 39,")
    assert "of 94,890 characters are sent" in chat.attach_notice.text()
    copy = chat.chip_widgets()[0].findChild(QToolButton, "copyToWorkspace")
    assert copy is not None
    h.do(lambda: QTest.mouseClick(copy, Qt.MouseButton.LeftButton))
    h.wait_until(lambda: "read it in pages" in chat.input.toPlainText(), what="the copy made and said in the box")
    assert "server.log" in chat.input.toPlainText()
    assert (workspace_dir / "server.log").read_bytes() == log.read_bytes()

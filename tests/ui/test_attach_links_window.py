"""Issue 21 §2 in the real window: the paperclip's handler refuses a link into ~/.ssh (the tray's notice says why,
no chip, nothing sent) and a link that is attached says where it points (the notice and the chip's tooltip)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel

from tests.support.model_server import text_reply
from tests.ui.test_window import wait_for_reply


@pytest.fixture(autouse=True)
def home_is_the_test_home(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(isolated_home))
    return isolated_home


def chip_names(h) -> list[str]:
    return [chip.property("attachment").name for chip in h.window.chat.chip_widgets()]


def test_a_link_into_ssh_is_refused_and_a_plain_link_says_where_it_points(make_window, model_server,
                                                                          isolated_home) -> None:
    (isolated_home / ".ssh").mkdir()
    (isolated_home / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    (isolated_home / "Downloads").mkdir(exist_ok=True)
    trap = isolated_home / "Downloads" / "notes.txt"
    trap.symlink_to(isolated_home / ".ssh" / "id_rsa")
    real = isolated_home / "plan.md"
    real.write_text("Ship on Friday.\n")
    link = isolated_home / "Downloads" / "plan.md"
    link.symlink_to(real)

    h = make_window()
    chat = h.window.chat
    h.do(lambda: chat.attach_files([trap, link]))
    h.wait_until(lambda: chip_names(h) == ["plan.md"], what="only the plain link attached")
    notice = chat.attach_notice
    h.wait_until(notice.isVisible, what="the tray's notice")
    assert "notes.txt: refused: a credential location (.ssh)" in notice.text()
    assert f"plan.md is a link to {real}" in notice.text()
    name = [w for w in chat.chip_widgets()[0].findChildren(QLabel) if w.toolTip()][0]
    assert f"is a link to {real}" in name.toolTip()

    model_server.enqueue(text_reply("Friday."))
    h.send("When do we ship?")
    wait_for_reply(h, "Friday.")
    sent = str([r.body for r in model_server.chat_requests])
    assert "Ship on Friday." in sent and "OPENSSH" not in sent

"""Issue 24 ("Chinese throughout"): a file that cannot be attached is refused in the Chinese window in Chinese, its
name kept as data, not with the core's English sentence. The English window keeps the core's own line (it names
sizes and limits). Real files (a FIFO, a folder, a broken image, a credential location), the window's own
attachment path and its translations."""

from __future__ import annotations

import os
from pathlib import Path

from tests.ui.test_chinese_ui import assert_chinese
from tests.ui.test_translations import chinese  # noqa: F401 (fixture)


def refusals(h, files: list[Path]) -> str:
    chat = h.window.chat
    h.do(lambda: chat.attach_files(files))
    h.wait_until(lambda: chat.attach_notice.isVisible(), what="the reasons")
    return chat.attach_notice.text()


def hostile_files(tmp_path: Path) -> list[Path]:
    fifo = tmp_path / "feed.txt"
    os.mkfifo(fifo)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff" + b"\x00" * 50)
    folder = tmp_path / "photos"
    folder.mkdir()
    return [fifo, broken, folder]


def test_refusals_read_as_chinese_in_the_chinese_window(chinese, make_window, tmp_path) -> None:  # noqa: F811
    h = make_window()
    text = refusals(h, hostile_files(tmp_path))
    assert_chinese(text, ("feed.txt", "broken.jpg", "photos"), where="the attachment refusals")
    assert text.count("\n") == 2 and "feed.txt" in text and "photos" in text


def test_a_credential_location_is_refused_in_chinese(chinese, make_window, tmp_path, monkeypatch) -> None:  # noqa: F811
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    monkeypatch.setenv("HOME", str(home))
    h = make_window()
    text = refusals(h, [home / ".ssh" / "id_ed25519"])
    assert_chinese(text, ("id_ed25519", "Hermes"), where="the credential refusal")


def test_the_english_window_keeps_the_cores_own_line(make_window, tmp_path) -> None:
    h = make_window()
    text = refusals(h, hostile_files(tmp_path))
    assert "feed.txt: not a regular file (a pipe, socket or device)" in text
    assert "photos: is a folder; attach files one by one." in text

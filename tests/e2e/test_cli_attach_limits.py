"""`ask --attach` against issue 12's attacks, through the real command line and the scripted model server:
too many files, escape sequences in file names, and Ctrl-C while a PDF bomb is being read."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hermes_desktop.core.paths import app_paths
from tests.core.test_attachment_limits import bomb_pdf
from tests.support.cli import GUARD_S, ROOT, hermes
from tests.support.model_server import text_reply


def _stored_files() -> list[Path]:
    root = app_paths().data_dir / "attachments"
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def test_a_hundred_text_files_are_refused_with_one_line_before_anything_is_stored_or_sent(server, env,
                                                                                        tmp_path) -> None:
    args = []
    for n in range(100):
        part = tmp_path / f"part{n:03}.txt"
        part.write_text("y" * 54_000, encoding="utf-8")
        args += ["--attach", str(part)]
    done = hermes("ask", "summarise", *args, "--session", "many", env=env)
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: Not sent: 100 files are attached; one message takes at most 20. "
                                   "Remove some, or send them over several messages.")  # one line, no notes
    assert "Traceback" not in done.stderr
    assert server.chat_requests == [] and _stored_files() == []


def test_attachments_beyond_the_profiles_context_window_are_refused(server, env, tmp_path) -> None:
    args = []
    for n in range(3):
        part = tmp_path / f"chapter{n}.md"
        part.write_text("word " * 8_000, encoding="utf-8")  # 40,000 characters each: under the fixed limits
        args += ["--attach", str(part)]
    done = hermes("ask", "read", *args, env=env)  # a profile without a saved window: 32,768 tokens
    assert done.returncode == 2
    assert done.stderr.strip().startswith("error: Not sent: the attachments come to about ")
    assert len(done.stderr.strip().splitlines()) == 1
    assert "context window (32,768 tokens)" in done.stderr
    assert server.chat_requests == [] and _stored_files() == []
    server.enqueue(text_reply("ok"))
    one = hermes("ask", "read", *args[:2], env=env)
    assert one.returncode == 0, one.stderr
    assert '[Attached file: "chapter0.md"]' in str(server.chat_requests[0].messages)  # then a title request


def test_escape_sequences_and_bidi_controls_in_file_names_do_not_reach_the_terminal(server, env, tmp_path) -> None:
    evil = tmp_path / "a\x1b]52;c;SGVsbG8=\x07b\u202egnp.txt"
    evil.write_text("z" * 50_000, encoding="utf-8")  # long enough for a "note:" line naming it
    server.enqueue(text_reply("ok"))
    done = hermes("ask", "read", "--attach", str(evil), env=env)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr and "\u202e" not in done.stderr
    assert "note: ab\\u202egnp.txt: Only the first" in done.stderr
    missing = hermes("ask", "read", "--attach", str(tmp_path / "gone\x1b[2K\u202e.txt"), env=env)
    assert missing.returncode == 2
    assert missing.stderr.startswith("error: cannot attach gone\\u202e.txt: cannot be read")
    assert "\x1b" not in missing.stderr


def _pdf_children(pid: int) -> list[int]:
    """Child processes of `pid` that run the PDF reader."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"pdf_extract" in cmdline:
                found.append(int(child))
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the reader process")
def test_ctrl_c_while_a_pdf_bomb_is_read_ends_ask_and_its_reader(server, env, tmp_path) -> None:
    bomb = tmp_path / "bomb.pdf"
    bomb.write_bytes(bomb_pdf(70_000))  # ~70 KB that inflates to 70 MB: minutes of reading in-process
    ask = subprocess.Popen([sys.executable, "-m", "hermes_desktop", "ask", "read", "--attach", str(bomb)], cwd=ROOT,
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        readers: list[int] = []
        for _ in range(GUARD_S * 100):  # wait for the reader process to exist (the condition)
            readers = _pdf_children(ask.pid)
            if readers or ask.poll() is not None:
                break
            try:
                ask.wait(0.01)
            except subprocess.TimeoutExpired:
                pass
        assert readers, ask.communicate()
        os.kill(ask.pid, signal.SIGINT)  # only `ask` gets it (the reader runs in its own session)
        _, err = ask.communicate(timeout=GUARD_S)
    finally:
        if ask.poll() is None:
            ask.kill()
            ask.communicate()
    assert ask.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert not any(Path(f"/proc/{pid}").exists() and b"pdf_extract" in Path(f"/proc/{pid}/cmdline").read_bytes()
                   for pid in readers)
    assert server.chat_requests == [] and _stored_files() == []

"""`ask --attach` through the installed command line, a real subprocess against the scripted model server."""

from __future__ import annotations

import base64
import os

from hermes_desktop.core.paths import app_paths
from tests.support.cli import hermes
from tests.support.attachment_files import pdf_bytes, png_bytes
from tests.support.model_server import text_reply



def test_ask_attach_sends_an_image_and_a_pdf_and_stores_the_image(server, env, tmp_path) -> None:
    picture = tmp_path / "chart.png"
    picture.write_bytes(png_bytes(120, 80))
    report = tmp_path / "report.pdf"
    report.write_bytes(pdf_bytes(["Revenue was 42 million"]))
    server.enqueue(text_reply("The chart is blue; revenue was 42 million."))

    done = hermes("ask", "What do these show?", "--attach", str(picture), "--attach", str(report), "--session", "att",
                  env=env)

    assert done.returncode == 0, done.stderr
    assert "revenue was 42 million" in done.stdout
    content = [m for m in server.chat_requests[0].messages if m["role"] == "user"][-1]["content"]
    assert [p["type"] for p in content] == ["text", "image_url"]
    assert "[Attached file: \"report.pdf\"]" in content[0]["text"] and "[page 1]\nRevenue was 42 million" in content[0]["text"]
    assert base64.b64decode(content[1]["image_url"]["url"].split(",", 1)[1]) == picture.read_bytes()
    files = [p for p in (app_paths().data_dir / "attachments").rglob("*") if p.is_file()]
    assert len(files) == 2 and picture.read_bytes() in [f.read_bytes() for f in files]
    exported = hermes("sessions", "export", "att", "--format", "md", env=env)
    assert "*Attached: chart.png (image), report.pdf (pdf)*" in exported.stdout


def test_ask_attach_refuses_a_fifo_and_a_missing_file_with_one_line_before_anything_is_sent(server, env,
                                                                                             tmp_path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    done = hermes("ask", "read this", "--attach", str(fifo), env=env)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: cannot attach pipe.txt: not a regular file (a pipe, socket or device); " \
                                  "only files can be attached."
    missing = hermes("ask", "read this", "--attach", str(tmp_path / "nope.md"), env=env)
    assert missing.returncode == 2 and missing.stderr.startswith("error: cannot attach nope.md: cannot be read")
    assert server.chat_requests == []


def test_ask_attach_a_large_text_file_says_only_the_first_part_went(server, env, tmp_path) -> None:
    log = tmp_path / "server.log"
    log.write_text("x" * 50_000 + "\n", encoding="utf-8")
    server.enqueue(text_reply("It is a log."))
    done = hermes("ask", "what is this?", "--attach", str(log), env=env)
    assert done.returncode == 0, done.stderr
    assert "note: server.log: Only the first 40,000 of 50,001 characters are included" in done.stderr
    assert done.stderr.count("into the workspace") == 1, "the advice is given once"


def test_an_image_for_deepseek_reasoner_is_refused_before_anything_is_sent(server, env, tmp_path) -> None:
    """Issue 24: a picture went to deepseek-reasoner, a text-only model, with no warning."""
    picture = tmp_path / "chart.png"
    picture.write_bytes(png_bytes(40, 30))
    done = hermes("ask", "what is this?", "--attach", str(picture), env={**env, "HERMES_MODEL": "deepseek-reasoner"})
    assert done.returncode != 0
    assert "deepseek-reasoner cannot see images" in done.stderr and "chart.png" in done.stderr
    assert server.chat_requests == []

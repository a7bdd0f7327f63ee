"""`ask` on a real pseudo-terminal with an MCP server that asks and then withdraws its question. The line the user
types next belongs to the next question on screen (a tool approval), not to the withdrawn one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from tests.support.model_server import CallScript, text_reply, tool_call_reply

REPO = Path(__file__).resolve().parents[2]


def test_a_withdrawn_question_does_not_swallow_the_answer_to_the_next_one(server, env, tmp_path) -> None:
    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"cf": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server", "--client-features"],
        "env": {"PYTHONPATH": str(REPO)}, "cwd": str(REPO)}}}), encoding="utf-8")
    workspace = Path(env["HERMES_WORKSPACE"]) if "HERMES_WORKSPACE" in env else tmp_path
    server.enqueue(tool_call_reply(CallScript("mcp_cf_ask_then_withdraw", {"after_s": 1.0})),
                   tool_call_reply(CallScript("write_file", {"path": "kept.txt", "content": "yes"})),
                   text_reply("Written."))
    main, child = os.openpty()
    process = subprocess.Popen([sys.executable, "-m", "hermes_desktop", "ask", "go", "--session", "s3"], cwd=REPO,
                               env={**env, "HERMES_WORKSPACE": str(workspace)}, stdin=child,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[str] = []

    def collect() -> None:
        for chunk in iter(lambda: process.stderr.read(1), ""):
            seen.append(chunk)

    reader = threading.Thread(target=collect, daemon=True)
    reader.start()

    def wait_for(text: str, limit_s: float = 60) -> bool:  # a guard against a hang, not a timing check
        end = time.monotonic() + limit_s
        while time.monotonic() < end:
            if text in "".join(seen):
                return True
            time.sleep(0.05)
        return False

    try:
        assert wait_for("Answer it?"), "".join(seen)
        assert wait_for("Allow?"), "".join(seen)  # the question was withdrawn; the approval is on screen
        os.write(main, b"y\n")
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # the "y" went to the withdrawn question: the approval still waits
            os.write(main, b"n\n")
            process.wait(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(child)
        os.close(main)
    stderr = "".join(seen)
    assert process.returncode == 0, stderr
    assert (workspace / "kept.txt").exists(), "the user's 'y' to the approval was lost:\n" + stderr
    assert (workspace / "kept.txt").read_text() == "yes"


def test_ask_ends_after_a_withdrawn_question_without_waiting_for_a_line(server, env) -> None:
    """The server withdrew its question and nothing else is asked: `ask` prints the reply and ends; the read still
    waiting for a line must not keep the process alive until the user presses Enter."""
    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"cf": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server", "--client-features"],
        "env": {"PYTHONPATH": str(REPO)}, "cwd": str(REPO)}}}), encoding="utf-8")
    server.enqueue(tool_call_reply(CallScript("mcp_cf_ask_then_withdraw", {"after_s": 1.0})), text_reply("Done."))
    main, child = os.openpty()
    try:
        process = subprocess.Popen([sys.executable, "-m", "hermes_desktop", "ask", "go", "--session", "s4"],
                                   cwd=REPO, env=env, stdin=child, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        try:
            out, err = process.communicate(timeout=60)  # a guard against a hang, not a timing check
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
            raise AssertionError("ask waited for a line nobody asked for:\n" + err)
    finally:
        os.close(child)
        os.close(main)
    assert process.returncode == 0, err
    assert out == "Done.\n" and "withdrawn" in err


def test_the_line_reader_gives_a_withdrawn_read_to_the_next_question_and_lines_in_asking_order() -> None:
    import asyncio

    from hermes_desktop.commands.terminal_input import LineReader, StdinLines

    read_end, write_end = os.pipe()
    reader = LineReader(StdinLines(read_end))

    async def story() -> list[str]:
        withdrawn = asyncio.ensure_future(reader.readline())
        await asyncio.sleep(0)
        withdrawn.cancel()
        os.write(write_end, "héllo\n".encode())
        got = [await reader.readline()]
        first, second = asyncio.ensure_future(reader.readline()), asyncio.ensure_future(reader.readline())
        os.write(write_end, b"one\ntwo\n")
        got += [await first, await second]
        os.close(write_end)
        got.append(await reader.readline())
        return got

    try:
        assert asyncio.run(story()) == ["héllo\n", "one\n", "two\n", ""]
    finally:
        os.close(read_end)

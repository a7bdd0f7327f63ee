"""`ask` titles a new session from its first message, asked while the reply streams (core/titles.py).

The real command in its own process, the real openai client against the scripted server over HTTP, the real
SQLite store. What is checked: the title is the model's and is stored; it is asked only once the reply has begun
and before the reply has finished streaming; a title that fails, hangs or is interrupted never costs the reply,
never hangs `ask`, and leaves the first-line title; a failed turn gets no model title; `--session` continues.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from hermes_desktop.core.agent import fallback_title
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.store import open_store
from tests.support.cli import GUARD_S, ROOT, hermes
from tests.support.model_server import (
    RecordedRequest, ScriptedModelServer, ScriptedReply, error_reply, hang_reply, text_events, text_reply,
)

ASKED = "plan a weekend in Hangzhou for two"
STREAM_CHUNKS = 12
STREAM_DELAY_S = 0.25  # the reply takes STREAM_CHUNKS * STREAM_DELAY_S = 3 s to stream


def titles(server: ScriptedModelServer) -> list[RecordedRequest]:
    return [r for r in server.chat_requests if r.system_prompt.startswith("Write a title")]


def turns(server: ScriptedModelServer) -> list[RecordedRequest]:
    return [r for r in server.chat_requests if r.tool_names]


def stored(session_id: str) -> tuple[Any, list[tuple[str, str | None]]]:
    opened = open_store(app_paths())
    try:
        return (opened.store.session_details(session_id),
                [(m.role, m.content) for m in opened.store.messages(session_id)])
    finally:
        opened.store.close()


def only_session() -> str:
    opened = open_store(app_paths())
    try:
        sessions = opened.store.list_sessions()
        assert len(sessions) == 1, sessions
        return sessions[0].id
    finally:
        opened.store.close()


def session_of(result: subprocess.CompletedProcess[str]) -> str:
    line = [line for line in result.stderr.splitlines() if line.startswith("[session ")][-1]
    return line.removeprefix("[session ").rstrip("]")


def test_a_new_session_gets_the_models_title_asked_while_the_reply_streams(server, env) -> None:
    arrived: dict[str, float] = {}

    def reply(request: RecordedRequest) -> ScriptedReply:
        arrived.setdefault("reply", time.monotonic())
        words = " ".join(f"word{n}" for n in range(STREAM_CHUNKS))
        return text_reply(words, chunk_size=len(words) // STREAM_CHUNKS + 1, delay_s=STREAM_DELAY_S)

    def title(request: RecordedRequest) -> ScriptedReply:
        arrived.setdefault("title", time.monotonic())
        return text_reply("Weekend in Hangzhou")

    server.responder, server.title_responder = reply, title
    result = hermes("ask", ASKED, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("word0") and "word11" in result.stdout
    session_id = session_of(result)
    details, messages = stored(session_id)
    assert (details.info.title, details.title_source) == ("Weekend in Hangzhou", "model")
    assert [role for role, _ in messages] == ["user", "assistant"]
    assert hermes("sessions", "list", env=env).stdout.count("Weekend in Hangzhou") == 1
    (asked,) = titles(server)
    assert ASKED in asked.messages[-1]["content"]  # made from the first message
    # Sent once the reply had begun (the server took the reply first), long before the reply finished streaming
    # (3 s): before, the title was asked only after the whole reply.
    assert server.chat_requests.index(turns(server)[0]) < server.chat_requests.index(asked)
    assert arrived["title"] - arrived["reply"] < STREAM_CHUNKS * STREAM_DELAY_S / 2, arrived


def test_continuing_with_session_asks_no_second_title_and_keeps_the_history(server, env) -> None:
    server.title_responder = lambda request: text_reply("Trip planning")
    server.enqueue(text_reply("Sure."), text_reply("Saturday: West Lake."))
    first = hermes("ask", ASKED, "--session", "trip", env=env)
    second = hermes("ask", "and on saturday?", "--session", "trip", env=env)
    assert first.returncode == 0 and second.returncode == 0, (first.stderr, second.stderr)
    assert second.stdout.strip() == "Saturday: West Lake."
    assert len(titles(server)) == 1
    assert [(m["role"], m["content"]) for m in turns(server)[-1].messages[1:]] == [
        ("user", ASKED), ("assistant", "Sure."), ("user", "and on saturday?")]
    details, messages = stored("trip")
    assert (details.info.title, details.title_source) == ("Trip planning", "model") and len(messages) == 4


def test_a_failed_title_request_keeps_the_reply_and_the_first_line_title(server, env) -> None:
    server.title_responder = lambda request: error_reply(400, "no titles here")
    server.enqueue(text_reply("Here is a plan."))
    result = hermes("ask", ASKED, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Here is a plan." and "Traceback" not in result.stderr
    details, messages = stored(session_of(result))
    assert len(titles(server)) == 1
    assert (details.info.title, details.title_source) == (fallback_title(ASKED), "fallback")
    assert messages == [("user", ASKED), ("assistant", "Here is a plan.")]


def test_a_hanging_title_request_is_given_up_and_ask_ends_with_the_reply(server, env) -> None:
    """The title's bound (TITLE_TIMEOUT_S, 20 s) set to 1 s in the child, so the test need not wait 20 s."""
    server.title_responder = lambda request: hang_reply()
    server.enqueue(text_reply("Here is a plan."))
    code = ("import sys; import hermes_desktop.core.titles as titles; titles.TITLE_TIMEOUT_S = 1.0; "
            "from hermes_desktop.app import main; sys.exit(main(sys.argv[1:]))")
    result = subprocess.run([sys.executable, "-c", code, "ask", ASKED], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=GUARD_S, input="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Here is a plan." and "Traceback" not in result.stderr
    assert server.client_disconnected.wait(GUARD_S)  # `ask` hung up on the title request
    details, messages = stored(session_of(result))
    assert (details.info.title, details.title_source) == (fallback_title(ASKED), "fallback")
    assert messages == [("user", ASKED), ("assistant", "Here is a plan.")]


def test_a_title_slower_than_its_bound_from_sending_is_still_kept_when_the_reply_took_longer(server, env) -> None:
    """A server that answers one request at a time keeps the title waiting behind a long reply: the bound (2 s
    here) counts from the reply's end, so a title that needs 2.5 s after it was sent is still stored."""
    words = " ".join(f"word{n}" for n in range(STREAM_CHUNKS))
    server.responder = lambda request: text_reply(words, chunk_size=len(words) // STREAM_CHUNKS + 1,
                                                  delay_s=STREAM_DELAY_S)  # 3 s
    server.title_responder = lambda request: text_reply("Slow title", chunk_size=20, delay_s=0.6)  # 4 events: 2.4 s
    code = ("import sys; import hermes_desktop.core.titles as titles; titles.TITLE_TIMEOUT_S = 2.0; "
            "from hermes_desktop.app import main; sys.exit(main(sys.argv[1:]))")
    result = subprocess.run([sys.executable, "-c", code, "ask", ASKED], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=GUARD_S, input="")
    assert result.returncode == 0, result.stderr
    details, _ = stored(session_of(result))
    assert (details.info.title, details.title_source) == ("Slow title", "model")


def test_ctrl_c_while_the_title_is_awaited_keeps_the_session_whole(server, env) -> None:
    asked = threading.Event()

    def title(request: RecordedRequest) -> ScriptedReply:
        asked.set()
        return hang_reply()

    server.title_responder = title
    server.enqueue(text_reply("Here is a plan."), text_reply("Saturday: West Lake."))
    ask = subprocess.Popen([sys.executable, "-m", "hermes_desktop", "ask", ASKED], cwd=ROOT, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert asked.wait(GUARD_S), "no title request"
        for _ in range(GUARD_S * 20):  # the condition: the turn is over (reply and first-line title stored)
            if ask.poll() is not None or _turn_over():
                break
            time.sleep(0.05)
        assert ask.poll() is None, ask.communicate()
        os.kill(ask.pid, signal.SIGINT)
        out, err = ask.communicate(timeout=GUARD_S)
    finally:
        if ask.poll() is None:
            ask.kill()
            ask.communicate()
    assert ask.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and out.startswith("Here is a plan.")
    session_id = only_session()
    details, messages = stored(session_id)
    assert messages == [("user", ASKED), ("assistant", "Here is a plan.")]
    assert (details.info.title, details.title_source) == (fallback_title(ASKED), "fallback")
    server.title_responder = lambda request: text_reply("Weekend plans")  # still the first-line title: asked again
    again = hermes("ask", "and on saturday?", "--session", session_id, env=env)  # the session goes on
    assert again.returncode == 0 and again.stdout.strip() == "Saturday: West Lake.", again.stderr
    assert [(m["role"], m["content"]) for m in turns(server)[-1].messages[1:]] == [
        ("user", ASKED), ("assistant", "Here is a plan."), ("user", "and on saturday?")]
    assert stored(session_id)[0].info.title == "Weekend plans"


def _turn_over() -> bool:
    opened = open_store(app_paths())
    try:
        return any(s.title for s in opened.store.list_sessions())  # the agent's first-line title ends the turn
    finally:
        opened.store.close()


@pytest.mark.parametrize("ending", ["drop"])
def test_a_turn_that_fails_after_its_reply_began_gets_no_model_title(server, env, ending: str) -> None:
    asked = threading.Event()

    def title(request: RecordedRequest) -> ScriptedReply:
        asked.set()
        return text_reply("Should not be stored")

    server.title_responder = title
    server.enqueue(ScriptedReply(events=text_events("Here is the beginning of a plan"), ending=ending))
    result = hermes("ask", ASKED, env=env)
    assert result.returncode == 1 and "Here is the beginning" in result.stdout, result.stderr
    details, _ = stored(only_session())
    assert details.title_source != "model" and details.info.title != "Should not be stored"

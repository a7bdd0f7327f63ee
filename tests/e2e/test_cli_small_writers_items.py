"""Small command-line cases of issue 21: a blank `ask` is refused before anything is stored or sent, and
`sessions list` keeps one line per session whatever a title holds."""

from __future__ import annotations

from tests.support.cli import hermes
from tests.support.model_server import ScriptedModelServer
from tests.support.stores import open_test_store


def test_a_blank_question_is_refused_with_exit_2_and_nothing_is_stored_or_sent(server: ScriptedModelServer,
                                                                               env: dict[str, str]) -> None:
    for blank in ("   ", "\n\t \n", ""):
        result = hermes("ask", blank, "--session", "blank", env=env)
        assert result.returncode == 2, result.stderr
        assert "the message is empty" in result.stderr and result.stdout == ""
    assert server.chat_requests == []
    store = open_test_store().store
    try:
        assert store.get_session("blank") is None
    finally:
        store.close()


def test_sessions_list_shows_a_titles_newline_and_escapes_as_escapes_one_line_per_session(env: dict[str, str]) -> None:
    store = open_test_store().store
    store.create_session("tricky", title="first line\nsecond \x1b[2Kline\u202e")
    store.create_session("plain", title="Plain title")
    store.close()
    result = hermes("sessions", "list", env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2, lines
    tricky = next(line for line in lines if "tricky" in line)
    assert tricky.endswith("first line\\nsecond line\\u202e")
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout

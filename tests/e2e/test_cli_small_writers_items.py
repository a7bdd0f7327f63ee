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


def test_an_imported_sessions_model_choice_is_not_applied_and_that_is_said(server: ScriptedModelServer,
                                                                         env: dict[str, str], tmp_path) -> None:
    import json

    from hermes_desktop.core.session_models import read_pick
    from tests.support.model_server import text_reply

    export = tmp_path / "other-installation.json"
    export.write_text(json.dumps({
        "format": "hermes-desktop.session", "version": 1, "head": 2,
        "session": {"id": "shared-chat", "title": "From a friend", "profile_id": "env", "model": "very-expensive-model",
                    "params": {"model_chosen": True, "temperature_note": "kept"}},
        "messages": [{"n": 1, "parent": None, "role": "user", "content": "hi"},
                     {"n": 2, "parent": 1, "role": "assistant", "content": "hello"}]}), encoding="utf-8")
    result = hermes("sessions", "import", str(export), env=env)
    assert result.returncode == 0, result.stderr
    assert "the file chose the model env · very-expensive-model for this session; that was not applied" in result.stderr
    store = open_test_store().store
    try:
        assert read_pick(store, "shared-chat") is None
        params = store.session_details("shared-chat").params
        assert params["imported_model_choice"] == {"profile_id": "env", "model": "very-expensive-model"}
        assert params["temperature_note"] == "kept"
    finally:
        store.close()
    server.enqueue(text_reply("answered by the default"))
    asked = hermes("ask", "and now?", "--session", "shared-chat", env=env)
    assert asked.returncode == 0, asked.stderr
    assert server.chat_requests[-1].body["model"] == "scripted-model"

"""`ask` on a session far longer than the model's window: the summary is made first, its events are in --json,
the plain output says it is summarising, and the model is still given the goal from the first message."""

from __future__ import annotations

import json

from hermes_desktop.core.session_types import NewMessage
from tests.support.cli import hermes
from tests.support.model_server import text_reply
from tests.support.stores import open_test_store

GOAL = "My goal: translate the user manual of our pump controller into Spanish before the trade fair."


def long_session(session: str) -> None:
    store = open_test_store().store
    store.create_session(session, title="Manual")
    for n in range(40):
        store.append_message(session, NewMessage("user", (GOAL + " " if n == 0 else f"Section {n}: ") + "p" * 4000))
        store.append_message(session, NewMessage("assistant", f"Done {n}: " + "q" * 4000, finish_reason="stop"))
    store.close()


def test_ask_json_shows_the_summary_events_and_the_goal_reaches_the_model(server, env) -> None:
    long_session("manual")
    server.enqueue(text_reply("Your goal is the Spanish manual before the fair."))
    result = hermes("ask", "What was my goal?", "--session", "manual", "--json", env=env)
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    kinds = [e["type"] for e in events]
    assert kinds.index("summarising_started") < kinds.index("conversation_summary") < kinds.index("context_prepared")
    summary = next(e for e in events if e["type"] == "conversation_summary")
    assert GOAL in summary["text"] and summary["new"] and summary["covered_messages"] > 0 and summary["tokens"] > 0
    main = [r for r in server.chat_requests if "running summary" not in r.system_prompt]
    assert len(main) == 1 and GOAL in main[0].system_prompt
    assert len(open_test_store().store.messages("manual")) == 82


def test_ask_says_it_is_summarising(server, env) -> None:
    long_session("manual")
    server.enqueue(text_reply("Carrying on."))
    result = hermes("ask", "Next section please", "--session", "manual", env=env)
    assert result.returncode == 0, result.stderr
    assert "[summarising " in result.stderr and "Carrying on." in result.stdout

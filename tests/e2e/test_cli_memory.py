"""`hermes-desktop memory …` and memory in `ask`, run as the real command line against the scripted model (issue 13).

The server answers the extraction side request itself (each candidate sentence kept as written), so the replies a
test queues are only ever the conversation's."""

from __future__ import annotations

import json
import re

from tests.support.cli import hermes
from tests.support.model_server import MEMORY_PROMPT_OPENING, text_reply

FIELDS = {"id", "layer", "statement", "quote", "source_session", "created", "expires", "state"}


def test_memory_from_ask_is_listed_recalled_in_a_new_session_forgotten_and_exported(server, env) -> None:
    server.enqueue(text_reply("Noted."), text_reply("How about a green tea?"))
    said = "I prefer green tea over coffee. The Apollo report is due on 2031-12-20."
    first = hermes("ask", said, "--session", "trip", env=env)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "Noted."
    assert "[remembered: I prefer green tea over coffee.; The Apollo report is due on 2031-12-20.]" in first.stderr

    listed = hermes("memory", "list", "--json", env=env)
    assert listed.returncode == 0, listed.stderr
    memories = {m["statement"]: m for m in json.loads(listed.stdout)}
    assert set(memories) == {"I prefer green tea over coffee.", "The Apollo report is due on 2031-12-20."}
    for memory in memories.values():
        assert FIELDS <= set(memory)
        assert memory["source_session"] == "trip" and memory["state"] == "active"
        assert memory["quote"] in said
    tea, apollo = memories["I prefer green tea over coffee."], memories["The Apollo report is due on 2031-12-20."]
    assert tea["layer"] == "long_term" and tea["expires"] is None
    assert apollo["layer"] == "short_term" and apollo["expires"] is not None

    second = hermes("ask", "Any ideas for a drink with breakfast?", "--session", "breakfast", env=env)
    assert second.returncode == 0, second.stderr
    request = [r for r in server.chat_requests if "breakfast" in json.dumps(r.body)][0]
    assert re.search(r"- I prefer green tea over coffee\. \(from '[^']+', \d{4}-\d{2}-\d{2}\)", request.system_prompt)
    assert server.pending == 0
    assert len([r for r in server.chat_requests if r.system_prompt.startswith(MEMORY_PROMPT_OPENING)]) == 1

    added = hermes("memory", "add", "Likes answers as bullet lists", env=env)
    assert added.returncode == 0 and added.stdout.startswith("remembered #")
    forgotten = hermes("memory", "forget", str(tea["id"]), env=env)
    assert forgotten.returncode == 0 and "forgot" in forgotten.stdout
    assert hermes("memory", "forget", "9999", env=env).returncode == 2

    plain = hermes("memory", "list", env=env)
    assert "forgotten" in plain.stdout and "Likes answers as bullet lists" in plain.stdout
    exported = json.loads(hermes("memory", "export", env=env).stdout)
    states = {m["statement"]: m["state"] for m in exported["memories"]}
    assert states == {"I prefer green tea over coffee.": "forgotten", "The Apollo report is due on 2031-12-20.": "active",
                      "Likes answers as bullet lists": "active"}

    session = hermes("sessions", "export", "trip", "--format", "json", env=env)
    assert session.returncode == 0, session.stderr
    assert "bullet lists" not in session.stdout and "memories" not in json.loads(session.stdout)

    doctor = hermes("doctor", env=env)
    assert "Memory\n  on: 2 in use of 3 kept; half-life 7 days, up to 400 tokens a request" in doctor.stdout
    assert "  search: FTS5 index" in doctor.stdout and "  embeddings: off (BM25 only)" in doctor.stdout


def test_ask_json_ends_with_the_memory_remembered_line(server, env) -> None:
    server.enqueue(text_reply("Noted."))
    run = hermes("ask", "I prefer window seats.", "--json", env=env)
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [line["type"] for line in lines[-2:]] == ["turn_finished", "memory_remembered"]
    assert lines[-1]["statements"] == ["I prefer window seats."] and len(lines[-1]["memory_ids"]) == 1


def test_the_demo_model_remembers_recalls_and_asks_before_forgetting(env) -> None:
    """The demo model (tests/support/demo_model.py) as a new user would meet memory: a preference in one session is
    used in the next; "forget …" asks, and with no terminal to answer, nothing is forgotten."""
    from tests.support.demo_model import demo_responder
    from tests.support.model_server import ScriptedModelServer

    with ScriptedModelServer(responder=demo_responder) as demo:
        env = {**env, "HERMES_BASE_URL": demo.base_url}
        told = hermes("ask", "I prefer answers in short bullet points.", env=env)
        assert told.returncode == 0 and "[remembered: I prefer answers in short bullet points.]" in told.stderr
        used = hermes("ask", "Hello there", env=env)
        assert "From what you told me before:" in used.stdout
        assert re.search(r"- I prefer answers in short bullet points\. \(from '[^']+', \d{4}-\d{2}-\d{2}\)", used.stdout)
        recalled = hermes("ask", "What do you remember about me?", env=env)
        assert "I remember:" in recalled.stdout and "short bullet points" in recalled.stdout
        refused = hermes("ask", "Forget what I said about bullet points.", env=env)
        assert "You declined" in refused.stdout
    assert [m["state"] for m in json.loads(hermes("memory", "list", "--json", env=env).stdout)] == ["active"]


def test_done_when_a_deadline_told_used_in_a_new_session_then_forgotten_after_approval(env) -> None:
    """The issue's "Done when", in the terminal with the demo model: a preference and a project deadline in one
    session; a new session is given both with their sources; "forget what I said about the deadline" shows exactly
    that memory in the approval, and after "y" it is gone from the next session's request."""
    from tests.e2e.test_cli_skills import in_terminal
    from tests.support.demo_model import demo_responder
    from tests.support.model_server import ScriptedModelServer

    with ScriptedModelServer(responder=demo_responder) as demo:
        env = {**env, "HERMES_BASE_URL": demo.base_url}
        told = hermes("ask", "I prefer replies in British English. The Apollo deadline is 2031-03-14.",
                      "--session", "plans", env=env)
        assert told.returncode == 0, told.stderr
        used = hermes("ask", "Hello again. How is Apollo going?", env=env)
        assert "I prefer replies in British English. (from '" in used.stdout
        assert "The Apollo deadline is 2031-03-14. (from '" in used.stdout
        [deadline] = [m for m in json.loads(hermes("memory", "list", "--json", env=env).stdout)
                      if "Apollo" in m["statement"]]
        code, out, err = in_terminal(["ask", "Forget what I said about the deadline."], env, "y\n")
        assert code == 0, err
        assert f"Forgets 1 memory: #{deadline['id']} “The Apollo deadline is 2031-03-14.”" in err  # the question
        assert "Forgotten:" in out
        after = hermes("ask", "Hello once more. How is Apollo going?", env=env)
        assert "British English" in after.stdout
        asked_last = [r for r in demo.chat_requests if "Hello once more" in json.dumps(r.body)][0]
        assert "British English" in asked_last.system_prompt and "Apollo deadline" not in asked_last.system_prompt

"""Forgetting as people say it (issue 13's "forget what I said about the deadline"): the request to forget is never
itself kept as a memory, and a word naming a kind of memory ("deadline") finds memories of that kind whose words
do not include it ("The Apollo report is due on Friday 11 December."). Real openai client against the scripted
server, real SQLite store; the server answers the extraction side request with each candidate sentence as written
(as the demo model does)."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.memory import MemoryState
from hermes_desktop.core.memory.rules import find_candidates
from hermes_desktop.core.tools.approval import Decision
from tests.core.test_memory import turn, with_memory
from tests.support.engine import ScriptedApprover, make_engine, of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply


@pytest.mark.parametrize("text", [
    "forget what I said about the deadline",
    "Please forget the Apollo deadline.",
    "Could you forget my preference for tea?",
    "Stop remembering my address.",
    "忘掉我说的截止日期",
    "请忘记我喜欢喝茶。",
])
def test_a_request_to_forget_is_never_a_memory(text) -> None:
    assert find_candidates(text, date(2026, 12, 1)) == []


@pytest.mark.parametrize("text, kinds", [
    ("Don't forget the Apollo report is due on Dec 15.", ["explicit"]),
    ("别忘了项目评审在12月15日。", ["explicit"]),
])
def test_dont_forget_is_still_a_request_to_remember(text, kinds) -> None:
    assert [c.kind.value for c in find_candidates(text, date(2026, 12, 1))] == kinds


async def test_forget_the_deadline_finds_the_deadline_and_keeps_no_memory_of_being_asked(
        profile, workspace_dir, model_server) -> None:
    approver = ScriptedApprover([Decision.ALLOW_ONCE])
    engine = make_engine(profile, workspace_dir, approver=approver)
    service = with_memory(engine)
    model_server.enqueue(text_reply("Noted."))
    await turn(engine, service, "I prefer short answers. The Apollo report is due on Friday 11 December.", "a")
    by_kind = {m.kind: m for m in service.store.list()}
    deadline, preference = by_kind["deadline"], by_kind["preference"]
    assert "deadline" not in deadline.statement.lower()

    model_server.enqueue(tool_call_reply(CallScript("forget", {"query": "deadline"})), text_reply("Forgotten."))
    events = await turn(engine, service, "forget what I said about the deadline", "b")

    [asked] = approver.asked
    assert asked.impact == f"Forgets 1 memory: #{deadline.id} “{deadline.statement}”", "exactly the deadline"
    assert json.loads(of_type(events, ev.ToolCallFinished)[0].result)["ids"] == [deadline.id]
    assert service.store.get(deadline.id).state is MemoryState.FORGOTTEN
    assert service.store.get(preference.id).state is MemoryState.ACTIVE, "only the deadline goes"
    assert [m.statement for m in service.store.list()] == [preference.statement], \
        "'forget what I said about the deadline' is not itself remembered"
    await engine.close()


async def test_a_kind_word_with_other_words_still_needs_them_to_match(profile, workspace_dir, model_server) -> None:
    approver = ScriptedApprover([Decision.DENY])
    engine = make_engine(profile, workspace_dir, approver=approver)
    service = with_memory(engine)
    model_server.enqueue(text_reply("Noted."))
    await turn(engine, service, "The Apollo report is due on Dec 15. The Gemini review is due on Dec 18.", "a")
    apollo = next(m for m in service.store.list() if "Apollo" in m.statement)
    model_server.enqueue(tool_call_reply(CallScript("forget", {"query": "the Apollo deadline"})), text_reply("ok"))
    await turn(engine, service, "Forget the Apollo deadline.", "b")
    [asked] = approver.asked
    assert asked.impact == f"Forgets 1 memory: #{apollo.id} “{apollo.statement}”", "not the Gemini one"
    await engine.close()


async def test_the_kind_adds_to_what_the_words_find(profile, workspace_dir, model_server) -> None:
    approver = ScriptedApprover([Decision.DENY])
    engine = make_engine(profile, workspace_dir, approver=approver)
    service = with_memory(engine)
    model_server.enqueue(text_reply("Noted."))
    await turn(engine, service, "The Apollo report is due on Dec 15. Remember the deadline rule: no work on Sundays.", "a")
    listed = sorted(m.id for m in service.store.list())
    assert len(listed) == 2
    model_server.enqueue(tool_call_reply(CallScript("forget", {"query": "deadline"})), text_reply("ok"))
    await turn(engine, service, "Forget the deadline.", "b")
    [asked] = approver.asked
    assert sorted(int(n) for n in re.findall(r"#(\d+)", asked.impact)) == listed, asked.impact
    await engine.close()

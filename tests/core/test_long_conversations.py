"""Long conversations keep the thread (issue 13): older exchanges go to the model as a running summary.

Real openai client against the scripted server over HTTP, real SQLite store. The server answers summary side
requests itself (`auto_summaries`, a summary that echoes every line mentioning a goal), so a test can follow the
goal the user stated in the first message through every summary into the model's request.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.conversation_summary import (
    SYSTEM_HEADING, Cut, SummaryRecord, exchange_starts, load_summary, plan_cut, save_summary,
)
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.settings import AgentLimits
from hermes_desktop.core.tokens import estimate_message_tokens, estimate_tools_tokens
from tests.support.engine import make_engine, of_type
from tests.support.model_server import (
    SUMMARY_PROMPT_OPENING, CallScript, RecordedRequest, error_reply, hang_reply, malformed_reply, text_reply,
    tool_call_reply,
)

GOAL = "My goal: build a cedar birdhouse with a green roof for the wrens in my garden."
WINDOW, OUTPUT = 8_192, 1_024
BUDGET = WINDOW - OUTPUT


def request_tokens(request: RecordedRequest) -> int:
    """Our own estimate of a request, as the context builder counts it."""
    body = request.body or {}
    return sum(estimate_message_tokens(m) for m in body.get("messages") or []) + \
        estimate_tools_tokens(body.get("tools") or []) + 4


def is_summary(request: RecordedRequest) -> bool:
    return request.system_prompt.startswith(SUMMARY_PROMPT_OPENING)


def main_requests(server) -> list[RecordedRequest]:
    return [r for r in server.chat_requests if not is_summary(r)]


def honest_usage(server) -> None:
    """Replies report the request's real size (as our estimate counts it), so calibration stays at 1 and "within
    budget" means within budget. A user message that says "calculate" gets a tool call first."""

    def respond(request: RecordedRequest):
        messages = request.messages
        last = messages[-1] if messages else {}
        usage = (request_tokens(request), 12)
        if last.get("role") == "user" and "calculate" in str(last.get("content")):
            return tool_call_reply(CallScript("calculate", {"expression": "6*7"}), usage=usage)
        return text_reply(f"Noted. Here is the next step for you, with a few words of advice. ({len(messages)})",
                          usage=usage)

    server.responder = respond


def assert_pairs_whole(messages: list[dict]) -> None:
    """Every tool call is followed by its results; no result without its call; history starts with a user."""
    assert messages[0]["role"] == "system" and messages[1]["role"] == "user"
    for index, message in enumerate(messages):
        if message.get("tool_calls"):
            ids = [c["id"] for c in message["tool_calls"]]
            following = [m.get("tool_call_id") for m in messages[index + 1: index + 1 + len(ids)]]
            assert following == ids
        if message["role"] == "tool":
            before = messages[index - 1]
            assert before["role"] == "tool" or before.get("tool_calls")


def small_profile(profile, window: int = WINDOW):
    return replace(profile, context_window=window, max_output_tokens=OUTPUT)


async def test_a_300_exchange_session_keeps_the_goal_within_budget(profile, workspace_dir, model_server) -> None:
    honest_usage(model_server)
    engine = make_engine(small_profile(profile), workspace_dir)
    filler = "We talked about wood, nails, hinges, paint and the weather in some detail today. " * 2
    summaries: list[ev.ConversationSummary] = []
    waited = 0
    try:
        for n in range(300):
            text = f"{GOAL} {filler}" if n == 0 else f"Step {n}: {filler}" + (" calculate it" if n % 37 == 0 else "")
            events = await engine.ask(text)
            assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED, events[-3:]
            summaries += of_type(events, ev.ConversationSummary)
            waited += len(of_type(events, ev.SummarisingStarted))
            assert not of_type(events, ev.Notice), of_type(events, ev.Notice)
            for prepared in of_type(events, ev.ContextPrepared):
                assert prepared.dropped_messages == 0  # summarised, never silently dropped
        requests = main_requests(model_server)
        assert len(requests) == 300 + 300 // 37
        for request in requests:
            assert request_tokens(request) <= BUDGET, request_tokens(request)
            assert_pairs_whole(request.messages)
        last = requests[-1]
        assert SYSTEM_HEADING in last.system_prompt
        assert GOAL in last.system_prompt, "the first message's goal reaches the model through the summaries"
        assert "Step 1:" not in json.dumps(last.messages), "the oldest exchanges are not sent word for word"
        users = [m for m in last.messages if m["role"] == "user"]
        assert len(users) >= 20 and users[-1]["content"].startswith("Step 299:")
        stored = engine.store.messages("s1")
        assert len(stored) == 600 + 2 * (300 // 37), "the stored history is never changed"
        assert stored[0].content.startswith(GOAL)
        record = load_summary(engine.store, "s1")
        assert record is not None and record.covered_from == stored[0].id and GOAL in record.text
        assert summaries and summaries[-1].covered_to == record.covered_to or summaries[-1].covered_to < record.covered_to
        # the breakdown carries the summary's tokens on their own line
        final = of_type(events, ev.ContextPrepared)[-1]
        assert final.breakdown["conversation_summary"] > 0
        # incremental: each summary request carries the previous summary and only the messages after its range
        summary_requests = [r for r in model_server.chat_requests if is_summary(r)]
        assert 2 <= len(summary_requests) < 60
        for request in summary_requests[1:]:
            user = request.messages[-1]["content"]
            assert user.startswith("Existing summary:\n- ") and GOAL in user
            new_part = user.split("New messages to merge in:", 1)[1]
            assert GOAL not in new_part and "Step 1: " not in new_part
        steps = [int(s.split(":")[0]) for r in summary_requests
                 for s in r.messages[-1]["content"].split("New messages to merge in:")[1].split("User: Step ")[1:]]
        assert steps == sorted(steps) and len(steps) == len(set(steps)), "no exchange is summarised twice"
        print(f"\n300 turns: {len(summary_requests)} summary requests, the turn waited {waited} times")
    finally:
        await engine.agent.stop_background()
        await engine.close()


async def long_session(engine, exchanges: int = 40, *, tools_every: int = 0) -> list[int]:
    """A stored conversation far longer than the window (written directly: the store is real)."""
    store = engine.store
    store.create_session("s1")
    ids = []
    for n in range(exchanges):
        ids.append(store.append_message("s1", NewMessage("user", (GOAL + " " if n == 0 else f"Step {n}: ") + "x" * 600)))
        if tools_every and n % tools_every == 0:
            call = {"id": f"c{n}", "type": "function", "function": {"name": "calculate", "arguments": '{"expression": "1+1"}'}}
            store.append_message("s1", NewMessage("assistant", "", tool_calls=[call]))
            store.append_message("s1", NewMessage("tool", '{"result": "2"}', tool_call_id=f"c{n}", name="calculate"))
        store.append_message("s1", NewMessage("assistant", f"Answer {n}: " + "y" * 600))
    return ids


def snapshot(store) -> list[tuple]:
    return [(m.id, m.role, m.content, m.tool_calls, m.tool_call_id) for m in store.messages("s1")]


@pytest.mark.parametrize("fault", ["500", "hang", "garbage", "empty"])
async def test_a_failed_summary_falls_back_to_dropping_with_a_notice(profile, workspace_dir, model_server, fault) -> None:
    model_server.summary_responder = {
        "500": lambda r: error_reply(500, "summary backend exploded", err_type="server_error"),
        "hang": lambda r: hang_reply(),
        "garbage": lambda r: malformed_reply("- half a summ"),
        "empty": lambda r: text_reply("   "),
    }[fault]
    limits = AgentLimits(summary_keep_exchanges=4, summary_timeout_s=1.0)
    engine = make_engine(small_profile(profile, 4_096), workspace_dir, limits=limits)
    try:
        await long_session(engine)
        before = snapshot(engine.store)
        model_server.enqueue(text_reply("Still here."))
        events = await engine.ask("What was my goal?")
        assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        assert of_type(events, ev.SummarisingStarted)
        notices = [n for n in of_type(events, ev.Notice) if "could not be summarised" in n.message]
        assert len(notices) == 1 and notices[0].level == "warning"
        assert {"500": "exploded", "hang": "within 1 s", "garbage": "", "empty": "empty"}[fault] in notices[0].message
        prepared = of_type(events, ev.ContextPrepared)[0]
        assert prepared.dropped_messages > 0 and not of_type(events, ev.ConversationSummary)
        request = main_requests(model_server)[-1]
        assert request_tokens(request) <= 4_096 - OUTPUT and SYSTEM_HEADING not in request.system_prompt
        after = snapshot(engine.store)
        assert after[: len(before)] == before and len(after) == len(before) + 2, "history intact"
        assert load_summary(engine.store, "s1") is None
    finally:
        await engine.close()


async def test_stop_while_summarising_ends_the_turn_cleanly(profile, workspace_dir, model_server) -> None:
    model_server.summary_responder = lambda r: hang_reply()
    limits = AgentLimits(summary_keep_exchanges=4, summary_timeout_s=30.0)
    engine = make_engine(small_profile(profile, 4_096), workspace_dir, limits=limits)
    try:
        await long_session(engine)
        before = snapshot(engine.store)
        turn = engine.agent.start_turn("s1", "Carry on please")
        seen = []
        async for event in turn:
            seen.append(event)
            if isinstance(event, ev.SummarisingStarted):
                turn.cancel()
        assert isinstance(seen[-1], ev.TurnFinished) and seen[-1].reason is ev.FinishReason.CANCELLED
        await asyncio.wait_for(turn.wait(), 5)
        assert not main_requests(model_server), "the main request is never sent"
        after = snapshot(engine.store)
        assert after[: len(before)] == before and [m[1:3] for m in after[len(before):]] == [("user", "Carry on please")]
    finally:
        await engine.close()


async def test_the_cut_never_splits_a_tool_call_and_updates_are_incremental(profile, workspace_dir, model_server) -> None:
    limits = AgentLimits(summary_keep_exchanges=4)
    engine = make_engine(small_profile(profile, 4_096), workspace_dir, limits=limits)
    try:
        await long_session(engine, 30, tools_every=1)
        model_server.enqueue(text_reply("First."))
        events = await engine.ask("Next question")
        first = of_type(events, ev.ConversationSummary)[-1]
        path = engine.store.messages("s1")
        ids = [m.id for m in path]
        after_cut = path[ids.index(first.covered_to) + 1]
        assert after_cut.role == "user", "the summary ends where an exchange ends"
        assert path[ids.index(first.covered_to)].role == "assistant" and first.new
        request = main_requests(model_server)[-1]
        assert_pairs_whole(request.messages)
        assert request.messages[1]["content"] == after_cut.content and GOAL in request.system_prompt
        made_first = len([r for r in model_server.chat_requests if is_summary(r)])  # in chunks: 30 long exchanges
        assert made_first >= 2
        # more exchanges: the next summary merges the old one with the newly cut range only
        for n in range(12):
            model_server.enqueue(text_reply(f"Reply {n} " + "z" * 600))
            events = await engine.ask(f"More {n} " + "w" * 600)
            await asyncio.gather(*engine.agent.summary_refreshes.values(), return_exceptions=True)
        summary_requests = [r for r in model_server.chat_requests if is_summary(r)]
        assert len(summary_requests) > made_first
        second = summary_requests[made_first].messages[-1]["content"]
        old, new = second.split("New messages to merge in:", 1)
        assert GOAL in old and GOAL not in new
        assert "User: Step 1: " not in new and new.startswith(f"\n\nUser: {after_cut.content}")
        record = load_summary(engine.store, "s1")
        assert record.covered_to > first.covered_to and record.covered_from == path[0].id
        assert record.covered_messages == [m.id for m in engine.store.messages("s1")].index(record.covered_to) + 1
    finally:
        await engine.agent.stop_background()
        await engine.close()


async def test_a_summary_off_the_active_branch_is_not_used(profile, workspace_dir, model_server) -> None:
    engine = make_engine(small_profile(profile), workspace_dir)
    try:
        ids = await long_session(engine, 10)
        path = engine.store.messages("s1")
        save_summary(engine.store, SummaryRecord("s1", path[0].id, path[9].id, 10, "- goal: old branch", 8, 0.0, "m"))
        assert load_summary(engine.store, "s1").covered_to == path[9].id
        engine.store.rewind_to("s1", ids[3])  # back into the covered range: a new branch continues from there
        assert load_summary(engine.store, "s1") is None
        engine.store.switch_branch(path[-1].id)
        assert load_summary(engine.store, "s1").covered_to == path[9].id
        engine.store.purge_session("s1")
        assert engine.store._read("SELECT COUNT(*) FROM context_summaries")[0][0] == 0
    finally:
        await engine.close()


def test_plan_cut_keeps_the_newest_exchanges_and_fewer_when_they_are_huge() -> None:
    costs = [10] * 40  # 20 exchanges of two messages
    starts = list(range(0, 40, 2))
    assert plan_cut(costs, starts, covered=0, available=10_000, keep_exchanges=5, cap=100) == Cut(0, 30)
    cut = plan_cut(costs, starts, covered=0, available=160, keep_exchanges=5, cap=100)
    assert cut.end == 34  # only three exchanges fit beside the summary
    assert plan_cut(costs, starts, covered=30, available=10_000, keep_exchanges=5, cap=100) is None
    assert exchange_starts([type("M", (), {"role": r})() for r in ("user", "assistant", "tool", "user")]) == [0, 3]


def test_the_summary_event_is_in_ask_json() -> None:
    event = ev.ConversationSummary(1, 9, 9, 40, "- goal: x", "scripted-model", True)
    assert ev.event_to_json(event) == {"type": "conversation_summary", "covered_from": 1, "covered_to": 9,
                                       "covered_messages": 9, "tokens": 40, "text": "- goal: x",
                                       "model": "scripted-model", "new": True}
    assert ev.event_to_json(ev.SummarisingStarted(12)) == {"type": "summarising_started", "messages": 12}


def test_keep_exchanges_is_a_setting(tmp_path: Path) -> None:
    from hermes_desktop.core.settings import Settings

    loaded = Settings.from_json({"limits": {"summary_keep_exchanges": 8, "summary_timeout_s": 5}})
    assert loaded.limits.summary_keep_exchanges == 8 and loaded.limits.summary_timeout_s == 5
    assert AgentLimits().summary_keep_exchanges == 20


async def test_a_summary_grown_too_big_is_merged_down(profile, workspace_dir, model_server) -> None:
    """The model answers with more than the summary may take: one more request merges its oldest points."""
    def respond(request: RecordedRequest):
        if "is too long" in request.system_prompt:
            return text_reply(f"- {GOAL}\n- the oldest points, merged")
        return text_reply(f"- {GOAL}\n" + "\n".join(f"- detail {n} " + "q" * 80 for n in range(200)))

    model_server.summary_responder = respond
    engine = make_engine(small_profile(profile, 4_096), workspace_dir, limits=AgentLimits(summary_keep_exchanges=4))
    try:
        await long_session(engine, 12)
        model_server.enqueue(text_reply("ok"))
        events = await engine.ask("and now?")
        summary = of_type(events, ev.ConversationSummary)[-1]
        assert summary.text == f"- {GOAL}\n- the oldest points, merged"
        condense = [r for r in model_server.chat_requests if "is too long" in r.system_prompt]
        assert condense and "detail 199" in condense[0].messages[-1]["content"]
        assert load_summary(engine.store, "s1").text == summary.text
        assert GOAL in main_requests(model_server)[-1].system_prompt
    finally:
        await engine.close()


async def test_a_turn_near_the_budget_refreshes_the_summary_in_the_background(profile, workspace_dir,
                                                                               model_server) -> None:
    """The history still fits but comes close: the summary is made after the turn, so the next one does not wait."""
    from hermes_desktop.core.settings import ApprovalMode

    engine = make_engine(small_profile(profile, 4_096), workspace_dir, limits=AgentLimits(summary_keep_exchanges=4),
                         mode=ApprovalMode.CHAT_ONLY)
    try:
        await long_session(engine, 8)  # about 85% of the 3,072-token budget
        model_server.enqueue(text_reply("ok"))
        events = await engine.ask("one more")
        prepared = of_type(events, ev.ContextPrepared)[0]
        assert prepared.dropped_messages == 0 and prepared.estimated_tokens > 0.8 * prepared.budget_tokens
        assert not of_type(events, ev.SummarisingStarted) and not of_type(events, ev.ConversationSummary)
        refreshing = list(engine.agent.summary_refreshes.values())
        assert refreshing, "a background refresh started after the turn"
        await asyncio.gather(*refreshing)
        record = load_summary(engine.store, "s1")
        assert record is not None and GOAL in record.text
        model_server.enqueue(text_reply("still ok"))
        events = await engine.ask("and another")
        assert not of_type(events, ev.SummarisingStarted), "the next turn did not wait"
        used = of_type(events, ev.ConversationSummary)
        assert used and not used[0].new and used[0].covered_to == record.covered_to
        assert GOAL in main_requests(model_server)[-1].system_prompt
    finally:
        await engine.agent.stop_background()
        await engine.close()

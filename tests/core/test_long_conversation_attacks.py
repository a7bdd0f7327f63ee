"""Long conversations under attack and bad luck (issue 13): a hostile or broken summary answer, a session deleted
while its summary is being made. Real openai client against the scripted server over HTTP, real SQLite store."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

from hermes_desktop.core import events as ev
from hermes_desktop.core.conversation_summary import SYSTEM_HEADING, load_summary
from hermes_desktop.core.settings import AgentLimits
from tests.core.test_long_conversations import GOAL, long_session, main_requests, small_profile, snapshot
from tests.support.engine import make_engine, of_type
from tests.support.model_server import RecordedRequest, ScriptedReply, text_reply


async def test_a_summary_answer_of_one_huge_line_keeps_its_head(profile, workspace_dir, model_server) -> None:
    """The model answers the summary (and the merge-down) with one line of 200,000 characters: the summary kept is the
    head of that line within the cap (the goal comes first), never an empty "- …" standing in for the history."""
    huge = f"{GOAL} " + "and so on " * 20_000

    model_server.summary_responder = lambda request: text_reply(huge, chunk_size=4096)
    engine = make_engine(small_profile(profile, 4_096), workspace_dir, limits=AgentLimits(summary_keep_exchanges=4))
    try:
        await long_session(engine, 12)
        model_server.enqueue(text_reply("ok"))
        events = await engine.ask("What was my goal?")
        summaries = of_type(events, ev.ConversationSummary)
        notices = [n.message for n in of_type(events, ev.Notice)]
        record = load_summary(engine.store, "s1")
        assert summaries and not any("could not be summarised" in n for n in notices)
        assert GOAL in summaries[-1].text, summaries[-1].text[:200]
        assert summaries[-1].tokens <= 700  # a sixth of the 3,072-token budget (the cap) and a little
        assert record is not None and record.text == summaries[-1].text
        assert GOAL in main_requests(model_server)[-1].system_prompt
    finally:
        await engine.close()


async def test_a_summary_with_a_lone_surrogate_or_nul_is_stored_and_sent(profile, workspace_dir, model_server) -> None:
    """JSON may carry "\\ud800" (half a surrogate pair) and NULs; such a summary must neither fail to store (SQLite
    refuses to encode it) nor make the next request unsendable."""
    def ascii_json(reply: ScriptedReply) -> ScriptedReply:  # "\\ud800" on the wire, as a real server may send it
        return replace(reply, events=[json.dumps(json.loads(e)) for e in reply.events])

    model_server.summary_responder = lambda request: ascii_json(
        text_reply(f"- {GOAL}\n- half a pair: \ud800 and a NUL \x00 end", chunk_size=64))
    engine = make_engine(small_profile(profile, 4_096), workspace_dir, limits=AgentLimits(summary_keep_exchanges=4))
    try:
        await long_session(engine, 12)
        model_server.enqueue(text_reply("ok"), text_reply("ok again"))
        events = await engine.ask("What was my goal?")
        assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        record = load_summary(engine.store, "s1")
        assert record is not None and GOAL in record.text and "\x00" not in record.text
        record.text.encode("utf-8")  # storable and sendable
        events = await engine.ask("And again?")
        assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        assert GOAL in main_requests(model_server)[-1].system_prompt
    finally:
        await engine.close()

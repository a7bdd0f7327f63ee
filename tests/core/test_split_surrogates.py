"""A server that cuts its text into UTF-16 units sends an emoji's two halves in two chunks, each JSON-escaped
("\\ud83d", then "\\ude00"); another sends half a pair alone. Real openai client against the scripted server, real
SQLite store: the reply must be kept (the halves joined, a lone half shown as U+FFFD), not lost as an internal
error, and the next request must still be sendable."""

from __future__ import annotations

import json
from dataclasses import replace

from hermes_desktop.core import events as ev
from tests.support.engine import make_engine, of_type
from tests.support.model_server import reasoning_reply, text_reply


def ascii_escaped(reply):
    """As a server that escapes non-ASCII sends it: each chunk's halves as \\uXXXX escapes."""
    return replace(reply, events=[json.dumps(json.loads(e)) for e in reply.events])


async def test_an_emoji_split_across_chunks_and_a_lone_half_keep_the_reply(profile, workspace_dir,
                                                                           model_server) -> None:
    engine = make_engine(profile, workspace_dir)
    try:
        engine.store.create_session("s1")
        # chunk_size=1 in Python's code points puts each half of the pair in a chunk of its own
        model_server.enqueue(ascii_escaped(text_reply("Done \ud83d\ude00 and \udc00 end", chunk_size=1)),
                             text_reply("still fine"))
        events = await engine.ask("hi")
        assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        stored = engine.store.messages("s1")[-1].content
        assert stored == "Done \U0001F600 and \ufffd end"
        events = await engine.ask("again")
        assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        assert model_server.chat_requests[-1].messages[-2]["content"] == stored
    finally:
        await engine.close()


async def test_a_split_emoji_in_reasoning_is_joined(profile, workspace_dir, model_server) -> None:
    engine = make_engine(profile, workspace_dir)
    try:
        engine.store.create_session("s1")
        model_server.enqueue(ascii_escaped(reasoning_reply("Think \ud83e\udd14 hard", "Answer", chunk_size=1)))
        events = await engine.ask("hi")
        assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        assert engine.store.messages("s1")[-1].reasoning == "Think \U0001F914 hard"
    finally:
        await engine.close()

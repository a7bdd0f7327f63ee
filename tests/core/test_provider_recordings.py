"""Real providers' recorded responses, replayed byte for byte through the real openai client.

Each recording under tests/support/recordings/ is a body a real server sent (OpenAI, Azure, Groq, Mistral,
DeepSeek, OpenRouter with its upstreams, Snowflake, …), taken from another client library's public cassettes;
its sidecar names the repository, path and commit, and says what the provider sent: the answer, the
thinking, the tool calls and the finish reason (`expect`, drafted by tests/support/recordings/oracle.py and
checked by hand). One test per recording: Hermes must hand over exactly that.
"""

from __future__ import annotations

import contextlib
import json

import pytest

from hermes_desktop.core.events import ErrorKind
from hermes_desktop.core.llm import ChatRequest, ModelClient, ModelError, ReasoningPiece, StreamDone, TextPiece
from hermes_desktop.core.settings import ProviderProfile
from tests.support.engine import FAST_RETRIES
from tests.support.replay_server import Recording, ReplayServer, events_of, load_recordings

RECORDINGS = load_recordings()
TOOLS = [{"type": "function", "function": {"name": "weather", "description": "weather",
                                            "parameters": {"type": "object", "properties": {}}}}]


def test_there_are_enough_recordings_from_enough_providers() -> None:
    assert len(RECORDINGS) >= 30
    assert len({r.provider for r in RECORDINGS}) >= 15
    for recording in RECORDINGS:
        source = recording.meta["source"]
        assert source["repository"] and source["path"] and len(source["commit"]) == 40, recording.id


def test_the_replay_server_sends_the_recorded_bytes_unchanged() -> None:
    for recording in RECORDINGS:
        assert b"".join(events_of(recording.body)) == recording.body


async def _replay(recording: Recording) -> tuple[list, StreamDone | None, ModelError | None]:
    with ReplayServer() as server:
        server.enqueue(recording)
        profile = ProviderProfile(id="replay", name="Replay", base_url=server.base_url, model="recorded-model",
                                  request_timeout_s=10.0, context_window=131_072, max_output_tokens=4096)
        client = ModelClient(profile, "sk-replay", retry=FAST_RETRIES)
        items: list = []
        try:
            async with contextlib.aclosing(client.stream(ChatRequest([{"role": "user", "content": "hi"}],
                                                                     tools=TOOLS))) as stream:
                async for item in stream:
                    items.append(item)
        except ModelError as error:
            return items, None, error
        finally:
            await client.aclose()
    done = items[-1] if items and isinstance(items[-1], StreamDone) else None
    return items, done, None


@pytest.mark.parametrize("recording", RECORDINGS, ids=[r.id for r in RECORDINGS])
async def test_a_recorded_reply_comes_out_as_the_provider_sent_it(recording: Recording) -> None:
    expect = recording.expect
    items, done, error = await _replay(recording)
    shown_text = "".join(i.text for i in items if isinstance(i, TextPiece))
    shown_thinking = "".join(i.text for i in items if isinstance(i, ReasoningPiece))
    if "error_message" in expect:
        # The provider ended the reply with an error: it is reported in the provider's words, under its code.
        failure = error or (done.error if done else None)
        assert failure is not None, "the provider's error was lost"
        assert expect["error_message"][:60] in failure.message
        assert failure.code == expect["error_code"]
        assert not failure.tools_unsupported
        assert shown_thinking.strip() == expect["thinking"].strip()
        return
    assert error is None, f"{error!r}"
    assert done is not None
    assert done.text == shown_text
    assert done.text.strip() == expect["text"].strip()
    assert done.reasoning.strip() == expect["thinking"].strip()
    assert [(c.name, json.loads(c.arguments or "{}")) for c in done.tool_calls] == [
        (c["name"], c["arguments"]) for c in expect["tool_calls"]]
    assert done.finish_reason == expect["finish_reason"]
    assert done.calls_may_run, f"{done.end}: {done.error}"
    ids = [c.id for c in done.tool_calls]
    assert len(set(ids)) == len(ids) and all(ids)
    if expect.get("tool_call_ids"):
        assert ids == expect["tool_call_ids"]

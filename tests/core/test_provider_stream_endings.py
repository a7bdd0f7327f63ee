"""How real servers end replies and report errors, through the real client and the scripted server.

The recorded replays (test_provider_recordings.py) show these with real bodies; here each rule is pinned with
a fault injected on purpose: a `[DONE]` or a final usage chunk instead of a finish reason, a cut call after
such a marker, the marker's text inside a JSON string, Groq's `tool_use_failed` as an HTTP 400, OpenRouter's
upstream reason on a 429, a model name with dots, and the jitter of the retry waits.
"""

from __future__ import annotations

import contextlib
import json

import pytest

from hermes_desktop.core.events import ErrorKind
from hermes_desktop.core.llm import ChatRequest, ModelClient, ModelError, StreamDone, ToolModeSwitched
from hermes_desktop.core.llm.client import RetryPolicy
from hermes_desktop.core.settings import ProviderProfile, ToolMode
from tests.support.engine import FAST_RETRIES
from tests.support.model_server import ScriptedReply, error_reply

HELLO = [{"role": "user", "content": "hello"}]
TOOLS = [{"type": "function", "function": {"name": "list_directory", "description": "ls",
                                            "parameters": {"type": "object", "properties": {}}}}]


def chunk(delta: dict | None = None, finish: str | None = None, **extra: object) -> str:
    body = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}], **extra}
    return json.dumps(body)


def usage_chunk() -> str:
    return json.dumps({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [],
                       "usage": {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}})


def call(arguments: str, *, index: int | None = 0) -> dict:
    fragment: dict = {"id": "call_1", "type": "function", "function": {"name": "list_directory", "arguments": arguments}}
    if index is not None:
        fragment["index"] = index
    return {"tool_calls": [fragment]}


@pytest.fixture
async def client(profile: ProviderProfile):
    model = ModelClient(replace_mode(profile), "sk-test", retry=FAST_RETRIES)
    yield model
    await model.aclose()


def replace_mode(profile: ProviderProfile) -> ProviderProfile:
    from dataclasses import replace
    return replace(profile, tool_mode=ToolMode.AUTO)


async def run(client: ModelClient, *, tools: bool = True) -> list:
    items = []
    async with contextlib.aclosing(client.stream(ChatRequest(HELLO, tools=TOOLS if tools else []))) as stream:
        async for item in stream:
            items.append(item)
    return items


async def test_done_without_a_finish_reason_is_a_finished_text_reply(client, model_server) -> None:
    model_server.enqueue(ScriptedReply(events=[chunk({"content": "4"}), chunk({"content": ""})], ending="done"))
    done = (await run(client))[-1]
    assert isinstance(done, StreamDone) and done.text == "4" and done.calls_may_run and done.finish_reason is None


async def test_a_final_usage_chunk_without_a_finish_reason_finishes_the_reply(client, model_server) -> None:
    # Snowflake Cortex: text, then a usage chunk with no choices, and the body ends (here without [DONE] too).
    model_server.enqueue(ScriptedReply(events=[chunk({"content": "four"}), usage_chunk()], ending="eof"))
    done = (await run(client))[-1]
    assert done.text == "four" and done.calls_may_run and done.prompt_tokens == 9


async def test_a_whole_call_then_done_without_a_finish_reason_may_run(client, model_server) -> None:
    # OpenRouter with the Novita upstream: a whole call, `{}`, no finish reason, [DONE].
    model_server.enqueue(ScriptedReply(events=[chunk(call("{}"))], ending="done"))
    done = (await run(client))[-1]
    assert [c.name for c in done.tool_calls] == ["list_directory"] and done.calls_may_run


async def test_a_cut_call_never_runs_even_when_done_follows(client, model_server) -> None:
    model_server.enqueue(ScriptedReply(events=[chunk(call('{"path": "da'))], ending="done"))
    done = (await run(client))[-1]
    assert done.tool_calls and not done.calls_may_run and done.error is not None


async def test_a_text_after_the_usage_chunk_makes_the_reply_unfinished_again(client, model_server) -> None:
    model_server.enqueue(ScriptedReply(events=[usage_chunk(), chunk({"content": "more"})], ending="eof"))
    with pytest.raises(ModelError) as caught:
        await run(client)
    assert caught.value.kind is ErrorKind.STREAM_DROPPED


async def test_the_done_marker_inside_the_text_is_not_an_end(client, model_server) -> None:
    # JSON cannot carry a raw newline inside a string, so "\ndata: [DONE]" in the text never looks like the line.
    model_server.enqueue(ScriptedReply(events=[chunk({"content": "x\ndata: [DONE]\n"}), chunk(call('{}'))],
                                       ending="eof"))
    done = (await run(client))[-1]
    assert not done.calls_may_run


async def test_groq_tool_use_failed_is_a_bad_call_not_a_server_without_tools(client, model_server) -> None:
    refusal = error_reply(400, "Failed to call a function. Please adjust your prompt. See 'failed_generation' for "
                          "more details.", code="tool_use_failed")
    model_server.enqueue(refusal, refusal, refusal)
    with pytest.raises(ModelError) as caught:
        await run(client)
    error = caught.value
    assert error.code == "tool_call_rejected" and not error.tools_unsupported
    assert "Failed to call a function" in error.message
    assert client.tool_mode is ToolMode.NATIVE
    assert all("tools" in r.body for r in model_server.chat_requests)  # never switched to text tool calls


async def test_openrouter_upstream_reason_is_shown_on_a_429(client, model_server) -> None:
    body = {"error": {"message": "Provider returned error", "code": 429, "metadata": {
        "raw": "google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream. Please retry shortly.",
        "provider_name": "Google AI Studio"}}}
    model_server.enqueue(*[ScriptedReply(status=429, json_body=body)] * 3)
    with pytest.raises(ModelError) as caught:
        await run(client, tools=False)
    assert caught.value.kind is ErrorKind.RATE_LIMIT
    assert "temporarily rate-limited upstream" in caught.value.message
    assert "Google AI Studio" in caught.value.params["server"]


async def test_a_model_name_with_dots_is_recognised_as_not_offered(client, model_server) -> None:
    model_server.enqueue(error_reply(400, "The model `gpt-4.1-mini.2025` does not exist or you do not have access "
                                          "to it."))
    with pytest.raises(ModelError) as caught:
        await run(client, tools=False)
    assert caught.value.kind is ErrorKind.MODEL_NOT_FOUND


async def test_a_code_decides_before_the_words(client, model_server) -> None:
    model_server.enqueue(error_reply(400, "Please shorten your messages.", code="context_length_exceeded"))
    with pytest.raises(ModelError) as caught:
        await run(client, tools=False)
    assert caught.value.kind is ErrorKind.CONTEXT_TOO_LONG


async def test_an_in_stream_token_limit_after_length_is_the_output_limit(client, model_server) -> None:
    model_server.enqueue(ScriptedReply(events=[
        chunk({"reasoning": "We need"}, "length"),
        json.dumps({"error": {"code": 400, "message": "Token limit reached"}, "choices": []})], ending="done"))
    with pytest.raises(ModelError) as caught:
        await run(client, tools=False)
    assert caught.value.code == "reply_output_limit" and caught.value.kind is not ErrorKind.CONTEXT_TOO_LONG
    assert "Token limit reached" in caught.value.message


def test_retry_waits_are_jittered_between_half_and_all_of_the_step() -> None:
    low = RetryPolicy(base_delay_s=1.0, max_delay_s=8.0, jitter=lambda: 0.0)
    high = RetryPolicy(base_delay_s=1.0, max_delay_s=8.0, jitter=lambda: 0.999)
    assert [low.delay_for(n, None) for n in (1, 2, 3, 5)] == [0.5, 1.0, 2.0, 4.0]
    assert [round(high.delay_for(n, None), 2) for n in (1, 2, 3, 5)] == [1.0, 2.0, 4.0, 8.0]
    assert low.delay_for(1, 3.0) == 3.0  # the server's Retry-After is waited exactly
    spread = {RetryPolicy().delay_for(2, None) for _ in range(50)}
    assert len(spread) > 1 and all(1.0 <= d <= 2.0 for d in spread)

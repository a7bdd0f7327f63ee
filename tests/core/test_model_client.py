"""The model client against the scripted server over real HTTP: streaming, assembly, every fault."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from dataclasses import replace

import pytest

from hermes_desktop.core.events import ErrorAction, ErrorKind
from hermes_desktop.core.llm import (
    ChatRequest,
    ModelClient,
    ModelError,
    ReplyEnd,
    RetryNotice,
    StreamDone,
    TextPiece,
    ToolModeSwitched,
)
from hermes_desktop.core.settings import ProviderProfile, ToolMode
from tests.support.engine import FAST_RETRIES
from tests.support.model_server import (
    CallScript,
    cut_tool_call_reply,
    drop_reply,
    endless_text_reply,
    endless_tool_call_reply,
    eof_reply,
    error_reply,
    hang_reply,
    malformed_reply,
    slow_text_reply,
    text_reply,
    tool_call_reply,
)

HELLO = [{"role": "user", "content": "hello"}]
CALC_TOOL = [{"type": "function", "function": {"name": "calculate", "description": "math",
                                                "parameters": {"type": "object", "properties": {}}}}]


async def collect(client: ModelClient, request: ChatRequest) -> list:
    items = []
    async with contextlib.aclosing(client.stream(request)) as stream:
        async for item in stream:
            items.append(item)
    return items


@pytest.fixture
async def client(profile: ProviderProfile):
    model = ModelClient(profile, "sk-test-key-123456", retry=FAST_RETRIES)
    yield model
    await model.aclose()


async def test_streams_text_pieces_in_order_and_reports_usage(client, model_server) -> None:
    model_server.enqueue(text_reply("Hello there, 你好世界!", chunk_size=3, usage=(12, 7)))
    items = await collect(client, ChatRequest(HELLO))
    pieces = [i.text for i in items if isinstance(i, TextPiece)]
    assert len(pieces) > 3 and "".join(pieces) == "Hello there, 你好世界!"
    done = items[-1]
    assert isinstance(done, StreamDone)
    assert (done.text, done.finish_reason, done.prompt_tokens, done.completion_tokens) == (
        "Hello there, 你好世界!", "stop", 12, 7)
    body = model_server.chat_requests[0].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert model_server.chat_requests[0].headers["authorization"] == "Bearer sk-test-key-123456"


@pytest.mark.parametrize("variant", [
    {}, {"omit_index": True}, {"omit_id": True}, {"index_base": 1}, {"pieces": 1}, {"pieces": 40},
    {"omit_index": True, "omit_id": True},
])
async def test_assembles_tool_calls_however_the_server_splits_them(client, model_server, variant) -> None:
    calls = [CallScript("calculate", {"expression": "(12+34)*5"}),
             CallScript("save_note", {"title": "会议记录", "content": "第一点：预算 ✓"})]
    model_server.enqueue(tool_call_reply(*calls, **variant))
    done = (await collect(client, ChatRequest(HELLO, CALC_TOOL)))[-1]
    assert [c.name for c in done.tool_calls] == ["calculate", "save_note"]
    assert [json.loads(c.arguments) for c in done.tool_calls] == [c.arguments for c in calls]
    assert len({c.id for c in done.tool_calls}) == 2 and all(c.id for c in done.tool_calls)
    if not variant.get("omit_id"):
        assert done.tool_calls[0].id == "call_0_calculate"


async def test_arguments_split_at_every_byte_including_inside_multibyte_text(client, model_server) -> None:
    arguments = json.dumps({"title": "笔记", "content": "naïve ☕ café"}, ensure_ascii=False)
    model_server.enqueue(tool_call_reply(CallScript("save_note", arguments), pieces=len(arguments)))
    done = (await collect(client, ChatRequest(HELLO, CALC_TOOL)))[-1]
    assert done.tool_calls[0].arguments == arguments


async def test_401_is_an_invalid_key_error_pointing_to_settings_and_never_shows_the_key(client, model_server) -> None:
    model_server.required_key = "sk-the-right-key"
    with pytest.raises(ModelError) as caught:
        await collect(client, ChatRequest(HELLO))
    error = caught.value
    assert error.kind is ErrorKind.AUTH and error.action is ErrorAction.OPEN_PROVIDER_SETTINGS
    assert "401" in error.message and "key" in error.message.lower()
    assert "sk-test-key-123456" not in error.message + error.detail
    assert "sk-wr***ng" not in error.message, "key-shaped text echoed by the server is redacted"
    assert len(model_server.chat_requests) == 1, "an auth failure is not retried"


async def test_403_is_reported_as_no_access(client, model_server) -> None:
    model_server.enqueue(error_reply(403, "Project does not have access to model"))
    with pytest.raises(ModelError) as caught:
        await collect(client, ChatRequest(HELLO))
    assert caught.value.kind is ErrorKind.AUTH and "403" in caught.value.message


async def test_429_then_success_shows_the_retry_and_then_streams(client, model_server) -> None:
    model_server.enqueue(error_reply(429, "Rate limit reached", headers={"retry-after-ms": "30"}), text_reply("ok"))
    items = await collect(client, ChatRequest(HELLO))
    notices = [i for i in items if isinstance(i, RetryNotice)]
    assert len(notices) == 1
    assert notices[0].error.kind is ErrorKind.RATE_LIMIT and notices[0].delay_s == pytest.approx(0.03)
    assert isinstance(items[-1], StreamDone) and items[-1].text == "ok"


async def test_429_that_persists_ends_as_rate_limited_after_the_retries(client, model_server) -> None:
    model_server.enqueue(*[error_reply(429, "Rate limit reached", headers={"retry-after": "0"})] * 3)
    with pytest.raises(ModelError) as caught:
        await collect(client, ChatRequest(HELLO))
    assert caught.value.kind is ErrorKind.RATE_LIMIT and caught.value.action is ErrorAction.RETRY
    assert len(model_server.chat_requests) == 3


async def test_retry_after_beyond_the_limit_is_not_waited_for(profile, model_server) -> None:
    model = ModelClient(profile, "k", retry=replace(FAST_RETRIES, max_retry_after_s=5))
    model_server.enqueue(error_reply(429, "slow down", headers={"retry-after": "3600"}))
    with pytest.raises(ModelError) as caught:
        await collect(model, ChatRequest(HELLO))
    await model.aclose()
    assert caught.value.kind is ErrorKind.RATE_LIMIT and len(model_server.chat_requests) == 1


async def test_quota_exhausted_429_is_not_retried(client, model_server) -> None:
    model_server.enqueue(error_reply(429, "You exceeded your current quota, please check your plan and billing",
                                     code="insufficient_quota"))
    with pytest.raises(ModelError) as caught:
        await collect(client, ChatRequest(HELLO))
    assert caught.value.kind is ErrorKind.RATE_LIMIT and "quota" in caught.value.message
    assert len(model_server.chat_requests) == 1


async def test_500_is_retried_then_reported_as_a_server_error(client, model_server) -> None:
    model_server.enqueue(*[error_reply(500, "upstream exploded", err_type="server_error")] * 3)
    with pytest.raises(ModelError) as caught:
        await collect(client, ChatRequest(HELLO))
    assert caught.value.kind is ErrorKind.SERVER and "500" in caught.value.message
    assert len(model_server.chat_requests) == 3


async def test_connection_refused_says_the_server_is_unreachable(profile) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    model = ModelClient(replace(profile, base_url=f"http://127.0.0.1:{port}/v1"), "k", retry=FAST_RETRIES)
    with pytest.raises(ModelError) as caught:
        await collect(model, ChatRequest(HELLO))
    await model.aclose()
    assert caught.value.kind is ErrorKind.CONNECTION
    assert f"127.0.0.1:{port}" in caught.value.message


async def test_a_server_that_hangs_times_out(profile, model_server) -> None:
    model = ModelClient(replace(profile, request_timeout_s=0.3), "k", retry=replace(FAST_RETRIES, max_retries=0))
    model_server.enqueue(hang_reply())
    with pytest.raises(ModelError) as caught:
        await collect(model, ChatRequest(HELLO))
    await model.aclose()
    assert caught.value.kind is ErrorKind.TIMEOUT and caught.value.action is ErrorAction.RETRY


async def test_a_stream_that_stalls_half_way_times_out_and_keeps_the_text(profile, model_server) -> None:
    model = ModelClient(replace(profile, request_timeout_s=0.3), "k", retry=FAST_RETRIES)
    model_server.enqueue(hang_reply(after_text="The first half"))
    items: list = []
    with pytest.raises(ModelError) as caught:
        async with contextlib.aclosing(model.stream(ChatRequest(HELLO))) as stream:
            async for item in stream:
                items.append(item)
    await model.aclose()
    assert caught.value.kind is ErrorKind.TIMEOUT
    assert "".join(i.text for i in items if isinstance(i, TextPiece)) == "The first half"
    assert len(model_server.chat_requests) == 1, "text had arrived, so the request is not silently repeated"


async def test_a_dropped_stream_is_reported_with_what_arrived(client, model_server) -> None:
    model_server.enqueue(drop_reply("Partial answer before the cut"))
    items: list = []
    with pytest.raises(ModelError) as caught:
        async with contextlib.aclosing(client.stream(ChatRequest(HELLO))) as stream:
            async for item in stream:
                items.append(item)
    assert caught.value.kind is ErrorKind.STREAM_DROPPED and caught.value.action is ErrorAction.RETRY
    assert "".join(i.text for i in items if isinstance(i, TextPiece)) == "Partial answer before the cut"
    assert len(model_server.chat_requests) == 1


async def test_a_reply_that_ends_without_finishing_is_reported(client, model_server) -> None:
    model_server.enqueue(eof_reply("Cut"))
    with pytest.raises(ModelError) as caught:
        await collect(client, ChatRequest(HELLO))
    assert caught.value.kind is ErrorKind.STREAM_DROPPED


async def test_a_malformed_chunk_is_reported_not_crashed_on(client, model_server) -> None:
    model_server.enqueue(malformed_reply("Good start"))
    with pytest.raises(ModelError) as caught:
        await collect(client, ChatRequest(HELLO))
    assert caught.value.kind is ErrorKind.MALFORMED_RESPONSE


async def test_context_too_long_offers_a_new_session_with_a_summary(client, model_server) -> None:
    model_server.enqueue(error_reply(400, "This model's maximum context length is 8192 tokens. However, your messages "
                                          "resulted in 9000 tokens.", code="context_length_exceeded"))
    with pytest.raises(ModelError) as caught:
        await collect(client, ChatRequest(HELLO))
    assert caught.value.kind is ErrorKind.CONTEXT_TOO_LONG
    assert caught.value.action is ErrorAction.NEW_SESSION_WITH_SUMMARY


async def test_unknown_model_is_reported_by_name(client, model_server) -> None:
    model_server.enqueue(error_reply(404, "The model `scripted-model` does not exist", code="model_not_found"))
    with pytest.raises(ModelError) as caught:
        await collect(client, ChatRequest(HELLO))
    assert caught.value.kind is ErrorKind.MODEL_NOT_FOUND and "scripted-model" in caught.value.message


async def test_auto_mode_switches_to_text_tool_calls_when_tools_are_rejected(client, model_server) -> None:
    model_server.reject_tools = True
    model_server.enqueue(text_reply('Let me compute.<tool_call>\n{"name": "calculate", "arguments": '
                                    '{"expression": "2+2"}}\n</tool_call>', chunk_size=5))
    items = await collect(client, ChatRequest(HELLO, CALC_TOOL))
    assert any(isinstance(i, ToolModeSwitched) for i in items)
    visible = "".join(i.text for i in items if isinstance(i, TextPiece))
    assert visible == "Let me compute." and "<tool_call>" not in visible
    done = items[-1]
    assert [(c.name, json.loads(c.arguments)) for c in done.tool_calls] == [("calculate", {"expression": "2+2"})]
    second = model_server.chat_requests[-1].body
    assert "tools" not in second and "<tools>" in second["messages"][0]["content"]
    assert client.tool_mode is ToolMode.TEXT


async def test_text_mode_profile_sends_no_tools_parameter_and_replays_history_as_text(profile, model_server) -> None:
    model = ModelClient(replace(profile, tool_mode=ToolMode.TEXT), "k", retry=FAST_RETRIES)
    model_server.enqueue(text_reply("The result is 4."))
    history = [
        {"role": "user", "content": "2+2?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "calculate", "arguments": '{"expression": "2+2"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "name": "calculate", "content": '{"result": "4"}'},
    ]
    await collect(model, ChatRequest(history, CALC_TOOL))
    await model.aclose()
    sent = model_server.chat_requests[0].body
    assert "tools" not in sent
    roles = [m["role"] for m in sent["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert "<tool_call>" in sent["messages"][2]["content"] and "<tool_response>" in sent["messages"][3]["content"]


async def test_servers_that_reject_stream_options_are_retried_without_them(client, model_server) -> None:
    model_server.reject_stream_options = True
    model_server.enqueue(text_reply("fine", usage=None))
    items = await collect(client, ChatRequest(HELLO))
    assert items[-1].text == "fine"
    assert "stream_options" not in model_server.chat_requests[-1].body


async def test_cancelling_closes_the_http_stream_at_once(client, model_server) -> None:
    model_server.enqueue(slow_text_reply("a long reply that keeps coming " * 20, delay_s=0.02))
    got_text = asyncio.Event()

    async def consume() -> None:
        async with contextlib.aclosing(client.stream(ChatRequest(HELLO))) as stream:
            async for item in stream:
                if isinstance(item, TextPiece):
                    got_text.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(got_text.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.to_thread(model_server.client_disconnected.wait, 5), "the server saw the client hang up"


async def test_list_models(client, model_server) -> None:
    model_server.models = ["b-model", "a-model"]
    assert await client.list_models() == ["a-model", "b-model"]


# ---------------------------------------------------------------- nothing half-received runs

DELETE_TOOL = [{"type": "function", "function": {"name": "delete_path", "description": "delete",
                                                  "parameters": {"type": "object", "properties": {}}}}]


@pytest.mark.parametrize("ending", ["close", "eof", "drop"])
async def test_a_stream_cut_inside_a_calls_arguments_is_cut_off_not_finished(client, model_server, ending) -> None:
    model_server.enqueue(cut_tool_call_reply(CallScript("delete_path", '{"path": "data', id="call_cut"),
                                             text="Deleting it.", ending=ending))
    items = await collect(client, ChatRequest(HELLO, DELETE_TOOL))
    done = items[-1]
    assert isinstance(done, StreamDone) and done.end is ReplyEnd.CUT_OFF and not done.calls_may_run
    assert [(c.id, c.name, c.arguments) for c in done.tool_calls] == [("call_cut", "delete_path", '{"path": "data')]
    assert done.text == "Deleting it."
    assert done.error is not None and done.error.kind is ErrorKind.STREAM_DROPPED
    assert done.error.action is ErrorAction.RETRY and "not run" in done.error.message
    assert len(model_server.chat_requests) == 1, "a cut reply is never silently requested again"


async def test_finish_reason_tool_calls_lets_the_calls_run(client, model_server) -> None:
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "data"})))
    done = (await collect(client, ChatRequest(HELLO, DELETE_TOOL)))[-1]
    assert done.end is ReplyEnd.FINISHED and done.calls_may_run and done.finish_reason == "tool_calls"


async def test_a_mislabelled_stop_with_whole_arguments_lets_the_calls_run(client, model_server) -> None:
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "data"}), CallScript("list_notes", {}),
                                         finish_reason="stop"))
    done = (await collect(client, ChatRequest(HELLO, DELETE_TOOL)))[-1]
    assert done.end is ReplyEnd.FINISHED and [c.name for c in done.tool_calls] == ["delete_path", "list_notes"]


@pytest.mark.parametrize("arguments", ['{"path": "data"', "", "{'path': 'data'}"])
async def test_a_mislabelled_stop_with_arguments_that_are_not_whole_json_does_not_run(client, model_server,
                                                                                     arguments) -> None:
    model_server.enqueue(tool_call_reply(CallScript("list_notes", {}), CallScript("delete_path", arguments),
                                         finish_reason="stop"))
    done = (await collect(client, ChatRequest(HELLO, DELETE_TOOL)))[-1]
    assert done.end is ReplyEnd.CUT_OFF and "not complete" in done.error.message


@pytest.mark.parametrize("finish_reason", ["length", "content_filter"])
async def test_calls_in_a_reply_that_ended_for_another_reason_do_not_run(client, model_server, finish_reason) -> None:
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "data"}), finish_reason=finish_reason))
    done = (await collect(client, ChatRequest(HELLO, DELETE_TOOL)))[-1]
    assert done.end is ReplyEnd.CUT_OFF and done.error.kind is ErrorKind.STREAM_DROPPED
    assert "not run" in done.error.message and done.error.action is ErrorAction.RETRY


async def test_a_text_protocol_stream_cut_inside_a_block_is_cut_off(profile, model_server) -> None:
    model = ModelClient(replace(profile, tool_mode=ToolMode.TEXT), "k", retry=FAST_RETRIES)
    reply = text_reply('On it.<tool_call>{"name": "delete_path", "arguments": {"path": "data')
    model_server.enqueue(replace(reply, events=reply.events[:-2], ending="close"))  # no finish chunk, no usage
    items = await collect(model, ChatRequest(HELLO, DELETE_TOOL))
    await model.aclose()
    done = items[-1]
    assert done.end is ReplyEnd.CUT_OFF and [c.name for c in done.tool_calls] == ["delete_path"]
    assert "".join(i.text for i in items if isinstance(i, TextPiece)) == "On it."


async def test_a_text_protocol_block_left_open_under_stop_does_not_run(profile, model_server) -> None:
    model = ModelClient(replace(profile, tool_mode=ToolMode.TEXT), "k", retry=FAST_RETRIES)
    model_server.enqueue(text_reply('<tool_call>{"name": "delete_path", "arguments": {"path": "data'))
    done = (await collect(model, ChatRequest(HELLO, DELETE_TOOL)))[-1]
    await model.aclose()
    assert done.finish_reason == "stop" and done.end is ReplyEnd.CUT_OFF


async def test_an_endless_text_stream_stops_at_the_output_limit_and_keeps_what_arrived(client, model_server) -> None:
    model_server.enqueue(endless_text_reply("and on "))
    items = await collect(client, ChatRequest(HELLO, max_reply_chars=5_000))
    text = "".join(i.text for i in items if isinstance(i, TextPiece))
    done = items[-1]
    assert done.end is ReplyEnd.OUTPUT_LIMIT and done.text == text
    assert text.startswith("This goes on and on ") and 5_000 < len(text) < 5_100
    assert await asyncio.to_thread(model_server.client_disconnected.wait, 5), "the stream was closed"


async def test_tool_call_arguments_that_never_end_stop_at_the_output_limit(client, model_server) -> None:
    model_server.enqueue(endless_tool_call_reply("save_note"))
    done = (await collect(client, ChatRequest(HELLO, DELETE_TOOL, max_reply_chars=3_000)))[-1]
    assert done.end is ReplyEnd.OUTPUT_LIMIT and not done.calls_may_run
    assert done.tool_calls[0].name == "save_note" and 3_000 < len(done.tool_calls[0].arguments) < 3_100
    assert await asyncio.to_thread(model_server.client_disconnected.wait, 5), "the stream was closed"

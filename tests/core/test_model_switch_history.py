"""Issue 24, across models: a session in which another model made a tool call, switched to DeepSeek in thinking
mode (the model picker), keeps working.

DeepSeek's guide (api-docs.deepseek.com/guides/thinking_mode): between two user messages where the model made tool
calls, the assistant messages' `reasoning_content` goes back in every later request (a 400 otherwise). Another
model's call has no reasoning that may be sent, so it goes as text; DeepSeek's own calls keep theirs. A server that
refuses even that gets every earlier tool exchange as text, once; refused again, the card says what to do, and
Retry works once the cause is gone.

Real runtime, real openai client, two scripted servers over HTTP on 127.0.0.1 (tests/support/model_server.py; one
applies DeepSeek's rule as its guide words it), the real SQLite store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.core.events import FinishReason, Notice, TurnError
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.runtime import Runtime, open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.session_models import SessionPick, write_pick
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore
from tests.support.model_server import (
    DEEPSEEK_ECHO_MESSAGE, CallScript, ScriptedModelServer, error_reply, reasoning_reply, text_reply, tool_call_reply,
)

DEEP_THOUGHT = "DeepSeek weighs which tool to call."


@pytest.fixture
def other_server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer() as server:
        yield server


def setup(deepseek: ScriptedModelServer, other: ScriptedModelServer, workspace: Path, *,
          deepseek_model: str = "deepseek-reasoner") -> Runtime:
    """Two providers: `other` (the default, a model without reasoning) and `deep` (DeepSeek in thinking mode; AUTO
    echo, which the model's name turns on)."""
    other_profile = ProviderProfile(id="other", name="Other", base_url=other.base_url, model="gpt-like",
                                    request_timeout_s=5.0, needs_api_key=False)
    deep = ProviderProfile(id="deep", name="DeepSeek", base_url=deepseek.base_url, model=deepseek_model,
                           request_timeout_s=5.0, needs_api_key=False)
    SettingsStore(app_paths()).save(Settings(profiles=(other_profile, deep), active_profile_id="other"))
    return open_runtime({"HERMES_WORKSPACE": str(workspace)}, secrets=MemorySecretStore())


async def run(runtime: Runtime, session: str, text: str | None):
    agent = runtime.make_agent()
    try:
        turn = agent.start_turn(session, text) if text is not None else agent.start_regenerate(session)
        return await turn.wait()
    finally:
        await agent.model.aclose()
        await runtime.session_models.aclose()


async def other_model_reads_the_time(runtime: Runtime, other: ScriptedModelServer) -> None:
    other.enqueue(tool_call_reply(CallScript("calculate", {"expression": "6*7"}, id="other_1")),
                  text_reply("6*7 is 42."))
    events = await run(runtime, "s", "What is 6*7?")
    assert events[-1].reason is FinishReason.COMPLETED
    write_pick(runtime.store, "s", SessionPick("deep", runtime.settings.profile("deep").model))


def assistant_texts(messages: list[dict]) -> str:
    return "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "assistant")


async def test_deepseek_thinking_after_another_models_tool_turn_answers_without_a_400(
        model_server, other_server, workspace_dir) -> None:
    runtime = setup(model_server, other_server, workspace_dir)
    await other_model_reads_the_time(runtime, other_server)
    model_server.deepseek_thinking = True
    model_server.enqueue(reasoning_reply(DEEP_THOUGHT, "", CallScript("calculate", {"expression": "2+2"}, id="d1")),
                         reasoning_reply("Now the answer.", "2+2 is 4, and 6*7 was 42."))
    events = await run(runtime, "s", "And 2+2?")
    assert events[-1].reason is FinishReason.COMPLETED, [e for e in events if isinstance(e, TurnError)]
    assert len(model_server.chat_requests) == 2, "no request was refused: each was sent as DeepSeek accepts"
    first, second = (r.messages for r in model_server.chat_requests)
    assert not any(m.get("tool_calls") for m in first), "another model's call was sent as a native call"
    assert not any(m.get("role") == "tool" for m in first)
    assert "[Tool call, shown as text: calculate" in assistant_texts(first)
    assert "[Result of calculate: " in assistant_texts(first) and "42" in assistant_texts(first)
    own = [m for m in second if m.get("tool_calls")]
    assert [m.get("reasoning_content") for m in own] == [DEEP_THOUGHT], "this turn's call carries its reasoning"
    roles = [m["role"] for m in first]
    assert all(not (a == b == "assistant") for a, b in zip(roles, roles[1:])), f"two assistant messages: {roles}"

    # The next turn: DeepSeek's own tool exchange of the earlier turn goes back with its reasoning (its guide: in
    # all later requests), the other model's stays text.
    model_server.enqueue(reasoning_reply("Easy.", "It is 8."))
    events = await run(runtime, "s", "And 4+4?")
    assert events[-1].reason is FinishReason.COMPLETED
    third = model_server.chat_requests[-1].messages
    assert [m.get("reasoning_content") for m in third if m.get("tool_calls")] == [DEEP_THOUGHT]
    assert "[Tool call, shown as text: calculate" in assistant_texts(third)
    runtime.store.close()


async def test_a_server_that_refuses_earlier_tool_exchanges_gets_them_as_text_and_the_turn_goes_on(
        model_server, other_server, workspace_dir) -> None:
    runtime = setup(model_server, other_server, workspace_dir)
    await other_model_reads_the_time(runtime, other_server)
    model_server.enqueue(reasoning_reply(DEEP_THOUGHT, "", CallScript("calculate", {"expression": "1+1"}, id="d1")),
                         reasoning_reply("Fine.", "Two."))
    events = await run(runtime, "s", "1+1?")
    assert events[-1].reason is FinishReason.COMPLETED
    model_server.refuse_earlier_tool_calls = True  # stricter than DeepSeek documents: its own earlier calls too
    model_server.enqueue(reasoning_reply("Again.", "Three."))
    events = await run(runtime, "s", "1+2?")
    assert events[-1].reason is FinishReason.COMPLETED, [e for e in events if isinstance(e, TurnError)]
    notices = [e for e in events if isinstance(e, Notice) and e.code == "history_as_text"]
    assert len(notices) == 1 and DEEPSEEK_ECHO_MESSAGE in notices[0].params["server"]
    refused, accepted = (r.messages for r in model_server.chat_requests[-2:])
    assert any(m.get("tool_calls") for m in refused)
    assert not any(m.get("tool_calls") or m.get("role") == "tool" for m in accepted)
    assert "[Tool call, shown as text: calculate {\"expression\": \"1+1\"}]" in assistant_texts(accepted)
    runtime.store.close()


async def test_refused_again_the_card_says_what_to_do_and_retry_works_once_the_cause_is_gone(
        model_server, other_server, workspace_dir) -> None:
    runtime = setup(model_server, other_server, workspace_dir)
    await other_model_reads_the_time(runtime, other_server)
    model_server.enqueue(error_reply(400, DEEPSEEK_ECHO_MESSAGE), error_reply(400, DEEPSEEK_ECHO_MESSAGE))
    events = await run(runtime, "s", "And 2+2?")
    assert events[-1].reason is FinishReason.ERROR
    error = next(e for e in events if isinstance(e, TurnError))
    assert error.code == "reasoning_history_refused" and error.params["model"] == "deepseek-reasoner"
    assert "Switch this conversation back" in error.message and "Retry" in error.message
    assert len(model_server.chat_requests) == 2, "retried once with the history as text, not in a loop"

    model_server.enqueue(reasoning_reply("Now it works.", "4."))
    events = await run(runtime, "s", None)  # Retry: the same user message answered again
    assert events[-1].reason is FinishReason.COMPLETED
    assert runtime.store.recent_messages("s", 10)[-1].content == "4."
    runtime.store.close()


def test_requests_as_text_keep_everything_the_model_needs() -> None:
    from hermes_desktop.core.llm.reasoning import tool_exchanges_as_text

    messages = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "q1"},
        {"role": "assistant", "content": "Let me look.", "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "x.txt"}'}},
            {"id": "b", "type": "function", "function": {"name": "list_directory", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "hello"},
        {"role": "tool", "tool_call_id": "b", "content": "x.txt"},
        {"role": "assistant", "content": "x.txt says hello."},
        {"role": "user", "content": "q2"},
        {"role": "assistant", "content": "", "reasoning_content": "mine", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "get_current_time", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "noon"},
    ]
    out = tool_exchanges_as_text(messages)
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user", "assistant", "tool"]
    text = out[2]["content"]
    assert text.index("Let me look.") < text.index("read_file") < text.index("hello") < text.index("x.txt says")
    assert out[4]["tool_calls"][0]["id"] == "c" and out[5]["tool_call_id"] == "c", "its own call stays native"
    earlier = tool_exchanges_as_text(messages, earlier=True)
    assert earlier[4].get("tool_calls"), "the turn being answered keeps its native calls"
    assert json.dumps(earlier).count("tool_call_id") == 1

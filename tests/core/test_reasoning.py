"""Reasoning models over real HTTP: the three forms of thinking, `<think>` cut anywhere, DeepSeek's echo rule
(preset-style ALWAYS, learned from the 400, and never sent without it), persistence, search, titles, summaries."""

from __future__ import annotations

import contextlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from hermes_desktop.core.events import FinishReason, Notice, ReasoningDelta, TextDelta, TurnFinished, UsageReported
from hermes_desktop.core.llm import ChatRequest, ModelClient, ModelError, ReasoningPiece, StreamDone, TextPiece
from hermes_desktop.core.llm.reasoning import ThinkSplitter, with_reasoning_echo
from hermes_desktop.core.providers import preset
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.settings import ProviderProfile, ReasoningEcho, Settings, SettingsStore
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.store import open_store
from hermes_desktop.core.summaries import summarise_session
from hermes_desktop.core.titles import retitle_session
from hermes_desktop.core.tools.approval import Decision
from tests.support.engine import FAST_RETRIES, ScriptedApprover, make_engine, of_type
from tests.support.model_server import (
    DEEPSEEK_ECHO_MESSAGE,
    CallScript,
    ScriptedModelServer,
    error_reply,
    reasoning_reply,
    text_reply,
)

HELLO = [{"role": "user", "content": "hello"}]
THOUGHT = "Let me think: 6 times 7 is 42."
ANSWER = "The answer is 42."


async def collect(client: ModelClient, request: ChatRequest) -> list:
    items = []
    async with contextlib.aclosing(client.stream(request)) as stream:
        async for item in stream:
            items.append(item)
    return items


def _split(items: list) -> tuple[str, str, StreamDone]:
    thinking = "".join(i.text for i in items if isinstance(i, ReasoningPiece))
    text = "".join(i.text for i in items if isinstance(i, TextPiece))
    return thinking, text, items[-1]


@pytest.fixture
async def client(profile: ProviderProfile):
    model = ModelClient(profile, "sk-test", retry=FAST_RETRIES)
    yield model
    await model.aclose()


# ---------------------------------------------------------------- the three forms

@pytest.mark.parametrize("form", ["reasoning_content", "reasoning", "think"])
async def test_each_form_streams_thinking_apart_from_the_answer(client, model_server, form) -> None:
    model_server.enqueue(reasoning_reply(THOUGHT, ANSWER, form=form, reasoning_tokens=17))
    items = await collect(client, ChatRequest(HELLO))
    thinking, text, done = _split(items)
    assert (thinking, text) == (THOUGHT, ANSWER)
    assert isinstance(done, StreamDone) and done.reasoning == THOUGHT and done.text == ANSWER
    assert done.reasoning_tokens == 17 and done.calls_may_run
    first_text = next(i for i, item in enumerate(items) if isinstance(item, TextPiece))
    assert all(isinstance(item, ReasoningPiece) for item in items[:first_text]), "thinking streams before the answer"
    assert all(not isinstance(item, ReasoningPiece) for item in items[first_text:])


async def test_openrouter_reasoning_details_are_read(client, model_server) -> None:
    from tests.support.model_server import ScriptedReply, _chunk
    events = [_chunk({"role": "assistant", "content": ""}),
              _chunk({"reasoning_details": [{"type": "reasoning.text", "text": "step one. "}]}),
              _chunk({"reasoning_details": [{"type": "reasoning.summary", "summary": "step two."}]}),
              _chunk({"content": "done"}), _chunk({}, "stop")]
    model_server.enqueue(ScriptedReply(events=events))
    thinking, text, done = _split(await collect(client, ChatRequest(HELLO)))
    assert (thinking, text, done.reasoning) == ("step one. step two.", "done", "step one. step two.")


async def test_think_tags_cut_at_every_boundary(client, model_server) -> None:
    whole = f"<think>{THOUGHT}</think>{ANSWER}"
    for cut in range(1, len(whole)):
        model_server.enqueue(reasoning_reply(THOUGHT, ANSWER, form="think", cuts=[cut]))
        thinking, text, done = _split(await collect(client, ChatRequest(HELLO)))
        assert (thinking, text) == (THOUGHT, ANSWER), f"cut at {cut}: {whole[:cut]!r} | {whole[cut:]!r}"
        assert (done.reasoning, done.text) == (THOUGHT, ANSWER)
    # and one character per chunk: every tag cut at every place at once
    model_server.enqueue(reasoning_reply(THOUGHT, ANSWER, form="think", chunk_size=1))
    thinking, text, _ = _split(await collect(client, ChatRequest(HELLO)))
    assert (thinking, text) == (THOUGHT, ANSWER)


def test_think_splitter_every_pair_of_cuts_and_tags_that_are_not_thinking() -> None:
    whole = f"\n<think>{THOUGHT}</think>\n{ANSWER}"
    for a in range(1, len(whole)):
        for b in range(a + 1, len(whole)):
            splitter = ThinkSplitter()
            pieces = [p for part in (whole[:a], whole[a:b], whole[b:]) for p in splitter.feed(part)] + splitter.finish()
            thinking = "".join(t for kind, t in pieces if kind == "thinking")
            answer = "".join(t for kind, t in pieces if kind == "answer")
            assert (thinking, answer) == (THOUGHT, ANSWER), (a, b)
    # `<think>` later in an answer is the model talking about the tag: it stays text
    splitter = ThinkSplitter()
    said = "Use <think> tags like <think>this</think>."
    pieces = splitter.feed(said[:9]) + splitter.feed(said[9:]) + splitter.finish()
    assert pieces and all(kind == "answer" for kind, _ in pieces) and "".join(t for _, t in pieces) == said
    # a reply cut inside an unfinished `<thi` is text, not lost
    splitter = ThinkSplitter()
    assert splitter.feed("<thi") == [] and splitter.finish() == [("answer", "<thi")]


async def test_reasoning_counts_toward_the_output_limit(client, model_server) -> None:
    model_server.enqueue(reasoning_reply("hmm " * 500, ANSWER))
    items = await collect(client, ChatRequest(HELLO, max_reply_chars=200))
    done = items[-1]
    assert done.end.value == "output_limit" and not any(isinstance(i, TextPiece) for i in items)


async def test_a_failure_after_thinking_started_is_not_silently_retried(client, model_server) -> None:
    from tests.support.model_server import ScriptedReply
    reply = reasoning_reply(THOUGHT, "")
    model_server.enqueue(ScriptedReply(events=reply.events[:4], ending="drop"), text_reply("second attempt"))
    with pytest.raises(ModelError):
        await collect(client, ChatRequest(HELLO))
    assert len(model_server.chat_requests) == 1 and model_server.pending == 1


# ---------------------------------------------------------------- request side

async def test_effort_and_extra_params_are_sent_and_a_refusal_is_shown_verbatim(profile, model_server) -> None:
    tuned = replace(profile, reasoning_effort="high", extra_params={"thinking": {"type": "enabled"}, "top_k": 5})
    client = ModelClient(tuned, "sk-test", retry=FAST_RETRIES)
    try:
        model_server.enqueue(text_reply("ok"))
        await collect(client, ChatRequest(HELLO))
        body = model_server.chat_requests[-1].body
        assert body["reasoning_effort"] == "high" and body["thinking"] == {"type": "enabled"} and body["top_k"] == 5
        refusal = "Unknown parameter: 'top_k'. Did you mean 'top_p'?"
        model_server.enqueue(error_reply(400, refusal))
        with pytest.raises(ModelError) as caught:
            await collect(client, ChatRequest(HELLO))
        assert refusal in caught.value.message
    finally:
        await client.aclose()
    model_server.enqueue(text_reply("plain"))
    plain = ModelClient(profile, "sk-test", retry=FAST_RETRIES)
    await collect(plain, ChatRequest(HELLO))
    await plain.aclose()
    assert "reasoning_effort" not in model_server.chat_requests[-1].body
    assert "thinking" not in model_server.chat_requests[-1].body


async def test_extra_params_from_a_hand_written_settings_file_cannot_hijack_the_request(profile, model_server) -> None:
    """The dialog refuses these fields; a settings.json written by hand or by an older version is checked again."""
    hostile = replace(profile, extra_params={"model": "hijack", "messages": [{"role": "system", "content": "INJECTED"}],
                                             "stream": False, "api_key": "sk-in-settings", "top_k": 5})
    client = ModelClient(hostile, "sk-test", retry=FAST_RETRIES)
    try:
        model_server.enqueue(text_reply("ok"))
        await collect(client, ChatRequest(HELLO))
    finally:
        await client.aclose()
    body = model_server.chat_requests[-1].body
    assert body["model"] == profile.model and body["messages"] == HELLO and body["stream"] is True
    assert "api_key" not in body and body["top_k"] == 5, "the harmless field is still sent"


def test_echo_goes_on_every_assistant_message_of_an_exchange_with_tool_calls_only() -> None:
    messages = [
        {"role": "user", "content": "chat"},
        {"role": "assistant", "content": "hi", "reasoning_content": "no tools here"},
        {"role": "user", "content": "compute"},
        {"role": "assistant", "content": "", "reasoning_content": "call it", "tool_calls": [{"id": "c1"}]},
        {"role": "tool", "tool_call_id": "c1", "content": "42"},
        {"role": "assistant", "content": "42", "reasoning_content": "got it"},
        {"role": "user", "content": "next"},
    ]
    sent = with_reasoning_echo(messages, True, produced_here=lambda _: True)
    assert [m.get("reasoning_content") for m in sent] == [None, None, None, "call it", None, "got it", None]
    assert all("reasoning_content" not in m for m in with_reasoning_echo(messages, False, produced_here=lambda _: True))
    mine = with_reasoning_echo(messages, True, produced_here=lambda r: r == "got it")
    assert [m.get("reasoning_content") for m in mine] == [None, None, None, None, None, "got it", None]
    assert messages[1]["reasoning_content"] == "no tools here", "the history itself is left alone"


def test_auto_echo_is_on_for_the_presets_known_to_need_it() -> None:
    for preset_id, expected in (("deepseek", True), ("moonshot", True), ("openai", False), ("zhipu", False),
                                ("ollama", False)):
        known = preset(preset_id)
        assert known is not None
        profile = ProviderProfile(id=preset_id, name=known.name, base_url=known.base_url, model=known.model)
        assert ModelClient(profile, "k").echo_reasoning is expected, preset_id
        assert ModelClient(replace(profile, reasoning_echo=ReasoningEcho.NEVER), "k").echo_reasoning is False
        assert ModelClient(replace(profile, reasoning_echo=ReasoningEcho.ALWAYS), "k").echo_reasoning is True


def test_auto_echo_follows_a_deepseek_or_kimi_thinking_model_behind_any_url() -> None:
    """A user who proxies DeepSeek (or reaches it through a router) keeps DeepSeek's rule from the first request."""
    for model, expected in (("deepseek-reasoner", True), ("deepseek/deepseek-r1", True), ("DeepSeek-V4", True),
                            ("moonshotai/kimi-k2-thinking", True), ("kimi-k2-instruct", False), ("qwen3:8b", False),
                            ("gpt-4o-mini", False)):
        profile = ProviderProfile(id="proxy", name="Proxy", base_url="http://127.0.0.1:8799/v1", model=model)
        assert ModelClient(profile, "k").echo_reasoning is expected, model


def _calc_script(server: ScriptedModelServer) -> None:
    """A DeepSeek-style calculate task over three round trips, thinking before each step."""
    server.enqueue(
        reasoning_reply("I need the product first.", "", CallScript("calculate", {"expression": "6*7"}, id="c1")),
        reasoning_reply("Now add one.", "", CallScript("calculate", {"expression": "42+1"}, id="c2")),
        reasoning_reply("Both results are in.", "It is 43.", reasoning_tokens=9),
    )


def _echoed(request) -> list[str | None]:
    return [m.get("reasoning_content") for m in request.messages if m.get("role") == "assistant"]


async def test_under_the_echo_rule_a_calculate_task_completes_over_three_round_trips(profile, model_server,
                                                                                      workspace_dir) -> None:
    model_server.enforce_reasoning_echo = True
    engine = make_engine(replace(profile, reasoning_echo=ReasoningEcho.ALWAYS), workspace_dir)
    try:
        _calc_script(model_server)
        events = await engine.ask("What is 6*7+1?")
        assert events[-1] == TurnFinished(FinishReason.COMPLETED, "", 3)
        requests = model_server.chat_requests
        assert len(requests) == 3, "no 400 and no retry"
        assert _echoed(requests[1]) == ["I need the product first."]
        assert _echoed(requests[2]) == ["I need the product first.", "Now add one."]
        assert "".join(e.text for e in of_type(events, ReasoningDelta)) == \
            "I need the product first.Now add one.Both results are in."
        assert of_type(events, UsageReported)[-1].reasoning_tokens == 9
    finally:
        await engine.close()


async def test_without_the_rule_and_without_being_told_the_field_is_never_sent(profile, model_server,
                                                                             workspace_dir) -> None:
    engine = make_engine(profile, workspace_dir)  # a custom server, echo AUTO, nothing learned
    try:
        _calc_script(model_server)
        events = await engine.ask("What is 6*7+1?")
        assert events[-1].reason is FinishReason.COMPLETED
        model_server.enqueue(text_reply("You're welcome."))
        await engine.ask("thanks")
        assert len(model_server.chat_requests) == 4
        assert not any("reasoning_content" in json.dumps(r.body) for r in model_server.chat_requests)
    finally:
        await engine.close()


def _write_settings(profile: ProviderProfile) -> SettingsStore:
    store = SettingsStore(app_paths())
    store.save(Settings(profiles=(profile,), active_profile_id=profile.id))
    return store


async def test_a_400_naming_reasoning_content_is_learned_retried_once_and_remembered(profile, model_server,
                                                                                   workspace_dir) -> None:
    model_server.enforce_reasoning_echo = True
    settings_store = _write_settings(profile)
    runtime = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=MemorySecretStore())
    agent = runtime.make_agent()
    try:
        _calc_script(model_server)
        events = await agent.start_turn("s1", "What is 6*7+1?").wait()
        assert events[-1].reason is FinishReason.COMPLETED, events[-1]
        requests = model_server.chat_requests
        # first, third and fourth are answered; the second (no echo) got DeepSeek's 400 and was retried once
        assert len(requests) == 4
        assert _echoed(requests[1]) == [None] and _echoed(requests[2]) == ["I need the product first."]
        notices = [n.message for n in of_type(events, Notice)]
        assert any("reasoning" in n and DEEPSEEK_ECHO_MESSAGE in n for n in notices), notices
        saved = json.loads(settings_store.path.read_text())["profiles"][0]
        assert saved["learned_reasoning_echo"] is True
    finally:
        await agent.model.aclose()
        runtime.store.close()

    # a restart: the next turn sends it from the start, no 400 on the way
    runtime = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=MemorySecretStore())
    agent = runtime.make_agent()
    try:
        model_server.enqueue(reasoning_reply("Recall.", "Still 43."))
        events = await agent.start_turn("s1", "And again?").wait()
        assert events[-1].reason is FinishReason.COMPLETED
        assert len(model_server.chat_requests) == 5
        assert _echoed(model_server.chat_requests[-1])[:2] == ["I need the product first.", "Now add one."]
    finally:
        await agent.model.aclose()
        runtime.store.close()


async def test_echo_never_is_not_learned_and_the_calls_go_as_text_instead(profile, model_server,
                                                                         workspace_dir) -> None:
    """NEVER holds (no reasoning is ever sent); the server's 400 makes the tool exchanges go as text (issue 24)."""
    model_server.enforce_reasoning_echo = True
    engine = make_engine(replace(profile, reasoning_echo=ReasoningEcho.NEVER), workspace_dir)
    try:
        _calc_script(model_server)
        events = await engine.ask("What is 6*7+1?")
        assert events[-1].reason is FinishReason.COMPLETED
        assert any(getattr(e, "code", "") == "history_as_text" for e in events)
        assert not any(getattr(e, "code", "") == "reasoning_echo" for e in events), "NEVER was overridden"
        assert all("reasoning_content" not in m for r in model_server.chat_requests for m in r.messages)
        assert "[Tool call, shown as text: calculate" in json.dumps(model_server.chat_requests[-1].messages)
    finally:
        await engine.close()


# ---------------------------------------------------------------- persistence, search, titles, summaries

async def test_reasoning_is_kept_with_the_reply_and_restored_after_reopening(profile, model_server,
                                                                           workspace_dir) -> None:
    engine = make_engine(profile, workspace_dir)
    try:
        model_server.enqueue(reasoning_reply("Quietly pondering zebrafish.", ANSWER, form="think", reasoning_tokens=6))
        events = await engine.ask("question")
        assert "".join(e.text for e in of_type(events, TextDelta)) == ANSWER
    finally:
        await engine.close()
    reopened = open_store(app_paths()).store
    try:
        reply = [m for m in reopened.messages("s1") if m.role == "assistant"][-1]
        assert (reply.content, reply.reasoning, reply.reasoning_tokens) == (ANSWER, "Quietly pondering zebrafish.", 6)
        assert reply.reasoning_ms is not None and reply.reasoning_ms >= 0
        assert reopened.search("zebrafish") == [], "search leaves reasoning out"
        assert reopened.search("answer"), "the reply's text is found"
    finally:
        reopened.close()


async def test_a_stop_while_thinking_keeps_the_thinking(profile, model_server, workspace_dir) -> None:
    from tests.support.model_server import ScriptedReply
    engine = make_engine(profile, workspace_dir)
    try:
        model_server.enqueue(ScriptedReply(events=reasoning_reply("Long thought " * 10, "").events[:-3],
                                           ending="hang", delay_s=0.01))
        turn = engine.agent.start_turn("s1", "question")
        async for event in turn:
            if isinstance(event, ReasoningDelta) and "thought Long" in "".join(
                    e.text for e in turn.events if isinstance(e, ReasoningDelta)):
                turn.cancel()
        reply = [m for m in engine.store.messages("s1") if m.role == "assistant"][-1]
        assert reply.interrupted and reply.reasoning and reply.reasoning.startswith("Long thought")
        assert reply.reasoning_ms is not None
    finally:
        await engine.close()


async def test_a_think_tag_never_closed_keeps_the_text_and_says_where_it_is(profile, model_server,
                                                                            workspace_dir) -> None:
    from hermes_desktop.core.events import Notice
    engine = make_engine(profile, workspace_dir)
    try:
        model_server.enqueue(text_reply("<think>let me think. The answer is 42."))
        events = await engine.ask("question")
        reply = [m for m in engine.store.messages("s1") if m.role == "assistant"][-1]
    finally:
        await engine.close()
    notices = [e.message for e in events if isinstance(e, Notice)]
    assert any("ended inside its thinking" in n for n in notices), notices
    assert reply.reasoning == "let me think. The answer is 42.", "nothing the model wrote is lost"


async def test_titles_and_summaries_never_see_the_reasoning(profile, model_server, workspace_dir) -> None:
    engine = make_engine(profile, workspace_dir)
    try:
        model_server.enqueue(reasoning_reply("SECRET-PLAN ponder", ANSWER))
        await engine.ask("question")
        model_server.auto_titles = False
        model_server.enqueue(reasoning_reply("title thoughts", "Short title"))
        assert await retitle_session(engine.store, engine.agent.model, "s1") == "Short title"
        model_server.enqueue(reasoning_reply("summary thoughts", "A summary."))
        new_id = await summarise_session(engine.store, engine.agent.model, "s1")
        for request in model_server.chat_requests[1:]:
            assert "SECRET-PLAN" not in json.dumps(request.body)
        summary = engine.store.messages(new_id)[0].content
        assert "A summary." in summary and "summary thoughts" not in summary
    finally:
        await engine.close()


# ---------------------------------------------------------------- export and import

def test_export_shows_reasoning_collapsed_and_json_round_trips_it(monkeypatch, tmp_path) -> None:
    from hermes_desktop.core.session_types import NewMessage
    from hermes_desktop.core.storage.transfer import export_json, export_markdown, import_file
    from tests.support.stores import open_test_store

    calls = [{"id": "c1", "type": "function", "function": {"name": "calculate", "arguments": '{"expression": "6*7"}'}}]
    first = open_test_store().store
    first.create_session("think", title="Thinking session")
    first.append_message("think", NewMessage("user", "6*7?"))
    first.append_message("think", NewMessage("assistant", "", tool_calls=calls, finish_reason="tool_calls",
                                             reasoning="I should call </details> calculate.", reasoning_ms=12_400,
                                             reasoning_tokens=31))
    first.append_message("think", NewMessage("tool", '{"result": "42"}', tool_call_id="c1", name="calculate"))
    first.append_message("think", NewMessage("assistant", "42", finish_reason="stop", reasoning="Done."))
    markdown = export_markdown(first, "think")
    assert "<details>\n<summary>Thought for 12 s</summary>" in markdown
    assert "I should call &lt;/details&gt; calculate." in markdown, "its text cannot close the block"
    assert markdown.index("Thought for 12 s") < markdown.index("Tool call")
    exported = export_json(first, "think")
    document = json.loads(exported)
    assert [(m.get("reasoning"), m.get("reasoning_ms"), m.get("reasoning_tokens")) for m in document["messages"]] == [
        (None, None, None), ("I should call </details> calculate.", 12_400, 31), (None, None, None),
        ("Done.", None, None)]
    first.close()
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):  # an empty profile
        monkeypatch.setenv(name, str(tmp_path / "other" / name))
    second = open_test_store().store
    try:
        import_file(second, exported)
        assert export_json(second, "think") == exported
        restored = [m for m in second.messages("think") if m.role == "assistant"]
        assert [(m.reasoning, m.reasoning_ms, m.reasoning_tokens) for m in restored] == [
            ("I should call </details> calculate.", 12_400, 31), ("Done.", None, None)]
    finally:
        second.close()


def test_context_counts_reasoning_only_where_it_is_sent_back() -> None:
    from hermes_desktop.core.context import ContextLayers, build_context

    long_thought = "deliberation " * 400
    history = [
        {"role": "user", "content": "compute"},
        {"role": "assistant", "content": "", "reasoning_content": long_thought,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "calculate", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "name": "calculate", "content": "42"},
        {"role": "assistant", "content": "42", "reasoning_content": long_thought},
        {"role": "user", "content": "thanks"},
    ]
    def built(echo: bool):
        return build_context(ContextLayers("system"), history, current_turn_start=4, tools=[], context_window=32_000,
                             reserved_output=1000, echo_reasoning=echo)
    without, with_echo = built(False), built(True)
    # both of the exchange's replies carry it when echoed (the exchange made a tool call)
    assert with_echo.breakdown["history"] - without.breakdown["history"] >= 2 * 400

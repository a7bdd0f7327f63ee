"""One user turn, end to end: real openai client, scripted server over HTTP, real tools on a temp workspace."""

from __future__ import annotations

import asyncio
import itertools
import json
import uuid
from pathlib import Path

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.settings import AgentLimits, ApprovalMode
from hermes_desktop.core.tools.approval import Decision, Rule, rule_key
from hermes_desktop.core.tools.spec import Risk, ToolSpec
from tests.support.engine import ScriptedApprover, make_engine, of_type
from tests.support.model_server import (
    CallScript,
    cut_tool_call_reply,
    drop_reply,
    endless_text_reply,
    endless_tool_call_reply,
    error_reply,
    slow_text_reply,
    text_reply,
    tool_call_reply,
)


@pytest.fixture
async def engine(profile, workspace_dir):
    built = make_engine(profile, workspace_dir)
    yield built
    await built.close()


def tool_messages(request) -> list[dict]:
    return [m for m in request.messages if m["role"] == "tool"]


async def test_user_asks_arithmetic_model_calls_calculate_and_the_answer_streams(engine, model_server) -> None:
    model_server.enqueue(
        tool_call_reply(CallScript("calculate", {"expression": "(12+34)*5"}, id="call_calc_1")),
        text_reply("(12+34)*5 = **230**", chunk_size=3),
    )
    events = await engine.ask("(12+34)*5?")

    assert [type(e).__name__ for e in events if isinstance(e, (ev.ToolCallProposed, ev.ToolCallDecided,
            ev.ToolCallStarted, ev.ToolCallFinished))] == ["ToolCallProposed", "ToolCallDecided", "ToolCallStarted",
                                                           "ToolCallFinished"]
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.OK and json.loads(finished.result)["result"] == "230"
    second = model_server.chat_requests[1]
    assistant = [m for m in second.messages if m.get("tool_calls")][0]
    result = tool_messages(second)[0]
    assert assistant["tool_calls"][0]["id"] == result["tool_call_id"] == "call_calc_1"
    assert json.loads(result["content"])["result"] == "230"
    deltas = of_type(events, ev.TextDelta)
    assert len(deltas) > 3 and "".join(d.text for d in deltas) == "(12+34)*5 = **230**"
    assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
    stored = engine.store.messages("s1")
    assert [m.role for m in stored] == ["user", "assistant", "tool", "assistant"]
    assert stored[-1].content == "(12+34)*5 = **230**" and stored[-1].finish_reason == "stop"
    assert engine.store.get_session("s1").title == "(12+34)*5?"


async def test_write_file_with_the_default_approver_is_declined_and_the_model_is_told(engine, model_server) -> None:
    model_server.enqueue(
        tool_call_reply(CallScript("write_file", {"path": "report.txt", "content": "hello"}), text="I'll save it."),
        text_reply("That needs your approval and nobody could be asked, so I did not save the file."),
    )
    events = await engine.ask("save hello to report.txt")

    assert not (engine.workspace / "report.txt").exists()
    decided = of_type(events, ev.ToolCallDecided)[0]
    assert (decided.decision, decided.decided_by) == ("deny", "default approver")
    assert of_type(events, ev.ToolCallFinished)[0].outcome is ev.ToolOutcome.DENIED
    told = tool_messages(model_server.chat_requests[1])[0]
    # Nobody was asked (the default approver): the model is told so, not that the user declined.
    assert json.loads(told["content"])["status"] == "denied" and "no one to ask" in told["content"]
    assert "declined" not in told["content"]
    assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
    audit = engine.audit.read()
    assert audit[-1]["tool"] == "write_file" and audit[-1]["decision"] == "deny" and audit[-1]["outcome"] == "denied"


async def test_an_approved_write_runs_and_the_approver_saw_impact_and_reason(profile, workspace_dir, model_server) -> None:
    approver = ScriptedApprover([Decision.ALLOW_ONCE])
    engine = make_engine(profile, workspace_dir, approver=approver)
    model_server.enqueue(
        tool_call_reply(CallScript("write_file", {"path": "plan.md", "content": "# Plan"}), text="Saving the plan now."),
        text_reply("Saved."),
    )
    events = await engine.ask("write the plan")
    assert (workspace_dir / "plan.md").read_text() == "# Plan"
    request = approver.asked[0]
    assert (request.tool_name, request.risk, request.impact) == ("write_file", Risk.WRITE, "will create plan.md (6 bytes)")
    assert request.reason == "Saving the plan now." and request.source == "builtin"
    assert of_type(events, ev.ToolCallAwaitingApproval)[0].call_id == request.call_id
    assert of_type(events, ev.ToolCallDecided)[0].decided_by == "you"
    await engine.close()


async def test_allow_for_this_session_covers_later_calls_in_that_session_only(profile, workspace_dir, model_server) -> None:
    approver = ScriptedApprover([Decision.ALLOW_SESSION])
    engine = make_engine(profile, workspace_dir, approver=approver)
    model_server.enqueue(
        tool_call_reply(CallScript("make_directory", {"path": "a"})), text_reply("done"),
        tool_call_reply(CallScript("make_directory", {"path": "b"})), text_reply("done"),
        tool_call_reply(CallScript("make_directory", {"path": "c"})), text_reply("done"),
    )
    await engine.ask("make a", "one")
    await engine.ask("make b", "one")
    await engine.ask("make c", "two")
    assert len(approver.asked) == 2 and approver.asked[1].session_id == "two"
    assert (workspace_dir / "a").is_dir() and (workspace_dir / "b").is_dir() and not (workspace_dir / "c").exists()
    await engine.close()


async def test_the_user_message_is_saved_before_the_model_is_called_even_when_it_fails(engine, model_server) -> None:
    model_server.required_key = "sk-another-key"
    events = await engine.ask("remember this question")
    assert [m.content for m in engine.store.messages("s1")] == ["remember this question"]
    error = of_type(events, ev.TurnError)[0]
    assert error.kind is ev.ErrorKind.AUTH and error.action is ev.ErrorAction.OPEN_PROVIDER_SETTINGS
    assert events[-1] == ev.TurnFinished(ev.FinishReason.ERROR, error.message, 1)


async def test_no_model_configured_keeps_the_message_and_says_what_to_do(workspace_dir) -> None:
    engine = make_engine(None, workspace_dir)
    events = await engine.ask("hello?")
    assert engine.store.messages("s1")[0].content == "hello?"
    assert of_type(events, ev.TurnError)[0].kind is ev.ErrorKind.NOT_CONFIGURED
    await engine.close()


async def test_a_rate_limit_retry_is_visible_then_the_reply_arrives(engine, model_server) -> None:
    model_server.enqueue(error_reply(429, "Too many requests", headers={"retry-after-ms": "20"}), text_reply("hi!"))
    events = await engine.ask("hello")
    retry = of_type(events, ev.RetryScheduled)[0]
    assert retry.kind is ev.ErrorKind.RATE_LIMIT and "Retrying in 0.0 s (attempt 1 of 2)" in retry.message
    assert engine.store.messages("s1")[-1].content == "hi!"


async def test_a_dropped_stream_keeps_the_partial_reply_marked_interrupted(engine, model_server) -> None:
    model_server.enqueue(drop_reply("Here is the first part of a long"))
    events = await engine.ask("tell me a story")
    assert of_type(events, ev.TurnError)[0].kind is ev.ErrorKind.STREAM_DROPPED
    user, assistant = engine.store.messages("s1")
    assert user.content == "tell me a story"
    assert assistant.content == "Here is the first part of a long" and assistant.interrupted


async def test_malformed_arguments_are_repaired_and_run(engine, model_server) -> None:
    model_server.enqueue(tool_call_reply(CallScript("calculate", "{'expression': '6*7',}")), text_reply("42"))
    events = await engine.ask("6*7")
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.OK and '"42"' in finished.result


async def test_invalid_arguments_go_back_to_the_model_with_the_exact_reason(engine, model_server) -> None:
    model_server.enqueue(tool_call_reply(CallScript("calculate", {"expr": "1+1"})), text_reply("Sorry, fixing it."))
    events = await engine.ask("1+1")
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.INVALID
    told = tool_messages(model_server.chat_requests[1])[0]["content"]
    assert "'expression' is a required property" in told and "expr" in told


async def test_an_unknown_tool_is_answered_with_the_list_of_real_ones(engine, model_server) -> None:
    model_server.enqueue(tool_call_reply(CallScript("run_shell", {"cmd": "rm -rf /"})), text_reply("ok"))
    events = await engine.ask("clean up")
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.INVALID and "unknown tool 'run_shell'" in finished.result
    assert "calculate" in finished.result


def _tool(name: str, handler, *, risk: Risk = Risk.READ, timeout: float | None = None, blocking: bool = True) -> ToolSpec:
    return ToolSpec(name, f"test tool {name}", {"type": "object", "properties": {"n": {"type": "integer"}},
                                                "additionalProperties": False},
                    handler, risk, timeout_s=timeout, source="builtin", blocking=blocking)


async def test_a_tool_that_raises_is_reported_and_the_loop_continues(profile, workspace_dir, model_server) -> None:
    def explode(args, ctx):
        raise RuntimeError("disk on fire")

    engine = make_engine(profile, workspace_dir, extra_tools=[_tool("explode", explode)])
    model_server.enqueue(tool_call_reply(CallScript("explode", {})), text_reply("It failed: disk on fire."))
    events = await engine.ask("go")
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.ERROR and "RuntimeError: disk on fire" in finished.result
    assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
    await engine.close()


async def test_a_hung_tool_times_out(profile, workspace_dir, model_server) -> None:
    async def hang(args, ctx):
        await asyncio.Event().wait()

    engine = make_engine(profile, workspace_dir, extra_tools=[_tool("hang", hang, timeout=0.2, blocking=False)])
    model_server.enqueue(tool_call_reply(CallScript("hang", {})), text_reply("It timed out."))
    events = await engine.ask("go")
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.TIMEOUT and "did not finish within 0.2 s" in finished.result
    await engine.close()


async def test_read_calls_in_one_batch_run_concurrently_and_answer_in_order(profile, workspace_dir, model_server) -> None:
    started = {"first": asyncio.Event(), "second": asyncio.Event()}

    def waiter(me: str, other: str):
        async def handler(args, ctx):
            started[me].set()
            await asyncio.wait_for(started[other].wait(), 5)  # deadlocks (then times out) if run one after the other
            return f"{me} done"
        return handler

    engine = make_engine(profile, workspace_dir, extra_tools=[
        _tool("first", waiter("first", "second"), blocking=False), _tool("second", waiter("second", "first"), blocking=False)])
    model_server.enqueue(tool_call_reply(CallScript("first", {}, id="c1"), CallScript("second", {}, id="c2")),
                         text_reply("both done"))
    events = await engine.ask("go")
    assert [f.outcome for f in of_type(events, ev.ToolCallFinished)] == [ev.ToolOutcome.OK, ev.ToolOutcome.OK]
    results = tool_messages(model_server.chat_requests[1])
    assert [(r["tool_call_id"], r["content"]) for r in results] == [("c1", "first done"), ("c2", "second done")]
    await engine.close()


async def test_big_results_are_truncated_with_a_note(profile, workspace_dir, model_server) -> None:
    engine = make_engine(profile, workspace_dir, extra_tools=[_tool("big", lambda a, c: "x" * 20_000)],
                         limits=AgentLimits(tool_result_char_budget=1000))
    model_server.enqueue(tool_call_reply(CallScript("big", {})), text_reply("ok"))
    events = await engine.ask("go")
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert len(finished.result) <= 1000 and "truncated" in finished.result and finished.truncated_chars > 19_000
    await engine.close()


async def test_guard_max_round_trips(profile, workspace_dir, model_server) -> None:
    engine = make_engine(profile, workspace_dir, limits=AgentLimits(max_round_trips=3))
    model_server.enqueue(*[tool_call_reply(CallScript("calculate", {"expression": f"{n}+1"})) for n in range(5)])
    events = await engine.ask("count")
    finished = events[-1]
    assert finished.reason is ev.FinishReason.MAX_ROUND_TRIPS and "3 model round trips" in finished.message
    assert len(model_server.chat_requests) == 3
    await engine.close()


async def test_guard_the_same_call_three_times_in_a_row(engine, model_server) -> None:
    same = CallScript("calculate", {"expression": "1+1"})
    model_server.enqueue(*[tool_call_reply(same) for _ in range(5)])
    events = await engine.ask("loop")
    assert events[-1].reason is ev.FinishReason.REPEATED_CALL and "3 times in a row" in events[-1].message
    outcomes = [f.outcome for f in of_type(events, ev.ToolCallFinished)]
    assert outcomes == [ev.ToolOutcome.OK, ev.ToolOutcome.OK, ev.ToolOutcome.SKIPPED]
    assert len(model_server.chat_requests) == 3


async def test_guard_the_same_tool_failing_three_times(profile, workspace_dir, model_server) -> None:
    def broken(args, ctx):
        raise RuntimeError("still broken")

    engine = make_engine(profile, workspace_dir, extra_tools=[_tool("broken", broken)])
    model_server.enqueue(*[tool_call_reply(CallScript("broken", {"n": n})) for n in range(3)],
                         text_reply("broken keeps failing with 'still broken'. How do you want to proceed?"))
    events = await engine.ask("try")
    assert events[-1].reason is ev.FinishReason.REPEATED_FAILURE and "broken failed 3 times" in events[-1].message
    assert len(model_server.chat_requests) == 4, "one more round, without tools, to hand over (core/turn_guard.py)"
    assert model_server.chat_requests[-1].tool_names == []
    assert "How do you want to proceed?" in "".join(e.text for e in of_type(events, ev.TextDelta))
    await engine.close()


async def test_stop_mid_stream_keeps_the_partial_reply_and_closes_the_stream(engine, model_server) -> None:
    model_server.enqueue(slow_text_reply("word " * 400, delay_s=0.01))
    turn = engine.agent.start_turn("s1", "write a lot")
    seen = 0
    async for event in turn:
        if isinstance(event, ev.TextDelta):
            seen += 1
            if seen == 5:
                turn.cancel()
    assert turn.events[-1].reason is ev.FinishReason.CANCELLED
    assistant = engine.store.messages("s1")[-1]
    streamed = "".join(e.text for e in of_type(turn.events, ev.TextDelta))
    assert assistant.role == "assistant" and assistant.interrupted and assistant.content == streamed
    assert await asyncio.to_thread(model_server.client_disconnected.wait, 5)


async def test_stop_before_the_turn_took_its_first_step_still_ends_it(engine, model_server) -> None:
    turn = engine.agent.start_turn("s1", "hello")
    turn.cancel()  # in the same moment: the turn's task has not run a single step yet

    async with asyncio.timeout(30):  # guards against the hang this test is about, not a speed check
        events = [event async for event in turn]

    assert [type(e) for e in events] == [ev.TurnFinished] and events[0].reason is ev.FinishReason.CANCELLED
    assert model_server.chat_requests == [], "nothing was sent to the model"


async def test_stop_while_a_tool_runs_cancels_it_and_records_the_call(profile, workspace_dir, model_server) -> None:
    cancelled = asyncio.Event()
    running = asyncio.Event()

    async def slow(args, ctx):
        running.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise

    engine = make_engine(profile, workspace_dir, extra_tools=[_tool("slow", slow, timeout=30, blocking=False)])
    model_server.enqueue(tool_call_reply(CallScript("slow", {}, id="slow_1")))
    turn = engine.agent.start_turn("s1", "go")
    await asyncio.wait_for(running.wait(), 5)
    turn.cancel()
    events = await turn.wait()
    assert cancelled.is_set()
    assert events[-1].reason is ev.FinishReason.CANCELLED
    last = engine.store.messages("s1")[-1]
    assert (last.role, last.tool_call_id) == ("tool", "slow_1") and "cancelled" in (last.content or "")
    await engine.close()


async def test_text_format_tool_calls_work_end_to_end(engine, model_server) -> None:
    model_server.reject_tools = True
    model_server.enqueue(
        text_reply('<tool_call>{"name": "calculate", "arguments": {"expression": "(12+34)*5"}}</tool_call>'),
        text_reply("The answer is 230."),
    )
    events = await engine.ask("(12+34)*5?")
    assert any("text tool-call format" in n.message for n in of_type(events, ev.Notice))
    assert json.loads(of_type(events, ev.ToolCallFinished)[0].result)["result"] == "230"
    assert "".join(d.text for d in of_type(events, ev.TextDelta)) == "The answer is 230."
    last_request = model_server.chat_requests[-1].body
    assert "tools" not in last_request and "<tool_response>" in last_request["messages"][-1]["content"]


async def test_context_too_long_is_retried_once_with_less_history(engine, model_server) -> None:
    # Eight earlier exchanges of ~1,000 tokens a message: all of them fit the 32k window, not half of it.
    engine.store.create_session("s1")
    for n in range(8):
        engine.store.append_message("s1", NewMessage("user", content=f"question {n} " + "word " * 800))
        engine.store.append_message("s1", NewMessage("assistant", content=f"answer {n} " + "word " * 800))
    model_server.enqueue(error_reply(400, "maximum context length exceeded", code="context_length_exceeded"),
                         text_reply("second answer"))
    events = await engine.ask("second")
    assert any("too long" in n.message for n in of_type(events, ev.Notice))
    assert events[-1].reason is ev.FinishReason.COMPLETED
    # (the retry's smaller budget no longer holds the history: it is summarised first, by a side request)
    refused, retried = [r for r in model_server.chat_requests if "running summary" not in r.system_prompt]
    assert len(refused.messages) == 1 + 16 + 1, "the first attempt carried the whole history"
    assert len(retried.messages) < len(refused.messages), "the retry sent less history"
    assert retried.messages[-1] == {"role": "user", "content": "second"}
    first, second = of_type(events, ev.ContextPrepared)
    assert second.budget_tokens < first.budget_tokens and first.dropped_messages == 0
    assert 0 < second.breakdown["conversation_summary"] or 0 < second.dropped_messages


async def test_chat_only_mode_sends_no_tools(profile, workspace_dir, model_server) -> None:
    engine = make_engine(profile, workspace_dir, mode=ApprovalMode.CHAT_ONLY)
    model_server.enqueue(text_reply("just chatting"))
    await engine.ask("hi")
    assert "tools" not in model_server.chat_requests[0].body
    await engine.close()


async def wait_until(predicate, what: str, timeout_s: float = 10.0) -> None:
    """Poll until `predicate()` holds; the timeout only guards against a hang."""
    async with asyncio.timeout(timeout_s):
        while not predicate():
            await asyncio.sleep(0.01)


async def test_assistant_text_is_saved_while_it_streams(profile, workspace_dir, model_server) -> None:
    engine = make_engine(profile, workspace_dir)
    ticks = itertools.count(0, 1.0)  # every clock read is a second later: every piece is flushed
    engine.agent.services.clock = lambda: next(ticks)
    text = "one two three four five six"
    model_server.enqueue(slow_text_reply(text, chunk_size=4, delay_s=0.01))  # then holds the stream open
    turn = engine.agent.start_turn("s1", "count")
    streamed: list[str] = []
    async for event in turn:
        if isinstance(event, ev.TextDelta):
            streamed.append(event.text)
            if "".join(streamed) == text:
                break

    def saved() -> str | None:
        last = engine.store.messages("s1")[-1]
        return last.content if last.role == "assistant" else None

    await wait_until(lambda: saved() == text, "the streamed text to be saved")
    assert not turn.done, "the server still holds the reply open: it was saved while it streamed"
    assert engine.store.messages("s1")[-1].finish_reason is None
    turn.cancel()
    await turn.wait()
    last = engine.store.messages("s1")[-1]
    assert (last.content, last.finish_reason, last.interrupted) == (text, "interrupted", True)
    await engine.close()


async def test_audit_log_redacts_secret_arguments(profile, workspace_dir, model_server) -> None:
    spec = ToolSpec("login", "log in", {"type": "object", "properties": {"user": {"type": "string"},
                                                                          "api_key": {"type": "string"}}},
                    lambda a, c: "ok", Risk.READ)
    engine = make_engine(profile, workspace_dir, extra_tools=[spec])
    model_server.enqueue(tool_call_reply(CallScript("login", {"user": "ann", "api_key": "sk-abcdefgh12345678"})),
                         text_reply("done"))
    await engine.ask("log in")
    raw = (workspace_dir.parent / "audit.jsonl").read_text()
    assert "sk-abcdefgh12345678" not in raw and '"user": "ann"' in raw
    await engine.close()


async def test_the_apps_own_key_is_removed_from_any_tool_result(profile, workspace_dir, model_server) -> None:
    (workspace_dir / "settings.env.txt").write_text("provider key: sk-test-key (do not share)\n", encoding="utf-8")
    engine = make_engine(profile, workspace_dir, api_key="sk-test-key")
    model_server.enqueue(tool_call_reply(CallScript("read_file", {"path": "settings.env.txt"})), text_reply("ok"))
    events = await engine.ask("what is in the settings file?")
    result = of_type(events, ev.ToolCallFinished)[0].result
    assert "[redacted]" in result and "sk-test-key" not in result
    assert "sk-test-key" not in json.dumps([m.content for m in engine.store.messages("s1")])
    assert "sk-test-key" not in model_server.chat_requests[-1].body["messages"][-1]["content"]
    await engine.close()


async def test_regenerate_answers_the_head_user_message_again(engine, model_server) -> None:
    model_server.enqueue(text_reply("first try"))
    await engine.ask("question")
    user = engine.store.messages("s1")[0]
    engine.store.rewind_to("s1", user.id)
    model_server.enqueue(text_reply("second try"))
    events = await engine.agent.start_regenerate("s1").wait()
    assert of_type(events, ev.TurnStarted)[0].user_message_id == user.id
    assert [m.content for m in engine.store.messages("s1")] == ["question", "second try"]


@pytest.mark.parametrize("where", ["relative", "absolute"])
async def test_writes_outside_the_workspace_are_refused_even_when_approved(profile, workspace_dir, model_server,
                                                                           where: str) -> None:
    if where == "relative":
        path, target = "../escape.txt", workspace_dir.parent / "escape.txt"
    else:  # an absolute path in the shared /tmp, unique so that no other run's file can make this pass or fail
        target = Path(f"/tmp/hermes-escape-{uuid.uuid4().hex}.txt")
        path = str(target)
    engine = make_engine(profile, workspace_dir, approver=ScriptedApprover([Decision.ALLOW_ONCE] * 2))
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": path, "content": "x"})), text_reply("no"))
    try:
        events = await engine.ask("escape")
        finished = of_type(events, ev.ToolCallFinished)[0]
        assert finished.outcome is ev.ToolOutcome.ERROR and "outside the workspace" in finished.result
        assert not target.exists()
    finally:
        target.unlink(missing_ok=True)
        await engine.close()


# ---------------------------------------------------------------- nothing half-received runs

def data_folder(workspace: Path) -> Path:
    data = workspace / "data"
    (data / "sub").mkdir(parents=True)
    (data / "a.txt").write_text("keep me", encoding="utf-8")
    (data / "sub" / "b.txt").write_text("and me", encoding="utf-8")
    return data


def always_allowing_engine(profile, workspace_dir, approver: ScriptedApprover):
    """Trusted mode plus an "always allow" rule for delete_path: nothing would stop a whole call."""
    engine = make_engine(profile, workspace_dir, approver=approver, mode=ApprovalMode.TRUSTED)
    engine.agent.services.policy.rules[rule_key("delete_path", "builtin")] = Rule.ALWAYS_ALLOW
    return engine


@pytest.mark.parametrize("ending", ["close", "drop"])
async def test_a_delete_cut_inside_its_arguments_never_runs_even_when_always_allowed(profile, workspace_dir,
                                                                                    model_server, ending) -> None:
    data = data_folder(workspace_dir)
    approver = ScriptedApprover([Decision.ALLOW_ONCE] * 3)
    engine = always_allowing_engine(profile, workspace_dir, approver)
    model_server.enqueue(cut_tool_call_reply(CallScript("delete_path", '{"path": "data', id="call_cut"),
                                             text="Deleting the data folder.", ending=ending))
    events = await engine.ask("delete the data folder")

    assert (data / "a.txt").read_text(encoding="utf-8") == "keep me" and (data / "sub" / "b.txt").exists()
    assert approver.asked == [], "a cut call is never sent to the approval dialog"
    assert not of_type(events, ev.ToolCallStarted) and not of_type(events, ev.ToolCallDecided)
    assert not of_type(events, ev.ToolCallAwaitingApproval)
    [proposed] = of_type(events, ev.ToolCallProposed)
    assert (proposed.call_id, proposed.arguments, proposed.raw_arguments) == ("call_cut", None, '{"path": "data')
    [finished] = of_type(events, ev.ToolCallFinished)
    assert finished.outcome is ev.ToolOutcome.INTERRUPTED and "Not run" in finished.result
    [error] = of_type(events, ev.TurnError)
    assert error.kind is ev.ErrorKind.STREAM_DROPPED and error.action is ev.ErrorAction.RETRY
    assert "not run" in error.message
    assert events[-1].reason is ev.FinishReason.ERROR
    assert len(model_server.chat_requests) == 1, "nothing was sent back to the model"

    user, assistant, tool = engine.store.messages("s1")
    assert (assistant.content, assistant.interrupted, assistant.finish_reason) == (
        "Deleting the data folder.", True, "interrupted")
    assert assistant.tool_calls == [{"id": "call_cut", "type": "function",
                                     "function": {"name": "delete_path", "arguments": '{"path": "data'}}]
    assert (tool.role, tool.tool_call_id) == ("tool", "call_cut")
    assert json.loads(tool.content)["status"] == "interrupted"
    audit = [entry for entry in engine.audit.read() if entry["call_id"] == "call_cut"]
    assert [(e["outcome"], e["decision"]) for e in audit] == [("interrupted", None)]
    await engine.close()


async def test_after_a_cut_call_the_next_request_is_valid_and_retry_answers_again(profile, workspace_dir,
                                                                                 model_server) -> None:
    data = data_folder(workspace_dir)
    engine = always_allowing_engine(profile, workspace_dir, ScriptedApprover())
    model_server.enqueue(cut_tool_call_reply(CallScript("delete_path", '{"path": "data', id="call_cut")))
    await engine.ask("delete the data folder")
    # Carry on in the same branch: the cut call goes back as an answered call with whole arguments.
    model_server.enqueue(text_reply("I did not delete anything."))
    events = await engine.ask("what happened?")
    assert events[-1].reason is ev.FinishReason.COMPLETED
    sent = model_server.chat_requests[-1].messages
    [assistant] = [m for m in sent if m.get("tool_calls")]
    assert assistant["tool_calls"][0]["function"] == {"name": "delete_path", "arguments": "{}"}
    [result] = tool_messages(model_server.chat_requests[-1])
    assert result["tool_call_id"] == "call_cut" and json.loads(result["content"])["status"] == "interrupted"
    assert engine.store.messages("s1")[1].tool_calls[0]["function"]["arguments"] == '{"path": "data', \
        "the store keeps what arrived"
    # Retry (what the window's Retry does): back to the first question, answered again.
    first_question = engine.store.messages("s1")[0]
    engine.store.rewind_to("s1", first_question.id)
    model_server.enqueue(text_reply("Which files in data should go?"))
    retried = await engine.agent.start_regenerate("s1").wait()
    assert retried[-1].reason is ev.FinishReason.COMPLETED
    assert [m.content for m in engine.store.messages("s1")] == ["delete the data folder", "Which files in data should go?"]
    assert (data / "a.txt").exists()
    await engine.close()


async def test_a_mislabelled_stop_with_whole_arguments_still_runs(profile, workspace_dir, model_server) -> None:
    model_server.enqueue(tool_call_reply(CallScript("calculate", {"expression": "6*7"}), finish_reason="stop"),
                         text_reply("42"))
    events = await make_engine(profile, workspace_dir).ask("6*7?")
    assert of_type(events, ev.ToolCallFinished)[0].outcome is ev.ToolOutcome.OK
    assert events[-1].reason is ev.FinishReason.COMPLETED


async def test_an_endless_reply_stops_at_the_output_limit_and_keeps_what_arrived(profile, workspace_dir,
                                                                                model_server) -> None:
    engine = make_engine(profile, workspace_dir, limits=AgentLimits(max_reply_chars=20_000))
    model_server.enqueue(endless_text_reply("and on "))
    events = await engine.ask("tell me a story")
    finished = events[-1]
    assert finished.reason is ev.FinishReason.OUTPUT_LIMIT and "output limit of 20,000 characters" in finished.message
    shown = "".join(d.text for d in of_type(events, ev.TextDelta))
    last = engine.store.messages("s1")[-1]
    assert (last.role, last.content, last.interrupted) == ("assistant", shown, True)
    assert shown.startswith("This goes on and on") and len(shown) > 20_000
    assert await asyncio.to_thread(model_server.client_disconnected.wait, 5), "the stream was closed"
    await engine.close()


async def test_tool_arguments_that_never_end_stop_at_the_output_limit_and_do_not_run(profile, workspace_dir,
                                                                                    model_server) -> None:
    approver = ScriptedApprover([Decision.ALLOW_ONCE])
    engine = make_engine(profile, workspace_dir, approver=approver, mode=ApprovalMode.TRUSTED,
                         limits=AgentLimits(max_reply_chars=10_000))
    model_server.enqueue(endless_tool_call_reply("write_file", start='{"path": "big.txt", "content": "'))
    events = await engine.ask("write a big file")
    assert events[-1].reason is ev.FinishReason.OUTPUT_LIMIT and "tool calls were not run" in events[-1].message
    assert of_type(events, ev.ToolCallFinished)[0].outcome is ev.ToolOutcome.INTERRUPTED
    assert not (workspace_dir / "big.txt").exists() and approver.asked == []
    assert [m.role for m in engine.store.messages("s1")] == ["user", "assistant", "tool"]
    await engine.close()

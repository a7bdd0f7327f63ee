"""The failure guard hands over, as designed (issue 21, section 5).

Distinct calls in one reply are not repetitions; when the same tool fails in three replies in a row, the tools stop
and the model gets one more round without them to tell the user where things stand. The turns run through the real
openai client against the scripted model server, which records each request (the last one must carry no `tools`).
"""

from __future__ import annotations

from pathlib import Path

from hermes_desktop.core import events as ev
from hermes_desktop.core.events import ToolOutcome
from hermes_desktop.core.tool_calls import STOPPED_TOOLS_RESULT
from hermes_desktop.core.turn_guard import FailureGuard
from tests.support.engine import make_engine, of_type
from tests.support.model_server import CallScript, error_reply, text_reply, tool_call_reply

HANDOVER = "I could not read any of them: each path is outside the workspace. Which folder did you mean?"


def refused_reads(count: int, round_no: int = 0) -> list[CallScript]:
    """Reads the workspace refuses (outside it), each of a different file."""
    return [CallScript("read_file", {"path": f"../elsewhere/r{round_no}-{n}.txt"}, id=f"r{n}") for n in range(count)]


def reply_text(events: list) -> str:
    return "".join(e.text for e in of_type(events, ev.TextDelta))


async def test_eight_different_refused_reads_in_one_reply_are_one_failure_not_eight(profile, workspace_dir: Path,
                                                                                     model_server) -> None:
    engine = make_engine(profile, workspace_dir)
    model_server.enqueue(tool_call_reply(*refused_reads(8)), text_reply(HANDOVER))
    events = await engine.ask("read my eight reports")
    await engine.close()
    assert [f.outcome for f in of_type(events, ev.ToolCallFinished)] == [ToolOutcome.ERROR] * 8
    assert events[-1].reason is ev.FinishReason.COMPLETED, events[-1].message
    assert reply_text(events) == HANDOVER
    assert len(model_server.chat_requests) == 2 and model_server.chat_requests[-1].tool_names, \
        "the model was given its tools back to answer"


async def test_the_same_tool_failing_three_replies_in_a_row_hands_over_without_tools(profile, workspace_dir: Path,
                                                                                      model_server) -> None:
    engine = make_engine(profile, workspace_dir)
    model_server.enqueue(*[tool_call_reply(*refused_reads(8, r)) for r in range(3)], text_reply(HANDOVER))
    events = await engine.ask("read my reports")
    stored = engine.store.messages("s1")
    await engine.close()

    finished = events[-1]
    assert finished.reason is ev.FinishReason.REPEATED_FAILURE and finished.params == {"tool": "read_file", "count": 3}
    assert "read_file failed 3 times in a row" in finished.message
    requests = model_server.chat_requests
    assert len(requests) == 4
    assert requests[-1].tool_names == [] and "tools" not in requests[-1].body, "the hand-over round offers no tools"
    assert "Tools are stopped for the rest of this turn: read_file failed 3 times" in requests[-1].system_prompt
    assert reply_text(events).endswith(HANDOVER), "the user reads where things stand"
    assert stored[-1].role == "assistant" and stored[-1].content == HANDOVER
    assert finished.round_trips == 4


async def test_a_call_in_the_hand_over_round_is_stored_as_not_run(profile, workspace_dir: Path, model_server) -> None:
    engine = make_engine(profile, workspace_dir)
    model_server.enqueue(*[tool_call_reply(*refused_reads(1, r)) for r in range(3)],
                         tool_call_reply(CallScript("write_file", {"path": "note.txt", "content": "x"}, id="w"),
                                         text="Let me try writing instead."))
    events = await engine.ask("read my reports")
    tool_results = [m for m in engine.store.messages("s1") if m.role == "tool"]
    await engine.close()
    assert events[-1].reason is ev.FinishReason.REPEATED_FAILURE
    last = of_type(events, ev.ToolCallFinished)[-1]
    assert (last.call_id, last.outcome, last.result) == ("w", ToolOutcome.SKIPPED, STOPPED_TOOLS_RESULT)
    assert not (workspace_dir / "note.txt").exists()
    assert not of_type(events, ev.ToolCallAwaitingApproval), "nothing was asked about"
    assert tool_results[-1].tool_call_id == "w", "every call of the stored reply has its result"


async def test_when_the_hand_over_request_fails_the_guard_stop_still_ends_the_turn(profile, workspace_dir: Path,
                                                                                   model_server) -> None:
    engine = make_engine(profile, workspace_dir)
    model_server.enqueue(*[tool_call_reply(*refused_reads(1, r)) for r in range(3)],
                         *[error_reply(400, "bad request") for _ in range(3)])
    events = await engine.ask("read my reports")
    await engine.close()
    assert events[-1].reason is ev.FinishReason.REPEATED_FAILURE, events[-1]
    assert not of_type(events, ev.TurnError)


async def test_a_tool_that_succeeds_in_between_starts_counting_again(profile, workspace_dir: Path,
                                                                    model_server) -> None:
    (workspace_dir / "real.txt").write_text("here")
    engine = make_engine(profile, workspace_dir)
    model_server.enqueue(tool_call_reply(*refused_reads(2, 0)), tool_call_reply(*refused_reads(2, 1)),
                         tool_call_reply(CallScript("read_file", {"path": "real.txt"})),
                         tool_call_reply(*refused_reads(2, 3)), tool_call_reply(*refused_reads(2, 4)),
                         text_reply("done"))
    events = await engine.ask("read")
    await engine.close()
    assert events[-1].reason is ev.FinishReason.COMPLETED


def test_the_guard_counts_replies_per_tool() -> None:
    guard = FailureGuard(limit=3)
    failed, ok = ToolOutcome.ERROR, ToolOutcome.OK
    assert guard.after_reply([("read_file", failed)] * 8) is None
    assert guard.after_reply([("read_file", failed), ("list_directory", ok)]) is None, "another tool's success"
    assert guard.after_reply([("read_file", ToolOutcome.DENIED)]) is None, "a denial is not a failure"
    stop = guard.after_reply([("read_file", ToolOutcome.TIMEOUT), ("calculate", ToolOutcome.INVALID)])
    assert stop is not None and stop.params == {"tool": "read_file", "count": 3}

    mixed = FailureGuard(limit=2)
    assert mixed.after_reply([("read_file", failed), ("read_file", ok)]) is None, "it also worked in that reply"
    assert mixed.after_reply([("read_file", failed)]) is None
    assert mixed.after_reply([("read_file", failed)]) is not None

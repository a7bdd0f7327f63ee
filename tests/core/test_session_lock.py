"""One turn per session within one process too (two windows' controllers, or a regenerate while a reply streams):
the second turn waits for the first, and Stop while it waits ends it with nothing stored. The real agent, the real
openai client against the scripted server, the real store and lock files (core/session_lock.py)."""

from __future__ import annotations

import asyncio
import threading

from hermes_desktop.core import events as ev
from hermes_desktop.core.file_lock import FileLock
from hermes_desktop.core.session_lock import SessionLocks, lock_path
from tests.support.engine import make_engine, of_type
from tests.support.model_server import text_reply


async def _until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(2400):  # a guard against a hang only (2 minutes of 50 ms steps)
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


async def test_a_second_turn_in_the_same_process_waits_and_stop_while_waiting_stores_nothing(
        profile, model_server, workspace_dir, tmp_path) -> None:
    engine = make_engine(profile, workspace_dir)
    engine.agent.services.session_locks = SessionLocks(tmp_path / "locks")
    gate = threading.Event()
    held = text_reply("first answer")
    held.gate = gate
    model_server.enqueue(held, text_reply("third answer"))
    try:
        first = engine.agent.start_turn("s1", "first")
        await _until(lambda: len(model_server.chat_requests) == 1, "the first request")
        second = engine.agent.start_turn("s1", "second")
        await _until(lambda: any(isinstance(e, ev.Notice) and e.code == "session_busy_waiting" for e in second.events),
                     "the second turn waiting")
        second.cancel()
        events = await second.wait()
        assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.CANCELLED
        assert not of_type(events, ev.TurnStarted), "nothing was stored"
        third = engine.agent.start_turn("s1", "third")
        await _until(lambda: any(isinstance(e, ev.Notice) for e in third.events), "the third turn waiting")
        gate.set()
        assert of_type(await first.wait(), ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        assert of_type(await third.wait(), ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        assert [(m.role, m.content) for m in engine.store.all_messages("s1")] == [
            ("user", "first"), ("assistant", "first answer"), ("user", "third"), ("assistant", "third answer")]
        assert FileLock(lock_path(tmp_path / "locks", "s1")).try_acquire(), "released after the last turn"
    finally:
        gate.set()
        await engine.close()


async def test_turns_of_different_sessions_do_not_wait_for_each_other(profile, model_server, workspace_dir,
                                                                      tmp_path) -> None:
    engine = make_engine(profile, workspace_dir)
    engine.agent.services.session_locks = SessionLocks(tmp_path / "locks")
    gate = threading.Event()
    held = text_reply("held")
    held.gate = gate
    model_server.enqueue(held, text_reply("other session's answer"))
    try:
        first = engine.agent.start_turn("a", "first")
        await _until(lambda: len(model_server.chat_requests) == 1, "the first request")
        other = await engine.agent.start_turn("b", "other").wait()
        assert of_type(other, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        assert not [e for e in other if isinstance(e, ev.Notice) and e.code == "session_busy_waiting"]
        gate.set()
        await first.wait()
    finally:
        gate.set()
        await engine.close()


async def test_a_lock_folder_that_cannot_be_made_never_stops_a_turn(profile, model_server, workspace_dir,
                                                                    tmp_path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the lock folder belongs")
    engine = make_engine(profile, workspace_dir)
    engine.agent.services.session_locks = SessionLocks(blocked / "locks")
    model_server.enqueue(text_reply("answered anyway"))
    try:
        events = await engine.agent.start_turn("s1", "hello").wait()
        assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
        assert [m.content for m in engine.store.all_messages("s1")] == ["hello", "answered anyway"]
    finally:
        await engine.close()

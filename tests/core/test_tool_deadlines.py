"""A timeout really stops the tool, and no tool can starve the app.

Real FIFOs (os.mkfifo), a real dripping HTTP server on 127.0.0.1, real subprocesses and the
real agent against the scripted model server over HTTP. Waits are for events or conditions;
their time limits only guard against a hang.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import threading
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator, TypeVar

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.agent import DEADLINE_RESULT
from hermes_desktop.core.executors import TOOL_WORKERS, tool_executor
from hermes_desktop.core.settings import AgentLimits
from hermes_desktop.core.skills.model import Origin, Skill, SkillFormat
from hermes_desktop.core.skills.scripts import run_script
from hermes_desktop.core.tools.builtin import builtin_tools
from hermes_desktop.core.tools.network import NetworkPolicy, Transfer, fetch
from hermes_desktop.core.tools.runner import run_tool
from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolError, ToolSpec
from hermes_desktop.core.tools.workspace import Workspace
from tests.support.drip_server import DripServer
from tests.support.engine import ScriptedApprover, make_engine, of_type
from tests.support.model_server import CallScript, slow_text_reply, text_reply, tool_call_reply

T = TypeVar("T")
GUARD_S = 120.0  # only against a hang; nothing here is expected to take long
TOOLS = {t.name: t for t in builtin_tools()}


# ------------------------------------------------------------------ helpers

def in_daemon_thread(fn: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    """Run `fn` in a daemon thread (a thread that wrongly blocks for ever cannot hold up the test run)."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - inspected by the test
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, outcome


def release_fifo(path: Path) -> None:
    """Open a FIFO for writing and close it: a reader wrongly blocked in open() or read() gets EOF."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return  # no reader is waiting
    os.close(fd)


@pytest.fixture
def fifos(workspace_dir: Path) -> Iterator[list[Path]]:
    made: list[Path] = []
    for n in range(8):
        path = workspace_dir / f"pipe{n}.txt"
        os.mkfifo(path)
        made.append(path)
    yield made
    for path in made:
        release_fifo(path)


@pytest.fixture
def ctx(workspace_dir: Path) -> ToolContext:
    return ToolContext("s", Workspace(workspace_dir), NetworkPolicy(), workspace_dir / "notes")


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat after the command name (which may hold spaces and parentheses): field 3 (the state) first."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def process_start(pid: int) -> str | None:
    """When the process with `pid` started (field 22, clock ticks since boot): with the pid, it names one process."""
    fields = _stat_fields(pid)
    return fields[19] if fields else None


def process_gone(pid: int, started: str | None = None) -> bool:
    """The process no longer runs: it does not exist, it is a zombie waiting for its parent, or (given when it
    `started`) the pid now belongs to another process. Under load the kernel can hand a dead child's pid to a new
    process within the test's polling, so a pid alone can look alive after its process died."""
    fields = _stat_fields(pid)
    if fields is None:
        return True
    if started is not None and fields[19] != started:
        return True
    return fields[0] in ("Z", "X")


async def ended(work: Awaitable[T]) -> T:
    """The result of `work`, failing (not hanging) when it has not ended within the guard. Unlike
    asyncio.wait_for this does not wait for a stuck task to accept its cancellation."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=GUARD_S)
    assert task in done, "the turn did not end"
    return task.result()


async def wait_for(condition: Callable[[], bool], guard_s: float = GUARD_S) -> bool:
    """True as soon as `condition()` holds; False only when the guard runs out."""
    loop = asyncio.get_running_loop()
    end = loop.time() + guard_s
    while not condition():
        if loop.time() > end:
            return False
        await asyncio.sleep(0.02)
    return True


# ------------------------------------------------------------------ FIFOs, sockets, devices

def test_read_file_on_a_fifo_is_refused_before_opening(ctx: ToolContext, fifos: list[Path]) -> None:
    thread, outcome = in_daemon_thread(lambda: TOOLS["read_file"].handler({"path": fifos[0].name}, ctx))
    thread.join(GUARD_S)
    assert not thread.is_alive(), "read_file blocked on a FIFO"
    error = outcome.get("error")
    assert isinstance(error, ToolError) and "named pipe (FIFO)" in str(error) and "regular file" in str(error)


def test_read_note_and_search_skip_special_files(ctx: ToolContext, fifos: list[Path], workspace_dir: Path) -> None:
    notes = workspace_dir / "notes"
    notes.mkdir()
    os.mkfifo(notes / "Pipe.md")
    (workspace_dir / "real.txt").write_text("needle here\n")
    try:
        read_note = in_daemon_thread(lambda: TOOLS["read_note"].handler({"title": "Pipe"}, ctx))
        search = in_daemon_thread(lambda: TOOLS["search_files"].handler({"contains": "needle"}, ctx))
        for thread, _ in (read_note, search):
            thread.join(GUARD_S)
            assert not thread.is_alive(), "a FIFO blocked the tool"
        assert "named pipe (FIFO)" in str(read_note[1]["error"])
        assert search[1]["value"].startswith("1 match(es):\nreal.txt")
    finally:
        release_fifo(notes / "Pipe.md")


def test_sockets_and_devices_are_refused(ctx: ToolContext, workspace_dir: Path) -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(workspace_dir / "service.sock"))
    try:
        with pytest.raises(ToolError, match="a socket, not a regular file"):
            TOOLS["read_file"].handler({"path": "service.sock"}, ctx)
    finally:
        server.close()
    try:
        os.mknod(workspace_dir / "zero", stat.S_IFCHR | 0o600, os.makedev(1, 5))
    except PermissionError:
        pytest.skip("this machine does not allow creating device nodes")
    with pytest.raises(ToolError, match="a character device, not a regular file"):
        TOOLS["read_file"].handler({"path": "zero"}, ctx)


async def test_eight_fifo_reads_in_one_reply_all_end_and_the_reply_is_stored(profile, workspace_dir, model_server,
                                                                              fifos) -> None:
    engine = make_engine(profile, workspace_dir, limits=AgentLimits(max_consecutive_failures=100))
    calls = [CallScript("read_file", {"path": f.name}, id=f"read_{n}") for n, f in enumerate(fifos)]
    model_server.enqueue(tool_call_reply(*calls), text_reply("None of those are files I can read."))
    try:
        events = await ended(engine.ask("read the pipes"))
        finished = of_type(events, ev.ToolCallFinished)
        assert sorted(f.call_id for f in finished) == sorted(c.id for c in calls)
        for result in finished:
            assert result.outcome is ev.ToolOutcome.ERROR and "named pipe (FIFO)" in result.result
        assert events[-1].reason is ev.FinishReason.COMPLETED
        stored = engine.store.messages("s1")
        assert [m.role for m in stored] == ["user", "assistant"] + ["tool"] * 8 + ["assistant"]
        assert stored[-1].content == "None of those are files I can read."
    finally:
        await engine.close()


# ------------------------------------------------------------------ dripping servers

def local(policy_overrides: dict[str, Any] | None = None) -> NetworkPolicy:
    return NetworkPolicy(allowed_private_hosts=frozenset({"127.0.0.1"}), **(policy_overrides or {}))


def test_a_dripping_server_is_cut_off_by_the_rate_floor_and_the_thread_returns() -> None:
    with DripServer(interval_s=0.2) as server:
        policy = local({"rate_grace_s": 1.0, "min_bytes_per_s": 100.0})
        thread, outcome = in_daemon_thread(lambda: fetch(server.url(), policy))
        thread.join(GUARD_S)
        assert not thread.is_alive(), "the fetch thread went on reading"
        error = outcome.get("error")
        assert isinstance(error, ToolError) and "slower than the minimum of 100 bytes/s" in str(error)
        assert server.wait_until_all_closed(), "the connection was left open"


def test_the_total_deadline_stops_a_server_that_keeps_the_rate_up() -> None:
    # The rate floor is off: only the total deadline, checked before every read, can end this.
    with DripServer(interval_s=0.05, drip_headers=False) as server:
        policy = local({"total_timeout_s": 1.5, "min_bytes_per_s": 0.0})
        thread, outcome = in_daemon_thread(lambda: fetch(server.url(), policy))
        thread.join(GUARD_S)
        assert not thread.is_alive()
        page = outcome["value"]  # the body had started: what arrived is kept, marked as cut
        assert "limit of 1.5 s" in page.stopped and page.truncated and set(page.text) == {"x"}
        assert server.wait_until_all_closed()


def test_a_deadline_before_any_body_is_an_error_saying_so() -> None:
    with DripServer(interval_s=0.05) as server:  # even the status line drips
        policy = local({"total_timeout_s": 1.0, "min_bytes_per_s": 0.0})
        thread, outcome = in_daemon_thread(lambda: fetch(server.url(), policy))
        thread.join(GUARD_S)
        assert not thread.is_alive()
        assert "took longer than its limit of 1 s" in str(outcome["error"])


def test_cancel_from_another_thread_unblocks_a_read_at_once() -> None:
    # One byte an hour, no rate floor, deadlines far away: only cancel() can end it.
    with DripServer(interval_s=3600, drip_headers=False) as server:
        policy = local({"total_timeout_s": 3600.0, "timeout_s": 3600.0, "min_bytes_per_s": 0.0})
        transfer = Transfer(policy)
        thread, outcome = in_daemon_thread(lambda: fetch(server.url(), policy, transfer))
        assert server.wait_until_accepted(1)
        transfer.cancel()
        thread.join(GUARD_S)
        assert not thread.is_alive(), "cancel() did not unblock the read"
        assert "stopped" in str(outcome["error"])


def test_an_https_server_that_never_answers_the_handshake_is_given_up_on() -> None:
    # The drip server waits for an HTTP request that a TLS client never sends: the handshake gets no answer.
    with DripServer(interval_s=3600) as server:
        policy = local({"connect_timeout_s": 1.0, "timeout_s": 3600.0, "total_timeout_s": 3600.0})
        url = f"https://127.0.0.1:{server.port}/"
        thread, outcome = in_daemon_thread(lambda: fetch(url, policy))
        thread.join(GUARD_S)
        assert not thread.is_alive(), "the TLS handshake was not bounded"
        assert "did not answer in time (connect timeout 1 s" in str(outcome["error"])


async def test_the_tool_timeout_cancels_the_transfer_and_the_thread_ends(workspace_dir) -> None:
    with DripServer(interval_s=3600, drip_headers=False) as server:
        policy = local({"total_timeout_s": 3600.0, "timeout_s": 3600.0, "min_bytes_per_s": 0.0})
        ctx = ToolContext("s", Workspace(workspace_dir), policy, workspace_dir / "notes")
        spec = TOOLS["fetch_url"]
        quick = ToolSpec(spec.name, spec.description, spec.parameters, spec.handler, spec.risk, timeout_s=0.5,
                         blocking=False)
        result = await run_tool(quick, {"url": server.url()}, ctx, default_timeout_s=60, char_budget=8000)
        assert result.outcome is ev.ToolOutcome.TIMEOUT
        assert await asyncio.to_thread(server.wait_until_all_closed), "the worker thread kept the connection open"


async def test_seven_drip_fetches_in_one_reply_all_end_and_the_reply_is_stored(profile, workspace_dir,
                                                                                model_server) -> None:
    with DripServer(interval_s=0.3) as server:
        policy = local({"rate_grace_s": 1.0, "min_bytes_per_s": 50.0})
        engine = make_engine(profile, workspace_dir, network=policy, limits=AgentLimits(max_consecutive_failures=100))
        calls = [CallScript("fetch_url", {"url": server.url(f"/page{n}")}, id=f"fetch_{n}") for n in range(7)]
        model_server.enqueue(tool_call_reply(*calls), text_reply("Those servers are too slow."))
        try:
            events = await ended(engine.ask("fetch them all"))
            stored = engine.store.messages("s1")
        finally:
            await engine.close()
        finished = of_type(events, ev.ToolCallFinished)
        assert sorted(f.call_id for f in finished) == sorted(c.id for c in calls)
        for result in finished:
            assert result.outcome is ev.ToolOutcome.ERROR and "slower than the minimum" in result.result
        assert events[-1].reason is ev.FinishReason.COMPLETED
        assert [m.role for m in stored] == ["user", "assistant"] + ["tool"] * 7 + ["assistant"]
        assert stored[-1].content == "Those servers are too slow."
        assert await asyncio.to_thread(server.wait_until_all_closed)


# ------------------------------------------------------------------ subprocesses

def sh_skill(root: Path, name: str, script: str) -> Skill:
    folder = root / name
    (folder / "scripts").mkdir(parents=True)
    (folder / "scripts" / "run.sh").write_text(script, encoding="utf-8")
    return Skill(name, "test", "", folder, SkillFormat.SKILL_MD, Origin.USER, has_scripts=True)


async def test_a_script_timeout_kills_the_child_it_spawned(tmp_path: Path, ctx: ToolContext) -> None:
    pids = tmp_path / "pids"
    skill = sh_skill(tmp_path / "skills", "spawner", f"sleep 300 &\necho $$ $! > {pids}\nwait\n")
    spec = ToolSpec("spawner_run", "", {"type": "object"}, lambda a, c: run_script(skill, "run.sh", [], c),
                    Risk.DESTRUCTIVE, timeout_s=60, blocking=False)
    task = asyncio.ensure_future(run_tool(spec, {}, ctx, default_timeout_s=60, char_budget=8000))
    assert await wait_for(lambda: pids.exists() and len(pids.read_text().split()) == 2)
    script_pid, child_pid = (int(p) for p in pids.read_text().split())
    script_started, child_started = process_start(script_pid), process_start(child_pid)
    assert child_started is not None and not process_gone(child_pid, child_started)
    task.cancel()  # as Stop or the runner's timeout does
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await wait_for(lambda: process_gone(child_pid, child_started)), "the script's child outlived the call"
    assert await wait_for(lambda: process_gone(script_pid, script_started))


async def test_a_script_that_exits_leaving_a_child_on_its_pipes_returns_and_the_child_dies(tmp_path: Path,
                                                                                           ctx: ToolContext) -> None:
    pids = tmp_path / "pids"
    # The background sleep inherits stdout: without the group kill the call would wait for it (300 s).
    skill = sh_skill(tmp_path / "skills", "leaver", f"sleep 300 &\necho $! > {pids}\necho started\n")
    result = await asyncio.wait_for(run_script(skill, "run.sh", [], ctx), GUARD_S)
    assert result["exit_code"] == 0 and result["stdout"].strip() == "started"
    child_pid = int(pids.read_text())
    child_started = process_start(child_pid)  # None: already gone
    assert await wait_for(lambda: process_gone(child_pid, child_started)), "the script's child outlived the call"


# ------------------------------------------------------------------ turn deadline

@pytest.fixture
def stuck() -> Iterator[threading.Event]:
    """Blocking tools wait on this event; it is set at the end so no thread stays stuck after the test."""
    release = threading.Event()
    yield release
    release.set()
    pool = tool_executor()
    assert _wait_sync(lambda: pool.busy == 0), "stuck tool threads did not return after being released"


def _wait_sync(condition: Callable[[], bool], guard_s: float = GUARD_S) -> bool:
    done = threading.Event()
    for _ in range(int(guard_s / 0.02)):
        if condition():
            return True
        done.wait(0.02)
    return condition()


def hanging_tool(release: threading.Event, name: str = "hang", timeout_s: float = 3600.0) -> ToolSpec:
    def handler(args: dict[str, Any], ctx: ToolContext) -> str:
        release.wait()
        return "released"

    return ToolSpec(name, "Waits.", {"type": "object", "properties": {}, "additionalProperties": False}, handler,
                    Risk.READ, timeout_s=timeout_s)


async def test_the_turn_deadline_stops_a_hanging_tool_and_says_so(profile, workspace_dir, model_server, stuck) -> None:
    # The deadline is long enough for the model's first reply to arrive even on a slow machine.
    engine = make_engine(profile, workspace_dir, limits=AgentLimits(turn_deadline_s=5.0),
                         extra_tools=[hanging_tool(stuck)])
    model_server.enqueue(tool_call_reply(CallScript("hang", {}, id="call_hang"), text="Waiting for it."))
    try:
        events = await ended(engine.ask("wait for it"))
        stored = engine.store.messages("s1")
    finally:
        await engine.close()
    error = of_type(events, ev.TurnError)[0]
    assert error.kind is ev.ErrorKind.TIMEOUT and "time limit of 5 s" in error.message
    assert events[-1] == ev.TurnFinished(ev.FinishReason.ERROR, error.message, 1)
    finished = of_type(events, ev.ToolCallFinished)
    assert [(f.call_id, f.outcome) for f in finished] == [("call_hang", ev.ToolOutcome.CANCELLED)]
    assert [m.role for m in stored] == ["user", "assistant", "tool"]
    assert stored[0].content == "wait for it" and stored[1].content == "Waiting for it."
    assert stored[2].content == DEADLINE_RESULT and stored[2].tool_call_id == "call_hang"


async def test_the_turn_deadline_keeps_a_partial_reply_marked_interrupted(profile, workspace_dir, model_server) -> None:
    engine = make_engine(profile, workspace_dir, limits=AgentLimits(turn_deadline_s=5.0))
    model_server.enqueue(slow_text_reply("A reply that never ends", delay_s=0.01))
    try:
        events = await ended(engine.ask("talk"))
        reply = engine.store.messages("s1")[-1]
    finally:
        await engine.close()
    assert of_type(events, ev.TurnError)[0].kind is ev.ErrorKind.TIMEOUT
    assert reply.role == "assistant" and reply.interrupted and reply.content == "A reply that never ends"


async def test_waiting_for_the_users_approval_does_not_count_against_the_deadline(profile, workspace_dir,
                                                                                 model_server) -> None:
    class SlowApprover(ScriptedApprover):
        async def ask(self, request):  # the user takes longer than the whole deadline to decide
            await asyncio.sleep(8.0)
            return await super().ask(request)

    from hermes_desktop.core.tools.approval import Decision

    engine = make_engine(profile, workspace_dir, limits=AgentLimits(turn_deadline_s=3.0),
                         approver=SlowApprover([Decision.ALLOW_ONCE]))
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "a.txt", "content": "x"})),
                         text_reply("Written."))
    try:
        events = await ended(engine.ask("write it"))
    finally:
        await engine.close()
    assert events[-1].reason is ev.FinishReason.COMPLETED, events[-1]
    assert (workspace_dir / "a.txt").read_text() == "x"


# ------------------------------------------------------------------ executors

async def test_stuck_tools_fill_only_the_tool_executor_and_store_writes_still_land(profile, workspace_dir,
                                                                                  model_server, stuck) -> None:
    calls = TOOL_WORKERS + 2
    engine = make_engine(profile, workspace_dir, extra_tools=[hanging_tool(stuck, timeout_s=1.0)],
                         limits=AgentLimits(max_parallel_tools=calls, max_consecutive_failures=100,
                                            max_identical_calls=100))
    script = [CallScript("hang", {}, id=f"hang_{n}") for n in range(calls)]
    model_server.enqueue(tool_call_reply(*script), text_reply("All of them hung."))
    try:
        events = await ended(engine.ask("hang them all"))
        assert tool_executor().busy == TOOL_WORKERS, "every tool worker is stuck while the reply is stored"
        stored = engine.store.messages("s1")
        # A later turn still stores its messages while the tool threads are stuck.
        model_server.enqueue(text_reply("Still here."))
        later = await ended(engine.ask("are you there?"))
        stored_later = engine.store.messages("s1")
    finally:
        stuck.set()  # also when the turn did not end: its store writes may be queued behind the stuck tools
        await engine.close()
    finished = of_type(events, ev.ToolCallFinished)
    assert len(finished) == calls and all(f.outcome is ev.ToolOutcome.TIMEOUT for f in finished)
    never_started = [f for f in finished if "could not start" in f.result]
    assert len(never_started) == calls - TOOL_WORKERS
    assert "tool workers are busy" in json.loads(never_started[0].result)["error"]
    assert events[-1].reason is ev.FinishReason.COMPLETED
    assert [m.role for m in stored] == ["user", "assistant"] + ["tool"] * calls + ["assistant"]
    assert stored[-1].content == "All of them hung."
    assert later[-1].reason is ev.FinishReason.COMPLETED and stored_later[-1].content == "Still here."


async def test_a_replys_read_calls_run_at_most_max_parallel_tools_at_a_time(profile, workspace_dir,
                                                                           model_server) -> None:
    running = 0
    peak = 0
    lock = threading.Lock()
    gate = threading.Barrier(2, timeout=GUARD_S)  # two at a time must meet: proves they do run together

    def handler(args: dict[str, Any], ctx: ToolContext) -> str:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        try:
            gate.wait()
        finally:
            with lock:
                running -= 1
        return "ok"

    spec = ToolSpec("pair", "", {"type": "object", "properties": {}, "additionalProperties": False}, handler, Risk.READ,
                    timeout_s=GUARD_S)
    engine = make_engine(profile, workspace_dir, extra_tools=[spec], limits=AgentLimits(max_parallel_tools=2, max_identical_calls=100))
    model_server.enqueue(tool_call_reply(*[CallScript("pair", {}, id=f"p{n}") for n in range(6)]), text_reply("done"))
    try:
        events = await ended(engine.ask("pairs"))
    finally:
        await engine.close()
    assert all(f.outcome is ev.ToolOutcome.OK for f in of_type(events, ev.ToolCallFinished))
    assert peak == 2


EXIT_WITH_A_STUCK_THREAD = """
import asyncio, os, sys
from hermes_desktop.core.executors import run_tool_thread

async def main():
    fifo = sys.argv[1]
    try:
        async with asyncio.timeout(0.5):
            await run_tool_thread(lambda: os.open(fifo, os.O_RDONLY))  # blocks in the kernel: no writer comes
    except TimeoutError:
        print("gave up waiting", flush=True)

asyncio.run(main())
"""


def test_a_tool_thread_stuck_in_a_system_call_does_not_keep_the_process_alive(tmp_path: Path) -> None:
    import subprocess
    import sys

    fifo = tmp_path / "never-written"
    os.mkfifo(fifo)
    root = Path(__file__).resolve().parents[2]
    try:
        result = subprocess.run([sys.executable, "-c", EXIT_WITH_A_STUCK_THREAD, str(fifo)], cwd=root,
                                env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True, text=True,
                                timeout=GUARD_S)
    finally:
        release_fifo(fifo)
    assert result.returncode == 0 and result.stdout.strip() == "gave up waiting", result.stderr

"""The window: cold start, idle memory, streaming under load, and a 100,000-message session. Each measure is
printed beside a baseline measured in the same run (and as a ratio to it). Runs offscreen (QT_QPA_PLATFORM=offscreen)
so numbers do not depend on a display.

1. Cold start through the installed entry point (`hermes_desktop.app.main`, with .pyc files written by a warm-up
   run), a provider configured and 1,000 sessions in the database, against a bare PySide6 window started the same
   way (median of 7 runs each, separate processes, alternating): the first paint event (target <= 1.5x), ready
   for input, i.e. the first turn of the loop that delivers the user's keys and clicks after the paint (the bare
   window's `app.exec`, the app's qasync loop; target <= 2.0x), and the resident memory after idling 2 s once
   the engine is loaded (target <= 2.0x).
2. Streaming 20,000 tokens at full speed from the scripted server through the whole app (agent, store,
   transcript) against the raw openai client consuming the same stream on the same qasync loop (target
   <= 1.15x); and, for that stream and for 600 Markdown lines in 4-character chunks, the longest gap a 5 ms
   heartbeat sees (a stall; target one frame at 60 Hz, 16 ms; the baseline is the same heartbeat's longest gap
   in the idle window) and the 99th percentile of its gaps (target <= 17 ms), over 3 turns each.
3. Opening a 100,000-message session (Markdown, code blocks, tool calls): time until the newest messages are
   painted (target < 300 ms) and memory added (target <= 60 MB), against opening a one-page session; then the
   slowest frame while scrolling 300 wheel steps up and back (target < 50 ms).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tests.benchmarks.timing import ok, percentile, table, temporary_home

ROOT = Path(__file__).resolve().parents[2]

IDLE_S = 2.0  # how long each window idles before its resident memory is read
LONG_SESSION = 100_000
SMALL_SESSION = 60  # one page: the baseline for opening the long session

BARE = """
import time, sys
started = float(sys.argv[1])
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow, QLabel
app = QApplication([])
window = QMainWindow(); window.setCentralWidget(QLabel("bare")); window.resize(1200, 800)
def rss():
    with open("/proc/self/statm") as handle:
        print(f"rss {int(handle.read().split()[1]) * 4096 / 1e6:.1f}", flush=True)
    app.quit()
def ready():  # the first turn of the loop that delivers the user's input (app.exec), after the paint
    print(f"ready {time.time() - started:.4f}", flush=True)
    QTimer.singleShot(int(IDLE_S * 1000), rss)
class Paint(QObject):
    done = False
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not self.done:
            self.done = True
            print(f"painted {time.time() - started:.4f}", flush=True)
            QTimer.singleShot(0, ready)
        return False
f = Paint(); window.installEventFilter(f); window.show(); app.exec()
"""

# The installed entry point (`hermes-desktop` runs `hermes_desktop.app.main`), with two observers wrapped around
# `launch.run_app`, which main calls once the window has painted and the qasync loop is up: a zero timer posted
# as the loop starts marks the first turn of the loop that takes user input (as for BARE), and a task reads the
# resident memory once the engine is loaded and the window has idled IDLE_S, then closes the window (main returns).
APP = """
import time, sys
started = float(sys.argv[1])
from hermes_desktop.ui import launch
run_app = launch.run_app
async def observed(app, window, controller):
    import asyncio
    from PySide6.QtCore import QTimer
    print(f"painted {window.first_painted_at - started:.4f}", flush=True)  # when the paint event came, as for BARE
    QTimer.singleShot(0, lambda: print(f"ready {time.time() - started:.4f}", flush=True))
    async def observe():
        while window.sidebar.list.count() < 1000:
            await asyncio.sleep(0.005)
        print(f"sessions {time.time() - started:.4f}", flush=True)
        while controller.agent is None:
            await asyncio.sleep(0.005)
        print(f"engine {time.time() - started:.4f}", flush=True)
        await asyncio.sleep(IDLE_S)
        with open("/proc/self/statm") as handle:
            print(f"rss {int(handle.read().split()[1]) * 4096 / 1e6:.1f}", flush=True)
        print(f"cli {int('hermes_desktop.cli' in sys.modules)}", flush=True)
        window.close()
    watcher = asyncio.ensure_future(observe())
    await run_app(app, window, controller)
    await watcher
launch.run_app = observed
from hermes_desktop.app import main
sys.exit(main([]))
"""


def _start_times(script: str, env: dict[str, str], runs: int = 5) -> list[dict[str, float]]:
    results = []
    for _ in range(runs):
        code = f"IDLE_S = {IDLE_S!r}\n" + script
        output = subprocess.run([sys.executable, "-c", code, repr(time.time())], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=120).stdout
        values = {}
        for line in output.splitlines():
            parts = line.split()
            if parts and parts[0] in ("painted", "ready", "sessions", "engine", "rss", "cli"):
                values[parts[0]] = float(parts[1])
        results.append(values)
    return results


def _make_sessions(count: int) -> None:
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.session_types import NewMessage
    from hermes_desktop.core.store import open_store

    store = open_store(app_paths()).store
    for n in range(count):
        rows = [(1, None, NewMessage("user", f"question {n}"), None, None),
                (2, 1, NewMessage("assistant", f"answer {n}", finish_reason="stop"), None, None)]
        store.import_session(session_id=f"s{n:04d}", fields={"title": f"Session number {n}"}, messages=rows, head=None)
    store.close()


def _configure_provider(base_url: str) -> None:
    """A saved provider, as after the first-run dialog: a local server that needs no key (no keyring here)."""
    from hermes_desktop.core.paths import app_paths

    settings = app_paths().settings_file
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"version": 1, "active_profile_id": "local", "profiles": [
        {"id": "local", "name": "Local server", "base_url": base_url, "model": "scripted-model",
         "needs_api_key": False}]}), encoding="utf-8")


def bench_cold_start(env: dict[str, str], runs: int = 7) -> list[tuple[str, str, str, str]]:
    from tests.support.model_server import ScriptedModelServer

    _make_sessions(1000)
    with ScriptedModelServer() as server:
        _configure_provider(server.base_url)
        _start_times(APP, env, runs=1)  # warm the file cache and .pyc files for both
        _start_times(BARE, env, runs=1)
        # Alternating, so a burst of load on this shared machine falls on both sides rather than on one.
        bare_runs: list[dict[str, float]] = []
        app_runs: list[dict[str, float]] = []
        for _ in range(runs):
            bare_runs += _start_times(BARE, env, runs=1)
            app_runs += _start_times(APP, env, runs=1)
    app_runs = [r for r in app_runs if "rss" in r] or app_runs
    assert all(r.get("cli") == 0 for r in app_runs), "the window's start imported the command line module"

    def mid(runs_: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in runs_)

    bare, bare_ready, bare_rss = mid(bare_runs, "painted"), mid(bare_runs, "ready"), mid(bare_runs, "rss")
    painted, ready, rss = mid(app_runs, "painted"), mid(app_runs, "ready"), mid(app_runs, "rss")
    return [
        ("cold start: bare PySide6 window painted / ready for input (s)", f"{bare:.3f} / {bare_ready:.3f}", "", ""),
        ("cold start: Hermes (app.main) painted / ready for input (s)", f"{painted:.3f} / {ready:.3f}", "", ""),
        ("first paint ratio (Hermes / bare)", f"{painted / bare:.2f}", "<= 1.5", ok(painted / bare <= 1.5)),
        ("ready for input ratio (Hermes / bare)", f"{ready / bare_ready:.2f}", "<= 2.0", ok(ready / bare_ready <= 2.0)),
        ("cold start: 1,000 sessions listed / engine loaded (s)",
         f"{mid(app_runs, 'sessions'):.3f} / {mid(app_runs, 'engine'):.3f}", "", ""),
        (f"idle RSS, {IDLE_S:.0f} s after start: bare / Hermes (MB)", f"{bare_rss:.0f} / {rss:.0f}", "", ""),
        ("idle RSS ratio (Hermes / bare)", f"{rss / bare_rss:.2f}", "<= 2.0", ok(rss / bare_rss <= 2.0)),
    ]


# ---------------------------------------------------------------- streaming

def _token_reply(tokens: int):  # type: ignore[no-untyped-def]
    from tests.support.model_server import ScriptedReply, _chunk

    words = [f"word{n % 97} " if n % 40 else "\n\n" for n in range(tokens)]
    events = [_chunk({"role": "assistant", "content": ""})] + [_chunk({"content": w}) for w in words]
    events.append(_chunk({}, "stop"))
    return ScriptedReply(events=events)


async def _raw_client_time(base_url: str, server, _tokens: int) -> float:  # type: ignore[no-untyped-def]
    import openai

    client = openai.AsyncOpenAI(api_key="k", base_url=base_url, max_retries=0)
    started = time.perf_counter()
    stream = await client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}], stream=True,
                                                  tools=[{"type": "function", "function": {"name": "t", "parameters": {}}}])
    async for _chunk_ in stream:
        pass
    elapsed = time.perf_counter() - started
    await client.close()
    return elapsed


def _markdown_reply(lines: int = 600, size: int = 4):  # type: ignore[no-untyped-def]
    """The issue's scenario: a long Markdown answer (headings, lists, code, tables) in 4-character chunks."""
    from tests.support.model_server import ScriptedReply, _chunk, split_text

    out: list[str] = []
    n = 0
    while len(out) < lines:
        out += [f"## Part {n}", "", f"Some **bold** text with `code` and a [link](https://example.com/{n}).", "",
                f"- item {n}a", f"- item {n}b with *emphasis*", "", "```python", f"def f{n}(x):",
                f"    return x * {n}", "```", "", "| a | b |", "|---|---|", f"| {n} | {n * 2} |", ""]
        n += 1
    text = "\n".join(out[:lines])
    events = [_chunk({"role": "assistant", "content": ""})] + [_chunk({"content": w}) for w in split_text(text, size)]
    events.append(_chunk({}, "stop"))
    return ScriptedReply(events=events)


def _stream_through_window(env: dict[str, str], reply, min_chars: int, runs: int = 3) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """The raw client's time on qasync and plain asyncio, and the window's: total time, longest gap of a 5 ms
    heartbeat (a stall) and the 99th percentile of those gaps (frame pacing), over `runs` turns."""
    import qasync
    from PySide6.QtCore import QTimer

    from hermes_desktop.core import events as ev
    from hermes_desktop.ui import launch
    from tests.support.model_server import ScriptedModelServer, text_reply

    results: dict[str, float] = {}
    # Turns get the long stream; the short title request each new session makes gets a title.
    responder = lambda request: reply if request.tool_names else text_reply("Benchmark")  # noqa: E731
    with ScriptedModelServer(responder=responder) as server:
        run_env = {**env, "HERMES_BASE_URL": server.base_url, "HERMES_MODEL": "scripted-model"}

        results["raw_asyncio"] = statistics.median(
            asyncio.run(_raw_client_time(server.base_url, server, 0)) for _ in range(runs))

        async def scenario() -> None:
            raws = [await _raw_client_time(server.base_url, server, 0) for _ in range(runs)]
            results["raw"] = statistics.median(raws)
            app, window, controller = launch.build_window(run_env)
            window.resize(1200, 800)
            window.show()
            await controller.start()
            # What follows start-up (MCP servers loaded, the Tools tab filled) is not part of streaming: let it end.
            await asyncio.sleep(0.5)
            # The baseline: the same heartbeat in the idle window, for as long as a turn takes (the machine's
            # own jitter: timer slack, other processes on the shared cores).
            idle_gaps: list[float] = []
            mark = time.perf_counter()

            def idle_beat() -> None:
                nonlocal mark
                now = time.perf_counter()
                idle_gaps.append(now - mark)
                mark = now

            idle = QTimer()
            idle.setInterval(5)
            idle.timeout.connect(idle_beat)
            idle.start()
            await asyncio.sleep(max(1.0, results["raw"]))
            idle.stop()
            results["idle_stall"] = max(idle_gaps)
            # The GUI thread's own CPU time between two beats: the work that held the loop, without the time this
            # shared machine's other processes (or the scripted server's thread, for the GIL) took from it.
            totals, all_gaps, cpu_bursts = [], [], []
            for _ in range(runs):
                window.new_session()
                gaps: list[float] = []
                last = time.perf_counter()
                last_cpu = time.thread_time()

                def beat() -> None:
                    nonlocal last, last_cpu
                    now, cpu = time.perf_counter(), time.thread_time()
                    gaps.append(now - last)
                    cpu_bursts.append(cpu - last_cpu)
                    last, last_cpu = now, cpu

                heartbeat = QTimer()
                heartbeat.setInterval(5)
                heartbeat.timeout.connect(beat)
                done = asyncio.Event()

                def finished(_session: str, event: object) -> None:
                    if isinstance(event, ev.TurnFinished):
                        done.set()

                controller.sig_session_event.connect(finished)
                started = time.perf_counter()
                last, last_cpu = started, time.thread_time()
                heartbeat.start()
                window.send("stream please")
                await done.wait()
                while not window.chat.model.up_to_date:  # the frames that show the rest of a fast stream
                    await asyncio.sleep(0.002)
                window.chat.view.viewport().repaint()
                totals.append(time.perf_counter() - started)
                heartbeat.stop()
                all_gaps += gaps
                if os.environ.get("HERMES_BENCH_DEBUG"):
                    print("worst gaps (ms):", [round(g * 1000, 1) for g in sorted(gaps, reverse=True)[:8]])
                controller.sig_session_event.disconnect(finished)
                shown = window.chat.model.items()[-1]
                assert len(getattr(shown, "text", "")) >= min_chars, f"the whole reply reached the transcript: {shown}"
            results["app"] = statistics.median(totals)
            results["stall"] = max(all_gaps)
            results["cpu_stall"] = max(cpu_bursts)
            results["p99"] = percentile(all_gaps, 99)  # over the gaps of all runs (a short stream has few)
            results["gaps"] = len(all_gaps)
            await controller.shutdown()
            window.close()

        launch.application()
        qasync.run(scenario())
    return results


def bench_streaming(env: dict[str, str], tokens: int = 20_000) -> list[tuple[str, str, str, str]]:
    tokens_run = _stream_through_window(env, _token_reply(tokens), tokens)
    markdown_run = _stream_through_window(env, _markdown_reply(600), 600 * 8)
    ratio = tokens_run["app"] / tokens_run["raw"]
    rows = [
        (f"stream {tokens:,} tokens: raw openai client, plain asyncio (s)", f"{tokens_run['raw_asyncio']:.3f}", "", ""),
        (f"stream {tokens:,} tokens: raw openai client, on qasync (s)", f"{tokens_run['raw']:.3f}", "", ""),
        (f"stream {tokens:,} tokens: through the window (s)", f"{tokens_run['app']:.3f}", "", ""),
        ("streaming ratio (window / raw client on qasync)", f"{ratio:.2f}", "<= 1.15", ok(ratio <= 1.15)),
        ("streaming ratio (window / raw client, plain asyncio)", f"{tokens_run['app'] / tokens_run['raw_asyncio']:.2f}",
         "", ""),
    ]
    for label, run in (("20,000 tokens", tokens_run), ("600 Markdown lines, 4-char chunks", markdown_run)):
        rows += [
            (f"longest event-loop stall streaming {label} (ms; idle window's longest gap)",
             f"{run['stall'] * 1000:.1f} ({run['idle_stall'] * 1000:.1f})", "<= 16", ok(run["stall"] <= 0.016)),
            (f"  the same as a ratio to the idle window's longest gap", f"{run['stall'] / run['idle_stall']:.2f}",
             "", ""),
            ("  the GUI thread's longest CPU burst between beats (ms; load-independent)",
             f"{run['cpu_stall'] * 1000:.1f}", "<= 16", ok(run["cpu_stall"] <= 0.016)),
            (f"99th percentile of {run['gaps']:,} heartbeat gaps streaming {label} (ms)", f"{run['p99'] * 1000:.1f}",
             "<= 17",
             ok(run["p99"] <= 0.017)),
        ]
    rows.append(("600 Markdown lines: window / raw client on qasync", f"{markdown_run['app'] / markdown_run['raw']:.2f}",
                 "", ""))
    return rows


# ---------------------------------------------------------------- a 10,000-message session

def _long_session(store, session_id: str, count: int = LONG_SESSION) -> None:  # type: ignore[no-untyped-def]
    from hermes_desktop.core.session_types import NewMessage

    rows = []
    n = 0
    while len(rows) < count:
        k = len(rows)
        rows.append((k + 1, k or None, NewMessage("user", f"Question {n}: how do I sort a list in Python?"), None, None))
        k += 1
        if n % 5 == 0:
            call = [{"id": f"c{n}", "type": "function", "function": {"name": "calculate",
                                                                     "arguments": json.dumps({"expression": f"{n}*2"})}}]
            rows.append((k + 1, k, NewMessage("assistant", "", tool_calls=call, finish_reason="tool_calls"), None, None))
            rows.append((k + 2, k + 1, NewMessage("tool", json.dumps({"result": str(n * 2)}), tool_call_id=f"c{n}",
                                                  name="calculate"), None, None))
            k += 2
        body = (f"## Answer {n}\n\nUse `sorted()` for a new list or `.sort()` in place:\n\n```python\n"
                f"numbers = [3, 1, 2]\nprint(sorted(numbers))  # {n}\n```\n\n| call | result |\n|---|---|\n"
                f"| sorted | new list |\n| sort | in place |\n\n- stable\n- **O(n log n)**")
        rows.append((k + 1, k, NewMessage("assistant", body, finish_reason="stop"), None, None))
        n += 1
    rows = rows[:count]
    store.import_session(session_id=session_id, fields={"title": f"{count:,} messages"}, messages=rows, head=None)


def _rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def _write_long_sessions(env: dict[str, str]) -> None:
    """The long session and the one-page baseline, written by another process: the 100,000 rows built to write
    them would otherwise stay in this process's heap and hide what opening the session adds."""
    code = ("from hermes_desktop.core.paths import app_paths\n"
            "from hermes_desktop.core.store import open_store\n"
            "from tests.benchmarks.bench_window import _long_session\n"
            "store = open_store(app_paths()).store\n"
            f"_long_session(store, 'long', {LONG_SESSION})\n"
            f"_long_session(store, 'small', {SMALL_SESSION})\n"
            "store.close()\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=900)


def bench_long_session(env: dict[str, str]) -> list[tuple[str, str, str, str]]:
    import gc

    import qasync
    from PySide6.QtCore import QEvent, QObject, QTimer

    from hermes_desktop.ui import launch

    _write_long_sessions({**env, **{name: os.environ[name] for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME",
                                                                         "XDG_STATE_HOME")}})
    results: dict[str, float] = {}

    async def scenario() -> None:
        app, window, controller = launch.build_window(env)
        window.resize(1200, 800)
        window.show()
        await controller.start()
        await asyncio.sleep(0.5)
        view = window.chat.view

        async def open_newest(session_id: str) -> tuple[float, float]:
            """(seconds until the newest messages are painted, MB the process grew by opening it)."""
            gc.collect()
            await asyncio.sleep(0.2)
            rss_before = _rss_mb()
            painted = asyncio.get_event_loop().create_future()

            class Paint(QObject):
                def eventFilter(self, obj: QObject, event: QEvent) -> bool:
                    if event.type() == QEvent.Type.Paint and window.chat.model.rowCount() and not painted.done():
                        painted.set_result(time.perf_counter())
                    return False

            watcher = Paint()
            view.viewport().installEventFilter(watcher)
            started = time.perf_counter()
            await window.open_session(session_id, None)
            elapsed = await painted - started
            view.viewport().removeEventFilter(watcher)
            last = window.chat.model.items()[-1]
            assert "Answer" in getattr(last, "text", ""), "the newest message is on screen"
            await asyncio.sleep(0.3)  # what the paint started (the rest of the page laid out) settles
            return elapsed, _rss_mb() - rss_before

        await open_newest("small")  # the first session opened pays for first-time work (fonts, the delegate)
        window.new_session()
        results["small_open"], results["small_memory"] = await open_newest("small")
        results["open"], results["memory"] = await open_newest("long")
        # Scroll like a user with a wheel, one step per frame, 300 steps up (loading earlier pages on the way)
        # and back down; a 5 ms heartbeat measures the longest time the event loop could not run.
        bar = view.verticalScrollBar()
        last, last_cpu = time.perf_counter(), time.thread_time()
        worst = worst_cpu = 0.0

        def beat() -> None:
            nonlocal last, worst, last_cpu, worst_cpu
            now, cpu = time.perf_counter(), time.thread_time()
            worst, worst_cpu = max(worst, now - last), max(worst_cpu, cpu - last_cpu)
            last, last_cpu = now, cpu

        heartbeat = QTimer()
        heartbeat.setInterval(5)
        heartbeat.timeout.connect(beat)
        rss_before_scroll = _rss_mb()
        heartbeat.start()
        steps = 0
        for direction in (-1, 1):
            for _ in range(300):
                bar.setValue(bar.value() + direction * 240)
                await asyncio.sleep(1 / 60)
                steps += 1
        heartbeat.stop()
        results["frame"] = worst
        results["frame_cpu"] = worst_cpu
        results["frames"] = steps
        results["scroll_memory"] = _rss_mb() - rss_before_scroll
        results["rows_loaded"] = window.chat.model.rowCount()
        await controller.shutdown()
        window.close()

    launch.application()
    qasync.run(scenario())
    return [
        (f"open a {SMALL_SESSION}-message session (the baseline): newest painted (ms) / memory added (MB)",
         f"{results['small_open'] * 1000:.0f} / {results['small_memory']:.1f}", "", ""),
        (f"open a {LONG_SESSION:,}-message session: newest painted (ms)", f"{results['open'] * 1000:.0f}", "< 300",
         ok(results["open"] < 0.3)),
        ("  the same as a ratio to the baseline", f"{results['open'] / results['small_open']:.2f}", "", ""),
        (f"memory added by opening the {LONG_SESSION:,}-message session (MB; baseline's +{results['small_memory']:.1f})",
         f"{results['memory']:.1f}", "<= 60", ok(results["memory"] <= 60)),
        (f"longest stall in {results['frames']:.0f} scroll steps up and back ({results['rows_loaded']:.0f} rows "
         f"loaded; ms)", f"{results['frame'] * 1000:.1f}", "< 50", ok(results["frame"] < 0.05)),
        ("  the GUI thread's longest CPU burst between beats (ms)", f"{results['frame_cpu'] * 1000:.1f}", "< 50",
         ok(results["frame_cpu"] < 0.05)),
        ("memory added by that scrolling (MB)", f"{results['scroll_memory']:.1f}", "", ""),
    ]


def run() -> None:
    with temporary_home() as home:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
        # An installed app has its .pyc files (pip writes them): the warm-up run writes ours, as it would.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        for name in ("HERMES_BASE_URL", "HERMES_MODEL", "HERMES_API_KEY"):
            env.pop(name, None)
            os.environ.pop(name, None)
        env["HERMES_WORKSPACE"] = os.environ["HERMES_WORKSPACE"] = str(Path(home) / "ws")
        rows = bench_cold_start(env)
        rows += bench_streaming(env)
        rows += bench_long_session(env)
    print()
    table(rows)


if __name__ == "__main__":
    run()

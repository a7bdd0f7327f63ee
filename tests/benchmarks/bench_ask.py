"""`hermes-desktop ask` with a short answer against Simon Willison's `llm` CLI, same scripted server, same prompt.

`llm` is installed into its own virtual environment, tests/.bench-venv (gitignored), the first time this runs
(`python -m venv` + `pip install llm`); it is pointed at the scripted OpenAI-compatible server through an
extra-openai-models.yaml in a temporary LLM_USER_PATH. Both commands run as fresh processes, alternating, several
times; the table gives the medians of their wall times and the ratio (target <= 1.0: no slower than `llm`).
A new `ask` session also asks the model for a title and runs the memory extraction after the turn; those
requests are part of what it does, so they are part of its time.

The scripted server answers with TCP_NODELAY set, as the usual model servers do (asyncio sets it on every TCP
connection, so vLLM and llama-cpp-python under uvicorn have it; Go's net/http, under Ollama, sets it by default;
so does nginx's `tcp_nodelay`, on by default). Python's http.server does not: it writes the headers and each event separately,
so on a kept-alive connection the second write waits for the client's delayed ACK, ~40 ms. `llm` makes one
request on a fresh connection and never meets that; `ask`'s title request (the second request, on the
connection the reply used when the reply is already over) met it every time, so the benchmark measured the
test server's Nagle delay, not the command. BENCH_ASK_NAGLE=1 runs it with the stdlib's default instead.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.benchmarks.timing import ok, table, temporary_home

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / "tests" / ".bench-venv"
PROMPT = "Say hello in five words."
ANSWER = "Hello there, nice to meet."
RUNS = 7


def llm_command() -> Path:
    """The `llm` executable of tests/.bench-venv, installed there first when missing."""
    exe = VENV / "bin" / "llm"
    if not exe.exists():
        print("installing llm into tests/.bench-venv (once)…", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", "llm"], check=True)
    return exe


def _wall(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or "Hello" not in done.stdout:
        raise RuntimeError(f"{command[0]} failed ({done.returncode}): {done.stdout[-500:]} {done.stderr[-2000:]}")
    return elapsed


def _server_class() -> type:
    """ScriptedModelServer with TCP_NODELAY on its connections (module docstring), unless BENCH_ASK_NAGLE=1."""
    from tests.support.model_server import ScriptedModelServer

    if os.environ.get("BENCH_ASK_NAGLE") == "1":
        return ScriptedModelServer

    class NoDelayServer(ScriptedModelServer):
        def _handler_class(self):  # type: ignore[no-untyped-def]
            handler = super()._handler_class()
            handler.disable_nagle_algorithm = True  # socketserver.StreamRequestHandler sets TCP_NODELAY
            return handler

    return NoDelayServer


def run() -> None:
    from tests.support.model_server import text_reply

    llm = llm_command()
    with temporary_home() as home, _server_class()(responder=lambda _request: text_reply(ANSWER)) as server:
        llm_home = Path(tempfile.mkdtemp(dir=home))
        (llm_home / "extra-openai-models.yaml").write_text(
            f"- model_id: bench\n  model_name: scripted-model\n  api_base: \"{server.base_url}\"\n"
            f"  api_key_name: bench\n", encoding="utf-8")
        (llm_home / "keys.json").write_text('{"bench": "k"}', encoding="utf-8")
        # Without PYTHONDONTWRITEBYTECODE: an installed app has its .pyc files (pip writes them, as it did for
        # llm's venv); here the warm-up run writes them.
        base = {k: v for k, v in os.environ.items()
                if not k.startswith(("HERMES_", "OPENAI_")) and k != "PYTHONDONTWRITEBYTECODE"}
        llm_env = {**base, "LLM_USER_PATH": str(llm_home)}
        workspace = Path(home) / "ws"
        workspace.mkdir()
        hermes_env = {**base, "HERMES_BASE_URL": server.base_url, "HERMES_MODEL": "scripted-model",
                      "HERMES_API_KEY": "k", "HERMES_WORKSPACE": str(workspace), "PYTHONPATH": str(ROOT)}
        hermes = [sys.executable, "-m", "hermes_desktop", "ask", PROMPT]
        llm_cmd = [str(llm), "-m", "bench", "--no-log", PROMPT]
        _wall(hermes, hermes_env)  # warm the file cache and .pyc files for both
        _wall(llm_cmd, llm_env)
        ours, theirs = [], []
        for _ in range(RUNS):
            ours.append(_wall(hermes, hermes_env))
            theirs.append(_wall(llm_cmd, llm_env))
    mine, other = statistics.median(ours), statistics.median(theirs)
    table([
        (f"ask, short answer: llm CLI, median of {RUNS} (s)", f"{other:.3f}", "", ""),
        (f"ask, short answer: hermes-desktop ask, median of {RUNS} (s)", f"{mine:.3f}", "", ""),
        ("ask ratio (hermes-desktop / llm)", f"{mine / other:.2f}", "<= 1.0", ok(mine / other <= 1.0)),
        ("ask ratio spread (min..max of run pairs)",
         f"{min(a / b for a, b in zip(ours, theirs)):.2f}..{max(a / b for a, b in zip(ours, theirs)):.2f}", "", ""),
    ])


if __name__ == "__main__":
    run()

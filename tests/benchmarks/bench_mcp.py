"""MCP: what Hermes adds on top of the SDK for a tool call, and how long a server takes to come up.

Measured in one run, against the project's test server as a real stdio subprocess:
- baseline: the SDK's own `Client.call_tool("echo")` over its own stdio connection, on the same event loop;
- the same call through Hermes (the registered ToolSpec's handler: queue to the owner task, call, render);
- the ratio between the two (the supervisor's overhead per call);
- start-up: from `reload()` to "connected" (spawn, handshake, tool listing), against spawning the same
  Python with `-c pass` (the floor set by the interpreter's start).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from tests.benchmarks.timing import median, ok, percentile, table, temporary_home

ROOT = Path(__file__).resolve().parents[2]
CALLS = 300


async def _sdk_calls(n: int) -> list[float]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "tests.support.mcp_server"],
                                   env={"PYTHONPATH": str(ROOT)})
    samples = []
    async with Client(params, mode="legacy") as client:
        await client.call_tool("echo", {"text": "warm"})
        for i in range(n):
            started = time.perf_counter()
            await client.call_tool("echo", {"text": f"x{i}"})
            samples.append((time.perf_counter() - started) * 1000)
    return samples


async def _hermes(runtime) -> tuple[float, list[float]]:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    await runtime.mcp.reload()
    await runtime.mcp.wait_until_settled(60)
    startup_ms = (time.perf_counter() - started) * 1000
    handler = runtime.registry.get("mcp_bench_echo").handler
    await handler({"text": "warm"}, None)
    samples = []
    for i in range(CALLS):
        started = time.perf_counter()
        await handler({"text": f"x{i}"}, None)
        samples.append((time.perf_counter() - started) * 1000)
    await runtime.mcp.stop_all()
    return startup_ms, samples


def _interpreter_start_ms() -> float:
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        runs.append((time.perf_counter() - started) * 1000)
    return median(runs)


def run() -> None:
    with temporary_home() as home:
        runtime = open_runtime({"HERMES_WORKSPACE": str(Path(home) / "workspace")}, secrets=MemorySecretStore())
        runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {"bench": {
            "command": sys.executable, "args": ["-m", "tests.support.mcp_server"],
            "env": {"PYTHONPATH": str(ROOT)}}}}), encoding="utf-8")
        sdk = asyncio.run(_sdk_calls(CALLS))
        startup_ms, ours = asyncio.run(_hermes(runtime))
        runtime.store.close()
    floor = _interpreter_start_ms()

    print(f"\n{CALLS} echo calls to the test server over stdio; times in milliseconds\n")
    table([
        ("SDK call_tool p50 (baseline)", f"{median(sdk):.2f}", "", ""),
        ("Hermes tool call p50", f"{median(ours):.2f}", "", ""),
        ("Hermes / SDK, p50", f"{median(ours) / median(sdk):.2f}x", "< 1.5x", ok(median(ours) < 1.5 * median(sdk))),
        ("SDK call_tool p99", f"{percentile(sdk, 99):.2f}", "", ""),
        ("Hermes tool call p99", f"{percentile(ours, 99):.2f}", "", ""),
        ("python -c pass (floor)", f"{floor:.0f}", "", ""),
        ("server start to connected", f"{startup_ms:.0f}", "", ""),
    ])



if __name__ == "__main__":
    run()

"""The idle ping: a connected server is pinged without a deprecation warning (mcp 2.x marks Client.send_ping
deprecated for the 2026-07-28 protocol; `ask` printed the warning on the user's terminal), and a server that
dies while idle is noticed by the ping, not by the next call."""

from __future__ import annotations

import asyncio
import os
import signal
import warnings
from pathlib import Path

import pytest

from hermes_desktop.core.mcp import supervisor as supervisor_module
from hermes_desktop.core.mcp.status import ServerState
from tests.core.test_mcp import runtime, secrets, start, state, stdio_entry, until  # noqa: F401 - fixtures


async def test_idle_pings_warn_nothing_and_notice_a_server_that_died(runtime, tmp_path: Path,  # noqa: F811
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supervisor_module, "PING_INTERVAL_S", 0.2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        await start(runtime, {"probe": stdio_entry(tmp_path)})
        assert state(runtime, "probe") is ServerState.CONNECTED
        supervisor = runtime.mcp.supervisors["probe"]
        pid = supervisor._server_pid()
        assert pid is not None
        await asyncio.sleep(1.0)  # several pings at 0.2 s
        assert state(runtime, "probe") is ServerState.CONNECTED
        os.kill(pid, signal.SIGKILL)
        await until(lambda: state(runtime, "probe") is not ServerState.CONNECTED, "the ping notices the death")
        await runtime.mcp.stop_all()
    deprecations = [w for w in caught if "deprecat" in str(w.category.__name__).lower() or "ping" in str(w.message)]
    assert not deprecations, [str(w.message) for w in deprecations]

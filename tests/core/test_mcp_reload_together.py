"""Two reloads of mcp.json at once (the import reloads after writing the file, and the window's file watcher
reloads again when it sees the change): a `${input:…}` the servers need is asked once, not once per reload, and
each server runs once. Real stdio servers (the project's MCP test server)."""

from __future__ import annotations

import asyncio
import json

from hermes_desktop.core.mcp.config import InputSpec
from hermes_desktop.core.mcp.status import ServerState
from tests.core.test_mcp import SETTLE_S, runtime, secrets, state, stdio_entry  # noqa: F401


class SlowAsker:
    """Answers like a person: after a moment (long enough for the second reload to arrive meanwhile)."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.asked: list[tuple[list[str], InputSpec]] = []

    async def ask_input(self, servers: list[str], spec: InputSpec) -> str | None:
        self.asked.append((servers, spec))
        await asyncio.sleep(0.3)
        return self.answer


async def test_two_reloads_at_once_ask_for_an_input_once(runtime, secrets, tmp_path) -> None:  # noqa: F811
    asker = SlowAsker("team-secret-42")
    runtime.mcp.input_asker = asker
    runtime.paths.mcp_config_file.write_text(json.dumps({
        "inputs": [{"type": "promptString", "id": "team-token", "description": "Team token", "password": True}],
        "servers": {"local": {"type": "stdio", **stdio_entry(tmp_path, env={"TEAM_TOKEN": "${input:team-token}"})}},
    }), encoding="utf-8")
    await asyncio.gather(runtime.mcp.reload(), runtime.mcp.reload())
    await runtime.mcp.wait_until_settled(SETTLE_S)
    try:
        assert [(names, spec.id) for names, spec in asker.asked] == [(["local"], "team-token")], "asked once"
        assert state(runtime, "local") is ServerState.CONNECTED, runtime.mcp.supervisors["local"].status.detail
        assert secrets.get("mcp:local:input:team-token") == "team-secret-42"
        assert await runtime.registry.get("mcp_local_env_value").handler({"name": "TEAM_TOKEN"}, None) \
            == "team-secret-42"
    finally:
        await runtime.mcp.stop_all()

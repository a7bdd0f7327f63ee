"""Review of the tool call records and the private-hosts setting (attacker / unlucky user): a record never claims a
decision its call did not get, and a hand-written settings.json list neither widens fetch_url's reach nor stops the
engine. Real SQLite, the real engine against the scripted model server, the real settings file on disk."""

from __future__ import annotations

import json

import pytest

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import Settings, SettingsStore
from hermes_desktop.core.tools.approval import Decision
from hermes_desktop.core.tools.network import NetworkPolicy, check_destination, parse_private_hosts
from hermes_desktop.core.tools.spec import ToolError
from tests.support.engine import ScriptedApprover, make_engine
from tests.support.model_server import CallScript, text_reply, tool_call_reply


async def test_a_reused_call_id_does_not_inherit_an_earlier_calls_approval(profile, workspace_dir,
                                                                           model_server) -> None:
    """Some servers number calls per reply ("call_0" every time): the second call with that id was never asked
    about (its arguments are invalid), so its record must not say the user allowed it."""
    engine = make_engine(profile, workspace_dir, approver=ScriptedApprover([Decision.ALLOW_ONCE]))
    model_server.enqueue(
        tool_call_reply(CallScript("write_file", {"path": "a.txt", "content": "abc"}, id="call_0")),
        tool_call_reply(CallScript("write_file", {"nonsense": 1}, id="call_0")),
        text_reply("done"))
    try:
        await engine.ask("write a", session_id="s")
        tools = [m for m in engine.store.all_messages("s") if m.role == "tool"]
        assert len(tools) == 2
        records = engine.store.tool_records([m.id for m in tools])
        first, second = records[tools[0].id], records[tools[1].id]
        assert (first.decision, first.decided_by, first.outcome) == ("allow_once", "you", "ok")
        assert second.outcome == "invalid"
        assert (second.decision, second.decided_by) == (None, None), "never asked, never allowed"
    finally:
        await engine.close()

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


def _policy(*entries: str, resolves_to: str) -> NetworkPolicy:
    hosts, bad = parse_private_hosts(", ".join(entries))
    assert bad == []
    return NetworkPolicy(allowed_private_hosts=frozenset(hosts), resolver=lambda _host, _port: [resolves_to])


def test_an_ipv6_entry_the_field_accepts_lets_that_address_through_and_only_it() -> None:
    """Settings › Permissions takes "[::1]:11434" (and says so); it must then work, on that port only."""
    policy = _policy("[::1]:11434", resolves_to="::1")
    assert check_destination("http://[::1]:11434/api", policy).address == "::1"
    assert check_destination("http://[0:0:0:0:0:0:0:1]:11434/", policy).port == 11434, "the same address, spelt out"
    with pytest.raises(ToolError, match="refused"):
        check_destination("http://[::1]:8080/", policy)
    whole = _policy("[fd00::5]", resolves_to="fd00::5")
    assert check_destination("http://[fd00::5]:9000/", whole).port == 9000
    with pytest.raises(ToolError, match="refused"):
        check_destination("http://[::1]/", _policy("[fd00::5]", resolves_to="::1"))


def test_entries_are_stored_in_the_form_they_are_matched_in() -> None:
    hosts, bad = parse_private_hosts("nas.local:08080, ::1, [0:0::1]:11434")
    assert bad == [] and hosts == ("nas.local:8080", "[::1]", "[::1]:11434")


def _hand_written(tmp_path, monkeypatch, value) -> Settings:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    paths = app_paths()
    paths.settings_file.parent.mkdir(parents=True, exist_ok=True)
    paths.settings_file.write_text(json.dumps({"theme": "dark", "fetch_allowed_private_hosts": value}),
                                   encoding="utf-8")
    loaded = SettingsStore(paths).load()
    assert loaded.problem is None, "one odd value does not set the whole file aside"
    assert loaded.settings.theme == "dark"
    return loaded.settings


def test_a_hand_written_string_is_a_list_of_hosts_not_of_letters(tmp_path, monkeypatch) -> None:
    settings = _hand_written(tmp_path, monkeypatch, "nas.local, 0")
    assert settings.fetch_allowed_private_hosts == ("nas.local", "0")
    assert "n" not in settings.fetch_allowed_private_hosts


def test_hand_written_odd_entries_neither_stop_the_engine_nor_widen_anything(tmp_path, monkeypatch) -> None:
    from hermes_desktop.core.runtime import Runtime

    settings = _hand_written(tmp_path, monkeypatch, [1, None, " NAS.local ", "http://router/", "::1", {"a": 1}])
    assert settings.fetch_allowed_private_hosts == ("nas.local", "[::1]")
    policy = Runtime.network_policy(type("R", (), {"settings": settings})())  # what make_agent calls
    assert policy.allowed_private_hosts == frozenset({"nas.local", "[::1]"})
    assert _hand_written(tmp_path, monkeypatch, 5).fetch_allowed_private_hosts == ()


async def test_a_reopened_dry_run_card_says_dry_run_not_done(profile, workspace_dir, model_server) -> None:
    """Live, a dry-run call's card says "dry run: not run"; reopened with its record it said "done in 0.00 s ·
    denied (dry run)" (the stored result's status was not read)."""
    from hermes_desktop.ui.chat.items import ToolCardItem, items_from_messages

    engine = make_engine(profile, workspace_dir)
    engine.agent.services.dry_run = True
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "a.txt", "content": "abc"})),
                         text_reply("would write"))
    try:
        await engine.ask("write a", session_id="s")
        assert not (workspace_dir / "a.txt").exists()
        messages = engine.store.messages("s")
        records = engine.store.tool_records([m.id for m in messages if m.role == "tool"])
        assert [r.outcome for r in records.values()] == ["dry_run"]
        cards = [i for i in items_from_messages(messages, lambda _name: ("builtin", "write"), tool_records=records)
                 if isinstance(i, ToolCardItem)]
        assert [c.status for c in cards] == ["dry run"], "the live card's state (ui/chat/model.py _OUTCOME_STATUS)"
    finally:
        await engine.close()


class _AwayApprover:
    """A user who is away: the question is never answered."""

    async def ask(self, request):
        import asyncio

        await asyncio.Event().wait()


async def test_an_unanswered_approval_is_not_told_to_the_model_as_the_users_refusal(profile, workspace_dir,
                                                                                    model_server) -> None:
    """The approval timed out (the user was away): the model must not answer "You declined"."""
    engine = make_engine(profile, workspace_dir, approver=_AwayApprover())
    engine.agent.services.policy.timeout_s = 0.05
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "a.txt", "content": "abc"})),
                         text_reply("not written"))
    try:
        await engine.ask("write a", session_id="s")
        tool = next(m for m in engine.store.messages("s") if m.role == "tool")
        result = json.loads(tool.content)
        assert result["status"] == "denied", "still not performed"
        assert "declined" not in result["message"] and "did not answer" in result["message"]
        record = engine.store.tool_records([tool.id])[tool.id]
        assert record.decided_by == "timeout: no answer in time"
        assert not (workspace_dir / "a.txt").exists()
    finally:
        await engine.close()

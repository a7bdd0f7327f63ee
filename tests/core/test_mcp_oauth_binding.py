"""Issue 21 §2: an OAuth sign-in is bound to the server URL it was made for. When an mcp.json entry's URL changes
(an edit, an accepted import), the old token is never sent to the new URL; the new one needs sign-in again.

Real parts: the local authorization server protecting the test MCP server (tests/support/oauth_server.py), a
second MCP server on 127.0.0.1 recording every request's Authorization header (tests/support/mcp_header_server.py),
the app's supervisors and sign-in; the keyring is the real Secret Service under run_suite.sh."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from hermes_desktop.core.mcp.config import parse_server

from hermes_desktop.core.mcp.oauth import bound_url, oauth_username, sign_in, signed_in
from hermes_desktop.core.mcp.status import ServerState
from tests.core.test_mcp import runtime, start  # noqa: F401 - runtime: a fixture, over this module's secrets
from tests.support.keyring_session import keyring_or_memory_store
from tests.support.loopback import free_port, spawned_server
from tests.support.oauth_server import AuthState, follow_consent, running_auth_server

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def secrets() -> Iterator[Any]:
    with keyring_or_memory_store([oauth_username("remote")]) as store:
        yield store


@pytest.fixture
def auth() -> Iterator[AuthState]:
    with running_auth_server() as state:
        yield state


@pytest.fixture
def recorder(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    port, log = free_port(), tmp_path / "requests.jsonl"
    log.touch()
    with spawned_server(["-m", "tests.support.mcp_header_server", str(port), str(log)], port, REPO,
                        tmp_path / "http.log"):
        yield f"http://127.0.0.1:{port}/mcp", log


async def consent(url: str) -> None:
    await asyncio.to_thread(follow_consent, url)


def authorizations(log: Path) -> list[str | None]:
    return [json.loads(line)["authorization"] for line in log.read_text().splitlines() if line.strip()]


async def test_an_edited_url_never_gets_the_old_token_and_the_old_url_keeps_it(runtime, auth, secrets,
                                                                              recorder) -> None:
    await sign_in(parse_server("remote", {"url": f"{auth.base}/mcp"}), secrets, open_url=consent)
    token = json.loads(secrets.get(oauth_username("remote")))["tokens"]["access_token"]
    new_url, log = recorder

    await start(runtime, {"remote": {"url": new_url}})  # the entry edited to point at another server
    status = runtime.mcp.supervisors["remote"].status
    assert status.state is ServerState.CONNECTED, status  # the recorder needs no sign-in
    seen = authorizations(log)
    assert seen, "the new URL was contacted"
    assert all(token not in (value or "") for value in seen), "the old token reached the new URL"
    assert all(value is None for value in seen)
    assert status.sign_in == "signed_out", "a sign-in made for another URL is not shown as signed in"
    assert not signed_in(secrets, "remote", new_url) and signed_in(secrets, "remote", f"{auth.base}/mcp")

    await start(runtime, {"remote": {"url": f"{auth.base}/mcp"}})  # edited back: its own sign-in still holds
    status = runtime.mcp.supervisors["remote"].status
    assert status.state is ServerState.CONNECTED and status.sign_in == "signed_in", status
    await runtime.mcp.stop_all()


async def test_a_sign_in_stored_without_its_url_is_not_sent_and_sign_in_is_asked_again(runtime, auth,
                                                                                      secrets) -> None:
    await sign_in(parse_server("remote", {"url": f"{auth.base}/mcp"}), secrets, open_url=consent)
    record = json.loads(secrets.get(oauth_username("remote")))
    token = record["tokens"]["access_token"]
    del record["url"]  # as written before sign-ins were bound to their URL
    secrets.set(oauth_username("remote"), json.dumps(record))
    before = len(auth.mcp_statuses)

    await start(runtime, {"remote": {"url": f"{auth.base}/mcp"}})
    status = runtime.mcp.supervisors["remote"].status
    assert status.state is ServerState.NEEDS_SIGN_IN, status
    assert auth.mcp_statuses[before:] and set(auth.mcp_statuses[before:]) == {401}, "sent without the token"
    assert token in auth.access  # still valid at the server: it was withheld by the app, not refused
    await runtime.mcp.stop_all()

    await sign_in(parse_server("remote", {"url": f"{auth.base}/mcp"}), secrets, open_url=consent)
    assert json.loads(secrets.get(oauth_username("remote")))["url"] == bound_url(f"{auth.base}/mcp")


async def test_a_server_moved_to_another_host_under_the_same_name_gets_no_refresh_token_either(
        auth, secrets, recorder) -> None:
    """An expired token would be refreshed before it is sent: the refresh goes to the authorization server the
    old URL named, never to anything the new URL names."""
    await sign_in(parse_server("remote", {"url": f"{auth.base}/mcp"}), secrets, open_url=consent)
    record = json.loads(secrets.get(oauth_username("remote")))
    record["expires_at"] = 0
    secrets.set(oauth_username("remote"), json.dumps(record))
    from hermes_desktop.core.mcp.oauth import background_provider

    provider = await background_provider(parse_server("remote", {"url": recorder[0]}), secrets)
    assert await provider.context.storage.get_tokens() is None
    assert await provider.context.storage.get_client_info() is None, "not even the registration is reused"
    assert provider.context.storage.stale
    assert auth.grants == ["authorization_code"]


def test_bound_url_ignores_spelling_only() -> None:
    assert bound_url("HTTPS://MCP.Example.com:443/mcp#x") == bound_url("https://mcp.example.com/mcp")
    assert bound_url("https://mcp.example.com/mcp") != bound_url("https://mcp.example.com.evil.test/mcp")
    assert bound_url("https://mcp.example.com/mcp") != bound_url("https://mcp.example.com/other")
    assert bound_url("http://127.0.0.1:8000/mcp") != bound_url("http://127.0.0.1:8001/mcp")

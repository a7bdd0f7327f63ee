"""Issue 21 §2: OAuth discovery goes through fetch_url's address classification. A server whose protected resource
metadata names an authorization server on a private, loopback or link-local address (the cloud metadata service,
a router, another service on this machine) gets no request sent there; the sign-in says which address and why;
https is required except on loopback.

Real parts: the local authorization server protecting the test MCP server (tests/support/oauth_server.py), made
hostile through its metadata; the app's sign-in. The unit cases at the end give `check_oauth_url` a resolver
answering as a public DNS name would (no real public name resolves here)."""

from __future__ import annotations

import asyncio
from typing import Iterator

import pytest

from hermes_desktop.core.mcp.config import parse_server
from hermes_desktop.core.mcp.oauth import SignInError, sign_in
from hermes_desktop.core.mcp.oauth_network import check_oauth_url
from hermes_desktop.core.tools.network import NetworkPolicy
from tests.support.keyring_session import PersistentMemoryStore
from tests.support.oauth_server import AuthState, follow_consent, running_auth_server


@pytest.fixture
def auth() -> Iterator[AuthState]:
    with running_auth_server() as state:
        yield state


async def consent(url: str) -> None:
    await asyncio.to_thread(follow_consent, url)


@pytest.mark.parametrize("hostile, reason", [
    ("https://169.254.169.254/latest", "link-local"),
    ("http://169.254.169.254/latest", "not https"),
    ("https://10.20.30.40/", "private network"),
    ("https://[::ffff:192.168.1.1]/", "private network"),
])
async def test_an_authorization_server_on_a_private_address_is_never_contacted(auth, hostile, reason) -> None:
    auth.prm_overrides = {"authorization_servers": [hostile]}
    opened: list[str] = []
    with pytest.raises(SignInError) as refused:
        await sign_in(parse_server("remote", {"url": f"{auth.base}/mcp"}), PersistentMemoryStore(),
                      open_url=lambda url: opened.append(url), timeout_s=10)
    assert reason in str(refused.value), refused.value
    assert opened == [], "no consent page"
    assert not auth.clients and not auth.grants


async def test_this_machine_under_another_name_is_loopback_and_refused(auth) -> None:
    """The MCP server is 127.0.0.1; its metadata names `localhost`: another service on this machine, as far as the
    rule knows (only the MCP server's own host is trusted), so not even the metadata is fetched from it."""
    port = auth.base.rsplit(":", 1)[1]
    auth.prm_overrides = {"authorization_servers": [f"http://localhost:{port}"]}
    with pytest.raises(SignInError) as refused:
        await sign_in(parse_server("remote", {"url": f"{auth.base}/mcp"}), PersistentMemoryStore(),
                      open_url=lambda url: None, timeout_s=10)
    assert "loopback" in str(refused.value)
    assert not any(line.startswith("localhost") for line in auth.oauth_requests), auth.oauth_requests
    assert any("/.well-known/oauth-protected-resource" in line for line in auth.oauth_requests), "discovery ran"


async def test_the_mcp_servers_own_host_is_trusted_and_sign_in_works(auth) -> None:
    result = await sign_in(parse_server("remote", {"url": f"{auth.base}/mcp"}), PersistentMemoryStore(),
                           open_url=consent, timeout_s=10)
    assert result.challenged and result.tools > 0


async def test_check_oauth_url_classifies_like_fetch_url() -> None:
    private = NetworkPolicy(resolver=lambda host, port: ["10.0.0.5"])
    public = NetworkPolicy(resolver=lambda host, port: ["93.184.216.34"])
    server = "https://mcp.example.com/mcp"
    await check_oauth_url("https://auth.example.com/token", server, public)
    with pytest.raises(SignInError, match="private network"):
        await check_oauth_url("https://auth.example.com/token", server, private)
    with pytest.raises(SignInError, match="not https"):
        await check_oauth_url("http://auth.example.com/token", server, public)
    with pytest.raises(SignInError, match="not https"):
        await check_oauth_url("http://mcp.example.com/.well-known/oauth-authorization-server", server, public)
    allowed = NetworkPolicy(allowed_private_hosts=frozenset({"auth.corp.test"}),
                            resolver=lambda host, port: ["10.0.0.5"])
    await check_oauth_url("https://auth.corp.test/token", server, allowed)  # the user allowed it
    await check_oauth_url("http://127.0.0.1:9/token", "http://127.0.0.1:8/mcp", private)  # its own host
    with pytest.raises(SignInError, match="not https"):
        await check_oauth_url("ftp://auth.example.com/", server, public)

"""OAuth requests of an MCP sign-in connect to the address their check approved (issue 21 §2, core/mcp/oauth_pins.py):
a name that resolves one way for the check and another for the connection (DNS rebinding) cannot move the connection.

The rebinding is played by the system resolver: for `localhost` it answers 127.0.0.2 (where nothing listens),
while the check's resolver (the app's NetworkPolicy) answers 127.0.0.1, where the real test authorization server is.
A connection that resolved the name again would go to 127.0.0.2 and fail; a pinned one reaches the server. Real
parts: the local authorization server protecting the test MCP server (tests/support/oauth_server.py), the app's
sign-in and its httpx client."""

from __future__ import annotations

import asyncio
import socket
from typing import Iterator

import pytest

from hermes_desktop.core.mcp import oauth_network
from hermes_desktop.core.mcp.config import parse_server
from hermes_desktop.core.mcp.oauth import sign_in
from hermes_desktop.core.mcp.oauth_pins import forget_pins, pin, pinned_transport
from hermes_desktop.core.tools.network import NetworkPolicy
from tests.support.keyring_session import PersistentMemoryStore
from tests.support.oauth_server import AuthState, follow_consent, running_auth_server

REBOUND = "localhost"  # plain http is allowed only to loopback names, and sign-in accepts exactly these


@pytest.fixture
def rebinding_dns(monkeypatch) -> list[str]:
    """The system resolver answers 127.0.0.2 for REBOUND (what a rebinding name answers the second time)."""
    asked: list[str] = []
    real = socket.getaddrinfo

    def lookup(host, port, *args, **kwargs):
        if isinstance(host, (str, bytes)) and (host.decode() if isinstance(host, bytes) else host) == REBOUND:
            asked.append(REBOUND)
            return real("127.0.0.2", port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    forget_pins()
    yield asked
    forget_pins()


@pytest.fixture
def auth() -> Iterator[AuthState]:
    with running_auth_server() as state:
        yield state


async def test_a_pinned_connection_goes_to_the_checked_address_not_a_second_lookup(auth, rebinding_dns) -> None:
    import httpx2

    port = int(auth.base.rsplit(":", 1)[1])
    url = f"http://{REBOUND}:{port}/.well-known/oauth-protected-resource"
    async with httpx2.AsyncClient(transport=pinned_transport()) as http:
        with pytest.raises(httpx2.ConnectError):  # the premise: by name, the connection goes to the rebound address
            await http.get(url)
        pin(REBOUND, port, "127.0.0.1")
        answer = await http.get(url)
    assert answer.status_code == 200 and "authorization_servers" in answer.json()


async def test_a_sign_in_whose_authorization_server_name_rebinds_still_reaches_the_checked_address(
        auth, rebinding_dns) -> None:
    port = int(auth.base.rsplit(":", 1)[1])
    named = f"http://{REBOUND}:{port}"
    auth.prm_overrides = {"authorization_servers": [named]}
    auth.metadata_overrides = {"issuer": named, "token_endpoint": f"{named}/token",
                               "registration_endpoint": f"{named}/register"}
    checked = NetworkPolicy(allowed_private_hosts=frozenset({REBOUND}), resolver=lambda host, port: ["127.0.0.1"])
    oauth_network.configure(lambda: checked)
    try:
        result = await sign_in(parse_server("remote", {"url": f"{auth.base}/mcp"}), PersistentMemoryStore(),
                               open_url=lambda url: asyncio.to_thread(follow_consent, url), timeout_s=10)
    finally:
        oauth_network.configure(NetworkPolicy)
    assert result.challenged and result.tools > 0
    assert auth.clients and auth.grants, "registration and the token request reached the checked address"

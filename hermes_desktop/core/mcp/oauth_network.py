"""Where OAuth may go: every request of an MCP server's sign-in passes fetch_url's address check.

OAuth discovery follows addresses a server hands out: `WWW-Authenticate: resource_metadata=…`, the protected
resource metadata's `authorization_servers`, the authorization server's metadata endpoints (token, registration,
JWKS...). A hostile or compromised MCP server could point them at the cloud metadata service (169.254.169.254),
a router's admin page or anything on the user's network, and Hermes would send requests there (some with the
client's credentials). So each request the OAuth flow makes, other than the MCP request itself, is checked first:

- https, except on this machine (loopback: 127.0.0.0/8, ::1, localhost), where there is no wire to read;
- the host's addresses are classified as fetch_url classifies them (core/tools/network.py, `check_destination`:
  private, loopback, link-local, site-local, IPv4 carried inside IPv6...) and refused unless the user allowed that
  host (Settings › Permissions, `fetch_allowed_private_hosts`), or it is the MCP server's own host: the user chose
  to talk to that host when they configured the server (a server on 127.0.0.1 or the LAN with its authorization
  server beside it keeps working).

A refused request is never sent; the sign-in ends with `SignInError` naming the address and why. The address the
check approved is pinned (core/mcp/oauth_pins.py): the MCP HTTP client connects to it instead of resolving the name
again, so a rebinding name cannot swap in another address between the check and the connection.

`guard(provider, server_url)` wraps a provider's httpx auth flow (the SDK's providers and Hermes' own alike);
`configure(policy)` is called by the runtime so the user's allowed hosts apply.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any, AsyncGenerator, Callable
from urllib.parse import urlsplit

from hermes_desktop.core.tools.network import NetworkPolicy, check_destination
from hermes_desktop.core.tools.spec import ToolError

_policy: Callable[[], NetworkPolicy] = NetworkPolicy


def configure(policy: Callable[[], NetworkPolicy]) -> None:
    """The network policy (allowed private hosts) OAuth requests are checked against from now on."""
    global _policy
    _policy = policy


def is_loopback_host(host: str) -> bool:
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


async def check_oauth_url(url: str, server_url: str, policy: NetworkPolicy | None = None) -> None:
    """Raise SignInError when an OAuth request to `url` (for the MCP server at `server_url`) must not be sent."""
    from hermes_desktop.core.mcp.oauth import SignInError
    from hermes_desktop.core.redact import redact_url

    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    shown = redact_url(f"{parts.scheme}://{parts.netloc}{parts.path}")
    if parts.scheme.lower() != "https" and not (parts.scheme.lower() == "http" and is_loopback_host(host)):
        raise SignInError(f"the sign-in wanted to reach {shown}, which is not https; Hermes signs in over https "
                          "only (plain http just on this computer)")
    if host and host == (urlsplit(server_url).hostname or "").lower():
        return  # the MCP server's own host: the user chose it
    try:
        destination = await asyncio.to_thread(check_destination, url, policy or _policy())
    except ToolError as exc:
        reason = str(exc).removeprefix("refused: ")
        raise SignInError(f"the sign-in wanted to reach {shown}; refused: {reason}") from None
    from hermes_desktop.core.mcp.oauth_pins import pin

    pin(destination.host, destination.port, destination.address)  # the connection goes where the check looked


def guard(provider: Any, server_url: str) -> Any:
    """`provider` with every OAuth request of its flow checked before it is sent (the MCP request is not)."""
    inner = provider.async_auth_flow

    async def guarded(request: Any) -> AsyncGenerator[Any, Any]:
        flow = inner(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                if str(outgoing.url) != str(request.url):
                    await check_oauth_url(str(outgoing.url), server_url)
                response = yield outgoing
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()

    provider.async_auth_flow = guarded
    return provider

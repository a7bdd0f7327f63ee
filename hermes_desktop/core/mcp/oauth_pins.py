"""OAuth requests connect to the address their check approved (DNS pinning for an MCP server's sign-in).

`oauth_network.check_oauth_url` classifies the address an OAuth endpoint's name resolves to (fetch_url's rules)
before each request of a sign-in is sent. Without more, httpx then connects by name and resolves it again, so a
hostile MCP server could hand out a name that answers the check with a public address and the connection with a
private one (DNS rebinding: the router's admin page, the cloud metadata service). So the check records what it
approved (`pin`), and the MCP HTTP clients connect through `PinnedBackend`: a connection to a pinned (host, port)
goes to the approved address, never to a second lookup. TLS is still negotiated and verified by the host name
(httpcore starts TLS with the origin's name as SNI and for the certificate check), so a pinned address cannot
present another site's certificate. The MCP server's own host is not checked (the user chose it) and not pinned.

Each OAuth request is checked, so each refreshes its pin: a name whose addresses change between requests gets the
newest checked one. Pins live for the process; a host is only ever pinned to an address the rules allowed.

Where the environment names a proxy (HTTPS_PROXY, ALL_PROXY), the proxy resolves names and the pin cannot apply:
the MCP client is then made with httpx's own transport, as before (the check still runs). The one private attribute touched is httpcore's connection pool's `_network_backend`, wrapped in place so
every other setting of httpx's transport (TLS context, limits, HTTP/2) stays its own; if it is ever missing, pinning
is skipped with a warning and tests/core/test_mcp_oauth_pinning.py fails.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Iterable

log = logging.getLogger(__name__)

_lock = threading.Lock()
_pins: dict[tuple[str, int], str] = {}


def pin(host: str, port: int, address: str) -> None:
    """Connections to `host:port` go to `address` (the one the check approved) from now on."""
    with _lock:
        _pins[(host.strip("[]").lower(), int(port))] = address


def pinned(host: str, port: int) -> str | None:
    with _lock:
        return _pins.get((host.strip("[]").lower(), int(port)))


def forget_pins() -> None:
    """Drop every pin (tests)."""
    with _lock:
        _pins.clear()


def _backend_class() -> type:
    import httpcore2

    class PinnedBackend(httpcore2.AsyncNetworkBackend):  # type: ignore[misc]
        """The pool's own backend, connecting a pinned (host, port) to its checked address."""

        def __init__(self, inner: Any) -> None:
            self._inner = inner

        async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                              local_address: str | None = None,
                              socket_options: Iterable[Any] | None = None) -> Any:
            address = pinned(host, port)
            if address is not None and address != host:
                log.debug("OAuth connection to %s:%s pinned to its checked address %s", host, port, address)
            return await self._inner.connect_tcp(address or host, port, timeout=timeout,
                                                 local_address=local_address, socket_options=socket_options)

        async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                      socket_options: Iterable[Any] | None = None) -> Any:
            return await self._inner.connect_unix_socket(path, timeout=timeout, socket_options=socket_options)

        async def sleep(self, seconds: float) -> None:
            await self._inner.sleep(seconds)

    return PinnedBackend


def environment_proxies() -> bool:
    """Whether the environment names a proxy (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY). Then httpx's own transport is
    kept for every request of the client: a custom transport would make httpx ignore those proxies, and the OAuth
    endpoints (other hosts than the MCP server, maybe not in NO_PROXY) must still go through them."""
    import urllib.request

    proxies = urllib.request.getproxies()
    return any(proxies.get(scheme) for scheme in ("http", "https", "all"))


def pinned_transport(**kwargs: Any) -> Any:
    """An httpx transport whose connections honour the pins, or None when this httpx cannot take one."""
    import httpx2

    transport = httpx2.AsyncHTTPTransport(**kwargs)
    pool = getattr(transport, "_pool", None)
    inner = getattr(pool, "_network_backend", None)
    if inner is None:
        log.warning("httpx's transport has no network backend to pin: OAuth connections resolve names again")
        return None
    pool._network_backend = _backend_class()(inner)
    return transport

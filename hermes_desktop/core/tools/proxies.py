"""fetch_url through the proxy the environment names (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), as the chat's
HTTP client does, without giving up the address check or the pinning.

The destination is checked first, exactly as without a proxy (core/tools/network.py): its name is resolved
here and every address must be public (or the host allowed). A refused destination never reaches the proxy.
Then the proxy is asked for the CHECKED ADDRESS, not the name, so a proxy's own DNS cannot send the request
elsewhere (DNS rebinding one hop further):
- https: `CONNECT 93.184.216.34:443`, then TLS inside the tunnel with the name for SNI and the certificate
  check, so the certificate must still be the site's;
- http: `GET http://93.184.216.34/path` with `Host: example.com`. A proxy may put the address in the Host it
  sends on (RFC 9112 says it takes the request line's), so a plain-http site that serves several names from
  one address may answer with its default site; https is not affected.
When the name cannot be resolved here (networks where only the proxy reaches DNS), the fetch is refused with
that reason rather than sent unchecked: fail closed.

Only `http://` proxies are spoken (with Basic credentials from the proxy URL); a socks or https proxy URL is
refused with a clear error. `NO_PROXY` is honoured through urllib's own reading of the environment
(`proxy_bypass_environment`), which also reads the lower-case names.
"""

from __future__ import annotations

import base64
import http.client
import urllib.request
from dataclasses import dataclass
from typing import Mapping
from urllib.parse import unquote, urlsplit

from hermes_desktop.core.tools.spec import ToolError


@dataclass(frozen=True, slots=True)
class Proxy:
    host: str
    port: int
    authorization: str | None = None  # the Proxy-Authorization header's value, when the URL carries credentials

    def headers(self) -> dict[str, str]:
        return {"Proxy-Authorization": self.authorization} if self.authorization else {}


def proxy_for(scheme: str, host: str, environ: Mapping[str, str] | None = None) -> Proxy | None:
    """The proxy the environment names for this scheme and host, or None (none set, or NO_PROXY covers the host)."""
    proxies = _environment_proxies(environ)
    url = proxies.get(scheme)
    if not url or urllib.request.proxy_bypass_environment(host, proxies):
        return None
    return parse_proxy(url)


def _environment_proxies(environ: Mapping[str, str] | None) -> dict[str, str]:
    if environ is None:
        return urllib.request.getproxies_environment()
    # The same reading as urllib's, of the mapping given (tests), lower-case names winning over upper-case ones.
    found: dict[str, str] = {}
    for name, value in environ.items():
        if value and name.lower().endswith("_proxy") and name.isupper():
            found[name[:-6].lower()] = value
    for name, value in environ.items():
        if value and name.lower().endswith("_proxy") and name.islower():
            found[name[:-6]] = value
    return found


def parse_proxy(url: str) -> Proxy:
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme.lower() != "http":
        raise ToolError(f"refused: the proxy {parts.scheme}://{parts.hostname or ''} is not an http:// proxy, "
                        "and fetch_url speaks only to http:// proxies")
    if not parts.hostname:
        raise ToolError("refused: the proxy setting names no host")
    try:
        port = parts.port or 8080
    except ValueError as exc:
        raise ToolError("refused: the proxy setting has a bad port") from exc
    authorization = None
    if parts.username:
        pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode("utf-8")
        authorization = "Basic " + base64.b64encode(pair).decode("ascii")
    return Proxy(parts.hostname, port, authorization)


def authority(address: str, port: int) -> str:
    """`address:port` as a request line carries it: an IPv6 address in brackets."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def open_tunnel(sock: object, address: str, port: int, proxy: Proxy) -> None:
    """Ask the proxy, over its socket, for a tunnel to the checked address; raise ToolError when it refuses."""
    target = authority(address, port)
    lines = [f"CONNECT {target} HTTP/1.1", f"Host: {target}"]
    lines += [f"{name}: {value}" for name, value in proxy.headers().items()]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("ascii"))  # type: ignore[attr-defined]
    response = http.client.HTTPResponse(sock, method="CONNECT")  # type: ignore[arg-type]
    response.begin()
    if response.status != 200:
        raise ToolError(f"the proxy {proxy.host}:{proxy.port} refused the tunnel to {target}: "
                        f"{response.status} {response.reason}")

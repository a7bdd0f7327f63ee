"""fetch_url's guard and transport: public http(s) only, checked after DNS, pinned to the checked address.

Server-side request forgery is the risk: a page (or a prompt injection) asks the
model to fetch http://169.254.169.254/ or a router's admin page. So every hop
(the first URL and each redirect) is resolved, every resolved address must be
globally routable unless the user allowed that host, and the connection goes to
the address we checked (no second lookup an attacker's DNS could answer
differently).
"""

from __future__ import annotations

import codecs
import http.client
import ipaddress
import re
import socket
import ssl
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Callable
from urllib.parse import urljoin, urlsplit

from hermes_desktop.core.tools.spec import ToolError

Resolver = Callable[[str, int], list[str]]

_TEXT_TYPES = ("text/", "application/json", "application/xml", "application/xhtml", "application/rss",
               "application/atom", "application/javascript", "application/ld+json")


def system_resolver(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ToolError(f"could not resolve {host}: {exc.strerror or exc}") from exc
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True, slots=True)
class NetworkPolicy:
    # Hosts ("name" or "name:port") the user allowed even though they resolve to private addresses.
    allowed_private_hosts: frozenset[str] = frozenset()
    max_bytes: int = 2_000_000
    timeout_s: float = 15.0
    max_redirects: int = 5
    resolver: Resolver = field(default=system_resolver, compare=False)


@dataclass(frozen=True, slots=True)
class Destination:
    scheme: str
    host: str
    port: int
    address: str
    target: str  # path + query


def check_destination(url: str, policy: NetworkPolicy) -> Destination:
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ToolError(f"refused: only http and https URLs can be fetched, not {scheme or 'a URL without a scheme'}")
    host = (parts.hostname or "").strip()
    if not host:
        raise ToolError(f"refused: {url!r} has no host")
    if parts.username or parts.password:
        raise ToolError("refused: URLs with embedded credentials are not fetched")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as exc:
        raise ToolError(f"refused: bad port in {url!r}") from exc
    addresses = policy.resolver(host, port)
    if not addresses:
        raise ToolError(f"could not resolve {host}")
    allowed = host.lower() in policy.allowed_private_hosts or f"{host.lower()}:{port}" in policy.allowed_private_hosts
    if not allowed:
        for address in addresses:
            reason = _non_public_reason(address)
            if reason:
                raise ToolError(
                    f"refused: {host} resolves to {address}, {reason}. Fetching private, loopback and link-local "
                    "addresses is blocked unless you allow that host in settings."
                )
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Destination(scheme, host, port, addresses[0], target)


def _non_public_reason(address: str) -> str | None:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_unspecified or ip.is_multicast:
        return "not a public address"
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_private:
        return "a private network address"
    if ip.is_reserved or not ip.is_global:
        return "not a public address"
    return None


@dataclass(frozen=True, slots=True)
class FetchedPage:
    url: str
    status: int
    content_type: str
    text: str
    title: str
    truncated: bool


def fetch(url: str, policy: NetworkPolicy) -> FetchedPage:
    """Blocking: run in a worker thread."""
    current = url
    for _ in range(policy.max_redirects + 1):
        destination = check_destination(current, policy)
        connection = _connect(destination, policy.timeout_s)
        try:
            connection.request("GET", destination.target, headers={
                "User-Agent": "HermesDesktop/0.1 (+fetch_url)",
                "Accept": "text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.5",
                "Accept-Encoding": "identity",
            })
            response = connection.getresponse()
            if response.status in (301, 302, 303, 307, 308) and response.getheader("Location"):
                current = urljoin(current, response.getheader("Location", ""))
                continue
            content_type = response.getheader("Content-Type", "") or ""
            body = response.read(policy.max_bytes + 1)
        except (OSError, http.client.HTTPException) as exc:
            raise ToolError(f"fetching {current} failed: {exc}") from exc
        finally:
            connection.close()
        truncated = len(body) > policy.max_bytes
        body = body[: policy.max_bytes]
        mime = content_type.split(";", 1)[0].strip().lower()
        if mime and not mime.startswith(_TEXT_TYPES):
            raise ToolError(f"{current} is {mime}, not text; fetch_url only reads text and web pages")
        decoded = body.decode(_charset(content_type, body), errors="replace")
        if "html" in mime or (not mime and "<html" in decoded[:1000].lower()):
            title, text = html_to_text(decoded)
        else:
            title, text = "", decoded
        return FetchedPage(current, response.status, mime, text, title, truncated)
    raise ToolError(f"too many redirects (more than {policy.max_redirects}) starting at {url}")


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, destination: Destination, timeout: float) -> None:
        super().__init__(destination.host, destination.port, timeout=timeout)
        self._address = destination.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, destination: Destination, timeout: float) -> None:
        super().__init__(destination.host, destination.port, timeout=timeout, context=ssl.create_default_context())
        self._address = destination.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def _connect(destination: Destination, timeout: float) -> http.client.HTTPConnection:
    if destination.scheme == "https":
        return _PinnedHTTPSConnection(destination, timeout)
    return _PinnedHTTPConnection(destination, timeout)


def _charset(content_type: str, body: bytes) -> str:
    match = re.search(r"charset=([\w\-]+)", content_type, re.I) or re.search(
        rb"<meta[^>]+charset=[\"']?([\w\-]+)", body[:4096], re.I
    )
    if match:
        name = match.group(1)
        name = name.decode("ascii", "ignore") if isinstance(name, bytes) else name
        try:
            return codecs.lookup(name).name
        except LookupError:
            pass
    return "utf-8"


_BLOCK_TAGS = {"p", "div", "br", "li", "ul", "ol", "tr", "table", "section", "article", "header", "footer",
               "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "hr", "nav", "main", "aside", "dd", "dt"}
_SKIP_TAGS = {"script", "style", "noscript", "svg", "template", "iframe", "head"}


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title_parts: list[str] = []
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        elif tag in _SKIP_TAGS:
            self._skip += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")
            if tag == "li":
                self.parts.append("- ")
            elif tag in ("h1", "h2", "h3"):
                self.parts.append("#" * int(tag[1]) + " ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in _SKIP_TAGS:
            self._skip = max(0, self._skip - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_parts.append(data)
        elif not self._skip:
            self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str]:
    """(title, readable text) of an HTML page: scripts and styles dropped, blocks on their own lines."""
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    text = "".join(extractor.parts)
    lines = [re.sub(r"[ \t\r\f\v]+", " ", line).strip() for line in text.split("\n")]
    collapsed = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    title = " ".join("".join(extractor.title_parts).split())
    return title, collapsed

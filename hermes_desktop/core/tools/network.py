"""fetch_url's guard and transport: public http(s) only, checked after DNS, pinned to the checked address.

Server-side request forgery is the risk: a page (or a prompt injection) asks the
model to fetch http://169.254.169.254/ or a router's admin page. So every hop
(the first URL and each redirect) is resolved, every resolved address must be
globally routable unless the user allowed that host, and the connection goes to
the address we checked (no second lookup an attacker's DNS could answer
differently). Through a proxy from the environment the same holds: the proxy is asked
for the checked address (core/tools/proxies.py).

Addresses are classified by what they reach: an IPv4-mapped address, a 6to4 address
(2002::/16) and a Teredo address (2001::/32) are judged by the IPv4 address they carry,
and the deprecated site-local range fec0::/10 is private.

A fetch also stops itself, inside its reading loop, so its worker thread never outlives
the tool call (a thread cannot be killed from outside): every socket read and write is
given the smaller of the read timeout and what is left of the total deadline; connecting
has its own timeout; and once data flows, a server slower than the minimum transfer rate
(after a grace period) is cut off. A `Transfer` holds that budget; `Transfer.cancel()`
(Stop, the tool's timeout) shuts the socket down from another thread so a blocked read
returns at once. When the deadline or the rate floor stops a body that had started,
what arrived is returned, marked as cut. DNS resolution uses the system resolver, which
has its own timeouts and cannot be interrupted.
"""

from __future__ import annotations

import codecs
import http.client
import ipaddress
import re
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urljoin, urlsplit

from hermes_desktop.core.tools.proxies import Proxy, authority, open_tunnel, proxy_for
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


_HOST = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
                   r"|\[[0-9a-f:.]+\]")


def parse_private_hosts(text: str) -> tuple[tuple[str, ...], list[str]]:
    """The user's list of hosts fetch_url may reach on a private network ("nas.local, 192.168.1.5:8080"): the valid
    entries, lower-cased and without repeats, and the ones that are not a host (or host:port), as written."""
    hosts: list[str] = []
    bad: list[str] = []
    for entry in (part.strip() for part in re.split(r"[,\s]+", text)):
        if not entry:
            continue
        if entry.count(":") > 1 and not entry.startswith("["):  # a bare IPv6 address: no port can follow it
            host, port = f"[{entry.lower()}]", ""
        else:
            host, _, port = entry.lower().rpartition(":") if re.search(r":\d+$", entry) else (entry.lower(), "", "")
        if host.startswith("["):  # IPv6, kept as check_destination matches it: compressed, in brackets
            try:
                host = f"[{ipaddress.IPv6Address(host[1:-1]).compressed}]" if host.endswith("]") else ""
            except ValueError:
                host = ""
        if _HOST.fullmatch(host) and (not port or 0 < int(port) < 65536) and len(host) <= 253:
            name = f"{host}:{int(port)}" if port else host
            if name not in hosts:
                hosts.append(name)
        else:
            bad.append(entry)
    return tuple(hosts), bad


def _allowed_name(host: str) -> str:
    """A URL's host as the allowed list holds it: lower case; an IPv6 address compressed and in brackets."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host.lower()
    return f"[{ip.compressed}]" if isinstance(ip, ipaddress.IPv6Address) else host.lower()


@dataclass(frozen=True, slots=True)
class NetworkPolicy:
    # Hosts ("name" or "name:port") the user allowed even though they resolve to private addresses.
    allowed_private_hosts: frozenset[str] = frozenset()
    max_bytes: int = 2_000_000
    timeout_s: float = 15.0  # the longest wait for any one read or write (the server says nothing)
    connect_timeout_s: float = 10.0
    total_timeout_s: float = 25.0  # the whole fetch, every redirect included; below fetch_url's 30 s tool timeout
    min_bytes_per_s: float = 256.0  # once data flows, slower servers are cut off ...
    rate_grace_s: float = 8.0  # ... after this long since the first byte
    max_redirects: int = 5
    resolver: Resolver = field(default=system_resolver, compare=False)
    # Go through the proxy the environment names (HTTPS_PROXY, HTTP_PROXY, NO_PROXY; core/tools/proxies.py).
    use_environment_proxies: bool = True


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
    name = _allowed_name(host)
    allowed = name in policy.allowed_private_hosts or f"{name}:{port}" in policy.allowed_private_hosts
    if not allowed:
        for address in addresses:
            reason = _non_public_reason(address)
            if reason:
                raise ToolError(
                    f"refused: {host} resolves to {address}, {reason}. Fetching private, loopback and link-local "
                    "addresses is blocked unless you allow that host in Settings › Permissions."
                )
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Destination(scheme, host, port, addresses[0], target)


def _non_public_reason(address: str) -> str | None:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _SITE_LOCAL:
            return "a private network address (IPv6 site-local)"
        embedded = _embedded_ipv4(ip)
        if embedded is not None:
            reason = _non_public_reason(str(embedded))
            return f"{reason} (carried inside the IPv6 address)" if reason else None
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


_SITE_LOCAL = ipaddress.ip_network("fec0::/10")
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
_TEREDO = ipaddress.ip_network("2001::/32")


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv4-mapped, 6to4 or Teredo address delivers to, else None.

    For Teredo that is the client's address (the last 32 bits, inverted); its server
    address (bits 32-63) must be public as well, so the less public of the two counts.
    """
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in _SIX_TO_FOUR:
        return ip.sixtofour
    if ip in _TEREDO and ip.teredo is not None:
        server, client = ip.teredo
        return server if _non_public_reason(str(server)) else client
    return None


@dataclass(frozen=True, slots=True)
class FetchedPage:
    url: str
    status: int
    content_type: str
    text: str
    title: str
    truncated: bool
    stopped: str = ""  # why the download stopped early (deadline, rate floor); what arrived is in `text`


class TransferStopped(ToolError):
    """A fetch stopped by its own budget (total deadline, transfer rate) or cancelled."""


class Transfer:
    """The budget of one fetch: connect, read and total deadlines and the minimum rate.

    Checked before every socket operation (in the worker thread); `cancel()` may be
    called from any thread and makes a blocked read return at once.
    """

    def __init__(self, policy: NetworkPolicy, clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self._clock = clock
        self.started = clock()
        self.deadline = self.started + policy.total_timeout_s
        self.first_byte_at: float | None = None
        self.received = 0
        self._cancelled = threading.Event()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Stop the fetch: the next check raises, and a read blocked on a socket returns now."""
        self._cancelled.set()
        with self._lock:
            sockets = list(self._sockets)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def attach(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
        if self.cancelled:  # cancelled while connecting
            self.cancel()

    def connect_timeout(self) -> float:
        return min(self.policy.connect_timeout_s, self._remaining())

    def io_timeout(self) -> float:
        """How long the next read or write may wait; raises TransferStopped when the budget is spent."""
        remaining = self._remaining()
        if self.first_byte_at is not None:
            elapsed = self._clock() - self.first_byte_at
            if elapsed >= self.policy.rate_grace_s and self.received / elapsed < self.policy.min_bytes_per_s:
                raise TransferStopped(
                    f"the server sent only {self.received:,} bytes in {elapsed:.0f} s, slower than the minimum of "
                    f"{self.policy.min_bytes_per_s:g} bytes/s")
        return min(self.policy.timeout_s, remaining)

    def after_timeout(self) -> None:
        """A socket operation timed out: raise TransferStopped when it was the total deadline (or a cancel)
        that ran out rather than the read timeout."""
        if self.cancelled or self.deadline - self._clock() <= 0.05:
            self._remaining_or_stop(grace=0.05)

    def count(self, received: int) -> None:
        if received > 0 and self.first_byte_at is None:
            self.first_byte_at = self._clock()
        self.received += received

    def _remaining(self) -> float:
        return self._remaining_or_stop(grace=0.0)

    def _remaining_or_stop(self, grace: float) -> float:
        if self.cancelled:
            raise TransferStopped("the fetch was stopped")
        remaining = self.deadline - self._clock()
        if remaining <= grace:
            raise TransferStopped(f"the fetch took longer than its limit of {self.policy.total_timeout_s:g} s")
        return remaining


def fetch(url: str, policy: NetworkPolicy, transfer: Transfer | None = None) -> FetchedPage:
    """Blocking: run in a worker thread. Returns within the policy's total deadline (plus DNS time)."""
    transfer = transfer or Transfer(policy)
    current = url
    for _ in range(policy.max_redirects + 1):
        destination = check_destination(current, policy)
        proxy = proxy_for(destination.scheme, destination.host) if policy.use_environment_proxies else None
        connection = pinned_connection(destination, transfer, proxy)
        stopped = ""
        try:
            headers = {
                "User-Agent": "HermesDesktop/0.1 (+fetch_url)",
                "Accept": "text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.5",
                "Accept-Encoding": "identity",
            }
            target = destination.target
            if proxy is not None and destination.scheme == "http":
                # The proxy is asked for the checked address; the site still sees its own name (proxies.py).
                target = f"http://{authority(destination.address, destination.port)}{destination.target}"
                default_port = destination.port == 80
                headers["Host"] = destination.host if default_port else f"{destination.host}:{destination.port}"
                headers.update(proxy.headers())
            connection.request("GET", target, headers=headers)
            response = connection.getresponse()
            if response.status in (301, 302, 303, 307, 308) and response.getheader("Location"):
                current = urljoin(current, response.getheader("Location", ""))
                continue
            content_type = response.getheader("Content-Type", "") or ""
            body, stopped = _read_body(response, policy.max_bytes + 1)
            if transfer.cancelled:  # the socket was shut down under the read: what arrived is not the page
                raise TransferStopped("the fetch was stopped")
        except TransferStopped as exc:
            raise TransferStopped(f"fetching {current} stopped: {exc}") from exc
        except TimeoutError as exc:
            raise ToolError(f"fetching {current} failed: the server did not answer in time (connect timeout "
                            f"{policy.connect_timeout_s:g} s, read timeout {policy.timeout_s:g} s)") from exc
        except (OSError, http.client.HTTPException) as exc:
            if transfer.cancelled:
                raise TransferStopped(f"fetching {current} was stopped") from exc
            raise ToolError(f"fetching {current} failed: {exc}") from exc
        finally:
            connection.close()
        truncated = len(body) > policy.max_bytes or bool(stopped)
        body = body[: policy.max_bytes]
        mime = content_type.split(";", 1)[0].strip().lower()
        if mime and not mime.startswith(_TEXT_TYPES):
            raise ToolError(f"{current} is {mime}, not text; fetch_url only reads text and web pages")
        decoded = body.decode(_charset(content_type, body), errors="replace")
        if "html" in mime or (not mime and "<html" in decoded[:1000].lower()):
            title, text = html_to_text(decoded)
        else:
            title, text = "", decoded
        return FetchedPage(current, response.status, mime, text, title, truncated, stopped)
    raise ToolError(f"too many redirects (more than {policy.max_redirects}) starting at {url}")


def _read_body(response: http.client.HTTPResponse, limit: int) -> tuple[bytes, str]:
    """Up to `limit` bytes of the body, and why it stopped early ("" when it did not).

    When the budget runs out after some of the body arrived, that part is kept; with
    nothing yet, the stop is raised as an error.
    """
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        try:
            # read1: whatever one socket read brings, so a stop never loses bytes that already arrived
            chunk = response.read1(min(64 * 1024, limit - size))
        except (TransferStopped, TimeoutError) as exc:
            if size == 0:
                raise
            why = str(exc) if isinstance(exc, TransferStopped) else "the server stopped sending"
            return b"".join(chunks), why
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks), ""


class _Metered:
    """Mixed into a socket class: asks its Transfer for a timeout before every read and write, and counts reads.

    Over TLS an SSL read with a timeout is bounded as a whole (CPython sets a deadline), so the same rule holds."""

    transfer: Transfer

    def recv_into(self, buffer: Any, nbytes: int | None = None, flags: int = 0) -> int:
        self.settimeout(self.transfer.io_timeout())  # type: ignore[attr-defined]
        try:
            # Each class has its own default for nbytes (0 for sockets, None for SSL): pass it only when given.
            sized = () if nbytes is None else (nbytes,)
            received: int = super().recv_into(buffer, *sized, flags=flags)  # type: ignore[misc]
        except TimeoutError:
            self.transfer.after_timeout()
            raise
        self.transfer.count(received)
        return received

    def sendall(self, data: Any, flags: int = 0) -> None:
        self.settimeout(self.transfer.io_timeout())  # type: ignore[attr-defined]
        super().sendall(data, flags)  # type: ignore[misc]


class _MeteredSocket(_Metered, socket.socket):
    """A TCP socket with the Transfer's deadlines."""


class _MeteredSSLSocket(_Metered, ssl.SSLSocket):
    """The TLS counterpart."""


def _open_socket(address: str, port: int, transfer: Transfer) -> _MeteredSocket:
    raw = socket.create_connection((address, port), transfer.connect_timeout())
    sock = _MeteredSocket(raw.family, raw.type, raw.proto, fileno=raw.detach())
    sock.transfer = transfer
    transfer.attach(sock)
    return sock


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the checked address (never the name again), or to the proxy, which is asked for that address."""

    def __init__(self, destination: Destination, transfer: Transfer, proxy: Proxy | None = None) -> None:
        super().__init__(destination.host, destination.port, timeout=transfer.policy.timeout_s)
        self._address = destination.address
        self._transfer = transfer
        self._proxy = proxy

    def connect(self) -> None:
        if self._proxy is not None:
            self.sock = _open_socket(self._proxy.host, self._proxy.port, self._transfer)
        else:
            self.sock = _open_socket(self._address, self.port, self._transfer)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, destination: Destination, transfer: Transfer, proxy: Proxy | None = None) -> None:
        context = ssl.create_default_context()
        context.sslsocket_class = _MeteredSSLSocket
        super().__init__(destination.host, destination.port, timeout=transfer.policy.timeout_s, context=context)
        self._address = destination.address
        self._transfer = transfer
        self._proxy = proxy

    def connect(self) -> None:
        if self._proxy is not None:
            sock = _open_socket(self._proxy.host, self._proxy.port, self._transfer)
            open_tunnel(sock, self._address, self.port, self._proxy)
        else:
            sock = _open_socket(self._address, self.port, self._transfer)
        # The whole handshake is bounded by one socket timeout (CPython turns it into a deadline).
        sock.settimeout(self._transfer.connect_timeout())
        wrapped = self._context.wrap_socket(sock, server_hostname=self.host,  # type: ignore[attr-defined]
                                            do_handshake_on_connect=False)
        wrapped.transfer = self._transfer
        self._transfer.attach(wrapped)
        wrapped.settimeout(self._transfer.connect_timeout())
        wrapped.do_handshake()
        self.sock = wrapped


def pinned_connection(destination: Destination, transfer: Transfer,
                      proxy: Proxy | None) -> http.client.HTTPConnection:
    """An HTTP(S) connection to the address `check_destination` approved, never a second DNS lookup (a rebinding
    name cannot swap in a private address), metered and bounded by `transfer`. For any download the guard allows
    (fetch_url here, skill archives in core/skills/remote.py)."""
    if destination.scheme == "https":
        return _PinnedHTTPSConnection(destination, transfer, proxy)
    return _PinnedHTTPConnection(destination, transfer, proxy)


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


# The page's main text (navigation, header and footer left out) is read in core/tools/page_text.py.
from hermes_desktop.core.tools.page_text import html_to_text  # noqa: E402  (re-exported: callers import it here)

"""fetch_url's route to a page: it connects to the address it checked (DNS rebinding), goes through the proxy
the environment names without weakening the check, and reads the page's main text.

Real servers on 127.0.0.1 (a site, a second "internal" site on 127.0.0.2, a forward proxy that records what it is
asked for, a TLS site with a certificate made here). Where a test must pretend a loopback address is public, it
says so: the address classification is replaced for that test only.
"""

from __future__ import annotations

import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

from hermes_desktop.core.tools import network
from hermes_desktop.core.tools.network import NetworkPolicy, fetch, system_resolver
from hermes_desktop.core.tools.page_text import main_text
from hermes_desktop.core.tools.proxies import parse_proxy, proxy_for
from hermes_desktop.core.tools.spec import ToolError
from tests.support.certificates import localhost_certificate
from tests.support.forward_proxy import ForwardProxy

ARTICLE = "The quarterly report shows revenue grew by twelve percent, driven by the new service line in Asia."
PAGE = f"""<!doctype html><html><head><title>Report</title></head><body>
<header class="site-header"><a href="/">Home</a> <a href="/news">News</a><nav><ul><li>Products</li><li>Pricing</li>
</ul></nav></header>
<div id="cookie-banner">We use cookies. Accept all?</div>
<main><article><header><h1>Quarterly report</h1></header><p>{ARTICLE}</p><p>Costs stayed flat.</p>
<aside class="related">Read also: ten tips</aside></article></main>
<div class="sidebar">Popular posts</div>
<footer>© 2026 Example Corp · Privacy · Terms</footer></body></html>"""


def _site(address: str, port: int, body: bytes, seen: list[str]) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def do_GET(self) -> None:
            seen.append(f"{self.headers.get('Host')} {self.path}")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer((address, port), Handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    return server


@pytest.fixture
def site() -> Iterator[tuple[ThreadingHTTPServer, list[str]]]:
    seen: list[str] = []
    server = _site("127.0.0.1", 0, PAGE.encode(), seen)
    yield server, seen
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def no_proxy_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy",
                 "no_proxy"):
        monkeypatch.delenv(name, raising=False)


def named(mapping: dict[str, str]):
    return lambda host, port: [mapping[host]] if host in mapping else system_resolver(host, port)


# ---------------------------------------------------------------- DNS rebinding

def test_the_connection_goes_to_the_checked_address_when_the_name_answers_differently_later(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """rebind.test answers 127.0.0.1 the first time (the check) and 127.0.0.2 every time after: a client that
    resolves the name again to connect reaches the 'internal' server. Fake: for this test 127.0.0.1 counts as a
    public address and 127.0.0.2 as the private one it is."""
    public_seen: list[str] = []
    internal_seen: list[str] = []
    public = _site("127.0.0.1", 0, PAGE.encode(), public_seen)
    port = public.server_address[1]
    try:
        internal = _site("127.0.0.2", port, b"<html><body>INTERNAL ADMIN PAGE</body></html>", internal_seen)
    except OSError:
        public.shutdown()
        public.server_close()
        pytest.skip("127.0.0.2 cannot be bound here")
    answers = iter(["127.0.0.1"])
    real_getaddrinfo = socket.getaddrinfo

    def rebinding_getaddrinfo(host, port_, *args, **kwargs):
        if host == "rebind.test":
            address = next(answers, "127.0.0.2")
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port_))]
        return real_getaddrinfo(host, port_, *args, **kwargs)

    real_reason = network._non_public_reason
    monkeypatch.setattr(socket, "getaddrinfo", rebinding_getaddrinfo)
    monkeypatch.setattr(network, "_non_public_reason", lambda a: None if a == "127.0.0.1" else real_reason(a))
    try:
        page = fetch(f"http://rebind.test:{port}/", NetworkPolicy())
        assert ARTICLE in page.text and "INTERNAL" not in page.text
        assert internal_seen == [] and public_seen == [f"rebind.test:{port} /"]
        # The second resolution is the internal address, which the check refuses.
        with pytest.raises(ToolError, match="127.0.0.2"):
            fetch(f"http://rebind.test:{port}/", NetworkPolicy())
        assert internal_seen == []
    finally:
        for server in (public, internal):
            server.shutdown()
            server.server_close()


# ---------------------------------------------------------------- proxies

def test_a_page_on_an_allowed_host_goes_through_the_proxy_by_its_checked_address(site, monkeypatch) -> None:
    server, seen = site
    port = server.server_address[1]
    policy = NetworkPolicy(allowed_private_hosts=frozenset({"intranet.test"}),
                           resolver=named({"intranet.test": "127.0.0.1"}))
    with ForwardProxy() as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        page = fetch(f"http://intranet.test:{port}/report", policy)
        assert ARTICLE in page.text
        assert proxy.requests == [f"GET http://127.0.0.1:{port}/report"]
        assert proxy.headers[0]["host"] == f"intranet.test:{port}"


def test_a_private_host_is_refused_before_the_proxy_hears_of_it(site, monkeypatch) -> None:
    with ForwardProxy() as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        for url in ("http://169.254.169.254/latest/meta-data/", "http://10.0.0.5/", "https://192.168.1.1/",
                    f"http://127.0.0.1:{site[0].server_address[1]}/"):
            with pytest.raises(ToolError, match="refused"):
                fetch(url, NetworkPolicy())
        with pytest.raises(ToolError, match="refused"):
            fetch("http://innocent.test/", NetworkPolicy(resolver=named({"innocent.test": "10.1.2.3"})))
        assert proxy.requests == []


def test_no_proxy_sends_the_host_directly(site, monkeypatch) -> None:
    server, seen = site
    port = server.server_address[1]
    policy = NetworkPolicy(allowed_private_hosts=frozenset({"intranet.test"}),
                           resolver=named({"intranet.test": "127.0.0.1"}))
    with ForwardProxy() as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.setenv("NO_PROXY", "example.org,.test")
        assert ARTICLE in fetch(f"http://intranet.test:{port}/", policy).text
        assert proxy.requests == [] and seen == [f"intranet.test:{port} /"]


def test_an_https_page_goes_through_a_connect_tunnel_to_the_checked_address(tmp_path, monkeypatch) -> None:
    cert, key = localhost_certificate(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    seen: list[str] = []
    server = _site("127.0.0.1", 0, PAGE.encode(), seen)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    port = server.server_address[1]
    try:
        with ForwardProxy(require_authorization="Basic dXNlcjpwQHNz") as proxy:
            monkeypatch.setenv("HTTPS_PROXY", proxy.url.replace("http://", "http://user:p%40ss@"))
            page = fetch(f"https://localhost:{port}/", NetworkPolicy(
                allowed_private_hosts=frozenset({f"localhost:{port}"}), resolver=named({"localhost": "127.0.0.1"})))
            assert ARTICLE in page.text
            assert proxy.requests == [f"CONNECT 127.0.0.1:{port}"]  # the address, while TLS checked the name
            assert seen == [f"localhost:{port} /"]
    finally:
        server.shutdown()
        server.server_close()


def test_a_proxy_that_refuses_the_tunnel_is_reported(tmp_path, monkeypatch) -> None:
    with ForwardProxy(require_authorization="Basic secret") as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        with pytest.raises(ToolError, match="407"):
            fetch("https://localhost:9/", NetworkPolicy(allowed_private_hosts=frozenset({"localhost"}),
                                                        resolver=named({"localhost": "127.0.0.1"})))


def test_proxy_settings_are_read_as_urllib_reads_them() -> None:
    env = {"HTTPS_PROXY": "http://proxy.corp:3128", "http_proxy": "proxy.corp:8080", "NO_PROXY": "localhost,.internal"}
    assert proxy_for("https", "example.com", env) == parse_proxy("http://proxy.corp:3128")
    assert proxy_for("http", "example.com", env).port == 8080
    assert proxy_for("https", "wiki.internal", env) is None and proxy_for("https", "localhost", env) is None
    with pytest.raises(ToolError, match="not an http:// proxy"):
        proxy_for("https", "example.com", {"HTTPS_PROXY": "socks5://127.0.0.1:1080"})


# ---------------------------------------------------------------- main text

def test_a_fetched_page_is_its_article_without_navigation_header_and_footer(site) -> None:
    server, _ = site
    port = server.server_address[1]
    page = fetch(f"http://127.0.0.1:{port}/", NetworkPolicy(allowed_private_hosts=frozenset({"127.0.0.1"})))
    assert page.title == "Report"
    assert "# Quarterly report" in page.text and ARTICLE in page.text and "Costs stayed flat." in page.text
    for boilerplate in ("Products", "Pricing", "cookies", "Popular posts", "Example Corp", "Read also", "News"):
        assert boilerplate not in page.text


def test_a_page_without_marked_content_loses_only_its_marked_boilerplate() -> None:
    html = ("<body><div class='menu'><a>Home</a><a>About</a></div><h2>Recipe</h2><p>Mix flour and water.<p>Bake"
            "<div role='contentinfo'>Contact us</div></body>")
    title, text = main_text(html)
    assert "Mix flour and water." in text and "Bake" in text and "## Recipe" in text
    assert "About" not in text and "Contact us" not in text


def test_a_page_that_is_all_navigation_is_not_read_as_empty() -> None:
    html = "<body><nav><ul><li><a>Chapter one</a></li><li><a>Chapter two</a></li></ul></nav></body>"
    assert "Chapter two" in main_text(html)[1]

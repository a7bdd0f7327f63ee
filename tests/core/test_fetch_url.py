"""fetch_url: public web only, checked after DNS resolution, on every redirect hop."""

from __future__ import annotations

import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

from tests.support.certificates import localhost_certificate
from hermes_desktop.core.tools.builtin.web import fetch_url
from hermes_desktop.core.tools.network import NetworkPolicy, check_destination, fetch, html_to_text
from hermes_desktop.core.tools.spec import ToolContext, ToolError
from hermes_desktop.core.tools.workspace import Workspace

PAGE = """<html><head><title>Hermes   Test Page</title><style>body{color:red}</style>
<script>alert('x')</script></head><body><h1>Heading</h1><p>First paragraph.</p>
<ul><li>one</li><li>two</li></ul><p>中文段落。</p></body></html>"""


class _Site(BaseHTTPRequestHandler):
    redirect_to = ""

    def log_message(self, *args: object) -> None:
        return

    def do_GET(self) -> None:
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", self.redirect_to)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/image":
            body, kind = b"\x89PNG....", "image/png"
        else:
            body, kind = PAGE.encode(), "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def site() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def resolver_returning(address: str):
    return lambda host, port: [address]


@pytest.mark.parametrize("url,why", [
    ("http://127.0.0.1/", "loopback"), ("http://localhost:8080/admin", "loopback"), ("http://[::1]/", "loopback"),
    ("http://169.254.169.254/latest/meta-data/", "link-local"), ("http://10.0.0.1/", "private"),
    ("http://192.168.1.1/", "private"), ("http://[::ffff:127.0.0.1]/", "loopback"), ("http://0.0.0.0/", "not a public"),
    ("http://100.64.0.1/", "not a public"),
])
def test_private_loopback_and_link_local_addresses_are_refused(url: str, why: str) -> None:
    with pytest.raises(ToolError, match=why):
        check_destination(url, NetworkPolicy())


def test_a_public_name_that_resolves_to_a_private_address_is_refused() -> None:
    policy = NetworkPolicy(resolver=resolver_returning("192.168.0.10"))
    with pytest.raises(ToolError, match="resolves to 192.168.0.10, a private network address"):
        check_destination("https://innocent.example.com/", policy)


def test_a_public_address_is_allowed_and_pinned() -> None:
    destination = check_destination("https://example.com/a?b=1", NetworkPolicy(resolver=resolver_returning("93.184.216.34")))
    assert (destination.host, destination.port, destination.address, destination.target) == (
        "example.com", 443, "93.184.216.34", "/a?b=1")


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.com/x", "gopher://x", "javascript:alert(1)",
                                 "http://user:pass@example.com/"])
def test_other_schemes_and_embedded_credentials_are_refused(url: str) -> None:
    with pytest.raises(ToolError, match="refused"):
        check_destination(url, NetworkPolicy(resolver=resolver_returning("93.184.216.34")))


def test_a_host_the_user_allowed_can_be_fetched_as_readable_text(site: ThreadingHTTPServer) -> None:
    port = site.server_address[1]
    page = fetch(f"http://127.0.0.1:{port}/", NetworkPolicy(allowed_private_hosts=frozenset({f"127.0.0.1:{port}"})))
    assert page.title == "Hermes Test Page"
    assert "alert" not in page.text and "color:red" not in page.text
    assert "# Heading" in page.text and "- one" in page.text and "中文段落。" in page.text


def test_an_https_page_is_read_through_the_metered_tls_socket(site: ThreadingHTTPServer, tmp_path, monkeypatch) -> None:
    """The TLS path has its own socket class (deadlines on every read): a real TLS server, a certificate made here."""
    cert, key = localhost_certificate(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the fetch's default context trusts this certificate only
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    try:
        port = server.server_address[1]
        page = fetch(f"https://localhost:{port}/", NetworkPolicy(allowed_private_hosts=frozenset({f"localhost:{port}"})))
        assert page.title == "Hermes Test Page" and "中文段落。" in page.text
    finally:
        server.shutdown()
        server.server_close()


def test_a_redirect_to_a_host_that_is_not_allowed_is_refused(site: ThreadingHTTPServer) -> None:
    port = site.server_address[1]
    _Site.redirect_to = "http://169.254.169.254/latest/meta-data/"
    with pytest.raises(ToolError, match="link-local"):
        fetch(f"http://127.0.0.1:{port}/redirect", NetworkPolicy(allowed_private_hosts=frozenset({f"127.0.0.1:{port}"})))
    _Site.redirect_to = f"http://localhost:{port}/"
    with pytest.raises(ToolError, match="loopback"):
        fetch(f"http://127.0.0.1:{port}/redirect", NetworkPolicy(allowed_private_hosts=frozenset({f"127.0.0.1:{port}"})))


def test_binary_content_is_refused(site: ThreadingHTTPServer) -> None:
    port = site.server_address[1]
    with pytest.raises(ToolError, match="image/png, not text"):
        fetch(f"http://127.0.0.1:{port}/image", NetworkPolicy(allowed_private_hosts=frozenset({"127.0.0.1"})))


async def test_the_tool_reports_title_url_and_text(site: ThreadingHTTPServer, workspace_dir) -> None:
    port = site.server_address[1]
    ctx = ToolContext("s", Workspace(workspace_dir), NetworkPolicy(allowed_private_hosts=frozenset({"127.0.0.1"})),
                      workspace_dir / "notes")
    out = await fetch_url({"url": f"http://127.0.0.1:{port}/"}, ctx)
    assert out.startswith("Title: Hermes Test Page\nURL: http://127.0.0.1:") and "First paragraph." in out


def test_html_to_text_drops_scripts() -> None:
    title, text = html_to_text("<title>T</title><p>a<script>x()</script>b</p><noscript>n</noscript>")
    assert (title, text) == ("T", "ab")


@pytest.mark.parametrize("address,why", [
    ("2002:7f00:1::1", "loopback"),  # 6to4 of 127.0.0.1
    ("2002:c0a8:101::", "private"),  # 6to4 of 192.168.1.1
    ("2002:a9fe:a9fe::1", "link-local"),  # 6to4 of 169.254.169.254, the cloud metadata address
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"),  # Teredo, client 127.0.0.1 (stored inverted)
    ("2001:0:4136:e378:8000:63bf:3f57:fefe", "private"),  # Teredo, client 192.168.1.1
    ("2001:0:c0a8:101:8000:63bf:f7f7:f7f7", "private"),  # Teredo with a private server address
    ("fec0::1", "site-local"),
    ("fec0:1234::abcd", "private network address"),
])
def test_addresses_that_embed_or_reach_private_ipv4_are_refused(address: str, why: str) -> None:
    with pytest.raises(ToolError, match=why):
        check_destination("http://tunnel.example.com/", NetworkPolicy(resolver=resolver_returning(address)))


@pytest.mark.parametrize("address", [
    "2002:808:808::1",  # 6to4 of 8.8.8.8
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",  # Teredo, client 8.8.8.8
])
def test_6to4_and_teredo_addresses_of_public_ipv4_are_allowed(address: str) -> None:
    destination = check_destination("http://tunnel.example.com/", NetworkPolicy(resolver=resolver_returning(address)))
    assert destination.address == address

"""A small forward HTTP proxy on 127.0.0.1 that records what it is asked for.

It speaks the two forms clients use: `GET http://host:port/path` (absolute form: it fetches the URL and passes
the answer back) and `CONNECT host:port` (it opens a TCP tunnel and relays bytes both ways until either side
closes). `requests` lists each request line as received, so a test can say what the proxy saw, and never saw.
Optionally it demands Basic credentials (407 without them).
"""

from __future__ import annotations

import http.client
import select
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit


class ForwardProxy:
    def __init__(self, *, require_authorization: str | None = None) -> None:
        self.requests: list[str] = []
        self.headers: list[dict[str, str]] = []
        self._required = require_authorization
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True)

    def __enter__(self) -> "ForwardProxy":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def _authorized(self) -> bool:
                proxy.requests.append(self.requestline.rsplit(" ", 1)[0])
                proxy.headers.append({k.lower(): v for k, v in self.headers.items()})
                if proxy._required and self.headers.get("Proxy-Authorization") != proxy._required:
                    self.send_response(407)
                    self.send_header("Proxy-Authenticate", 'Basic realm="test"')
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return False
                return True

            def do_GET(self) -> None:
                if not self._authorized():
                    return
                parts = urlsplit(self.path)
                upstream = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=10)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-authorization",
                                                                                     "proxy-connection")}
                upstream.request("GET", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""),
                                 headers=headers)
                answer = upstream.getresponse()
                body = answer.read()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("transfer-encoding", "content-length", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                upstream.close()

            def do_CONNECT(self) -> None:
                if not self._authorized():
                    return
                host, _, port = self.path.rpartition(":")
                upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=10)
                self.send_response(200, "Connection established")
                self.end_headers()
                self.wfile.flush()
                client = self.connection
                try:
                    while True:
                        ready, _, _ = select.select([client, upstream], [], [], 10)
                        if not ready:
                            break
                        for side in ready:
                            data = side.recv(65536)
                            if not data:
                                return
                            (upstream if side is client else client).sendall(data)
                finally:
                    upstream.close()
                    self.close_connection = True

        return Handler

"""Test servers on 127.0.0.1: an ASGI app run by uvicorn in a thread of the test process, so a test can look at
the state the app keeps (tests/support/oauth_server.py, idp_server.py), or a server module in its own process
(spawned_server)."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator


def loopback_socket() -> socket.socket:
    """A socket bound to a free port on 127.0.0.1; its URL is base_url(sock)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock


def base_url(sock: socket.socket) -> str:
    return f"http://127.0.0.1:{sock.getsockname()[1]}"


@contextmanager
def serving(app: Any, sock: socket.socket, *, lifespan: str = "off") -> Iterator[None]:
    """`app` answers on `sock` for the duration (waiting up to 20 s for uvicorn to start); the socket is closed after."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan=lifespan))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def free_port() -> int:
    """A port on 127.0.0.1 that was free a moment ago (for a server started in another process)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def spawned_server(args: list[str], port: int, cwd: Path, log: Path | None = None) -> Iterator[subprocess.Popen]:
    """`python args…` (a test server module) running until the end, yielded once it accepts connections on `port`
    (up to 20 s). Its stderr goes to the file `log` if given; a process that exits before listening raises with it."""
    stderr = open(log, "w") if log is not None else subprocess.DEVNULL
    process = subprocess.Popen([sys.executable, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(log.read_text() if log is not None else f"{args} exited before listening")
                time.sleep(0.05)
        yield process
    finally:
        process.terminate()
        process.wait(10)
        if log is not None:
            stderr.close()


@contextmanager
def html_page(body: bytes) -> Iterator[str]:
    """A web server on 127.0.0.1 answering every GET with `body` as an HTML page, in a thread, for the duration;
    yields its base URL (http://127.0.0.1:PORT, any path)."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Page(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def do_GET(self) -> None:  # noqa: N802 - the http.server API
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()

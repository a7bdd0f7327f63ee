"""Real storage servers on 127.0.0.1 (port 0) for the sync tests, started and stopped by the tests.

- WebDAV: wsgidav (the PyPI WebDAV server) on cheroot, with basic auth, a folder on disk behind it, and a WSGI
  fault layer in front of the real app that answers chosen requests with 429 + Retry-After, 503 or 507, or holds
  a request until the test lets it go (to kill a client mid-upload or mid-download).
- S3: moto's server mode (ThreadedMotoServer): a real HTTP S3 API in this process, no Docker, no Node; s3rver
  would need Node and covers less of the API (no ListObjectsV2 continuation tokens in the version on npm).
- CuttingProxy: a TCP relay that closes the socket in the middle of the first request matching a pattern (the
  network dropping mid-upload), then relays normally.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

USER, PASSWORD = "alice", "app-password-123"


@dataclass
class Fault:
    method: str
    contains: str
    status: int = 0  # 0: hold the request instead
    times: int = 1
    headers: list[tuple[str, str]] = field(default_factory=list)
    held: threading.Event = field(default_factory=threading.Event)  # set when a request is being held
    release: threading.Event = field(default_factory=threading.Event)


class FaultLayer:
    """WSGI middleware: the faults in `faults` go first; everything else reaches the real wsgidav app."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app
        self.faults: list[Fault] = []
        self.seen: list[tuple[str, str]] = []

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
        self.seen.append((method, path))
        for fault in self.faults:
            if fault.times > 0 and fault.method == method and fault.contains in path:
                fault.times -= 1
                if fault.status == 0:
                    fault.held.set()
                    fault.release.wait(30)
                    break
                length = int(environ.get("CONTENT_LENGTH") or 0)
                if length:
                    environ["wsgi.input"].read(length)
                start_response(f"{fault.status} Injected", [("Content-Length", "0"), *fault.headers])
                return [b""]
        return self.app(environ, start_response)


class WebDAVServer:
    def __init__(self, root: Path) -> None:
        from cheroot import wsgi
        from wsgidav.wsgidav_app import WsgiDAVApp

        root.mkdir(parents=True, exist_ok=True)
        self.root = root
        config = {
            "host": "127.0.0.1", "port": 0, "provider_mapping": {"/dav": str(root)},
            "http_authenticator": {"domain_controller": None, "accept_basic": True, "accept_digest": False,
                                   "default_to_digest": False, "trusted_auth_header": None},
            "simple_dc": {"user_mapping": {"*": {USER: {"password": PASSWORD}}}},
            "verbose": 0, "logging": {"enable": False}, "property_manager": True, "lock_storage": True,
        }
        self.faults = FaultLayer(WsgiDAVApp(config))
        self.server = wsgi.Server(("127.0.0.1", 0), self.faults, numthreads=8)
        self.server.prepare()
        self.port = self.server.bind_addr[1]
        self.thread = threading.Thread(target=self.server.serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/dav/"

    def stop(self) -> None:
        for fault in self.faults.faults:
            fault.release.set()
        self.server.stop()


class S3Server:
    def __init__(self) -> None:
        from moto.server import ThreadedMotoServer

        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        self.server.start()
        self.port = self.server._server.server_port  # port 0: the one the OS gave
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def create_bucket(self, name: str) -> None:
        import boto3  # moto's own dependency; the app's client is core/sync/s3.py

        boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id="test", aws_secret_access_key="test",
                     region_name="us-east-1").create_bucket(Bucket=name)

    def stop(self) -> None:
        self.server.stop()


class CuttingProxy:
    """Relays 127.0.0.1:port to `upstream`; the first request whose first bytes contain `pattern` gets the socket
    closed after `keep` bytes of it reached the server."""

    def __init__(self, upstream: int, pattern: bytes, keep: int = 64) -> None:
        self.upstream, self.pattern, self.keep = upstream, pattern, keep
        self.cut = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def _relay(self, client: socket.socket) -> None:
        server = socket.create_connection(("127.0.0.1", self.upstream))

        def pump(src: socket.socket, dst: socket.socket, watch: bool) -> None:
            try:
                while True:
                    data = src.recv(65536)
                    if not data:
                        break
                    if watch and self.cut == 0 and self.pattern in data:
                        self.cut += 1
                        dst.sendall(data[: self.keep])
                        break
                    dst.sendall(data)
            except OSError:
                pass
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

        threading.Thread(target=pump, args=(server, client, False), daemon=True).start()
        pump(client, server, True)

    def stop(self) -> None:
        self._stop = True
        self.listener.close()


def wait_for(event: threading.Event, what: str, timeout: float = 60) -> None:
    if not event.wait(timeout):
        raise AssertionError(f"{what} did not happen within {timeout} s")


__all__ = ["CuttingProxy", "Fault", "S3Server", "WebDAVServer", "USER", "PASSWORD", "wait_for", "Iterator",
           "time"]

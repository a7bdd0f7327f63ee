"""A real HTTP server on 127.0.0.1 that drips its answer one byte at a time, for ever.

Each connection gets its own thread, which reads the request and then sends the
response (a status line and headers, then an endless body) one byte every `interval_s`
seconds, until the client closes the connection or the server stops. With
`drip_headers=False` the status line and headers arrive at once and only the body drips.
`open_connections` and `wait_until_all_closed()` show whether the client really let go.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from typing import Iterator

RESPONSE_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 1000000\r\n\r\n"


class DripServer:
    def __init__(self, *, interval_s: float = 2.0, drip_headers: bool = True) -> None:
        self.interval_s = interval_s
        self.drip_headers = drip_headers
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self.accepted = 0
        self.open_connections = 0
        self._thread = threading.Thread(target=self._accept_loop, name="drip-server", daemon=True)

    @property
    def port(self) -> int:
        return self._listener.getsockname()[1]

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __enter__(self) -> "DripServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._listener.close()

    def wait_until_accepted(self, count: int, timeout_s: float = 60.0) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self.accepted >= count, timeout_s)

    def wait_until_all_closed(self, timeout_s: float = 60.0) -> bool:
        """True once every connection so far was closed by its client (guard timeout only against hanging)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.accepted > 0 and self.open_connections == 0, timeout_s)

    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            with self._changed:
                self.accepted += 1
                self.open_connections += 1
                self._changed.notify_all()
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        try:
            self._read_request(connection)
            if not self.drip_headers:
                connection.sendall(RESPONSE_HEAD)
            for byte in self._bytes():
                if self._gone_while_waiting(connection):
                    break
                connection.sendall(byte)
        except OSError:
            pass  # the client hung up
        finally:
            connection.close()
            with self._changed:
                self.open_connections -= 1
                self._changed.notify_all()

    def _bytes(self) -> Iterator[bytes]:
        if self.drip_headers:
            for value in RESPONSE_HEAD:
                yield bytes([value])
        while True:
            yield b"x"

    @staticmethod
    def _read_request(connection: socket.socket) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(4096)
            if not chunk:
                raise OSError("closed before the request ended")
            data += chunk

    def _gone_while_waiting(self, connection: socket.socket) -> bool:
        """Wait one interval; True as soon as the client closes (or the server stops) meanwhile."""
        deadline = time.monotonic() + self.interval_s
        while not self._stopping.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return self._client_gone(connection)
            readable, _, _ = select.select([connection], [], [], min(left, 0.1))
            if readable and self._client_gone(connection):
                return True
        return True

    def _client_gone(self, connection: socket.socket) -> bool:
        connection.settimeout(0.0)
        try:
            return connection.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True
        finally:
            connection.settimeout(None)

"""Replay a recorded provider response byte for byte over real HTTP on 127.0.0.1.

The recordings under tests/support/recordings/<provider>/<name>.sse are bodies that real servers sent
(taken from other client libraries' public cassettes; each sidecar `<name>.json` names the repository,
path and commit). This server answers every POST with the next queued recording: the recorded status and
content type, and the recorded body unchanged, sent with chunked encoding in one HTTP chunk per SSE event
(split after each blank line, so the client reads it as it would from a streaming server; the bytes on
the wire, once de-chunked, are exactly the file's). It records each request body.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

RECORDINGS = Path(__file__).parent / "recordings"


@dataclass(frozen=True)
class Recording:
    provider: str
    name: str
    body: bytes
    meta: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.provider}/{self.name}"

    @property
    def status(self) -> int:
        return int(self.meta.get("status", 200))

    @property
    def content_type(self) -> str:
        return str(self.meta.get("content_type") or "text/event-stream")

    @property
    def expect(self) -> dict[str, Any]:
        return self.meta["expect"]


def load_recordings() -> list[Recording]:
    found = []
    for sse in sorted(RECORDINGS.glob("*/*.sse")):
        meta = json.loads(sse.with_suffix(".json").read_text(encoding="utf-8"))
        found.append(Recording(sse.parent.name, sse.stem, sse.read_bytes(), meta))
    return found


def events_of(body: bytes) -> list[bytes]:
    """The body cut after each blank line (an SSE event's end); joined they are the body again."""
    pieces, start = [], 0
    while True:
        end = body.find(b"\n\n", start)
        if end < 0:
            break
        pieces.append(body[start:end + 2])
        start = end + 2
    if start < len(body):
        pieces.append(body[start:])
    return pieces


class ReplayServer:
    def __init__(self) -> None:
        self._queue: deque[Recording] = deque()
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "ReplayServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def enqueue(self, recording: Recording) -> None:
        with self._lock:
            self._queue.append(recording)

    def _next(self) -> Recording | None:
        with self._lock:
            return self._queue.popleft() if self._queue else None

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                with server._lock:
                    server.requests.append(json.loads(raw or b"{}"))
                recording = server._next()
                if recording is None:
                    self.send_error(500, "no recording queued")
                    return
                self.send_response(recording.status)
                self.send_header("Content-Type", recording.content_type)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for piece in events_of(recording.body):
                    self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

        return Handler

"""An MCP server's stderr, copied into `mcp/<server>.log`, which never grows past a size cap.

A stdio server writes its stderr wherever it is told, for as long as it runs (30 MB of one server's
chatter was seen). Giving it the log file itself would let it grow without bound, so it gets the write
end of a pipe instead; a daemon thread copies what arrives into a `RotatingLog`: when the next write
would take the file past MAX_LOG_BYTES, it becomes `<server>.log.1` (replacing the older one) and a new
file starts. At most two files, about 2 MB, per server. The thread ends when every writer has closed the
pipe (the server and anything it started have exited); `drained` is set then, so a crash's reason can
quote the server's last lines once they are all in the file.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import IO

MAX_LOG_BYTES = 1_000_000
_READ_BYTES = 65_536


class RotatingLog:
    """An append-only binary log of at most `max_bytes`, plus one previous file (`<name>.1`)."""

    def __init__(self, path: Path, max_bytes: int = MAX_LOG_BYTES) -> None:
        self.path = path
        self._max = max_bytes
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("ab")
        self._size = self._file.tell()

    @property
    def previous(self) -> Path:
        return self.path.with_name(self.path.name + ".1")

    def write(self, data: bytes) -> None:
        with self._lock:
            if self._file.closed:
                return
            data = data[-self._max:]  # a single write larger than the cap keeps its end (the newest lines)
            if self._size and self._size + len(data) > self._max:
                self._rotate()
            self._file.write(data)
            self._file.flush()
            self._size += len(data)

    def _rotate(self) -> None:
        self._file.close()
        os.replace(self.path, self.previous)
        self._file = self.path.open("ab")
        self._size = 0

    def close(self) -> None:
        with self._lock:
            self._file.close()


class StderrPump:
    """A pipe whose write end is a server's stderr; what arrives goes to `log`, by a daemon thread."""

    def __init__(self, log: RotatingLog, name: str) -> None:
        self._log = log
        read_fd, write_fd = os.pipe()  # not inherited by children, except as the stderr they are given
        self.writer: IO[str] = os.fdopen(write_fd, "w", encoding="utf-8", errors="replace")
        self.drained = threading.Event()
        self._thread = threading.Thread(target=self._copy, args=(read_fd,), name=f"mcp-stderr:{name}", daemon=True)
        self._thread.start()

    def close_writer(self) -> None:
        """Our copy of the write end: closed once the server is started or gone, so the copy sees the end."""
        if not self.writer.closed:
            self.writer.close()

    def _copy(self, read_fd: int) -> None:
        try:
            while chunk := os.read(read_fd, _READ_BYTES):
                try:
                    self._log.write(chunk)
                except OSError:  # a full disk: drop the text, but keep draining so the server never blocks
                    pass
        except OSError:
            pass  # the pipe broke: nothing more will arrive
        finally:
            os.close(read_fd)
            self._log.close()
            self.drained.set()

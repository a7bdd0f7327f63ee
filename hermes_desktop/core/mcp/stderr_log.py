"""An MCP server's stderr, copied into `mcp/<server>.log`, which never grows past a size cap.

A stdio server writes its stderr wherever it is told, for as long as it runs (30 MB of one server's
chatter was seen). Giving it the log file itself would let it grow without bound, so it gets the write
end of a pipe instead; a daemon thread copies what arrives into a `RotatingLog`: when the next write
would take the file past MAX_LOG_BYTES, it becomes `<server>.log.1` (replacing the older one) and a new
file starts. At most two files, about 2 MB, per server. The thread ends when every writer has closed the
pipe (the server and anything it started have exited); `drained` is set then, so a crash's reason can
quote the server's last lines once they are all in the file. A stopped server's copier is also told to
`finish()`: it logs what is already in the pipe and ends, even while something the server started outside
its process group (or a server still flooding) holds the pipe open; otherwise the thread would outlive the
server for as long as that process runs.
"""

from __future__ import annotations

import os
import select
import threading
from pathlib import Path
from typing import IO

MAX_LOG_BYTES = 1_000_000
_READ_BYTES = 65_536
_FINISH_MAX_BYTES = 4 * _READ_BYTES  # what finish() still copies: the pipe's buffer, not a flood's next minute


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
        self.inode = os.fstat(write_fd).st_ino  # names the pipe in /proc/<pid>/fd: finds the server's process
        self.writer: IO[str] = os.fdopen(write_fd, "w", encoding="utf-8", errors="replace")
        self.drained = threading.Event()
        self._wake_read, self._wake_write = os.pipe()  # finish() writes a byte here to end the copy
        self._wake_lock = threading.Lock()  # the thread closes _wake_write: never write to a reused fd number
        self._thread = threading.Thread(target=self._copy, args=(read_fd,), name=f"mcp-stderr:{name}", daemon=True)
        self._thread.start()

    @property
    def alive(self) -> bool:
        """Whether the copying thread still runs."""
        return self._thread.is_alive()

    def finish(self) -> None:
        """End the copy soon: what is in the pipe now is still logged, then the thread closes it and ends.
        Idempotent; never blocks."""
        self.close_writer()
        with self._wake_lock:
            if self._wake_write < 0:  # the thread has ended
                return
            try:
                os.write(self._wake_write, b"x")
            except OSError:  # already woken: the pipe's buffer is full of wake-ups
                pass

    def close_writer(self) -> None:
        """Our copy of the write end: closed once the server is started or gone, so the copy sees the end."""
        if not self.writer.closed:
            self.writer.close()

    def _copy(self, read_fd: int) -> None:
        poller = select.poll()  # not select.select: a busy window may hold fd numbers past FD_SETSIZE
        poller.register(read_fd, select.POLLIN)
        poller.register(self._wake_read, select.POLLIN)
        try:
            while True:
                ready = {fd for fd, _ in poller.poll()}
                if self._wake_read in ready:
                    self._copy_what_is_there(read_fd)
                    break
                chunk = os.read(read_fd, _READ_BYTES)
                if not chunk:
                    break
                self._keep(chunk)
        except OSError:
            pass  # the pipe broke: nothing more will arrive
        finally:
            os.close(read_fd)
            os.close(self._wake_read)
            with self._wake_lock:
                os.close(self._wake_write)
                self._wake_write = -1
            self._log.close()
            self.drained.set()

    def _copy_what_is_there(self, read_fd: int) -> None:
        """After finish(): the text already in the pipe, without waiting for more."""
        poller = select.poll()
        poller.register(read_fd, select.POLLIN)
        copied = 0
        while copied < _FINISH_MAX_BYTES and poller.poll(0):
            chunk = os.read(read_fd, _READ_BYTES)
            if not chunk:
                return
            self._keep(chunk)
            copied += len(chunk)

    def _keep(self, chunk: bytes) -> None:
        try:
            self._log.write(chunk)
        except OSError:  # a full disk: drop the text, but keep draining so the server never blocks
            pass

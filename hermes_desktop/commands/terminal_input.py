"""One reader of the terminal's lines for every question `ask` puts on it: tool approvals (cli.py) and MCP servers'
questions (commands/mcp_terminal.py).

A line is read in a thread (a blocking read cannot be interrupted). When the question that started the read goes
away before the user answers (the server withdrew it, or the call was stopped), that read keeps waiting. With a
thread per question it then took the user's next line, meant for the question now on screen, and threw it away (a
"y" to a tool approval was lost, so the approval read the following "n"); and, being a thread of asyncio's
executor, it kept `ask` from ending until the user pressed Enter. Here the read in progress is kept and its line
goes to whichever question asks next (questions that ask at the same time get lines in the order they asked), and
it runs in a daemon thread on the raw file descriptor (no Python buffer lock held at exit), so `ask` ends when its
work is done.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from typing import Callable


class StdinLines:
    """`readline` on a file descriptor without Python's buffered reader: one thread at a time calls it."""

    def __init__(self, fd: int | None = None) -> None:
        self._fd = sys.stdin.fileno() if fd is None else fd
        self._buffer = b""

    def __call__(self) -> str:
        while b"\n" not in self._buffer:
            chunk = os.read(self._fd, 4096)
            if not chunk:  # end of input: what is left, then ""
                rest, self._buffer = self._buffer, b""
                return rest.decode("utf-8", "replace")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return (line + b"\n").decode("utf-8", "replace")


class LineReader:
    def __init__(self, read: Callable[[], str] | None = None) -> None:
        self._read = read
        self._pending: asyncio.Future[str] | None = None  # the read in progress, its line not yet taken
        self._turn: asyncio.Lock | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def readline(self) -> str:
        """The next line ("" at end of input). Cancelling the caller leaves the read going for the next caller."""
        loop = asyncio.get_running_loop()
        if self._turn is None or self._loop is not loop:  # a new event loop (another asyncio.run in this process)
            self._turn, self._pending, self._loop = asyncio.Lock(), None, loop
        async with self._turn:
            if self._pending is None:
                self._pending = self._start()
            line = await asyncio.shield(self._pending)
            self._pending = None
            return line

    def _start(self) -> asyncio.Future[str]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str] = loop.create_future()
        if self._read is None:
            self._read = StdinLines()
        read = self._read

        def deliver(outcome: str | BaseException) -> None:
            if future.done():
                return
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

        def work() -> None:
            try:
                outcome: str | BaseException = read()
            except BaseException as exc:  # noqa: BLE001 - handed to the asking coroutine
                outcome = exc
            try:
                loop.call_soon_threadsafe(deliver, outcome)
            except RuntimeError:  # the loop is gone: nobody asks any more
                pass

        threading.Thread(target=work, name="terminal-line", daemon=True).start()
        return future


_shared: LineReader | None = None


def terminal_lines() -> LineReader:
    """The process's one reader of stdin."""
    global _shared
    if _shared is None:
        _shared = LineReader()
    return _shared

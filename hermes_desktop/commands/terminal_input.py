"""One reader of the terminal's lines for every question `ask` puts on it: tool approvals (cli.py) and MCP servers'
questions (commands/mcp_terminal.py).

A line is read in a worker thread (a blocking `readline` cannot be interrupted). When the question that started
the read goes away before the user answers (the server withdrew it, or the call was stopped), that thread keeps
waiting; with a thread per question it then took the user's next line, meant for the question now on screen,
and threw it away (a "y" to a tool approval was lost, so the approval read the following "n"). Here the read
in progress is kept and its line goes to whichever question asks next; questions that ask at the same time get
lines in the order they asked.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Callable


class LineReader:
    def __init__(self, read: Callable[[], str] | None = None) -> None:
        self._read = read or (lambda: sys.stdin.readline())
        self._pending: asyncio.Future[str] | None = None  # the read in progress, its line not yet taken
        self._turn: asyncio.Lock | None = None

    async def readline(self) -> str:
        """The next line ("" at end of input). Cancelling the caller leaves the read going for the next caller."""
        if self._turn is None:
            self._turn = asyncio.Lock()
        async with self._turn:
            if self._pending is None:
                self._pending = asyncio.ensure_future(asyncio.to_thread(self._read))
            line = await asyncio.shield(self._pending)
            self._pending = None
            return line


_shared: LineReader | None = None


def terminal_lines() -> LineReader:
    """The process's one reader of stdin."""
    global _shared
    if _shared is None:
        _shared = LineReader()
    return _shared

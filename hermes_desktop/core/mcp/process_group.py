"""Finding a stdio MCP server's process group and ending what is left of it after the SDK has stopped it.

The SDK starts each server in its own session (so its pid is its process group id) and, when it stops it,
closes its stdin and waits; only a server that does not exit then gets SIGTERM and SIGKILL for its whole
group. A server that does exit on end-of-input leaves its children running (seen: a wrapper script whose
worker kept going with no parent). The SDK does not expose the process, so the server is found the one way
that cannot mistake it for another: it is this process's child whose stderr (fd 2) is the pipe this
server's log copier reads (core/mcp/stderr_log.py). Linux only (/proc); elsewhere nothing is found and the
SDK's own shutdown is all there is. A process that left the group (a daemon that called setsid) is not
touched: it is no longer part of the server by its own choice.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

TERM_GRACE_S = 2.0  # after SIGTERM, how long the group has before SIGKILL
_POLL_S = 0.05


def server_pid(pipe_inode: int) -> int | None:
    """The pid of this process's child whose stderr is the pipe with this inode, or None (gone, or no /proc)."""
    me = os.getpid()
    target = f"pipe:[{pipe_inode}]"
    try:
        entries = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return None
    for entry in entries:
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])  # the name in parentheses may hold spaces
            if ppid == me and os.readlink(f"/proc/{entry}/fd/2") == target:
                return int(entry)
        except (OSError, ValueError, IndexError):  # it ended while we looked, or is not ours to read
            continue
    return None


def group_alive(pgid: int) -> bool:
    """Whether any process is left in the group (EPERM is not proof it is gone)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def end_group(pgid: int, grace_s: float = TERM_GRACE_S) -> None:
    """SIGTERM whatever is left in the group, SIGKILL it if it is still there after `grace_s`. Returns at once
    when the group is already gone."""
    if pgid <= 1 or pgid == os.getpgrp() or not group_alive(pgid):  # never our own group
        return
    try:
        os.killpg(pgid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace_s
    while group_alive(pgid) and loop.time() < deadline:
        await asyncio.sleep(_POLL_S)
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass

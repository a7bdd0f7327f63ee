"""The end of an MCP server's log (`mcp/<server>.log`, core/mcp/stderr_log.py), read for people.

Two readers, both bounded by bytes (a log is up to 1 MB, plus its previous file): `tail` is what the MCP tab's log
view shows (the last lines, live), `run_lines` is what a failed start quotes (the last lines of this run only, after
its `--- <time> starting <command>` line, so an old run's words never explain a new failure).

The text is the server's own words: terminal escapes and other controls are removed (a server's coloured output
would otherwise show as `\\x1b[31m`), and the app's own secrets are redacted, since a server given a key may print
it. Reading 64 KB from the end of a local file takes well under a millisecond, so the window reads on its own thread
only when the file's size or time changed (`signature`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from hermes_desktop.core.redact import redact_text
from hermes_desktop.core.terminal_text import strip_controls

TAIL_BYTES = 64_000
TAIL_LINES = 200
RUN_BYTES = 2_000  # what a failure quotes from: the last few lines
LINE_CHARS = 300
START_MARK = "--- "  # the supervisor's line before each start


@dataclass(frozen=True, slots=True)
class LogTail:
    text: str  # the last lines, newest last ("" when the log is empty or missing)
    lines: int  # how many lines `text` holds
    exists: bool  # False: the server never wrote a log (an HTTP server, or one never started)


def signature(path: Path) -> tuple[int, int, int] | None:
    """What changes when the log is written or rotated (inode, size, mtime in ns); None without a log."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


def _read_end(path: Path, max_bytes: int) -> bytes | None:
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - max_bytes))
            data = handle.read(max_bytes)
    except OSError:
        return None
    if size > max_bytes:  # started mid-line: drop the partial first line
        data = data.partition(b"\n")[2]
    return data


def _clean(line: str, known_secrets: Iterable[str]) -> str:
    line = strip_controls(line).rstrip()
    if len(line) > LINE_CHARS * 4:
        line = line[: LINE_CHARS * 4] + "…"
    return redact_text(line, known_secrets)


def tail(path: Path, known_secrets: Iterable[str] = (), *, max_lines: int = TAIL_LINES,
         max_bytes: int = TAIL_BYTES) -> LogTail:
    """The last `max_lines` lines of the log; when the current file is shorter (it just rotated), the end of the
    previous file (`<name>.1`) comes first."""
    current = _read_end(path, max_bytes)
    if current is None:
        return LogTail("", 0, False)
    lines = current.decode("utf-8", "replace").splitlines()
    if len(lines) < max_lines:
        older = _read_end(path.with_name(path.name + ".1"), max(0, max_bytes - len(current)))
        if older:
            lines = older.decode("utf-8", "replace").splitlines() + lines
    shown = [_clean(line, known_secrets) for line in lines[-max_lines:]]
    return LogTail("\n".join(shown), len(shown), True)


def run_lines(path: Path, count: int = 3) -> list[str]:
    """The last `count` non-empty lines of the latest run (after its start line), each at most LINE_CHARS long."""
    data = _read_end(path, RUN_BYTES)
    if not data:
        return []
    lines = data.decode("utf-8", "replace").splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(START_MARK)]
    since_start = lines[starts[-1] + 1:] if starts else lines
    return [strip_controls(line)[:LINE_CHARS] for line in since_start if line.strip()][-count:]

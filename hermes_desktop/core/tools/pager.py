"""Read on: a tool result longer than the result budget is not lost at the cut.

Decision (issue 15): tools that read files page themselves (`read_file` and `read_skill_resource` take `offset` and
`limit`). For every other tool (an MCP server's, a skill's, fetch_url) a paging parameter cannot be added to a
schema we do not own, so the runner keeps the full text (after secrets are removed) of the last MAX_KEPT long
results in memory, under a short id per session, and the shown part ends with how many characters remain and the
call to read on: `read_more(id, offset, limit)`. `read_more` is offered only while the session has such a result.
Kept texts live in this process only (a restart forgets them; the note then says to run the tool again; ids carry a
per-run tag, so an old note never reads a new result), at most
MAX_KEPT of them and MAX_KEPT_CHARS each (past that, the rest is cut and the note says so).
"""

from __future__ import annotations

import itertools
import secrets
import threading
from collections import OrderedDict
from typing import Any, Iterable

from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolError, ToolSpec

READ_MORE = "read_more"
MAX_KEPT = 16
MAX_KEPT_CHARS = 2_000_000
DEFAULT_PAGE = 6_000


class ResultPager:
    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        # Ids differ from one run of the app to the next: after a restart the history still holds notes naming
        # "r1"; a new result called "r1" would be read in their place, silently the wrong text.
        self._run = secrets.token_hex(2)

    def keep(self, session_id: str, text: str) -> str:
        """Remember `text` for `session_id`; returns its id."""
        with self._lock:
            key = f"r{next(self._ids)}-{self._run}"
            self._kept[(session_id, key)] = text[:MAX_KEPT_CHARS]
            while len(self._kept) > MAX_KEPT:
                self._kept.popitem(last=False)
            return key

    def get(self, session_id: str, key: str) -> str | None:
        with self._lock:
            return self._kept.get((session_id, key))

    def holds(self, session_id: str) -> bool:
        with self._lock:
            return any(s == session_id for s, _ in self._kept)

    def offered(self, session_id: str, specs: Iterable[ToolSpec]) -> list[ToolSpec]:
        """`specs` without read_more unless this session has a kept result."""
        listed = list(specs)
        return listed if self.holds(session_id) else [s for s in listed if s.name != READ_MORE]


PAGER = ResultPager()


def first_page(text: str, budget: int, key: str) -> tuple[str, int]:
    """The start of `text` within `budget` characters, ending with how to read on. Returns (shown, characters cut)."""
    kept = min(len(text), MAX_KEPT_CHARS)
    note = ("\n[… output truncated: {rest:,} more characters not shown (this part: 0-{shown:,} of {total:,}). To read on, call "
            f"read_more(id=\"{key}\", offset={{shown}})" + ("" if kept == len(text) else
                                                             f"; only the first {kept:,} characters are kept") + "]")
    shown = max(0, budget - len(note.format(rest=len(text), shown=budget, total=len(text))))
    return text[:shown] + note.format(rest=len(text) - shown, shown=shown, total=len(text)), len(text) - shown


def read_more(args: dict[str, Any], ctx: ToolContext) -> str:
    key = str(args.get("id") or "").strip()
    text = PAGER.get(ctx.session_id, key)
    if text is None:
        raise ToolError(f"no kept result {key!r} in this session (only the last {MAX_KEPT} long results are kept, "
                        "until the app quits); run the tool again")
    offset = max(0, int(args.get("offset") or 0))
    limit = max(1, min(int(args.get("limit") or DEFAULT_PAGE), 100_000))
    chunk = text[offset: offset + limit]
    end = offset + len(chunk)
    if end >= len(text):
        return chunk + f"\n[end of result {key}: characters {offset:,}-{end:,} of {len(text):,}]"
    return (chunk + f"\n[… {len(text) - end:,} more characters (this part: {offset:,}-{end:,} of {len(text):,}). "
            f"To read on, call read_more(id=\"{key}\", offset={end})]")


def read_more_tool() -> ToolSpec:
    return ToolSpec(
        READ_MORE, "Read the rest of a long tool result that ended with a read_more note.",
        {"type": "object", "properties": {
            "id": {"type": "string"}, "offset": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100_000}},
         "required": ["id", "offset"], "additionalProperties": False},
        read_more, Risk.READ, timeout_s=10)

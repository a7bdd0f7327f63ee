"""The error codes the core can give a turn, read from the code itself, so a test that words every code learns
of a new one without anyone remembering to add it to a list.

A code is the literal `code="…"` of a `ModelError(…)` or `TurnError(…)` anywhere under hermes_desktop/core, plus
the storage faults (`core/agent._storage_code` builds `storage_<fault>` from core/storage/errors.Fault).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "hermes_desktop" / "core"


def emitted_error_codes() -> set[str]:
    from hermes_desktop.core.storage.errors import Fault

    codes: set[str] = set()
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in ("ModelError", "TurnError"):
                continue
            for keyword in node.keywords:
                if keyword.arg == "code" and isinstance(keyword.value, ast.Constant) and keyword.value.value:
                    codes.add(str(keyword.value.value))
    # "storage" alone: a StorageError without a fault (_storage_code's first return)
    return codes | {"storage"} | {f"storage_{fault.value}" for fault in Fault}


# Parameters as the core sends them, for wording every code (the union of what each one carries).
SAMPLE_PARAMS: dict[str, Any] = {
    "status": 400, "host": "h:1", "model": "m1", "server": "", "retry_after_s": 7.0, "error": "KeyError: 'x'",
    "limit_s": 600, "wait_s": 30, "session": "s1", "pid": "", "path": "/d/hermes.db",
    "consequence": "your message was not saved", "needed": 40000, "available": 30000, "window": 32768,
    "costs": [{"what": w, "name": n, "tokens": 100} for w, n in (
        ("skill_catalog", "skill catalog"), ("skill", "pdf"), ("mcp_server", "files"), ("tools", "built-in tools"),
        ("memory", "memory"), ("message", "this turn"))],
}
# Data in those sentences: names, paths, settings keys and the command line's options.
SAMPLE_DATA = ("h:1", "m1", "KeyError", "turn_deadline_s", "/v1", "/d/hermes.db", "activate_skill", "pdf", "files",
               "mcp.json", "ask", "--model", "--session")

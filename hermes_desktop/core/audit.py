"""The audit log: one JSON line per tool call, appended, never rewritten.

Fields: time, session, call id, tool, source, risk, arguments (secrets
redacted), decision and who made it, outcome, duration, result size. It answers
"what did the agent do to my files, and who allowed it?".
"""

from __future__ import annotations

import json
import logging
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from hermes_desktop.core.redact import redact_value

log = logging.getLogger(__name__)


class AuditLog:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()

    def record(self, **fields: Any) -> None:
        if self.path is None:
            return
        entry = {"time": datetime.now(timezone.utc).isoformat(timespec="milliseconds"), **fields}
        if "arguments" in entry:
            entry["arguments"] = redact_value(entry["arguments"])
        line = json.dumps(entry, ensure_ascii=False, default=str) + "\n"
        try:
            with self._lock:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("a", encoding="utf-8") as handle:
                    handle.write(line)
        except OSError:
            # Losing an audit line must not lose the user's turn; it is logged instead.
            log.exception("could not write the audit log at %s", self.path)

    def read(self) -> list[dict[str, Any]]:
        if self.path is None or not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text(encoding="utf-8").splitlines() if line.strip()]

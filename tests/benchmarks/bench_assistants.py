"""Assistants: importing a Cherry Studio subscription list of 300 assistants (issue 23: under a second), read,
validated, planned (free names) and saved in one transaction into a fresh history (real SQLite, migrations)."""

from __future__ import annotations

import json

from hermes_desktop.core.assistants import imports
from hermes_desktop.core.assistants.store import AssistantStore
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.store import open_store
from tests.benchmarks.timing import median, ok, percentile, table, temporary_home, timed

COUNT = 300
REPEAT = 7
TARGET_MS = 1000.0


def _file() -> bytes:
    prompt = "你是一位专业的助手，负责帮助用户完成工作。" * 30  # ~600 characters, like Cherry's own prompts
    return json.dumps([{"id": str(i), "name": f"助手 {i}", "emoji": "🧑‍💼", "group": ["职业"], "prompt": prompt,
                        "description": f"第 {i} 号助手"} for i in range(COUNT)], ensure_ascii=False).encode("utf-8")


def run() -> None:
    data = _file()
    with temporary_home():
        opened = open_store(app_paths())
        store = AssistantStore(opened.store)
        try:
            samples = timed(lambda: imports.read_import(data, source="agents.json").apply(store), REPEAT)
        finally:
            opened.store.close()
    table([(f"import {COUNT} Cherry Studio assistants, p50", f"{median(samples):.0f} ms", f"< {TARGET_MS:.0f} ms",
            ok(median(samples) < TARGET_MS)),
           ("  p95 (later runs rename all 300: 'name (n)')", f"{percentile(samples, 95):.0f} ms", "", "")])


if __name__ == "__main__":
    run()

"""Start-up order: the window is built and painted before the engine's heavy modules are imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import asyncio, json, sys
import qasync
from hermes_desktop.ui import launch
seen = {}
async def main():
    app, window, controller = launch.build_window()
    painted = launch._FirstPaint(window).painted
    window.show()
    await painted
    seen["before"] = sorted(m for m in ("openai", "httpx2", "markdown_it", "pygments", "hermes_desktop.core.agent",
                                        "hermes_desktop.core.llm") if m in sys.modules)
    await controller.start()
    seen["after"] = sorted(m for m in ("openai", "markdown_it", "pygments") if m in sys.modules)
    seen["tools"] = [window.inspector.tools.topLevelItem(i).text(0) for i in range(window.inspector.tools.topLevelItemCount())]
    await controller.shutdown()
launch.application()
qasync.run(main())
print(json.dumps(seen))
"""


def test_the_window_paints_before_openai_and_markdown_are_imported(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["before"] == [], f"imported before the first paint: {seen['before']}"
    assert seen["after"] == ["markdown_it", "openai", "pygments"] and seen["tools"][0] == "Built-in"


def test_main_reuses_an_existing_qapplication(qapp) -> None:
    from hermes_desktop.ui.launch import application

    assert application() is qapp

"""Start-up order: the window is built and painted before the engine's heavy modules are imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The installed entry point (`hermes-desktop` runs `hermes_desktop.app.main`) as a double-click starts it, observed
# at two moments: when `launch.first_paint` returns to `run_window` (the window has painted; asyncio and qasync
# are imported next) and once the engine has started on the qasync loop (`launch.run_app`), when it closes the
# window so that main returns.
SCRIPT = """
import json, sys
from hermes_desktop.ui import launch
seen = {}
first_paint, run_app = launch.first_paint, launch.run_app
def painted(*args, **kwargs):
    app, window, controller = first_paint(*args, **kwargs)
    seen["before"] = sorted(m for m in NOT_BEFORE_PAINT if m in sys.modules)
    seen["painted"] = window.first_painted_at is not None
    return app, window, controller
async def observed(app, window, controller):
    import asyncio
    async def after_start():
        while controller.agent is None or not window.chat.isEnabled():
            await asyncio.sleep(0.01)
        seen["after"] = sorted(m for m in ("openai", "markdown_it", "pygments", "jsonschema") if m in sys.modules)
        window.chat.input.insertPlainText("H")  # the user begins a message: the model SDK is loaded for it
        for _ in range(3000):
            if "openai" in sys.modules:
                break
            await asyncio.sleep(0.01)
        seen["typed"] = "openai" in sys.modules
        seen["tools"] = [window.inspector.tools.topLevelItem(i).text(0)
                         for i in range(window.inspector.tools.topLevelItemCount())]
        seen["approver"] = type(controller._approver).__name__  # the window's dialogs, not the deny-all default
        seen["log_open"] = any(getattr(h, "_hermes", False) for h in __import__("logging").getLogger().handlers)
        window.close()
    watcher = asyncio.ensure_future(after_start())
    await run_app(app, window, controller)
    await watcher
launch.first_paint, launch.run_app = painted, observed
from hermes_desktop.app import main
code = main([])
print(json.dumps({**seen, "code": code}))
"""

# What the first paint must not wait for (ui/launch.py): the engine, the event loop, the database, the dialogs and
# the MCP and attachment machinery. Each is imported when first used, after the window is on screen.
NOT_BEFORE_PAINT = (
    "openai", "httpx2", "markdown_it", "pygments", "asyncio", "qasync", "sqlite3", "ssl", "socket",
    "hermes_desktop.core.agent", "hermes_desktop.core.llm", "hermes_desktop.core.events",
    "hermes_desktop.core.tools.approval", "hermes_desktop.core.mcp.client_features",
    "hermes_desktop.core.mcp.config", "hermes_desktop.core.attachments", "hermes_desktop.core.pdf_extract",
    "hermes_desktop.core.session_types", "hermes_desktop.ui.approver", "hermes_desktop.ui.dialogs.approval",
    "hermes_desktop.ui.dialogs.mcp_elicitation", "hermes_desktop.ui.dialogs.mcp_sampling",
    "hermes_desktop.ui.dialogs.mcp_input", "hermes_desktop.ui.dialogs.setup", "hermes_desktop.ui.dialogs.settings",
    "hermes_desktop.ui.memory_panel", "hermes_desktop.ui.mcp_panel", "hermes_desktop.ui.rich_list",  # hidden tabs
    "hermes_desktop.core.settings",  # the first paint reads only language and theme (core/appearance.py)
    "hermes_desktop.cli", "hermes_desktop.commands",  # app.main's window path (issue 28): the command line is not it
    "logging.handlers", "subprocess",  # the log file opens after the paint; the display check runs no program
)


def test_the_entry_point_paints_the_window_before_the_cli_the_engine_the_loop_and_the_dialogs_are_imported(
        tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    script = f"NOT_BEFORE_PAINT = {NOT_BEFORE_PAINT!r}\n" + SCRIPT
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["painted"], "first_paint returned without a paint event"
    assert seen["before"] == [], f"imported before the first paint: {seen['before']}"
    # Idle, the window holds neither the model SDK nor the tool arguments' validator (issue 28: idle memory); the
    # SDK is imported once the user types, jsonschema with the first turn.
    assert seen["after"] == ["markdown_it", "pygments"] and seen["tools"][0] == "Built-in"
    assert seen["typed"], "typing a message did not load the model SDK"
    assert seen["approver"] == "GuiApprover"
    assert seen["log_open"] and seen["code"] == 0


def test_every_module_preloaded_after_the_paint_exists() -> None:
    """launch's preload lists only cost time when a name is wrong; a renamed module must not go unnoticed."""
    import importlib

    from hermes_desktop.ui import launch

    for name in launch.AFTER_PAINT_CORE + launch.AFTER_PAINT_UI:
        assert importlib.import_module(name).__name__ == name


def test_main_reuses_an_existing_qapplication(qapp) -> None:
    from hermes_desktop.ui.launch import application

    assert application() is qapp


BROKEN = """
import logging, sys
from hermes_desktop.core.paths import app_paths
from hermes_desktop.ui import launch
import hermes_desktop.ui.main_window as main_window
logging.getLogger("hermes_desktop.settings").warning("logged before the window was built")
def broken(*args, **kwargs):
    raise RuntimeError("the window cannot be built here")
main_window.MainWindow.__init__ = broken
try:
    launch.first_paint()
except RuntimeError:
    print(app_paths().app_log.read_text(encoding="utf-8"))
"""


def test_a_window_that_cannot_be_built_still_leaves_its_reason_in_the_log(tmp_path: Path) -> None:
    """The log file is opened after the first paint; when there is none, what was held and the error are written."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    script = "from hermes_desktop.core.logging_setup import hold_early_records\nhold_early_records()\n" + BROKEN
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert "logged before the window was built" in result.stdout
    assert "the window could not be built" in result.stdout and "the window cannot be built here" in result.stdout

"""Running the real command line as a separate process, pointed at a scripted model server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Only catches a hang: a command that does not end within this fails its test instead of stalling the suite.
GUARD_S = 120


def cli_env(base_url: str, workspace: Path, api_key: str, **extra: str) -> dict[str, str]:
    """This process's environment plus the overrides that point `hermes-desktop` at the server and workspace."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "HERMES_BASE_URL": base_url, "HERMES_MODEL": "scripted-model",
            "HERMES_API_KEY": api_key, "HERMES_WORKSPACE": str(workspace), **extra}


def hermes(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`python -m hermes_desktop ARGS`, its output captured as text; no terminal on stdin."""
    return subprocess.run([sys.executable, "-m", "hermes_desktop", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=GUARD_S, input=stdin)

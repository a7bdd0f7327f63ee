"""A log folder that cannot be made (XDG_STATE_HOME is a file, a read-only disk) must not stop the app: every
command and the window called setup_logging unguarded and ended with a traceback (the window right after its first
paint). Warnings then go to stderr, redacted, the held early ones included. A child process: the root logger is
global."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import logging, sys
from pathlib import Path
from hermes_desktop.core.logging_setup import hold_early_records, setup_logging
hold_early_records()
logging.getLogger("hermes_desktop.settings").warning("held warning; key sk-abcdefghijklmnopqrstuvwx1234")
logging.getLogger("hermes_desktop.ui").info("held info: not on stderr")
setup_logging(Path(sys.argv[1]) / "log" / "app.log")
logging.getLogger("hermes_desktop.ui").warning("a later warning")
print("started")
"""


def test_a_log_folder_that_cannot_be_made_sends_warnings_to_stderr_and_the_app_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the log folder should be", encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(blocker)], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["started"]
    assert "held warning" in result.stderr and "a later warning" in result.stderr
    assert "sk-abcdefghijklmnopqrstuvwx1234" not in result.stderr, "redacted like the file"
    assert "held info" not in result.stderr
    assert "cannot be opened" in result.stderr and str(blocker) in result.stderr, "and it says why"

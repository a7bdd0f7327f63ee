"""The window paints before it opens the log file (ui/launch.py); what is logged meanwhile must reach the file,
redacted like everything else, and nothing may be written twice. Run in a child process: the root logger is
global and the test run's own handlers must not be touched."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import logging, sys
from pathlib import Path
from hermes_desktop.core.logging_setup import hold_early_records, setup_logging
log_file = Path(sys.argv[1])
hold_early_records()
logging.getLogger("hermes_desktop.settings").warning("settings.json was unreadable; key sk-abcdefghijklmnopqrstuvwx1234")
logging.getLogger("hermes_desktop.ui").debug("below the level: not kept")
assert not log_file.exists(), "the file is opened only by setup_logging"
setup_logging(log_file)
logging.getLogger("hermes_desktop.ui").info("after the file is open")
setup_logging(log_file)  # a second call (cli and window share the function) neither duplicates nor replays
logging.getLogger("hermes_desktop.ui").info("still once")
print("handlers", sum(1 for h in logging.getLogger().handlers if getattr(h, "_hermes", False)),
      len(logging.getLogger().handlers))
"""


def test_records_logged_before_the_log_file_opens_are_written_to_it_redacted(tmp_path: Path) -> None:
    log_file = tmp_path / "logs" / "app.log"
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(log_file)], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["handlers", "1", "1"]  # the holder is gone, one file handler
    text = log_file.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert "settings.json was unreadable" in lines[0] and "WARNING" in lines[0]  # first, in order
    assert "sk-abcdefghijklmnopqrstuvwx1234" not in text  # through the same redaction as every record
    assert "below the level" not in text
    assert text.count("settings.json was unreadable") == 1
    assert text.count("after the file is open") == 1 and text.count("still once") == 1


def test_the_holder_keeps_a_bounded_number_of_records() -> None:
    import logging

    from hermes_desktop.core.logging_setup import _EarlyRecords

    holder = _EarlyRecords()
    for n in range(_EarlyRecords.MAX + 50):
        holder.emit(logging.LogRecord("x", logging.INFO, __file__, 1, f"line {n}", None, None))
    assert len(holder.records) == _EarlyRecords.MAX

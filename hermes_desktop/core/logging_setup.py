"""The app log: a rotating file in the log directory, with secrets scrubbed from every record.

The window paints before it opens the log file (ui/launch.py: `logging.handlers` alone imports `socket` and
`pickle`); `hold_early_records()` keeps what is logged meanwhile, and `setup_logging` writes it to the file first,
through the same redaction, so nothing logged during start-up is lost.
"""

from __future__ import annotations

import logging
from pathlib import Path

from hermes_desktop.core.paths import ensure_dir


class RedactingFilter(logging.Filter):
    """Rewrites each record's message so a key that slipped into a log call never reaches the file."""

    def __init__(self) -> None:
        super().__init__()
        self.known_secrets: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        from hermes_desktop.core.redact import redact_text

        message = record.getMessage()
        cleaned = redact_text(message, self.known_secrets)
        if record.exc_info and record.exc_info[1] is not None:
            # Render the traceback now so it can be scrubbed too.
            formatted = logging.Formatter().formatException(record.exc_info)
            cleaned += "\n" + redact_text(formatted, self.known_secrets)
            record.exc_info = None
            record.exc_text = None
        record.msg, record.args = cleaned, None
        return True


REDACTION = RedactingFilter()


class _EarlyRecords(logging.Handler):
    """Records logged before the log file is open, kept for `setup_logging` (at most MAX of them)."""

    MAX = 1000

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.records) < self.MAX:
            self.records.append(record)


def hold_early_records(level: int = logging.INFO) -> None:
    """Keep what is logged from now until `setup_logging` opens the file."""
    root = logging.getLogger()
    if not any(isinstance(h, _EarlyRecords) or getattr(h, "_hermes", False) for h in root.handlers):
        root.addHandler(_EarlyRecords())
        root.setLevel(min(root.level or level, level))


def setup_logging(log_file: Path, *, level: int = logging.INFO) -> None:
    import logging.handlers

    root = logging.getLogger()
    early = [h for h in root.handlers if isinstance(h, _EarlyRecords)]
    for holder in early:
        root.removeHandler(holder)
    if any(getattr(h, "_hermes", False) for h in root.handlers):
        return
    handler: logging.Handler
    problem: OSError | None = None
    try:
        ensure_dir(log_file.parent)
        handler = logging.handlers.RotatingFileHandler(log_file, maxBytes=2_000_000, backupCount=3, encoding="utf-8")
    except OSError as exc:  # no log folder (a file in its place, a read-only disk): warnings go to stderr instead
        problem = exc
        handler = logging.StreamHandler()
        handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(REDACTION)
    handler._hermes = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(min(root.level or level, level))
    for holder in early:
        for record in holder.records:
            if record.levelno >= handler.level:
                handler.handle(record)
    if problem is not None:
        logging.getLogger(__name__).warning("the log file %s cannot be opened (%s); warnings go to stderr",
                                            log_file, problem)
    # The HTTP stack logs request headers at DEBUG; keep it quiet whatever the root level.
    for noisy in ("httpx", "httpx2", "httpcore", "httpcore2", "openai"):
        logging.getLogger(noisy).setLevel(logging.WARNING)

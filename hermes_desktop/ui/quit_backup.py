"""Backup at quit (issue 26: Settings › Backup & sync › "Also back up when Hermes quits").

It runs after the controller has shut down (every turn stopped, every message saved, the store closed), so the
backup holds everything the user saw. Quitting must stay quick and can never be held hostage by a slow server:
the backup runs in a daemon thread, a small window says what is happening with a Skip button, and after
QUIT_BACKUP_LIMIT_S the app quits whatever the backup is doing. A skipped or cut-off backup ends with the process:
a backup is published only when whole (core/sync/backup.py writes objects first and its manifest last), so an
interrupted one leaves nothing that a restore would take for a backup. A failure is logged, never shown as an
error at quit (the next scheduled backup or Back up now says it to the user).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

log = logging.getLogger(__name__)
QUIT_BACKUP_LIMIT_S = 120.0


class QuitBackupNotice(QWidget):
    def __init__(self) -> None:
        super().__init__(None, Qt.WindowType.Dialog)
        self.setObjectName("quitBackupNotice")
        self.setWindowTitle(self.tr("Hermes"))
        text = QLabel(self.tr("Backing up before quitting…"))
        self.skip = QPushButton(self.tr("Skip"))
        self.skip.setObjectName("skipQuitBackupButton")
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.skip)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addLayout(row)


async def backup_at_quit(service: Any, *, limit_s: float = QUIT_BACKUP_LIMIT_S, show: bool = True) -> str:
    """"" when no backup at quit is set up; else "done", "failed", "skipped" or "timed out"."""
    import asyncio

    try:
        config = service.config
    except Exception:  # an unreadable sync.json must not stop the quit
        log.warning("backup at quit: the sync settings could not be read", exc_info=True)
        return ""
    if not (config.configured and config.backup_at_quit):
        return ""
    loop = asyncio.get_running_loop()
    outcome: asyncio.Future[str] = loop.create_future()

    def settle(result: str) -> None:
        if not outcome.done():
            outcome.set_result(result)

    def work() -> None:
        try:
            service.backup_now()
            result = "done"
        except Exception:
            log.warning("backup at quit failed", exc_info=True)
            result = "failed"
        try:
            loop.call_soon_threadsafe(settle, result)
        except RuntimeError:  # the loop is gone: the app quit without waiting (Skip or the limit)
            pass

    threading.Thread(target=work, name="backup-at-quit", daemon=True).start()
    notice = QuitBackupNotice() if show else None
    if notice is not None:
        notice.skip.clicked.connect(lambda: settle("skipped"))
        notice.show()
    try:
        result = await asyncio.wait_for(asyncio.shield(outcome), limit_s)
    except TimeoutError:
        result = "timed out"
    finally:
        if notice is not None:
            notice.close()
            notice.deleteLater()
    log.info("backup at quit: %s", result)
    return result

"""Start the window on qasync, reusing an existing QApplication."""

from __future__ import annotations

import asyncio
import logging
import sys
import traceback
from types import TracebackType

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

from hermes_desktop import __version__
from hermes_desktop.core.logging_setup import setup_logging
from hermes_desktop.core.paths import app_paths

log = logging.getLogger(__name__)


def application() -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    app = QApplication(sys.argv[:1])
    app.setApplicationName("hermes-desktop")
    app.setApplicationDisplayName("Hermes Desktop")
    app.setOrganizationName("Hermes")
    app.setApplicationVersion(__version__)
    return app


def install_excepthook() -> None:
    """Unexpected errors in slots are logged and printed, not lost."""

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        log.error("unhandled error: %s", "".join(traceback.format_exception(kind, value, tb)))
        sys.__excepthook__(kind, value, tb)

    sys.excepthook = hook


class PlaceholderWindow(QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Hermes Desktop")
        label = QLabel(self.tr("Hermes Desktop\n\nThe chat window is coming in the next release.\n"
                               "Meanwhile: hermes-desktop ask \"your question\""))
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(label)
        self.resize(720, 480)


def run_window() -> int:
    import qasync

    setup_logging(app_paths().app_log)
    install_excepthook()
    app = application()
    window = PlaceholderWindow()
    window.show()

    async def until_closed() -> None:
        closed = asyncio.Event()
        app.lastWindowClosed.connect(closed.set)
        await closed.wait()

    try:
        qasync.run(until_closed())
    except asyncio.CancelledError:
        pass
    return 0

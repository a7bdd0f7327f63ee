"""Start the window on qasync: paint first, load the engine after.

Order matters for start-up time: Qt and the window's own modules are imported,
the window is shown and painted, and only then does the controller import the
engine (openai, the agent) and open the database in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import traceback
from types import TracebackType
from typing import Callable, Mapping

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget

from hermes_desktop import __version__, qt_import_hook
from hermes_desktop.core.logging_setup import setup_logging
from hermes_desktop.core.paths import app_paths, resources_dir
from hermes_desktop.core.settings import SettingsStore

log = logging.getLogger(__name__)
qt_import_hook.guard()  # before openai or mcp is imported: PySide6's import hook must not fail their imports


def application() -> QApplication:
    """The running QApplication, or a new one: never two."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    app = QApplication(sys.argv[:1])
    app.setApplicationName("hermes-desktop")
    app.setApplicationDisplayName("Hermes Desktop")
    app.setOrganizationName("Hermes")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("hermes-desktop")
    from PySide6.QtGui import QIcon

    app.setWindowIcon(QIcon(str(resources_dir() / "icons" / "hermes-desktop.svg")))
    return app


def install_excepthook(show: Callable[[str], None]) -> None:
    """An unexpected error in a slot or task is logged and shown in the window, not lost."""

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        log.error("unhandled error:\n%s", "".join(traceback.format_exception(kind, value, tb)))
        try:
            show(f"Something went wrong inside Hermes: {kind.__name__}: {value}. Details are in the log.")
        except Exception:  # the window may be gone
            sys.__excepthook__(kind, value, tb)

    sys.excepthook = hook


class _FirstPaint(QObject):
    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.painted = asyncio.get_event_loop().create_future()
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self.painted.done():
            self.painted.set_result(None)
        return False


def build_window(env: Mapping[str, str] | None = None):  # type: ignore[no-untyped-def]
    """The window and its controller, not yet started (tests call this under their own loop)."""
    from hermes_desktop.ui import theme as themes
    from hermes_desktop.ui.controller import AppController
    from hermes_desktop.ui.main_window import MainWindow

    from hermes_desktop.ui.i18n import install_translations

    paths = app_paths()
    app = application()
    settings = SettingsStore(paths).load().settings
    install_translations(app, settings.language)
    manager = themes.ThemeManager(app, settings.theme)
    controller = AppController(env)
    window = MainWindow(controller, manager, paths.config_dir / "window.json")
    return app, window, controller


async def run_app(env: Mapping[str, str] | None = None) -> None:
    from hermes_desktop.ui.tasks import drain, install_asyncgen_hooks

    install_asyncgen_hooks(asyncio.get_running_loop())
    app, window, controller = build_window(env)
    install_excepthook(window.errors.show_message)
    app.setQuitOnLastWindowClosed(False)
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    painted = _FirstPaint(window).painted
    window.show()
    await painted
    await controller.start()
    await closed.wait()
    await controller.shutdown()
    await drain()


def run_window() -> int:
    """The window until it is closed; 1 with one line on stderr when this session cannot show one."""
    if QApplication.instance() is None:  # a host application's QApplication already has its platform
        from hermes_desktop.ui.display import display_problem

        problem = display_problem(os.environ)
        if problem is not None:
            print(problem, file=sys.stderr)
            return 1
    import qasync

    setup_logging(app_paths().app_log)
    application()
    try:
        qasync.run(run_app(os.environ))
    except asyncio.CancelledError:
        pass
    return 0

"""Start the window: paint first, then qasync, then the engine.

Order matters for start-up time (issue 16: first paint within 2x a bare PySide6 window). The window's own
modules are imported, the window is built, shown and painted on a local Qt event loop (`first_paint`);
only then are asyncio and qasync imported and the qasync loop started (`run_app`), and only then does the
controller import the engine (openai, the agent) and open the database in a worker thread. So nothing a
first paint does not need may import asyncio at module level: the window's modules import it inside the
functions that run later (`ui/tasks.spawn` is the usual way in), and dialogs, the MCP and memory helpers
are imported when first used. tests/ui/test_startup.py checks what is imported before the first paint.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import traceback
from types import TracebackType
from typing import Callable, Mapping

from PySide6.QtCore import QEvent, QEventLoop, QObject
from PySide6.QtWidgets import QApplication, QWidget

from hermes_desktop import __version__, qt_import_hook
from hermes_desktop.core.appearance import peek_appearance
from hermes_desktop.core.logging_setup import hold_early_records, setup_logging
from hermes_desktop.core.paths import app_paths, resources_dir

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
            from PySide6.QtCore import QCoreApplication

            show(QCoreApplication.translate("ErrorBar", "Something went wrong inside Hermes: {0}: {1}. Details are in "
                                            "the log.").format(kind.__name__, value))
        except Exception:  # the window may be gone
            sys.__excepthook__(kind, value, tb)

    sys.excepthook = hook


class _PaintWait(QObject):
    """Runs a local Qt event loop until `widget` has painted once (or `limit_ms` passed: a platform that never
    paints a hidden or minimised window must not hold the start)."""

    def __init__(self, widget: QWidget, limit_ms: int = 3000) -> None:
        from PySide6.QtCore import QTimer

        super().__init__(widget)
        self.painted = False
        self.painted_at: float | None = None  # time.time() of the paint event (the start-up benchmark reads it)
        self._loop = QEventLoop(self)
        self._limit = QTimer(self)
        self._limit.setSingleShot(True)
        self._limit.setInterval(limit_ms)
        self._limit.timeout.connect(self._loop.quit)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self.painted:
            self.painted = True
            self.painted_at = time.time()
            self._loop.quit()
        return False

    def wait(self) -> None:
        if not self.painted:
            self._limit.start()
            # Clicks and keys wait for the qasync loop: a slot that starts a coroutine needs it (ui/tasks.spawn).
            self._loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        self._limit.stop()
        self.parent().removeEventFilter(self)  # type: ignore[union-attr]


def build_window(env: Mapping[str, str] | None = None, *, complete: bool = True):  # type: ignore[no-untyped-def]
    """The window and its controller, not yet started (tests call this under their own loop). With
    complete=False the window has only what its first paint shows; `MainWindow.finish_start()` adds the rest."""
    from hermes_desktop.ui import theme as themes
    from hermes_desktop.ui.controller import AppController
    from hermes_desktop.ui.main_window import MainWindow

    from hermes_desktop.ui.i18n import install_translations

    paths = app_paths()
    app = application()
    language, theme = peek_appearance(paths.settings_file)  # never sets a bad file aside: the engine reports it
    install_translations(app, language)
    manager = themes.ThemeManager(app, theme)
    controller = AppController(env)
    window = MainWindow(controller, manager, paths.config_dir / "window.json")
    if complete:
        window.finish_start()
    return app, window, controller


def first_paint(env: Mapping[str, str] | None = None, *, open_log: bool = True):  # type: ignore[no-untyped-def]
    """Build the window, show it, return once it has painted (then open the log file, unless `open_log` is False:
    `run_window` opens it from the event loop, see `run_app`): before asyncio and qasync are imported. What
    `run_window` does first (and what the start-up benchmark times)."""
    hold_early_records()  # the log file is opened after the paint (core/logging_setup.py)
    application()
    try:
        app, window, controller = build_window(env, complete=False)
    except BaseException:  # the window could not be built: what was logged so far, and why, go to the log file
        setup_logging(app_paths().app_log)
        log.exception("the window could not be built")
        raise
    install_excepthook(window.errors.show_message)
    app.setQuitOnLastWindowClosed(False)
    waiting = _PaintWait(window)
    window.show()
    waiting.wait()
    window.first_painted_at = waiting.painted_at
    if open_log:
        setup_logging(app_paths().app_log)
    return app, window, controller


# What `MainWindow.finish_start` and the hidden inspector tabs import, loaded after the paint without holding
# the window's input (issue 28: ready for input within 2x a bare window). The core modules (no Qt) are imported
# in a worker thread; the window's own modules (Qt classes) on the GUI thread, one per turn of the event loop, so
# a key pressed meanwhile waits for one module's import at most (each 2-15 ms). A name missing here only costs
# time: finish_start imports what it needs itself. tests/ui/test_startup.py imports every name.
AFTER_PAINT_CORE = (
    "logging.handlers",  # the log file's handler (imports socket and pickle): run_app opens the log after it
    "hermes_desktop.core.settings", "hermes_desktop.core.secrets", "hermes_desktop.core.tools.approval",
    "hermes_desktop.core.mcp.config", "hermes_desktop.core.mcp.client_features", "hermes_desktop.core.redact",
    "hermes_desktop.core.terminal_text", "webbrowser", "shlex", "hashlib",
)
AFTER_PAINT_UI = (
    "hermes_desktop.ui.dialogs.approval", "hermes_desktop.ui.approver", "hermes_desktop.ui.dialogs.mcp_secret",
    "hermes_desktop.ui.dialogs.mcp_input", "hermes_desktop.ui.dialogs.mcp_elicitation",
    "hermes_desktop.ui.dialogs.mcp_sampling", "hermes_desktop.ui.icons", "hermes_desktop.ui.rich_list",
    "hermes_desktop.ui.panels", "hermes_desktop.ui.memory_panel", "hermes_desktop.ui.mcp_panel",
    "hermes_desktop.ui.knowledge_panel", "hermes_desktop.ui.assistant_panel",
)


def _import_all(names: tuple[str, ...]) -> None:
    import importlib

    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:  # renamed or gone: the code that needs it imports (and reports) it itself
            log.warning("start-up preload: %s could not be imported", name, exc_info=True)


async def preload_after_paint() -> None:
    """Import what finish_start needs, letting the event loop (and the user's input) run in between; open the log
    file (if first_paint has not: what was logged until now is held and written first, core/logging_setup.py)."""
    import asyncio

    await asyncio.to_thread(_import_all, AFTER_PAINT_CORE)
    setup_logging(app_paths().app_log)  # on this thread: the handlers swap while nothing else logs
    for name in AFTER_PAINT_UI:
        _import_all((name,))
        await asyncio.sleep(0)


async def run_app(app, window, controller) -> None:  # type: ignore[no-untyped-def]
    """The shown window's life on the qasync loop: the engine starts, the window runs until closed."""
    import asyncio

    from hermes_desktop.ui.tasks import drain, install_asyncgen_hooks

    install_asyncgen_hooks(asyncio.get_running_loop())
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    await preload_after_paint()
    if window.isVisible():  # not closed while it was first painting or preloading
        window.finish_start()
        await controller.start()
        import linecache

        # shiboken read the source of every module imported before PySide6 into linecache when it installed its
        # import hook (~1 MB of text, ~2.5 MB with its line lists); a traceback reads what it needs again.
        linecache.clearcache()
        await closed.wait()
    await controller.shutdown()
    await drain()
    if controller.runtime is not None and getattr(window, "sync", None) is not None:
        from hermes_desktop.ui.quit_backup import backup_at_quit

        await backup_at_quit(window.sync.service())  # after shutdown: every message saved (ui/quit_backup.py)


def run_window() -> int:
    """The window until it is closed; 1 with one line on stderr when this session cannot show one."""
    if QApplication.instance() is None:  # a host application's QApplication already has its platform
        from hermes_desktop.ui.display import display_problem

        problem = display_problem(os.environ)
        if problem is not None:
            print(problem, file=sys.stderr)
            return 1
    app, window, controller = first_paint(os.environ, open_log=False)  # run_app opens it, from the event loop
    import asyncio

    import qasync

    try:
        qasync.run(run_app(app, window, controller))
    except asyncio.CancelledError:
        pass
    return 0

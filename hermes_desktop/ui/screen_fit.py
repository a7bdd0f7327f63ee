"""The window on real screens: sized to the screen it opens on, and an inspector that yields on narrow windows.

On a 1366×768 laptop the default 1340×840 window put the message box below the screen's edge, and at 1024 px the
inspector was wider than the chat; hidden and shown again it kept a zero width. Here:
- `fit_to_screen` places the window inside its screen's available geometry (after a saved geometry is restored:
  a layout saved on a big monitor is shrunk on the laptop);
- `InspectorYield` hides the inspector when the window becomes narrower than `YIELD_BELOW` and brings it back
  when the window is wide again, unless the user chose otherwise meanwhile (View › Show inspector); whenever
  the inspector is shown it gets a usable width (`reshown_sizes`).
The arithmetic lives in `window_layout.py` (no Qt) and is tested there.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QSize, QTimer
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget

from hermes_desktop.ui.window_layout import FRAME_ALLOWANCE, YIELD_BELOW, fitted_window_rect, reshown_sizes


def fit_to_screen(window: QMainWindow) -> None:
    """Move and size `window` so that it, frame included, lies inside its screen's available geometry."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    area = screen.availableGeometry()
    frame, inner = window.frameGeometry(), window.geometry()
    # Before the first show the window manager has not told us the frame: allow for a usual one.
    allowance = ((frame.width() - inner.width(), frame.height() - inner.height()) if window.isVisible()
                 else FRAME_ALLOWANCE)
    outer = QRect(frame.topLeft(), QSize(inner.width() + allowance[0], inner.height() + allowance[1]))
    if area.contains(outer):
        return
    x, y, width, height = fitted_window_rect((inner.width(), inner.height()),
                                             (area.x(), area.y(), area.width(), area.height()), allowance)
    window.resize(width, height)
    window.move(x, y)


class InspectorYield(QObject):
    """Hides the inspector below `YIELD_BELOW` px of window width and shows it again above, at a usable width.

    The user's own choice wins: hiding it by hand keeps it hidden when the window grows; showing it by hand on a
    narrow window keeps it shown (with the room taken from the chat, then the sidebar) until the window is
    narrowed again.
    """

    def __init__(self, window: QMainWindow, splitter: QSplitter, inspector: QWidget, toggle: QAction) -> None:
        super().__init__(window)
        self._window = window
        self._splitter = splitter
        self._inspector = inspector
        self._toggle = toggle
        self._narrow = False
        self._yielded = False  # hidden by us, not by the user: shown again when the window is wide
        self._ours = False  # a toggle made by this object, not by the user
        # Kept here rather than asked of the action: at the window's close (save_state) the menu's action may
        # already be gone on the C++ side, and asking it then crashed the test process.
        self.shown = toggle.isChecked()
        toggle.toggled.connect(self._on_toggled)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Resize:
            self.apply(self._window.width())
        return False

    def apply(self, width: int) -> None:
        """React to the window becoming `width` px wide (only a crossing of the threshold changes anything)."""
        narrow = width < YIELD_BELOW
        if narrow == self._narrow:
            return
        self._narrow = narrow
        if narrow and self.shown:
            self._yielded = True
            self._set_checked(False)
        elif not narrow and self._yielded:
            self._yielded = False
            self._set_checked(True)

    @property
    def yielded(self) -> bool:
        """Whether the inspector is hidden now because the window is narrow (not because the user hid it)."""
        return self._yielded

    def _set_checked(self, on: bool) -> None:
        self._ours = True
        try:
            self._toggle.setChecked(on)
        finally:
            self._ours = False

    def _on_toggled(self, on: bool) -> None:
        self.shown = on
        if not self._ours:
            self._yielded = False  # the user decided: we leave it as they set it
        if on:
            # The splitter lays the shown widget out on the next pass; give it its width after that.
            QTimer.singleShot(0, self._give_width)
            self._give_width()

    def _give_width(self) -> None:
        if not self._inspector.isVisible():
            return
        sizes = self._splitter.sizes()
        if len(sizes) == 3:
            wanted = reshown_sizes(sizes)
            if wanted != sizes:
                self._splitter.setSizes(wanted)

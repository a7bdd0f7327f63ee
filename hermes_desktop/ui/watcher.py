"""Call back once, shortly after files stop changing: editors and copies fire many change events."""

from __future__ import annotations

from typing import Callable, Iterable

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer


class SettledWatcher(QObject):
    def __init__(self, parent: QObject, on_settled: Callable[[], object], delay_ms: int = 700) -> None:
        super().__init__(parent)
        self._watcher = QFileSystemWatcher(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(on_settled)
        self._watcher.directoryChanged.connect(lambda _path: self._timer.start())
        self._watcher.fileChanged.connect(lambda _path: self._timer.start())

    def watch(self, paths: Iterable[str]) -> None:
        """Add paths not yet watched (folders or files that exist)."""
        watched = set(self._watcher.directories()) | set(self._watcher.files())
        new = [p for p in paths if p not in watched]
        if new:
            self._watcher.addPaths(new)

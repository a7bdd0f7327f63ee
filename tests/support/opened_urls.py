"""Catch the URLs the window asks the desktop to open (Qt's own hook, QDesktopServices.setUrlHandler), so no file
manager, image viewer or browser starts during a test."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices


class _Catcher(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


@contextmanager
def opened_urls(scheme: str) -> Iterator[list[QUrl]]:
    """The `scheme` URLs (file, https…) opened while inside, in order; the desktop's handler is back afterwards."""
    catcher = _Catcher()
    QDesktopServices.setUrlHandler(scheme, catcher, "open")
    try:
        yield catcher.urls
    finally:
        QDesktopServices.unsetUrlHandler(scheme)

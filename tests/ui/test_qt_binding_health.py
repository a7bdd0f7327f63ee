"""Guard against Qt binding releases that corrupt reference counts.

PySide6-Essentials 6.12.0 on Python 3.11 drops a reference to None on every call of a
void method (QPainter.save, setPen, ...): after a few thousand repaints the app dies with
"Fatal Python error: none_dealloc". pyproject.toml excludes that release; this test fails
loudly if an installed release has the same defect. (From Python 3.12 None is immortal.)
"""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QFont, QImage, QPainter


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from Python 3.12")
def test_void_painter_calls_keep_none_alive(qapp) -> None:
    image = QImage(64, 64, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    before = sys.getrefcount(None)
    for _ in range(500):
        painter.save()
        painter.setPen(QColor("#000000"))
        painter.setFont(QFont())
        painter.drawRoundedRect(QRectF(0, 0, 10, 10), 3, 3)
        painter.restore()
    after = sys.getrefcount(None)
    painter.end()
    assert after >= before - 50, f"the Qt binding lost {before - after} references to None in 2,500 calls"

"""A huge photo is decoded at the size it is sent at: its full bitmap is never held (hermes_desktop/imaging.py).

Measured in a fresh process by its peak resident memory (ru_maxrss), not by time: a 9,000 x 6,750 JPEG is 243 MB as
a full 32-bit bitmap; decoded at reduced size it takes a few tens of MB. The picture itself is made in another
process, so its own bitmap does not count."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAKE = """
import sys
from PySide6.QtGui import QColor, QImage, QPainter
image = QImage(9000, 6750, QImage.Format.Format_RGB32)
image.fill(QColor("#3366ff"))
painter = QPainter(image)
painter.fillRect(0, 0, 4500, 3375, QColor("#ff9900"))  # a top-left quarter, to check the picture survives whole
painter.end()
assert image.save(sys.argv[1], "JPEG", 85)
"""
MEASURE = """
import resource, sys
from pathlib import Path
data = Path(sys.argv[1]).read_bytes()
from hermes_desktop.imaging import process_image
from PySide6.QtGui import QImage
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
image = process_image(data)
grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
decoded = QImage.fromData(image.data)
corner, far = decoded.pixelColor(10, 10).name(), decoded.pixelColor(decoded.width() - 10, decoded.height() - 10).name()
print(image.mime, image.width, image.height, round(grown_mb), corner, far)
"""


def _run(script: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_huge_jpeg_is_decoded_at_reduced_size_without_its_full_bitmap(tmp_path: Path) -> None:
    photo = tmp_path / "huge.jpg"
    _run(MAKE, str(photo))
    mime, width, height, grown_mb, corner, far = _run(MEASURE, str(photo)).split()
    assert (mime, int(width), int(height)) == ("image/jpeg", 2048, 1536)
    assert int(grown_mb) < 120, f"decoding took {grown_mb} MB (the full bitmap is 243 MB)"
    assert corner.startswith("#f") and far.startswith("#3"), (corner, far)  # scaled whole, not cropped

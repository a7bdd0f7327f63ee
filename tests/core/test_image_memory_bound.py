"""Attaching a huge image is bounded in memory whatever its format (hermes_desktop/imaging.py, issue 21).

Only JPEG decodes at reduced size here; PNG, WebP and GIF decode whole, so a picture whose header says it needs more
than DECODE_BUDGET_BYTES is refused before decoding, with its size in pixels and the limit. Measured in a fresh
process by its peak resident memory (VmHWM), not by time. The files are made small and honest: a 12,000 x 12,000
PNG compresses to 420 KB (a 576 MB bitmap); a GIF whose 1 x 1 frame sits on an 11,000 x 11,000 screen is 35 bytes
(Qt decodes the whole screen: 537 MB before); a WebP whose lossless header says 12,000 x 12,000 (Qt writes the file,
the size is then set in its header, since encoding a real one takes ~840 MB). The bound: Python, PySide6 and the
core take ~50 MB here; 250 MB leaves room for the 160 MB budget an accepted picture may use, and is half of what
each of these took before."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOUND_KB = 250 * 1024
ATTACH = """
import sys
from pathlib import Path
from hermes_desktop.core.attachments import AttachmentError, prepare_attachment
from hermes_desktop.imaging import process_image
try:
    done = prepare_attachment(Path(sys.argv[1]), process_image=process_image)
    print("ok", done.mime, done.width, done.height)
except AttachmentError as exc:
    print("refused", exc.code, str(exc))
peak = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")][0]
print(peak)
"""
WEBP = """
import sys
from PySide6.QtGui import QColor, QImage
image = QImage(64, 64, QImage.Format.Format_RGB32)
image.fill(QColor("#3366ff"))
assert image.save(sys.argv[1], "WEBP", 100)  # quality 100: lossless (VP8L)
"""


def _run(script: str, *args: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def _attach(path: Path) -> tuple[str, int]:
    """(what the core said, peak resident memory in KB) of attaching `path` in a fresh process."""
    said, peak = _run(ATTACH, str(path))
    return said, int(peak)


def _png(path: Path, width: int, height: int, color_type: int = 2) -> None:
    """A black PNG streamed row by row (its bitmap is never held here); color type 2: RGB, 6: RGBA."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    row = bytes(1 + width * {2: 3, 6: 4}[color_type])
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))
                     + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def _gif(path: Path, width: int, height: int) -> None:
    """A valid GIF: a width x height screen holding one 1 x 1 frame (clear code, index 0, end code, 3 bits each)."""
    path.write_bytes(b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"
                     + b"\x2c" + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00\x3b")


def test_a_huge_png_is_refused_from_its_header_with_its_size_and_the_limit(tmp_path: Path) -> None:
    picture = tmp_path / "poster.png"
    _png(picture, 12_000, 12_000)
    assert picture.stat().st_size < 1_000_000
    said, peak = _attach(picture)
    assert said.startswith("refused too_large poster.png: 12,000 × 12,000 pixels (144 megapixels) is larger than "
                           "the limit of 42 megapixels for a PNG image; save it smaller"), said
    assert peak < BOUND_KB, f"{peak // 1024} MB"


def test_a_png_just_under_the_limit_is_scaled_within_the_bound(tmp_path: Path) -> None:
    picture = tmp_path / "scan.png"
    _png(picture, 6_400, 6_400, color_type=6)  # 41 MP RGBA: 164 MB decoded; Qt's own scaling copied it (385 MB)
    said, peak = _attach(picture)
    assert said == "ok image/png 2048 2048"
    assert peak < BOUND_KB, f"{peak // 1024} MB"


def test_a_gif_whose_screen_is_huge_is_refused_though_its_frame_is_tiny(tmp_path: Path) -> None:
    picture = tmp_path / "tiny.gif"
    _gif(picture, 11_000, 11_000)
    said, peak = _attach(picture)
    assert said.startswith("refused too_large tiny.gif: 11,000 × 11,000 pixels (121 megapixels)"), said
    assert "for a GIF image" in said
    assert peak < BOUND_KB, f"{peak // 1024} MB"
    small = tmp_path / "small.gif"
    _gif(small, 300, 200)
    assert _attach(small)[0] == "ok image/gif 300 200"  # kept as it is


def test_a_webp_whose_header_says_huge_is_refused_before_decoding(tmp_path: Path) -> None:
    picture = tmp_path / "wide.webp"
    _run(WEBP, str(picture))
    data = bytearray(picture.read_bytes())
    assert data[12:16] == b"VP8L" and data[20] == 0x2F
    fields = int.from_bytes(data[21:25], "little")
    fields = (fields & ~((1 << 28) - 1)) | (12_000 - 1) | (12_000 - 1) << 14  # 14 bits each: width-1, height-1
    data[21:25] = fields.to_bytes(4, "little")
    picture.write_bytes(bytes(data))
    said, peak = _attach(picture)
    assert said.startswith("refused too_large wide.webp: 12,000 × 12,000 pixels"), said
    assert "for a WEBP image" in said
    assert peak < BOUND_KB, f"{peak // 1024} MB"

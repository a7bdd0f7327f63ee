"""Image decoding and downscaling with Qt, for attachments (injected into the Qt-free core as an ImageProcessor).

QImage needs no QGuiApplication (tests/core/test_attachments.py runs it in a process without one), so the window
and the CLI share this. A picture that already fits (longest side at most MAX_IMAGE_SIDE) in PNG, JPEG, GIF or
WebP is kept byte for byte; a larger one, or another format (BMP), is scaled with smooth filtering and written as
PNG (JPEG stays JPEG, at quality 90, so photos do not grow). A larger picture is decoded at its reduced size
(`QImageReader.setScaledSize`), which libjpeg does without ever holding the full bitmap. Qt's own allocation limit
is raised for decoding only as far as the core's file size limit allows.
"""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize, Qt
from PySide6.QtGui import QImage, QImageIOHandler, QImageReader

from hermes_desktop import qt_import_hook
from hermes_desktop.core.attachments import MAX_IMAGE_SIDE, ProcessedImage

qt_import_hook.guard()  # before the CLI imports openai: see qt_import_hook

_KEEP_AS_IS = {b"PNG": "image/png", b"JPEG": "image/jpeg", b"JPG": "image/jpeg", b"GIF": "image/gif",
               b"WEBP": "image/webp"}


def process_image(data: bytes) -> ProcessedImage:
    """Decode `data`, downscale to at most MAX_IMAGE_SIDE px on the longest side. ValueError: not a readable image."""
    QImageReader.setAllocationLimit(512)  # MB; a 20 MB file can decode to a large bitmap
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    reader.setAutoTransform(True)  # EXIF rotation, as viewers show it
    fmt = bytes(reader.format().data()).upper()
    reduced = _reduced_size(reader.size())
    if reduced is not None:
        # Decoded straight at the size it is sent at: a JPEG is then decoded at 1/2, 1/4 or 1/8 scale by libjpeg (a
        # 100-megapixel photo took ~800 MB as a full bitmap, now a few tens); other formats are scaled once, by Qt.
        reader.setScaledSize(reduced)
    image = reader.read()
    if image.isNull():
        raise ValueError(reader.errorString() or "the image could not be decoded")
    width, height = image.width(), image.height()
    if reduced is None and max(width, height) <= MAX_IMAGE_SIDE and fmt in _KEEP_AS_IS and not _rotated(reader):
        return ProcessedImage(data, _KEEP_AS_IS[fmt], width, height)
    if max(width, height) > MAX_IMAGE_SIDE:
        image = image.scaled(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE, Qt.AspectRatioMode.KeepAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    jpeg = fmt in (b"JPEG", b"JPG")
    encoded = _encode(image, "JPEG" if jpeg else "PNG")
    return ProcessedImage(encoded, "image/jpeg" if jpeg else "image/png", image.width(), image.height())


def _reduced_size(size: QSize) -> QSize | None:
    """The size within MAX_IMAGE_SIDE with the same proportions, when the header's `size` is larger; else None."""
    width, height = size.width(), size.height()
    if width <= 0 or height <= 0 or max(width, height) <= MAX_IMAGE_SIDE:
        return None
    return size.scaled(QSize(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE), Qt.AspectRatioMode.KeepAspectRatio)  # as QImage.scaled


def _rotated(reader: QImageReader) -> bool:
    """True when the file asks to be shown rotated or mirrored (EXIF): the stored copy is then upright."""
    return reader.transformation() != QImageIOHandler.Transformation.TransformationNone


def _encode(image: QImage, fmt: str) -> bytes:
    array = QByteArray()
    out = QBuffer(array)
    out.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(out, fmt, 90 if fmt == "JPEG" else -1):
        raise ValueError(f"the image could not be written as {fmt}")
    return bytes(array.data())

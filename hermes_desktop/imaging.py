"""Image decoding and downscaling with Qt, for attachments (injected into the Qt-free core as an ImageProcessor).

QImage needs no QGuiApplication (tests/core/test_attachments.py runs it in a process without one), so the window
and the CLI share this. A picture that already fits (longest side at most MAX_IMAGE_SIDE) in PNG, JPEG, GIF or
WebP is kept byte for byte; a larger one, or another format (BMP), is scaled with smooth filtering and written as
PNG (JPEG stays JPEG, at quality 90, so photos do not grow). A larger picture is decoded at its reduced size
(`QImageReader.setScaledSize`), which libjpeg does without ever holding the full bitmap.

Memory is bounded for every format (issue 21: a 396 KB PNG of 11,300 x 11,300 px took 553 MB to attach). Only
JPEG's handler decodes at reduced size here (PNG, WebP, GIF, BMP and TIFF decode whole, then Qt scales), so before
anything is decoded the header's size and pixel format give what decoding and scaling will hold
(`decode_cost`), and a picture over DECODE_BUDGET_BYTES is refused with `ImageTooLarge`, which the core words
with its size in pixels and the limit. Qt's allocation limit is set to the same budget, for a header that lies.
"""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize, Qt
from PySide6.QtGui import QImage, QImageIOHandler, QImageReader

from hermes_desktop import qt_import_hook
from hermes_desktop.core.attachments import MAX_IMAGE_SIDE, ImageTooLarge, ProcessedImage

qt_import_hook.guard()  # before the CLI imports openai: see qt_import_hook

_KEEP_AS_IS = {b"PNG": "image/png", b"JPEG": "image/jpeg", b"JPG": "image/jpeg", b"GIF": "image/gif",
               b"WEBP": "image/webp"}
# What one attachment may hold while it is decoded and scaled: a 41-megapixel RGB PNG (8K is 33), with the rest of
# the process well under 250 MB (measured: tests/core/test_image_memory_bound.py).
DECODE_BUDGET_BYTES = 160 * 1024 * 1024
_FULL_WIDTH = (QImage.Format.Format_RGB32, QImage.Format.Format_ARGB32, QImage.Format.Format_ARGB32_Premultiplied,
               QImage.Format.Format_RGBX64, QImage.Format.Format_RGBA64, QImage.Format.Format_RGBA64_Premultiplied)
_PREMULTIPLIED = {QImage.Format.Format_ARGB32: QImage.Format.Format_ARGB32_Premultiplied,
                  QImage.Format.Format_RGBA64: QImage.Format.Format_RGBA64_Premultiplied}


def process_image(data: bytes) -> ProcessedImage:
    """Decode `data`, downscale to at most MAX_IMAGE_SIDE px on the longest side. ValueError: not a readable image."""
    QImageReader.setAllocationLimit(DECODE_BUDGET_BYTES // (1024 * 1024))  # MB; for a header that lies
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    reader.setAutoTransform(True)  # EXIF rotation, as viewers show it
    fmt = bytes(reader.format().data()).upper()
    _check_budget(reader, fmt, _gif_screen(data) if fmt == b"GIF" else None)
    reduced = _reduced_size(reader.size())
    if reduced is not None and reader.supportsOption(QImageIOHandler.ImageOption.ScaledSize):
        # Decoded straight at the size it is sent at: a JPEG is then decoded at 1/2, 1/4 or 1/8 scale by libjpeg (a
        # 100-megapixel photo took ~800 MB as a full bitmap, now a few tens). Not for the other formats: the reader
        # would decode them whole and scale a converted copy (a 41-megapixel RGBA PNG: 385 MB; scaled below: 215).
        reader.setScaledSize(reduced)
    image = reader.read()
    if image.isNull():
        raise ValueError(reader.errorString() or "the image could not be decoded")
    width, height = image.width(), image.height()
    if reduced is None and max(width, height) <= MAX_IMAGE_SIDE and fmt in _KEEP_AS_IS and not _rotated(reader):
        return ProcessedImage(data, _KEEP_AS_IS[fmt], width, height)
    if max(width, height) > MAX_IMAGE_SIDE:
        if image.format() in _PREMULTIPLIED:  # in place: Qt's smooth scaling would otherwise convert a copy
            image.convertTo(_PREMULTIPLIED[image.format()])
        image = image.scaled(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE, Qt.AspectRatioMode.KeepAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    jpeg = fmt in (b"JPEG", b"JPG")
    encoded = _encode(image, "JPEG" if jpeg else "PNG")
    return ProcessedImage(encoded, "image/jpeg" if jpeg else "image/png", image.width(), image.height())


def _gif_screen(data: bytes) -> QSize:
    """A GIF's logical screen: Qt decodes a canvas that large, but its reader's size() is the first frame's (a
    35-byte GIF with a 1 x 1 frame on an 11,000 x 11,000 screen took 537 MB)."""
    return QSize(int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")) if len(data) >= 10 \
        else QSize()


def decode_cost(reader: QImageReader, fmt: bytes, canvas: QSize | None = None) -> tuple[int, int]:
    """(bytes that decoding and scaling the picture will hold, bytes per pixel of it), from its header alone;
    `canvas`: a larger size the format decodes to than the reader says (a GIF's screen). (0, 0): no size known."""
    size = reader.size() if canvas is None else reader.size().expandedTo(canvas)
    width, height = size.width(), size.height()
    if width <= 0 or height <= 0:
        return 0, 0
    pixels = width * height
    if fmt in (b"JPEG", b"JPG") and max(width, height) > MAX_IMAGE_SIDE:
        pixels = -(-width // 8) * -(-height // 8)  # libjpeg's reduced decode goes down to 1/8 of each side
    header_format = reader.imageFormat()
    if header_format == QImage.Format.Format_Invalid:  # WebP, GIF: they decode to 32 bits per pixel
        header_format = QImage.Format.Format_ARGB32
    bits = QImage.toPixelFormat(header_format).bitsPerPixel()
    per_pixel = max(1, bits // 8)
    if header_format not in _FULL_WIDTH:  # smooth scaling first converts a narrower bitmap to 32 or 64 bits (a copy)
        per_pixel += 8 if header_format == QImage.Format.Format_Grayscale16 else 4
    return pixels * per_pixel, per_pixel


def _check_budget(reader: QImageReader, fmt: bytes, canvas: QSize | None) -> None:
    """ImageTooLarge when decoding the picture would hold more than DECODE_BUDGET_BYTES."""
    cost, per_pixel = decode_cost(reader, fmt, canvas)
    if cost <= DECODE_BUDGET_BYTES:
        return
    size = reader.size() if canvas is None else reader.size().expandedTo(canvas)
    limit = DECODE_BUDGET_BYTES // per_pixel
    if fmt in (b"JPEG", b"JPG"):
        limit *= 64  # in the picture's own pixels, of which 1 in 64 is decoded
    raise ImageTooLarge(fmt.decode("ascii", "replace") or "this", size.width(), size.height(), limit)


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

"""The images a reply's formulas are drawn as: ziamath's SVG scaled, coloured and padded for one document.

math_markdown.py writes a formula as `<img src="math:<colour>/<source>" style="vertical-align: middle">`;
`add_math_images` gives a QTextDocument those images before its HTML is set. Each image is

- sized to the document's font: the math font's x-height matched to the text's (as MathJax does), between 1.0
  and 1.2 times the text's size, and shrunk to the column when wider;
- drawn at the screen's device pixel ratio (the largest of the screens), with that ratio set on the QImage, so
  Qt lays it out at its logical size and a 2x screen gets every device pixel (crisp, not scaled up);
- coloured in the theme's text colour (the colour is in the URL, so a theme switch makes new documents), by
  filling the drawn shape with SourceIn;
- padded with transparent rows so its baseline sits on the text's. Measured, not assumed (the numbers are in
  docs/math.md): Qt draws a `vertical-align: middle` object centred in its line, and a line that the object
  does not make taller is centred (ascent - descent) / 2 above the baseline; an object taller than the line
  makes it grow by (h + x) / 2 above and (h - x) / 2 below, where x is the x-height of the object's own font.
  So the image is padded to put the formula's baseline (ascent - descent) / 2 below its centre, and the `<img>`
  gets a font size whose x-height is 2 (ascent - descent) (`add_math_images` returns the HTML with it): then a
  short formula and a tall one alike sit on the baseline, and a short one does not make its line taller.
  tests/ui/test_math_render.py checks the rows drawn.

Images are cached (LRU) by URL, font, ratio and the width they had to fit; typesetting is cached in
core/math_typeset.py, so a new document for a grown streaming block costs neither.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict

from PySide6.QtCore import QByteArray, QRectF, QUrl
from PySide6.QtGui import QColor, QFont, QFontInfo, QFontMetricsF, QGuiApplication, QImage, QPainter, QTextDocument

from hermes_desktop.core.markdown_math import parse_math_url, split_source

_URL = re.compile(r'src="(math:[^"]+)"')
_MIDDLE = 'style="vertical-align: middle;"'  # what math_markdown.py writes on a formula's <img>
_centring: dict[str, int] = {}
SIZE_RANGE = (1.0, 1.2)  # math size / text size
_CACHE_SIZE = 512
_images: OrderedDict[tuple[str, str, float, int | None], QImage] = OrderedDict()
rendered_count = [0]  # images drawn (not from the cache): the tests check a streaming reply draws each once


def add_math_images(doc: QTextDocument, html: str, font: QFont, width: float, ratio: float | None = None) -> str:
    """Give `doc` the images of the formulas its `html` shows; returns the HTML to set (with the images' font
    size, see the module docstring)."""
    for url in dict.fromkeys(_URL.findall(html)):
        image = math_image(url, font, width, ratio)
        if image is not None:
            doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(url), image)
    return html.replace(_MIDDLE, f'{_MIDDLE[:-1]} font-size: {_centring_font_px(font)}px;"')


def _centring_font_px(font: QFont) -> int:
    """The pixel size of a font (of font's family) whose x-height is twice the text's ascent less descent."""
    metrics = QFontMetricsF(font)
    target = 2 * (metrics.ascent() - metrics.descent())
    key = font.key()
    cached = _centring.get(key)
    if cached is None:
        probe = QFont(font)
        best, best_error = 1, float("inf")
        guess = max(1, round(QFontInfo(font).pixelSize() * target / max(1.0, metrics.xHeight())))
        for size in range(max(1, guess - 3), guess + 4):
            probe.setPixelSize(size)
            error = abs(QFontMetricsF(probe).xHeight() - target)
            if error < best_error:
                best, best_error = size, error
        cached = _centring[key] = best
    return cached


def screen_ratio() -> float:
    screens = QGuiApplication.screens() if QGuiApplication.instance() is not None else []
    return max([s.devicePixelRatio() for s in screens] + [1.0])


def math_image(url: str, font: QFont, max_width: float, ratio: float | None = None) -> QImage | None:
    """The formula of a math URL drawn for `font` (None when it is no formula)."""
    from hermes_desktop.core.math_typeset import NOMINAL_PX, MathSyntaxError, math_x_height, typeset

    parsed = parse_math_url(url)
    parts = split_source(parsed[0]) if parsed else None
    if parsed is None or parts is None:
        return None
    try:
        shape = typeset(*parts)
    except MathSyntaxError:
        return None
    ratio = ratio or screen_ratio()
    metrics = QFontMetricsF(font)
    x_height = metrics.xHeight()
    font_px = max(6.0, float(QFontInfo(font).pixelSize()))
    low, high = (font_px * f / NOMINAL_PX for f in SIZE_RANGE)
    scale = min(high, max(low, x_height / math_x_height()))
    fit: int | None = None
    if shape.width * scale > max_width > 0:
        fit = int(max_width)
        scale = fit / shape.width
    key = (url, font.key(), ratio, fit)
    cached = _images.get(key)
    if cached is not None:
        _images.move_to_end(key)
        return cached
    image = _draw(shape.svg, parsed[1], shape.width * scale, shape.ascent * scale, shape.depth * scale,
                  metrics.ascent() - metrics.descent(), ratio)
    _images[key] = image
    if len(_images) > _CACHE_SIZE:
        _images.popitem(last=False)
    return image


def _draw(svg: str, colour: str, width: float, ascent: float, depth: float, lift: float, ratio: float) -> QImage:
    """The formula drawn with its baseline `lift` / 2 below the image's centre (module docstring)."""
    from PySide6.QtSvg import QSvgRenderer

    top = max(0.0, lift - ascent + depth)
    bottom = max(0.0, ascent - depth - lift)
    height = top + ascent + depth + bottom
    extra = math.ceil(height * ratio) / ratio - height  # whole device pixels: the rest split, the centre kept
    top += extra / 2
    height += extra
    image = QImage(max(1, math.ceil(width * ratio)), max(1, math.ceil(height * ratio)),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(QByteArray(svg.encode("utf-8"))).render(
        painter, QRectF(0, top * ratio, width * ratio, (ascent + depth) * ratio))
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
    painter.fillRect(image.rect(), QColor(colour))
    painter.end()
    image.setDevicePixelRatio(ratio)
    rendered_count[0] += 1
    return image

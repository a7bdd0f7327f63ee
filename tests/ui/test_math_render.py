"""Formulas in the chat's rich text: images on the text's baseline, crisp at a device pixel ratio of 2, in the
theme's colour; broken LaTeX, prices and code left as written; a selection copies as LaTeX; a streaming reply
typesets and draws each formula once."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtTest import QTest
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QTextDocument

from hermes_desktop.core import math_typeset
from hermes_desktop.core.markdown_math import parse_math_url
from hermes_desktop.ui.chat import math_images
from hermes_desktop.ui.chat.items import MessageItem
from hermes_desktop.ui.chat.layout import DocumentCache, RowLayouter
from hermes_desktop.ui.chat.markdown_render import DARK, LIGHT, render_block, split_blocks
from hermes_desktop.ui.chat.math_copy import MessageTextView, document_source

OBJECT = "\ufffc"
pytestmark = pytest.mark.usefixtures("qapp")


def font() -> QFont:
    f = QFont("DejaVu Sans")
    f.setPixelSize(16)
    return f


def document(markdown: str, palette=LIGHT, width: float = 600.0) -> QTextDocument:
    html = "".join(render_block(block, palette).html for block in split_blocks(markdown))
    return DocumentCache().get(html, width, font())


def math_images_of(doc: QTextDocument) -> list[tuple[str, QImage]]:
    found = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            it += 1
            if fmt.isImageFormat() and fmt.toImageFormat().name().startswith("math:"):
                name = fmt.toImageFormat().name()
                found.append((name, doc.resource(QTextDocument.ResourceType.ImageResource, QUrl(name))))
        block = block.next()
    return found


def test_inline_and_display_formulas_become_images() -> None:
    text = "The derivative of $x^2$ is \\(2x\\).\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n\nand \\[\\sum_n a_n\\]"
    doc = document(text)
    images = math_images_of(doc)
    assert [parse_math_url(name)[0] for name, _ in images] == [
        "$x^2$", "\\(2x\\)", "$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$", "\\[\\sum_n a_n\\]"]
    assert all(isinstance(image, QImage) and not image.isNull() for _, image in images)
    plain = doc.toPlainText()
    assert "$" not in plain and "\\(" not in plain and plain.count(OBJECT) == 4
    html = render_block("$$\n\\int_0^1 x\\,dx\n$$", LIGHT).html
    assert html.startswith('<p align="center"><img src="math:')  # a display formula is centred on its own line


def test_broken_latex_stays_as_its_source_in_monospace() -> None:
    for source in ("$\\frac{1}{$", "$x^$", "\\(\\unknowncommand{x}\\)", "$\\left( x$"):
        html = render_block(f"Look: {source} here", LIGHT).html
        assert "<img" not in html and "<code" in html, source
        assert source in document(f"Look: {source} here").toPlainText()
    block = render_block("$$\n\\frac{1}{\n$$", LIGHT).html
    assert "<img" not in block and "monospace" in block and "\\frac{1}{" in block


def test_dollar_amounts_and_code_are_left_alone() -> None:
    for text in ("It costs $5 and $10.", "costs $3.50", "between $5-$10 a month"):
        doc = document(text)
        assert not math_images_of(doc) and doc.toPlainText().strip() == text
    code = document("Run `echo $x$` or\n\n```sh\necho $HOME $y$\n```\n\n    $z$ indented\n\n- item\n  ```\n  $w$\n  ```")
    assert not math_images_of(code)
    plain = code.toPlainText()
    assert "echo $x$" in plain and "$y$" in plain and "$z$" in plain and "$w$" in plain


def _ink_rows(image: QImage, left: int, right: int) -> list[int]:
    rows = []
    for y in range(image.height()):
        if any(QColor(image.pixel(x, y)).lightness() < 128 for x in range(max(0, left), min(image.width(), right))):
            rows.append(y)
    return rows


def _paint(doc: QTextDocument, ratio: float) -> QImage:
    size = doc.size()
    image = QImage(int(size.width() * ratio) + 2, int(size.height() * ratio) + 2, QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(ratio)
    image.fill(QColor("white"))
    painter = QPainter(image)
    doc.drawContents(painter)
    painter.end()
    return image


def test_an_inline_formula_sits_on_the_text_baseline() -> None:
    """The bottom of a typeset x is on the baseline of the text's x beside it (measured in drawn pixels), for a
    flat formula, one with a superscript and one taller than the line, at 1x and 2x."""
    for ratio in (1.0, 2.0):
        # flat, with a superscript, and one taller than the line (which then grows around it)
        for formula in ("$x$", "$x^{2}$", "$\\overline{\\overline{\\overline{x}}}^{2^{2^{2^{2}}}}$"):
            html = render_block(f"xxxx{formula}xxxx", LIGHT).html
            doc = QTextDocument()
            doc.setDocumentMargin(0)
            doc.setDefaultFont(font())
            doc.setHtml(math_images.add_math_images(doc, html, font(), 600.0, ratio=ratio))
            doc.setTextWidth(600.0)
            doc.size()  # laid out before its lines are read
            block = doc.begin()
            line = block.layout().lineAt(0)
            text_left, text_right = line.cursorToX(0)[0], line.cursorToX(4)[0]
            math_left, math_right = line.cursorToX(4)[0], line.cursorToX(5)[0]
            image = _paint(doc, ratio)
            text_rows = _ink_rows(image, int(text_left * ratio) + 1, int(text_right * ratio) - 1)
            math_rows = _ink_rows(image, int(math_left * ratio) + 1, int(math_right * ratio) - 1)
            assert text_rows and math_rows
            assert abs(text_rows[-1] - math_rows[-1]) <= ratio, (ratio, formula, text_rows[-1], math_rows[-1])
            # and the formula is of the text's size: its x is as tall as the text's, give or take a device pixel
            x_height = text_rows[-1] - text_rows[0]
            assert math_rows[-1] - math_rows[0] >= x_height - ratio


def test_crisp_on_a_2x_screen() -> None:
    """At a device pixel ratio of 2 the image has twice the pixels and the same logical size."""
    url = next(u for u in [render_block("$\\int_0^1 x^2\\,dx$", LIGHT).html.split('"')[1]])
    one = math_images.math_image(url, font(), 600.0, ratio=1.0)
    two = math_images.math_image(url, font(), 600.0, ratio=2.0)
    assert two.devicePixelRatio() == 2.0 and one.devicePixelRatio() == 1.0
    assert abs(two.width() - 2 * one.width()) <= 2 and abs(two.height() - 2 * one.height()) <= 2
    assert abs(two.deviceIndependentSize().width() - one.width()) <= 1
    html = render_block("a $\\int_0^1 x^2\\,dx$ b", LIGHT).html
    heights = []
    for ratio in (1.0, 2.0):
        doc = QTextDocument()
        doc.setDefaultFont(font())
        doc.setHtml(math_images.add_math_images(doc, html, font(), 600.0, ratio=ratio))
        heights.append(doc.size().height())
    assert abs(heights[0] - heights[1]) <= 1


def _ink_colour(image: QImage) -> QColor:
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    best = max(((image.pixelColor(x, y)) for x in range(image.width()) for y in range(image.height())),
               key=lambda c: c.alpha())
    return best


def test_the_colour_follows_the_theme() -> None:
    for palette in (LIGHT, DARK):
        images = math_images_of(document("The area is $\\pi r^2$.", palette))
        assert len(images) == 1
        ink = _ink_colour(images[0][1])
        assert ink.alpha() == 255 and ink.name() == QColor(palette.text).name(), (palette.text, ink.name())


def test_a_wide_display_formula_fits_the_column() -> None:
    wide = "$$" + " + ".join(f"a_{{{n}}}" for n in range(60)) + "$$"
    doc = document(wide, width=300.0)
    assert doc.size().width() <= 301


def test_copying_a_selection_gives_the_latex(qapp) -> None:
    text = "The derivative of $x^2$ is \\(2x\\):\n\n$$\n\\frac{d}{dx}x^2 = 2x\n$$\n\nIt costs $5."
    view = MessageTextView()
    view.resize(600, 400)
    view.set_message_html("".join(render_block(b, LIGHT).html for b in split_blocks(text)))
    view.selectAll()
    copied = view.createMimeDataFromSource().text()
    assert copied == "The derivative of $x^2$ is \\(2x\\):\n$$\n\\frac{d}{dx}x^2 = 2x\n$$\nIt costs $5."
    view.copy()
    assert qapp.clipboard().text() == copied
    qapp.clipboard().clear()
    QTest.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)  # as the user copies
    assert qapp.clipboard().text() == copied
    # A part of a line: from "of" to just after the first formula.
    cursor = view.textCursor()
    start = view.toPlainText().index("of")
    cursor.setPosition(start)
    cursor.setPosition(start + len("of ") + 1, cursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    assert view.createMimeDataFromSource().text() == "of $x^2$"
    assert document_source(view.document()).startswith("The derivative of $x^2$")
    view.deleteLater()


def test_a_streaming_reply_typesets_and_draws_each_formula_once(qapp) -> None:
    """Laid out every 3 characters as it streams (the window lays out each chunk): each formula is typeset and
    drawn once, when its closing delimiter has arrived, and the finished reply is the same as laid out whole."""
    text = ("First $\\zeta_{9173}^2$ then $\\frac{1}{9173}$ done.\n\n$$\n\\int_0^{9173} x\\,dx\n$$\n\n"
            "and \\(\\omega_{9173}\\) at the end.")
    typeset_before, drawn_before = math_typeset.cache_info().misses, math_images.rendered_count[0]
    streaming = RowLayouter(font())
    item = MessageItem("assistant", "", message_id=91, streaming=True)
    for end in range(0, len(text) + 1, 3):
        item.text = text[:end]
        streaming.layout(item, 600.0)
    item.text, item.streaming = text, False
    pieces = [part.doc.toHtml() for part in streaming.layout(item, 600.0).docs]
    assert math_typeset.cache_info().misses - typeset_before == 4
    assert math_images.rendered_count[0] - drawn_before == 4
    whole = [part.doc.toHtml() for part in RowLayouter(font()).layout(MessageItem("assistant", text, message_id=92),
                                                                        600.0).docs]
    assert pieces == whole and sum(html.count('src="math:') for html in whole) == 4

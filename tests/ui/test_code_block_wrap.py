"""A long one-line code block (an MCP result's JSON, a minified file) wraps inside the message column instead of
running past it and being clipped: `<pre>` in Qt's rich text is `white-space: pre`, which never wraps."""

from __future__ import annotations

from PySide6.QtGui import QFont

from hermes_desktop.ui.chat.layout import DocumentCache
from hermes_desktop.ui.chat.markdown_render import LIGHT, render_block


def test_a_long_one_line_code_block_fits_the_column(qapp) -> None:
    line = '{"results": [' + ", ".join(f'{{"id": {n}, "name": "item-{n}"}}' for n in range(60)) + "]}"
    blob = "x" * 400  # no space at all: wraps anywhere
    for code in (line, blob):
        rendered = render_block(f"```json\n{code}\n```", LIGHT)
        doc = DocumentCache().get(rendered.html, 420.0, QFont())
        assert doc.size().width() <= 420.0 + 1, doc.size().width()
        assert code.replace(" ", "") in doc.toPlainText().replace(" ", "").replace("\u2028", "").replace("\n", "")

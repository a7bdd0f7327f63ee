"""Copying selected reply text gives the LaTeX of its formulas, not an object character.

A formula is an image in the document (math_images.py); Qt's own copy puts U+FFFC where an image is. The
message's selectable view (the delegate's editor, opened by a double-click) copies through `selection_source`,
which writes each formula image as its source with its delimiters (its URL carries it: core/markdown_math.py).
Copying a whole reply (its Copy link, "Copy the last reply") already gives the Markdown source, LaTeX included.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QContextMenuEvent, QGuiApplication, QKeyEvent, QKeySequence, QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextBrowser

from hermes_desktop.core.markdown_math import parse_math_url

_OBJECT = "\ufffc"


class MessageTextView(QTextBrowser):
    """The read-only view a message is selected in; its copy (Ctrl+C, the context menu's Copy) gives formulas
    as LaTeX. Qt's own copy does not call a Python createMimeDataFromSource (PySide6 6.11, checked), so the
    three ways in are taken here."""

    def createMimeDataFromSource(self) -> QMimeData:  # noqa: N802 (Qt's name)
        data = QMimeData()
        data.setText(selection_source(self.textCursor()))
        return data

    def copy(self) -> None:
        if self.textCursor().hasSelection():
            QGuiApplication.clipboard().setMimeData(self.createMimeDataFromSource())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy()
            event.accept()
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 (Qt's name)
        menu = self.createStandardContextMenu(event.pos())
        for action in menu.actions():
            if action.objectName() == "edit-copy":
                action.triggered.disconnect()
                action.triggered.connect(self.copy)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(event.globalPos())  # not exec(): no nested loop under qasync

    def set_message_html(self, html: str) -> None:
        """The message's HTML, with the images of its formulas."""
        if "math:" in html:
            from hermes_desktop.ui.chat.math_images import add_math_images

            html = add_math_images(self.document(), html, self.font(), max(200.0, self.viewport().width() - 8.0))
        self.setHtml(html)


def selection_source(cursor: QTextCursor) -> str:
    """The selected text, each formula image written as its LaTeX source."""
    if not cursor.hasSelection():
        return ""
    return document_source(cursor.document(), cursor.selectionStart(), cursor.selectionEnd())


def document_source(doc: QTextDocument, start: int = 0, end: int | None = None) -> str:
    """The text of doc[start:end] with formulas as their source; blocks are separated by newlines."""
    end = doc.characterCount() - 1 if end is None else end
    lines: list[str] = []
    block = doc.findBlock(start)
    while block.isValid() and block.position() < end:
        out: list[str] = []
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            it += 1
            lo, hi = max(start, fragment.position()), min(end, fragment.position() + fragment.length())
            if lo >= hi:
                continue
            text = fragment.text()[lo - fragment.position():hi - fragment.position()]
            fmt = fragment.charFormat()
            if fmt.isImageFormat():
                parsed = parse_math_url(fmt.toImageFormat().name())
                if parsed is not None:
                    text = text.replace(_OBJECT, parsed[0])
            out.append(text.replace(_OBJECT, "").replace("\u2028", "\n").replace("\u2029", "\n"))
        lines.append("".join(out).rstrip(" "))  # the HTML's line end after a paragraph is a space in Qt
        block = block.next()
    return "\n".join(lines)

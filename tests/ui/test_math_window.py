"""A user asks for a derivative and an integral and reads them typeset, in the real window, streamed from the
scripted model server through the real openai client: half a formula shows as its source until its closing
delimiter arrives; prices and code stay text; Copy and a selection give the LaTeX; the formulas follow the theme."""

from __future__ import annotations

import threading

from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument
from PySide6.QtWidgets import QStyleOptionViewItem

from hermes_desktop.core.markdown_math import parse_math_url
from hermes_desktop.ui.chat.items import MessageItem
from tests.support.model_server import ScriptedReply, _chunk, _usage_chunk, text_events

REPLY = ("The derivative of $x^2 \\sin x$ is $2x\\sin x + x^2\\cos x$; printing costs $5 and $10.\n\n"
         "$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n\n"
         "In code: `echo $HOME` stays code.")
CUT = REPLY.index("\\sin x +") + 3  # the stream stops inside the second formula


def replies(window) -> list[MessageItem]:
    return [i for i in window.chat.model.items() if isinstance(i, MessageItem) and i.role == "assistant"]


def formulas(h, item: MessageItem) -> list[tuple[str, QImage]]:
    """The formula images of a reply's row as the delegate lays it out: (source, image)."""
    view = h.window.chat.view
    layout = view.delegate.row_layout(item, view.delegate.content_width(view.viewport().width()))
    found = []
    for part in layout.docs:
        block = part.doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fmt = it.fragment().charFormat()
                it += 1
                name = fmt.toImageFormat().name() if fmt.isImageFormat() else ""
                if name.startswith("math:"):
                    image = part.doc.resource(QTextDocument.ResourceType.ImageResource, QUrl(name))
                    found.append((parse_math_url(name)[0], image))
            block = block.next()
    return found


def ink(image: QImage) -> str:
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    return max((image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())),
               key=lambda c: c.alpha()).name()


def test_a_formula_split_across_chunks_is_typeset_when_it_closes(make_window, model_server, qapp) -> None:
    from hermes_desktop.ui.theme import DARK_THEME, LIGHT_THEME

    h = make_window()
    h.do(lambda: h.window.set_theme("light"))
    resume = threading.Event()
    events = text_events(REPLY, chunk_size=3)  # events[0] opens the message; each later one is 3 characters
    model_server.enqueue(ScriptedReply(events=events + [_chunk({}, "stop"), _usage_chunk(20, 10)],
                                       pause_after=1 + CUT // 3, resume=resume))
    h.send("derive x^2 sin x and integrate x^2")
    shown = REPLY[:(CUT // 3) * 3]
    h.wait_until(lambda: replies(h.window) and replies(h.window)[-1].text == shown, what="the half-streamed reply")
    partial = replies(h.window)[-1]
    assert partial.streaming
    # The first formula has closed: it is an image. The second is still being written: its source is shown.
    assert [source for source, _ in formulas(h, partial)] == ["$x^2 \\sin x$"]
    view = h.window.chat.view
    layout = view.delegate.row_layout(partial, view.delegate.content_width(view.viewport().width()))
    assert shown[shown.rindex("$"):] in "".join(part.doc.toPlainText() for part in layout.docs)  # "$2x\\s…"
    resume.set()
    h.wait_until(lambda: replies(h.window)[-1].text == REPLY and not replies(h.window)[-1].streaming,
                 what="the finished reply")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    reply = replies(h.window)[-1]
    found = formulas(h, reply)
    assert [source for source, _ in found] == ["$x^2 \\sin x$", "$2x\\sin x + x^2\\cos x$",
                                               "$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$"]
    plain = "".join(part.doc.toPlainText() for part in view.delegate.row_layout(
        reply, view.delegate.content_width(view.viewport().width())).docs)
    assert "$5 and $10" in plain and "echo $HOME" in plain  # a price and code stay as written
    assert all(ink(image) == QColor(LIGHT_THEME.markdown.text).name() for _, image in found)

    # Copy (the whole reply) gives the Markdown source with its LaTeX.
    h.do(h.window.copy_last_reply)
    assert qapp.clipboard().text() == REPLY
    # A selection in the message's selectable view (double-click) copies the formulas as LaTeX.
    row = h.window.chat.model.items().index(reply)
    editor = view.itemDelegate().createEditor(view.viewport(), QStyleOptionViewItem(), view.model().index(row, 0))
    editor.resize(700, 400)
    editor.selectAll()
    editor.copy()
    copied = qapp.clipboard().text()
    assert "$x^2 \\sin x$" in copied and "$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$" in copied
    assert "\ufffc" not in copied
    editor.deleteLater()

    # The formulas are drawn in the dark theme's text colour after a switch, and back.
    h.do(lambda: h.window.set_theme("dark"))
    h.settle(0.05)
    assert all(ink(image) == QColor(DARK_THEME.markdown.text).name() for _, image in formulas(h, reply))
    h.do(lambda: h.window.set_theme("light"))
    h.settle(0.05)
    assert all(ink(image) == QColor(LIGHT_THEME.markdown.text).name() for _, image in formulas(h, reply))

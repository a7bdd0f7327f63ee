"""Citations in the window: a conversation that uses a knowledge base gets a reply citing [1]; the [1] is a link
(its hit target in the reply's layout), and clicking it shows the passage given to the model with its document,
page and heading, and a button that opens the document at its page. A [7] that matches no passage says so."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF

from hermes_desktop.ui.chat.items import MessageItem
from hermes_desktop.ui.citation_dialog import document_url
from hermes_desktop.ui.citations import link_citations
from tests.support.knowledge_files import cff_pdf
from tests.support.model_server import text_reply


def test_citation_markers_become_links_outside_code() -> None:
    assert link_citations("长城很长[2]。") == "长城很长[\\[2\\]](cite:2)。"
    assert link_citations("See [1][3].") == "See [\\[1\\]](cite:1)[\\[3\\]](cite:3)."
    for untouched in ("a [ref][1] link", "[1]: https://x", "[1](https://x)", "```\n[1]\n```", "`x[1]`"):
        assert link_citations(untouched) == untouched
    assert document_url("/tmp/a b.pdf", 3).toString() == "file:///tmp/a b.pdf#page=3"
    assert document_url("/tmp/a.md", 3).fragment() == ""


def test_a_reply_citing_1_links_to_the_passage_and_its_page(make_window, model_server, tmp_path: Path) -> None:
    h = make_window()
    folder = tmp_path / "docs"
    folder.mkdir()
    cff_pdf(folder / "长城.pdf", ["长城是中国古代的军事防御工程。", "明朝对长城进行了大规模的修缮，全长两万多公里。"], tmp_path)
    registry = h.controller.runtime.knowledge.registry
    registry.create("资料", [folder])
    actions = h.window.knowledge
    h.do(lambda: actions.sync("资料"))
    h.wait_until(lambda: actions.syncing is None and actions.last_result is not None, timeout=60, what="the sync")
    session = h.do(lambda: h.window._ensure_session())
    registry.set_session_bases(session, ["资料"])
    model_server.enqueue(text_reply("明朝修缮了长城，全长两万多公里 [1]。"), text_reply("Title"))
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QPlainTextEdit

    box = h.window.findChild(QPlainTextEdit, "chatInput")
    h.do(lambda: (box.setFocus(), box.setPlainText("长城是谁修缮的？"), QTest.keyClick(box, Qt.Key.Key_Return)))
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.role == "assistant" and not i.streaming and "[1]" in i.text
                             for i in h.window.chat.model.items()), timeout=30, what="the reply")
    system = [r for r in model_server.chat_requests if r.body.get("tools")][0].system_prompt
    assert "[1] document: docs/长城.pdf · page 2" in system
    reply = next(i for i in h.window.chat.model.items() if isinstance(i, MessageItem) and i.role == "assistant")
    delegate = h.window.chat.view.delegate
    layout = delegate.layouter.layout(reply, 600)
    found = None
    for part in layout.docs:
        size = part.doc.size()
        for y in range(0, int(size.height()), 3):
            for x in range(0, int(size.width()), 3):
                if part.doc.documentLayout().anchorAt(QPointF(x, y)) == "cite:1":
                    found = part.origin + QPointF(x, y)
                    break
            if found:
                break
    assert found is not None, "the [1] is a link in the reply"
    assert delegate._target_at(layout, found) == ("link", "cite:1")  # what a click there does (ui/chat/delegate.py)

    h.do(lambda: h.window.chat._on_action("citation", reply, "1"))
    h.wait_until(lambda: actions.citation_dialog is not None and actions.citation_dialog.isVisible(), what="the passage")
    dialog = actions.citation_dialog
    assert "Document: docs/长城.pdf" in dialog.where.text() and "Page 2" in dialog.where.text()
    assert "全长两万多公里" in dialog.text.toPlainText()
    assert dialog.open_button.isEnabled() and dialog.url().toString().endswith("长城.pdf#page=2")
    h.do(dialog.reject)

    h.do(lambda: h.window.chat._on_action("citation", reply, "7"))
    h.wait_until(lambda: actions.citation_dialog is not dialog and actions.citation_dialog.isVisible(), what="no source")
    assert "does not match a passage" in actions.citation_dialog.where.text()
    assert not actions.citation_dialog.open_button.isEnabled()
    h.do(actions.citation_dialog.reject)

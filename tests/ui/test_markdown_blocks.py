"""The chat's Markdown blocks are CommonMark's own (markdown-it's block map), so what the hand-written splitter
broke renders as written: a reference link whose definition comes later, indented code with a blank line inside,
a loose list, an unclosed fence while a reply streams; and a streaming reply laid out piece by piece ends as the
same document as the finished one."""

from __future__ import annotations

from PySide6.QtGui import QFont

from hermes_desktop.ui.chat.items import MessageItem
from hermes_desktop.ui.chat.layout import RowLayouter
from hermes_desktop.ui.chat.markdown_render import LIGHT, references_of, render_block, split_blocks, split_blocks_at

REFERENCED = "Read [the docs][1] first.\n\nThen [ask us][help].\n\n[1]: https://example.com/docs \"Docs\"\n[help]: <https://example.com/help>\n"


def rendered(text: str) -> str:
    references = references_of(text)
    return "".join(render_block(block, LIGHT, references).html for block in split_blocks(text))


def test_a_reference_link_is_a_link_though_its_definition_comes_later() -> None:
    html = rendered(REFERENCED)
    assert 'href="https://example.com/docs"' in html and ">the docs</a>" in html
    assert 'href="https://example.com/help"' in html and ">ask us</a>" in html
    assert "[1]" not in html and "[help]" not in html  # the definitions are not shown as text


def test_indented_code_with_a_blank_line_is_one_code_block() -> None:
    text = "Example:\n\n    first = 1\n\n    second = 2\n\nDone."
    blocks = split_blocks(text)
    assert blocks == ["Example:", "    first = 1\n\n    second = 2", "Done."]
    html = rendered(text)
    assert html.count("<pre") == 1 and "first = 1" in html and "second = 2" in html
    # It is shown like fenced code, and its Copy link copies the code without the indentation.
    assert render_block(blocks[1], LIGHT).code == "first = 1\n\nsecond = 2"


def test_a_loose_list_with_an_indented_paragraph_stays_one_list() -> None:
    text = "1. one\n\n   more about one\n\n2. two\n\n3. three"
    assert len(split_blocks(text)) == 1
    html = rendered(text)
    assert html.count("<ol>") == 1 and "more about one" in html


def test_an_unclosed_fence_runs_to_the_end_while_the_reply_streams() -> None:
    text = "Here:\n\n```python\nprint(1)\n\nprint(2)"
    assert split_blocks(text) == ["Here:", "```python\nprint(1)\n\nprint(2)"]


def test_each_block_starts_at_its_offset_whatever_the_line_endings() -> None:
    for text in ("# T\n\npara one\nstill one\n\n- a\n- b\n", "# T\r\n\r\npara\r\n\r\n> quote\r\n", "x\rY\r\r---"):
        for offset, block in split_blocks_at(text):
            assert text[offset:offset + len(block)] == block


def test_a_streaming_reply_ends_as_the_finished_one(qapp) -> None:
    """Piece by piece through the layouter's stable prefix, then finished: the same rendered documents as laying
    out the whole text at once (the reference defined at the very end included)."""
    text = ("# Plan\n\nSee [the guide][g].\n\n    step 1\n\n    step 2\n\n1. a\n\n   b\n\n2. c\n\n```sh\nls\n```\n\nEnd.\n\n"
            "[g]: https://example.com/guide\n")
    streaming = RowLayouter(QFont())
    item = MessageItem("assistant", "", message_id=7, streaming=True)
    for end in range(0, len(text) + 1, 3):
        item.text = text[:end]
        streaming.layout(item, 600.0)
    item.text, item.streaming = text, False
    pieces = [part.doc.toHtml() for part in streaming.layout(item, 600.0).docs]
    whole = [part.doc.toHtml() for part in RowLayouter(QFont()).layout(MessageItem("assistant", text, message_id=8),
                                                                        600.0).docs]
    assert pieces == whole
    assert any("https://example.com/guide" in html for html in whole)

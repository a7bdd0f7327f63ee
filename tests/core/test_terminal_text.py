"""Text printed on a terminal carries no escape sequence, carriage return or other control character."""

from __future__ import annotations

import pytest

from hermes_desktop.core.terminal_text import MAX_PENDING, TerminalTextFilter, strip_controls, visible_controls

HOSTILE = ("Copied \x1b]52;c;aGVsbG8=\x07and \x1b]52;c;d29ybGQ=\x1b\\both. \x1b[1;31mred\x1b[0m\r\x1b[2Kgone\r\n"
           "C1: \x9b2K\x9d0;title\x9c end\x1bc\x07\x00\x7f\ttab")
CLEAN = "Copied and both. redgone\nC1:  end\ttab"


def test_every_kind_of_sequence_and_control_is_removed_and_text_kept() -> None:
    assert strip_controls(HOSTILE) == CLEAN


@pytest.mark.parametrize("size", [1, 2, 3, 4, 7, 50])
def test_a_sequence_split_across_stream_pieces_is_removed_whole(size: int) -> None:
    cleaner = TerminalTextFilter()
    pieces = [cleaner.feed(HOSTILE[i:i + size]) for i in range(0, len(HOSTILE), size)]
    assert "".join(pieces) + cleaner.flush() == CLEAN
    assert not any(c in "".join(pieces) for c in "\x1b\r\x07\x9b\x9d")


def test_newlines_tabs_and_unicode_text_survive() -> None:
    text = "第一行\n\tsecond — ünïcode ✓"
    assert strip_controls(text) == text


def test_an_unfinished_sequence_never_holds_more_than_the_limit() -> None:
    cleaner = TerminalTextFilter()
    printed = cleaner.feed("start \x1b]52;c;" + "A" * (MAX_PENDING + 10))
    assert printed.startswith("start ") and "\x1b" not in printed and "A" * MAX_PENDING in printed
    assert cleaner.flush() == ""


def test_an_unfinished_sequence_at_the_end_loses_only_its_introducer() -> None:
    cleaner = TerminalTextFilter()
    assert cleaner.feed("tail \x1b[3") == "tail "
    assert cleaner.flush() == "[3"


def test_visible_controls_shows_every_control_as_an_escape() -> None:
    assert visible_controls("data\r\x1b[2K") == "data\\r\\x1b[2K"
    assert visible_controls("a\nb\tc\x9b\u202eevil") == "a\\nb\tc\\x9b\\u202eevil"
    assert visible_controls("a\nb", keep_newlines=True) == "a\nb"
    assert visible_controls("plain path/名前.txt") == "plain path/名前.txt"

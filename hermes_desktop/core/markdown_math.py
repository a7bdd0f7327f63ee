"""Where the LaTeX math is in a reply's Markdown: the delimiters, and nothing else (no rendering, no Qt).

Four forms, as models write them: inline `$…$` and `\\(…\\)`, display `$$…$$` and `\\[…\\]`. The rules for a
single `$` are pandoc's `tex_math_dollars`, so prices stay prices:

- the opening `$` is followed by a non-space character, the closing `$` is preceded by one and is not followed by
  a digit ("$5 and $10", "$5-$10", "costs $3.50" are no formula);
- the first unescaped `$` after the opening one must be that closing one (pandoc looks further, which turns
  "$5 and $10 and x$" into a formula);
- a formula that starts with a digit and has a prose word in it ("$10 and then 5$") is a price, not math.

No formula holds a blank line or a backtick (so a code span is never cut by one: "`$HOME`" and "`a$` `$b`" stay
code), or is longer than MAX_FORMULA characters. An escaped `\\$` is a dollar sign. A `$$`, `\\(` or `\\[` that is
never closed is text: while a reply streams, a formula is found once its closing delimiter has arrived.

`match_at` is what the Markdown parser calls at a `$` or a backslash inside a paragraph (markdown-it has already
taken code blocks out, and its code-span rule takes a span that starts before a `$`); `find_math` runs the same
rules over a whole run of inline text, skipping code spans itself. `display_opening`/`display_closing` find a
display formula that stands on lines of its own (`$$` or `\\[` opening a line), for the block rule.

A formula's source travels in the HTML as an image URL (`math_url`): the colour it is drawn in and its source with
its delimiters, base64url-coded so no URL normalisation changes it; copying a selection turns the image back into
that source (`parse_math_url`).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

MAX_FORMULA = 4000  # characters between the delimiters: longer is not a formula a model writes, and costs time
URL_SCHEME = "math"

_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")  # a word not part of a \command: "and", "then"
_PAIRS = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}


@dataclass(frozen=True, slots=True)
class MathSpan:
    """One formula in a text: `text[start:end]` is its source with delimiters, `latex` what is between them."""

    start: int
    end: int
    latex: str
    display: bool
    opener: str

    @property
    def source(self) -> str:
        return f"{self.opener}{self.latex}{_PAIRS[self.opener]}"


def match_at(text: str, pos: int, end: int | None = None) -> MathSpan | None:
    """The formula that starts exactly at `pos`, or None. `end` bounds the search (markdown-it's posMax)."""
    limit = len(text) if end is None else end
    if pos >= limit:
        return None
    ch = text[pos]
    if ch == "$":
        if pos > 0 and _escaped(text, pos):
            return None
        if text.startswith("$$", pos):
            return _paired(text, pos, limit, "$$", display=True)
        return _dollar(text, pos, limit)
    if ch == "\\" and pos + 1 < limit and text[pos + 1] in "([" and not _escaped(text, pos):
        opener = text[pos:pos + 2]
        return _paired(text, pos, limit, opener, display=opener == "\\[")
    return None


def find_math(text: str) -> list[MathSpan]:
    """Every formula in a run of inline text (a paragraph's content), left to right; code spans are skipped."""
    found: list[MathSpan] = []
    pos, size = 0, len(text)
    while pos < size:
        ch = text[pos]
        if ch == "`":
            pos = _after_code_span(text, pos)
            continue
        if ch == "\\" and pos + 1 < size and text[pos + 1] not in "([":
            pos += 2  # an escaped character (\$ is a dollar sign)
            continue
        if ch in "$\\":
            span = match_at(text, pos)
            if span is not None:
                found.append(span)
                pos = span.end
                continue
            if text.startswith("$$", pos):
                pos += 2  # an unclosed $$ is not two openers
                continue
        pos += 1
    return found


def may_hold_math(text: str) -> bool:
    """A cheap test that a text may hold a formula (an opening delimiter that is not a price): for loading the
    typesetter in the background before the first formula closes."""
    return "\\(" in text or "\\[" in text or "$$" in text or re.search(r"\$[^\s\d$]", text) is not None


def display_opening(line: str) -> tuple[str, str] | None:
    """(opener, rest of the line) when a line opens a display formula: `$$` or `\\[` after at most three spaces."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return None
    for opener in ("$$", "\\["):
        if stripped.startswith(opener):
            return opener, stripped[len(opener):]
    return None


def display_closing(line: str, opener: str) -> int | None:
    """Where the closing delimiter of `opener` is in `line` when it ends the line (only spaces after it)."""
    closer = _PAIRS[opener]
    stripped = line.rstrip()
    if not stripped.endswith(closer) or (closer == "\\]" and _escaped(stripped, len(stripped) - 2)):
        return None
    return len(stripped) - len(closer)


def display_span(lines: list[str], opener: str) -> str | None:
    """The LaTeX of a display formula laid out on `lines` (the first opens it, the last closes it), or None when
    it is no formula (empty, a blank line or a backtick inside, too long)."""
    first = display_opening(lines[0])
    if first is None or first[0] != opener:
        return None
    body = [first[1]] + lines[1:]
    close = display_closing(body[-1], opener)
    if close is None:
        return None
    body[-1] = body[-1][:close]
    latex = "\n".join(body)
    return latex if _acceptable(latex) and all(line.strip() for line in lines[1:-1]) else None


def math_url(source: str, colour: str) -> str:
    """The image URL a formula is shown by: its colour (a #rrggbb) and its source, delimiters included."""
    coded = base64.urlsafe_b64encode(source.encode("utf-8")).decode("ascii").rstrip("=")
    return f"{URL_SCHEME}:{colour.lstrip('#')}/{coded}"


def parse_math_url(url: str) -> tuple[str, str] | None:
    """(source, #colour) back from a math_url, or None for any other URL."""
    if not url.startswith(URL_SCHEME + ":"):
        return None
    colour, _, coded = url[len(URL_SCHEME) + 1:].partition("/")
    try:
        source = base64.b64decode(coded + "=" * (-len(coded) % 4), altchars=b"-_", validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    return (source, "#" + colour) if source else None


def split_source(source: str) -> tuple[str, bool] | None:
    """(latex, display) of a formula's source with its delimiters."""
    for opener in ("$$", "\\[", "\\(", "$"):
        closer = _PAIRS[opener]
        if source.startswith(opener) and source.endswith(closer) and len(source) >= len(opener) + len(closer):
            return source[len(opener):len(source) - len(closer)], opener in ("$$", "\\[")
    return None


# ---------------------------------------------------------------------------------------------------- rules
def _dollar(text: str, pos: int, limit: int) -> MathSpan | None:
    start = pos + 1
    if start >= limit or text[start].isspace() or text[start] == "$":
        return None
    close = _next_unescaped(text, "$", start, limit)
    if close is None or text[close - 1].isspace() or (close + 1 < len(text) and text[close + 1].isdigit()):
        return None
    latex = text[start:close]
    if not _acceptable(latex) or (latex[0].isdigit() and _PROSE_WORD.search(latex)):
        return None
    return MathSpan(pos, close + 1, latex, False, "$")


def _paired(text: str, pos: int, limit: int, opener: str, *, display: bool) -> MathSpan | None:
    closer = _PAIRS[opener]
    start = pos + len(opener)
    close = _next_unescaped(text, closer, start, limit)
    if close is None:
        return None
    latex = text[start:close]
    if not latex.strip() or not _acceptable(latex):
        return None
    return MathSpan(pos, close + len(closer), latex, display, opener)


def _next_unescaped(text: str, needle: str, start: int, limit: int) -> int | None:
    """The next `needle` at or after `start` that no backslash escapes (`\\$` inside a formula is a dollar)."""
    pos = start
    stop = min(limit, start + MAX_FORMULA + len(needle))
    while pos < stop:
        ch = text[pos]
        if needle[0] == "$" and ch == "\\":
            pos += 2
            continue
        if text.startswith(needle, pos) and pos + len(needle) <= limit:
            if needle[0] == "\\" and _escaped(text, pos):
                pos += 1
                continue
            return pos
        if ch == "\n" and _blank_line_after(text, pos):
            return None  # a blank line ends the paragraph, and any formula in it
        pos += 1
    return None


def _acceptable(latex: str) -> bool:
    return bool(latex) and len(latex) <= MAX_FORMULA and "`" not in latex and not re.search(r"\n[ \t]*\n", latex)


def _escaped(text: str, pos: int) -> bool:
    """Whether text[pos] follows an odd number of backslashes."""
    count = 0
    while pos - count - 1 >= 0 and text[pos - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _after_code_span(text: str, pos: int) -> int:
    """Past the code span opening at `pos` (CommonMark: a run of n backticks up to the next run of exactly n); past
    the backtick run alone when it is never closed."""
    run = _run_length(text, pos)
    search = pos + run
    while True:
        found = text.find("`" * run, search)
        if found < 0:
            return pos + run
        after = found + run
        if (found == 0 or text[found - 1] != "`") and (after >= len(text) or text[after] != "`"):
            return after
        search = after + _run_length(text, after)


def _run_length(text: str, pos: int) -> int:
    end = pos
    while end < len(text) and text[end] == "`":
        end += 1
    return end - pos


def _blank_line_after(text: str, newline: int) -> bool:
    pos = newline + 1
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos < len(text) and text[pos] == "\n"

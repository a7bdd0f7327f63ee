"""Markdown -> the HTML subset Qt's rich text engine renders, one block at a time.

A message is split into its top-level blocks (paragraphs, headings, lists, tables,
code, quotes) by markdown-it itself: its block parser (without the inline pass)
gives each top-level token the lines it spans (`token.map`), so a block is exactly
what CommonMark says it is: an indented code block with a blank line inside stays
one block, a loose list with indented paragraphs stays one list, an unclosed fence
runs to the end. Reference definitions (`[1]: https://…`) are no block at all: they
are collected from the whole message and handed to every block's rendering, so
`[the docs][1]` is a link wherever the definition is. Each block renders on its own
and is cached by its text (and the references it may use), so while a reply streams
only the last, growing block is re-rendered, and a finished message is never
rendered twice. LaTeX math (`$…$`, `\\(…\\)`, `$$…$$`, `\\[…\\]`) is taken out by math_markdown.py's rules and
shown as images (math_images.py); each formula is typeset once and cached, so a chunk that adds text after it
does not typeset it again. Code blocks are highlighted with
Pygments (inline styles, which Qt understands) under a header with the language
and a `Copy` link (`copy:` anchor).

This module imports no Qt: it is pure text in, text out, and tested headless.
markdown-it and Pygments are imported on first use, after the window is shown.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hermes_desktop.core.markdown_math import may_hold_math

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([\w+#.-]*)")
_LIST_ITEM = re.compile(r"^ {0,3}([-*+]|\d{1,9}[.)])[ \t]")
# A line that may define a link reference: only then is the whole message parsed for its references.
_REFERENCE_LINE = re.compile(r"^ {0,3}\[[^\]\n]+\]:", re.M)
_LINE_END = re.compile(r"\r\n|\r|\n")

References = tuple[tuple[str, str, str], ...]  # (normalised label, href, title), sorted


@dataclass(frozen=True, slots=True)
class Palette:
    """Colours the rendered HTML uses; one per theme."""

    text: str
    muted: str
    link: str
    code_background: str
    code_border: str
    inline_code_background: str
    table_border: str
    quote: str
    pygments_style: str
    dark: bool


# Table rules: a solid 1 px grid in a grey that reads on the page (#c3cbd3 on white; #d0d7de was fainter than the
# card edges around it).
LIGHT = Palette("#1f2328", "#656d76", "#0969da", "#f6f8fa", "#d0d7de", "#eff1f3", "#c3cbd3", "#57606a", "friendly", False)
DARK = Palette("#e6edf3", "#8d96a0", "#4493f8", "#161b22", "#30363d", "#2d333b", "#3d444d", "#9198a1", "github-dark", True)


@dataclass(frozen=True, slots=True)
class RenderedBlock:
    html: str
    code: str | None = None  # the raw code of a fenced block (what Copy copies)


def split_blocks(text: str) -> list[str]:
    """The message's top-level blocks, as markdown-it's block parser sees them (module docstring)."""
    return [block for _, block in split_blocks_at(text)]


def split_blocks_at(text: str) -> list[tuple[int, str]]:
    """Like split_blocks, with each block's start offset in `text`."""
    return list(_split_cached(text))


@lru_cache(maxsize=512)
def _split_cached(text: str) -> tuple[tuple[int, str], ...]:
    """A finished message is laid out again on every resize and theme change: its blocks are kept."""
    return tuple(_split(text))


def _split(text: str) -> list[tuple[int, str]]:
    if not text.strip():
        return []
    starts = [0] + [m.end() for m in _LINE_END.finditer(text)]  # each line's offset (markdown-it counts lines alike)
    ends = [m.start() for m in _LINE_END.finditer(text)] + [len(text)]
    blocks: list[tuple[int, str]] = []
    for token in _block_parser().parse(text, {}):
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        first, last = token.map[0], min(token.map[1], len(starts)) - 1
        if last < first:
            continue
        block = text[starts[first]:ends[last]].rstrip("\r\n")
        if block.strip():
            blocks.append((starts[first], block))
    return blocks


def references_of(text: str) -> References:
    """The link reference definitions of a whole message, for rendering its blocks one by one."""
    if "]:" not in text or not _REFERENCE_LINE.search(text):
        return ()
    env: dict[str, Any] = {}
    _block_parser().parse(text, env)
    found = env.get("references") or {}
    return tuple(sorted((str(label), str(ref.get("href", "")), str(ref.get("title", "") or ""))
                        for label, ref in found.items()))


def is_list_block(block: str) -> bool:
    return bool(_LIST_ITEM.match(block))


_copy_label = ["Copy"]  # a code block's Copy link; the window sets it in the user's language (set_copy_label)


def set_copy_label(text: str) -> None:
    """The word on code blocks' Copy link (the window passes its translation; this module stays Qt-free)."""
    if text and text != _copy_label[0]:
        _copy_label[0] = text
        _render_block_cached.cache_clear()


@lru_cache(maxsize=1)
def _markdown() -> Any:
    from markdown_it import MarkdownIt

    from hermes_desktop.ui.chat.math_markdown import use_math

    return use_math(MarkdownIt("commonmark", {"html": False, "linkify": False, "breaks": True})
                    .enable(["table", "strikethrough"]))


@lru_cache(maxsize=1)
def _block_parser() -> Any:
    """The same Markdown, block structure only: the inline pass (most of the parse's time) is not run."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"html": False, "linkify": False, "breaks": True}).enable(["table", "strikethrough"])
    parser.core.ruler.disable(["inline", "text_join"], ignoreInvalid=True)
    from hermes_desktop.ui.chat.math_markdown import use_math

    return use_math(parser, split=True)  # a display formula is a block of its own


def render_block(block: str, palette: Palette, references: References = ()) -> RenderedBlock:
    """One block as HTML; `references` are the whole message's (references_of), used only by a block that may
    cite one, so the cache keeps serving the others when a definition arrives."""
    return _render_block_cached(block, palette, references if "]" in block else ())


@lru_cache(maxsize=4096)
def _render_block_cached(block: str, palette: Palette, references: References) -> RenderedBlock:
    opening = _FENCE.match(block)
    if opening:
        return _render_code(block, opening.group(1), opening.group(2), palette)
    if block[:1] in (" ", "\t"):
        tokens = _block_parser().parse(block, {})
        if len(tokens) == 1 and tokens[0].type == "code_block":  # indented code: the same box as fenced code
            return _code_box(tokens[0].content.rstrip("\n"), "", palette)
    if may_hold_math(block):
        from hermes_desktop.core.math_typeset import prepare

        prepare()  # the typesetter loads in the background while the formula is still being written
    env = {"references": {label: {"href": href, "title": title} for label, href, title in references},
           "math_colour": palette.text}
    return RenderedBlock(_style_html(_markdown().render(block, env), palette))


def _render_code(block: str, fence: str, language: str, palette: Palette) -> RenderedBlock:
    lines = block.split("\n")[1:]
    if lines and lines[-1].strip().startswith(fence[0] * len(fence)) and set(lines[-1].strip()) <= {fence[0]}:
        lines = lines[:-1]
    return _code_box("\n".join(lines), language, palette)


def _code_box(code: str, language: str, palette: Palette) -> RenderedBlock:
    """A code block: highlighted, under a header with its language and the Copy link."""
    highlighted = _highlight(code, language, palette.pygments_style)
    label = html.escape(language or "text")
    return RenderedBlock(
        f'<table width="100%" border="0" cellspacing="0" cellpadding="6" bgcolor="{palette.code_background}">'
        f'<tr><td bgcolor="{palette.code_border}"><span style="color:{palette.text}; font-size:small;">{label}</span></td>'
        f'<td bgcolor="{palette.code_border}" align="right"><a href="copy:" style="color:{palette.link}; '
        f'font-size:small; text-decoration:none;">{html.escape(_copy_label[0])}</a></td></tr>'
        f'<tr><td colspan="2"><pre style="font-family: monospace; margin:0; white-space: pre-wrap;">{highlighted}</pre></td></tr></table>',
        code,
    )


def _highlight(code: str, language: str, style: str) -> str:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import TextLexer, get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(language) if language else TextLexer()
    except ClassNotFound:
        lexer = TextLexer()
    formatter = HtmlFormatter(noclasses=True, nowrap=True, style=style)
    return highlight(code, lexer, formatter).rstrip("\n")


def _style_html(rendered: str, palette: Palette) -> str:
    """Add the inline styles Qt needs (it ignores most CSS in <style>).

    A table's border is `solid`: Qt's default for `border="1"` is outset, drawn in a lighter and a darker shade of
    the colour, and on the light theme the lighter shade is white on white, so the cells had no rules between them
    (issue 24). With `border-collapse` every cell gets the same 1 px rule. Header cells sit on the code background,
    as GitHub's do, so the header reads as one."""
    out = rendered.replace(
        "<table>",
        f'<table border="1" cellspacing="0" cellpadding="5" style="border-collapse: collapse; border-style: solid; '
        f'border-color: {palette.table_border};">',
    )
    out = out.replace("<th>", f'<th bgcolor="{palette.code_background}">').replace(
        "<th style=", f'<th bgcolor="{palette.code_background}" style=')
    out = out.replace("<code>", f'<code style="background-color:{palette.inline_code_background};">&#8202;')
    out = out.replace("</code>", "&#8202;</code>")
    out = out.replace("<a href=", f'<a style="color:{palette.link};" href=')
    out = out.replace("<blockquote>", f'<blockquote style="color:{palette.quote};">')
    return out


def warm_up() -> None:
    """Import and exercise markdown-it and Pygments (~0.2 s) off the GUI thread, before the first reply."""
    for palette in (LIGHT, DARK):
        render_block("# t\n\n**b** `c` [l](https://x) | a |\n|---|\n| 1 |", palette)
        render_block("```python\nprint(1)\n```", palette)
        # A fence whose language is not (yet) a known name, as "```p" is while a reply streams: Pygments then looks
        # through the installed plugins' entry points, ~15 ms the first time.
        render_block("```p\nx\n```", palette)


def plain_text(markdown: str) -> str:
    """What Copy puts on the clipboard for a whole message: the Markdown source, as written."""
    return markdown.strip()

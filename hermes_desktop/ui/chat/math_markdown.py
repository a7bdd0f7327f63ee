"""Math in the chat's Markdown: markdown-it rules that take formulas out of the text, and their HTML.

The delimiters are found by core/markdown_math.py (prices stay prices, code is never touched: markdown-it has
already taken code blocks out and its code-span rule takes a span that starts first). Two rules:

- an inline rule, before markdown-it's `escape` (so `\\(` is not an escaped parenthesis), for `$…$`, `\\(…\\)`
  and a `$$…$$` or `\\[…\\]` in the middle of a line;
- a block rule for a display formula on lines of its own (`$$` or `\\[` opening a line), which may interrupt a
  paragraph; inside it no Markdown applies (a line "+ c" of an aligned formula is no list item). The block
  splitter (markdown_render.split_blocks) runs it too, with `split=True`: a display formula not closed yet runs
  to the next blank line, like an unclosed fence, so the layouter's stable prefix never ends inside it.

A formula that typesets becomes `<img src="math:…">` (core/markdown_math.math_url: its colour and source), drawn
by ui/chat/math_images.py and aligned on the text's baseline; one that does not stays its source in monospace.
This module imports no Qt; the typesetter is imported on the first formula (core/math_typeset.py).
"""

from __future__ import annotations

import html
from typing import Any

from hermes_desktop.core.markdown_math import display_closing, display_opening, display_span, match_at, math_url


def use_math(md: Any, *, split: bool = False) -> Any:
    """Add the math rules to a MarkdownIt (the block rule only, for the block splitter)."""
    md.block.ruler.before("fence", "math_block", _block_rule(split),
                          {"alt": ["paragraph", "reference", "blockquote", "list"]})
    if not split:
        md.inline.ruler.before("escape", "math_inline", _inline_rule)
        md.add_render_rule("math_inline", _render_inline)
        md.add_render_rule("math_block", _render_block)
    return md


def _inline_rule(state: Any, silent: bool) -> bool:
    if state.src[state.pos] not in "$\\":
        return False
    span = match_at(state.src, state.pos, state.posMax)
    if span is None:
        return False
    if not silent:
        token = state.push("math_inline", "math", 0)
        token.content = span.source
    state.pos = span.end
    return True


def _block_rule(split: bool) -> Any:
    def rule(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
        if state.is_code_block(start_line):
            return False
        first = state.src[state.bMarks[start_line] + state.tShift[start_line]:state.eMarks[start_line]]
        opening = display_opening(first)
        if opening is None:
            return False
        opener, rest = opening
        lines = [first]
        line, closed = start_line, display_closing(rest, opener) is not None
        while not closed:
            line += 1
            if line >= end_line:
                break
            start, end = state.bMarks[line] + state.tShift[line], state.eMarks[line]
            if start >= end or (state.sCount[line] < state.blkIndent):
                break  # a blank line, or the end of the list item or quote the formula is in
            lines.append(state.src[start:end])
            closed = display_closing(lines[-1], opener) is not None
        latex = display_span(lines, opener) if closed else None
        if latex is None and not split:
            return False  # no formula: the lines are Markdown
        if silent:
            return True
        token = state.push("math_block", "math", 0)
        token.content = (opener + latex + ("$$" if opener == "$$" else "\\]")) if latex is not None else "\n".join(lines)
        token.map = [start_line, start_line + len(lines)]
        state.line = start_line + len(lines)
        return True

    return rule


def _render_inline(renderer: Any, tokens: list[Any], idx: int, options: Any, env: dict[str, Any]) -> str:
    source = tokens[idx].content
    image = _image(source, env)
    return image if image else f"<code>{html.escape(source)}</code>"


def _render_block(renderer: Any, tokens: list[Any], idx: int, options: Any, env: dict[str, Any]) -> str:
    source = tokens[idx].content
    image = _image(source, env)
    if image:
        return f'<p align="center">{image}</p>\n'
    return f'<pre style="font-family: monospace; white-space: pre-wrap;">{html.escape(source)}</pre>\n'


def _image(source: str, env: dict[str, Any]) -> str:
    """The formula's <img>, or "" when it does not typeset."""
    from hermes_desktop.core.markdown_math import split_source
    from hermes_desktop.core.math_typeset import MathSyntaxError, typeset

    parts = split_source(source)
    if parts is None:
        return ""
    try:
        typeset(*parts)
    except MathSyntaxError:
        return ""
    return f'<img src="{math_url(source, env.get("math_colour", "#000000"))}" style="vertical-align: middle;">'

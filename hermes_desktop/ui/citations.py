"""Citations in replies: `[1]` in an assistant's Markdown becomes a link to the passage it cites.

`link_citations(block)` rewrites the citation markers of one Markdown block (not inside code, not a reference link
`[text][1]`, a definition `[1]: …` or an inline link `[1](…)`) as `cite:N` links; the chat's delegate turns a click
on one into the `citation` action, and ui/knowledge_actions.py shows the passage (document, page, heading, its text)
with a button that opens the document, at its page where the system's viewer takes a `#page=N` fragment.
"""

from __future__ import annotations

import re

_RUN = re.compile(r"(?<![\]\\!])((?:\[\d{1,3}\])+)(?![\(\[:])")
_ONE = re.compile(r"\[(\d{1,3})\]")
_CODE_SPAN = re.compile(r"(`+)(?:.*?)\1", re.S)


def link_citations(block: str) -> str:
    """`[1]` / `[1][2]` as links `cite:1`, outside code; a fenced or indented code block is returned as it is."""
    if block.lstrip().startswith(("```", "~~~")) or block.startswith(("    ", "\t")) or "[" not in block:
        return block
    out, last = [], 0
    for span in _CODE_SPAN.finditer(block):
        out.append(_link(block[last:span.start()]))
        out.append(span.group(0))
        last = span.end()
    out.append(_link(block[last:]))
    return "".join(out)


def _link(text: str) -> str:
    return _RUN.sub(lambda run: _ONE.sub(r"[\\[\1\\]](cite:\1)", run.group(1)), text)

"""A session as a Word document (.docx), through python-docx: headings per speaker, the reply's Markdown as Word
paragraphs (headings, bold/italic/code runs, links, lists, quotes, code blocks in a monospace shaded paragraph,
tables with a grid), the user's images inline (scaled to the page), other files and tool calls as labelled blocks.

The Markdown is parsed with markdown-it (the same parser as the chat) and walked token by token: Word has no
HTML import in python-docx, and a converter through HTML would need a GPL or a heavy dependency. What Word cannot
hold (raw HTML) stays as its text. Math is written as its LaTeX source in a monospace run.
"""

from __future__ import annotations

import io
from datetime import datetime
from typing import Any

from hermes_desktop.core.exports.document import SessionDocument, SpeakerBlock
from hermes_desktop.core.exports.words import export_words

MAX_IMAGE_WIDTH_CM = 15.0
MAX_IMAGE_BYTES = 40 * 1024 * 1024  # a bigger picture is named, not embedded
CODE_FONT = "Consolas"


def session_docx(document: SessionDocument, *, language: str | None = None) -> bytes:
    """The .docx file's bytes."""
    from docx import Document
    from docx.shared import Pt

    words = export_words(language)
    doc = Document()
    doc.core_properties.title = document.title or words["untitled"]
    doc.core_properties.author = "Hermes Desktop"
    doc.add_heading(document.title or words["untitled"], level=0)
    meta = [words["created"].format(document.created())]
    if document.model:
        meta.append(words["model"].format(document.model))
    meta.append(words["messages"].format(document.message_count))
    info = doc.add_paragraph(" · ".join(meta))
    info.runs[0].italic = True
    for block in document.blocks:
        _speaker(doc, block, words)
    footer = doc.add_paragraph(words["exported"].format(datetime.now().strftime("%Y-%m-%d %H:%M")))
    footer.runs[0].font.size = Pt(8)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def _speaker(doc: Any, block: SpeakerBlock, words: dict[str, str]) -> None:
    title = {"user": words["you"], "assistant": words["assistant"], "summary": words["summary"],
             "note": words["note"]}[block.role]
    if block.role == "assistant" and block.model:
        title = f"{title} ({words['written_by'].format(block.model)})"
    doc.add_heading(title, level=1)
    if block.thinking:
        label = words["thought_for"].format(max(1, round(block.thinking_ms / 1000))) if block.thinking_ms \
            else words["thinking"]
        para = doc.add_paragraph()
        run = para.add_run(label)
        run.bold = True
        run.italic = True
        quote = doc.add_paragraph(block.thinking, style="Intense Quote")
        quote.runs[0].italic = True
    if block.text:
        MarkdownToDocx(doc).render(block.text)
    if block.sources:  # the knowledge passages the reply cites (core/knowledge/cited.py)
        from hermes_desktop.core.exports.obsidian import source_lines

        MarkdownToDocx(doc).render("\n".join(source_lines(block, words)))
    if block.interrupted:
        doc.add_paragraph(words["interrupted"]).runs[0].italic = True
    for item in block.files:
        _file(doc, item, words)
    for call in block.tools:
        para = doc.add_paragraph()
        para.add_run(words["tool_call"].format(call.name)).bold = True
        _code(doc, call.arguments)
        para = doc.add_paragraph()
        para.add_run(words["result"]).bold = True
        _code(doc, call.result or words["no_result"])


def _file(doc: Any, item: Any, words: dict[str, str]) -> None:
    from docx.shared import Cm

    if item.kind == "image" and item.path is not None:
        try:
            if item.path.stat().st_size <= MAX_IMAGE_BYTES:
                doc.add_picture(str(item.path), width=Cm(MAX_IMAGE_WIDTH_CM))
                doc.add_paragraph(item.name).runs[0].italic = True
                return
        except Exception:  # noqa: BLE001 - a format Word cannot hold (webp), a damaged file: named instead
            pass
    doc.add_paragraph(words["attached"].format(f"{item.name} ({item.kind})")).runs[0].italic = True


def _code(doc: Any, text: str) -> None:
    from docx.enum.text import WD_BREAK
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Pt

    para = doc.add_paragraph()
    lines = text.rstrip("\n").split("\n")
    for n, line in enumerate(lines):
        run = para.add_run(line)
        run.font.name = CODE_FONT
        run.font.size = Pt(9)
        if n < len(lines) - 1:
            run.add_break(WD_BREAK.LINE)
    shading = OxmlElement("w:shd")
    shading.set(qn("w:val"), "clear")
    shading.set(qn("w:color"), "auto")
    shading.set(qn("w:fill"), "F2F2F2")
    para.paragraph_format.element.get_or_add_pPr().append(shading)


class MarkdownToDocx:
    """Walks markdown-it's tokens and writes Word paragraphs, runs and tables."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc

    def render(self, markdown: str) -> None:
        from markdown_it import MarkdownIt

        tokens = MarkdownIt("commonmark").enable("table").enable("strikethrough").parse(markdown)
        self._blocks(tokens)

    def _blocks(self, tokens: list[Any]) -> None:
        lists: list[str] = []  # "bullet" | "ordered", innermost last
        quote = 0
        i = 0
        while i < len(tokens):
            token = tokens[i]
            kind = token.type
            if kind == "heading_open":
                level = min(int(token.tag[1]) + 1, 9)  # the speaker heading is level 1
                heading = self.doc.add_heading("", level=level)
                self._inline(heading, tokens[i + 1])
                i += 3
                continue
            if kind == "paragraph_open":
                style = None
                if lists:
                    style = "List Bullet" if lists[-1] == "bullet" else "List Number"
                    if len(lists) > 1:
                        style += f" {min(len(lists), 3)}"
                elif quote:
                    style = "Quote"
                para = self.doc.add_paragraph(style=style)
                self._inline(para, tokens[i + 1])
                i += 3
                continue
            if kind in ("bullet_list_open", "ordered_list_open"):
                lists.append("bullet" if kind == "bullet_list_open" else "ordered")
            elif kind in ("bullet_list_close", "ordered_list_close"):
                lists.pop()
            elif kind == "blockquote_open":
                quote += 1
            elif kind == "blockquote_close":
                quote -= 1
            elif kind in ("fence", "code_block"):
                _code(self.doc, token.content)
            elif kind == "hr":
                self.doc.add_paragraph("⁂").alignment = 1
            elif kind == "html_block":
                self.doc.add_paragraph(token.content.strip())
            elif kind == "table_open":
                i = self._table(tokens, i)
                continue
            i += 1

    def _table(self, tokens: list[Any], start: int) -> int:
        rows: list[list[Any]] = []
        header_rows = 0
        in_head = False
        i = start + 1
        while i < len(tokens) and tokens[i].type != "table_close":
            kind = tokens[i].type
            if kind == "thead_open":
                in_head = True
            elif kind == "thead_close":
                in_head = False
            elif kind == "tr_open":
                rows.append([])
                if in_head:
                    header_rows += 1
            elif kind == "inline":
                rows[-1].append(tokens[i])
            i += 1
        columns = max((len(r) for r in rows), default=0)
        if rows and columns:
            table = self.doc.add_table(rows=len(rows), cols=columns)
            table.style = "Table Grid"
            for r, row in enumerate(rows):
                for c, cell_inline in enumerate(row):
                    para = table.cell(r, c).paragraphs[0]
                    self._inline(para, cell_inline, bold=r < header_rows)
        return i + 1

    def _inline(self, para: Any, inline: Any, *, bold: bool = False) -> None:
        from docx.shared import Pt, RGBColor

        state = {"strong": bold, "em": False, "s": False, "link": ""}
        for child in inline.children or []:
            kind = child.type
            if kind in ("strong_open", "strong_close"):
                state["strong"] = kind == "strong_open" or bold
            elif kind in ("em_open", "em_close"):
                state["em"] = kind == "em_open"
            elif kind in ("s_open", "s_close"):
                state["s"] = kind == "s_open"
            elif kind == "link_open":
                state["link"] = str(child.attrs.get("href", ""))
            elif kind == "link_close":
                if state["link"]:
                    tail = para.add_run(f" ({state['link']})")
                    tail.font.size = Pt(8)
                state["link"] = ""
            elif kind in ("softbreak", "hardbreak"):
                para.add_run().add_break()
            elif kind == "code_inline":
                run = para.add_run(child.content)
                run.font.name = CODE_FONT
            elif kind == "image":
                para.add_run(f"[{child.content or child.attrs.get('alt', '')}]")
            elif kind in ("text", "html_inline"):
                run = para.add_run(child.content)
                run.bold = state["strong"] or None
                run.italic = state["em"] or None
                run.font.strike = state["s"] or None
                if state["link"]:
                    run.underline = True
                    run.font.color.rgb = RGBColor(0x1A, 0x5F, 0xB4)

"""Sections of plain-text formats: Markdown and reStructuredText by their headings, CSV by rows, code and text whole.

All of these run in the app's process: they are linear in the input, and the reader bounds the input's size
(reader.py), so a hostile file costs at most that size's worth of a single pass.
"""

from __future__ import annotations

import csv
import io
import re

from hermes_desktop.core.documents.model import Section

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RST_UNDERLINE = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}[ \t]*$")
MAX_CSV_ROWS = 100_000


def markdown_sections(text: str) -> list[Section]:
    """Sections under Markdown headings (ATX `#` and setext underlines), never inside a fenced code block."""
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    body: list[str] = []
    fence: str | None = None

    def close() -> None:
        joined = "\n".join(body).strip()
        if joined:
            sections.append(Section(joined, None, tuple(title for _, title in path)))
        body.clear()

    def open_heading(level: int, title: str) -> None:
        close()
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, title.strip()))

    lines = text.splitlines()
    for index, line in enumerate(lines):
        fenced = _FENCE.match(line)
        if fence is not None:
            if fenced and fenced.group(1)[0] == fence[0] and len(fenced.group(1)) >= len(fence):
                fence = None
            body.append(line)
            continue
        if fenced:
            fence = fenced.group(1)
            body.append(line)
            continue
        heading = _ATX.match(line)
        if heading:
            open_heading(len(heading.group(1)), heading.group(2))
            continue
        under = _SETEXT.match(line)
        if under and body and body[-1].strip() and not (index > 1 and not lines[index - 1].strip()):
            title = body.pop()
            open_heading(1 if under.group(1)[0] == "=" else 2, title)
            continue
        body.append(line)
    close()
    return sections


def rst_sections(text: str) -> list[Section]:
    """Sections under reStructuredText titles: a line underlined (optionally overlined) with one punctuation
    character; levels follow the order in which underline styles first appear, as docutils does."""
    sections: list[Section] = []
    styles: list[str] = []
    path: list[tuple[int, str]] = []
    body: list[str] = []
    lines = text.splitlines()

    def close() -> None:
        joined = "\n".join(body).strip()
        if joined:
            sections.append(Section(joined, None, tuple(title for _, title in path)))
        body.clear()

    index = 0
    while index < len(lines):
        line = lines[index]
        nxt = lines[index + 1] if index + 1 < len(lines) else ""
        if line.strip() and not _RST_UNDERLINE.match(line) and _RST_UNDERLINE.match(nxt) \
                and len(nxt.rstrip()) >= len(line.rstrip()):
            over = bool(body) and body[-1] == nxt
            if over:
                body.pop()
            style = nxt[0] + ("o" if over else "")
            if style not in styles:
                styles.append(style)
            level = styles.index(style)
            close()
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, line.strip()))
            index += 2
            if over and index < len(lines) and lines[index] == nxt:
                index += 1
            continue
        body.append(line)
        index += 1
    close()
    return sections


def plain_sections(text: str) -> list[Section]:
    stripped = text.strip()
    return [Section(stripped)] if stripped else []


def csv_sections(text: str, name: str) -> list[Section]:
    """One line per row, "column: value; …" with the header's names, so a row found by search says what its values
    are; rows in blocks of 50 (each block its own section, a chunk never mixes two blocks' headers)."""
    dialect: type[csv.Dialect] | csv.Dialect = csv.excel_tab if name.lower().endswith(".tsv") else csv.excel
    try:
        sample = text[:8192]
        if sample and not name.lower().endswith(".tsv"):
            dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        pass
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        return plain_sections(text)
    header = [h.strip() or f"column {i + 1}" for i, h in enumerate(header)]
    sections: list[Section] = []
    block: list[str] = []
    try:
        for count, row in enumerate(reader):
            if count >= MAX_CSV_ROWS:
                break
            cells = [f"{header[i] if i < len(header) else f'column {i + 1}'}: {value.strip()}"
                     for i, value in enumerate(row) if value.strip()]
            if cells:
                block.append("; ".join(cells))
            if len(block) >= 50:
                sections.append(Section("\n\n".join(block)))
                block = []
    except csv.Error:  # a broken quote: what was read so far, then the rest as text
        pass
    if block:
        sections.append(Section("\n\n".join(block)))
    return sections

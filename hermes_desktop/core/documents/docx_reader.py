"""Word documents (.docx) with python-docx: paragraphs and tables in body order, sections under heading styles.

Runs in the reader's child process (core/pdf_extract.py `run_child(…, "docx")`): a DOCX is a zip, and a zip bomb
or a huge document meets the child's memory cap and time limit, never the app. Headings are paragraphs whose style
is "Title" or "Heading N" (the style's English id also in a Chinese Word, where the name reads "标题 1"), or that
carry an outline level.
"""

from __future__ import annotations

import io
import re
from typing import Any


def _level(paragraph: Any) -> int:
    style = paragraph.style
    names = [str(getattr(style, "name", "") or ""), str(getattr(style, "style_id", "") or "")]
    for name in names:
        if name.lower() == "title":
            return 1
        found = re.fullmatch(r"(?:heading|标题)\s*([1-9])", name.strip(), re.I)
        if found:
            return int(found.group(1))
    outline = paragraph._p.find(".//{http://schemas.openxmlformats.org/wordprocessingml/2006/main}outlineLvl")
    if outline is not None:
        try:
            return int(outline.get("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}val")) + 1
        except (TypeError, ValueError):
            return 0
    return 0


def read_docx_sections(data: bytes, budget: int) -> dict[str, Any]:
    """{"sections": [[text, [heading path]], …], "complete": bool} or {"error", "code"} (the child's answer)."""
    try:
        import docx
        from docx.table import Table
        from docx.text.paragraph import Paragraph
    except ImportError:  # pragma: no cover - a declared dependency
        return {"error": "Word support is not installed (python-docx).", "code": "unsupported"}
    try:
        document = docx.Document(io.BytesIO(data))
    except MemoryError:
        return {"error": "the Word document needs too much memory to read.", "code": "memory"}
    except Exception as exc:  # zipfile.BadZipFile, KeyError (no document part), lxml errors
        if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":  # an OLE file: encrypted .docx, or an old .doc renamed
            return {"error": "the Word document is protected by a password (or is an old .doc), so its text cannot "
                    "be read.", "code": "encrypted"}
        return {"error": f"not a readable Word document ({' '.join(str(exc).split())[:160] or type(exc).__name__}).",
                "code": "damaged"}
    sections: list[list[Any]] = []
    path: list[tuple[int, str]] = []
    body: list[str] = []
    held = 0
    complete = True

    def close() -> None:
        text = "\n\n".join(part for part in body if part.strip()).strip()
        if text:
            sections.append([text, [title for _, title in path]])
        body.clear()

    try:
        for item in document.iter_inner_content():
            if isinstance(item, Paragraph):
                text = item.text.strip()
                level = _level(item) if text else 0
                if level:
                    close()
                    while path and path[-1][0] >= level:
                        path.pop()
                    path.append((level, " ".join(text.split())))
                    continue
                body.append(text)
            elif isinstance(item, Table):
                for row in item.rows:
                    cells: list[str] = []
                    for cell in row.cells:
                        value = " ".join(cell.text.split())
                        if value and (not cells or cells[-1] != value):  # merged cells repeat
                            cells.append(value)
                    if cells:
                        body.append(" | ".join(cells))
            held += len(body[-1]) if body else 0
            if held > budget:
                complete = False
                break
    except MemoryError:
        return {"error": "the Word document needs too much memory to read.", "code": "memory"}
    except Exception as exc:
        return {"error": f"not a readable Word document ({' '.join(str(exc).split())[:160]}).", "code": "damaged"}
    close()
    return {"sections": sections, "complete": complete}

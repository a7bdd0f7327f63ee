"""What a reader gives back: a document's text in structural sections (page, heading path), plus a note."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Section:
    """A run of text under one heading path on one page (page None: the format has no pages). Paragraphs inside are
    separated by blank lines; the chunker splits there first."""

    text: str
    page: int | None = None
    heading: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Document:
    name: str
    kind: str  # pdf, docx, markdown, rst, html, text, code, csv
    sections: tuple[Section, ...]
    note: str = ""  # for the user: "read as GB18030 (detected; not UTF-8)", "only the first 40 pages"
    pages: int | None = None
    complete: bool = True  # False when reading stopped at a budget
    encoding: str = ""  # of a text file, as read

    @property
    def has_text(self) -> bool:
        return any(s.text.strip() for s in self.sections)

    def plain_text(self) -> str:
        """All sections in order; a PDF's pages with a `[page N]` marker each (as attachments show them)."""
        parts: list[str] = []
        page: int | None = None
        for section in self.sections:
            if section.page is not None and section.page != page:
                page = section.page
                parts.append(f"[page {page}]\n{section.text}")
            else:
                parts.append(section.text)
        return "\n\n".join(parts)

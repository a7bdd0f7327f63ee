"""Read one file as a `Document`: the formats, the limits and the reasons, shared by attachments and knowledge bases.

- `kind_for(path)` names the reader a file's suffix picks (None: not a document format we read).
- `read_path(path, root=…)` checks the file before opening it and raises DocumentError with a code and one line:
  a symlink that leads out of `root` (SYMLINK_OUTSIDE), a FIFO, socket or device (NOT_REGULAR; the file is opened
  O_NONBLOCK and checked again, so one swapped in after the check cannot block), no permission (PERMISSION), more than
  the format's size limit (TOO_LARGE), then reads it with `read_bytes`.
- `read_bytes(name, data, kind)`: PDF and DOCX in the reader's child process with its time limit and memory cap
  (core/pdf_extract.py); Markdown, reStructuredText, HTML, CSV, code and plain text here (single linear passes over
  at most `MAX_TEXT_BYTES`). A PDF without a text layer is NO_TEXT; an encrypted one ENCRYPTED.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from hermes_desktop.core.documents import errors as E
from hermes_desktop.core.documents.errors import DocumentError
from hermes_desktop.core.documents.model import Document, Section

MAX_PDF_BYTES = 100 * 1024 * 1024
MAX_DOCX_BYTES = 50 * 1024 * 1024
MAX_TEXT_BYTES = 10 * 1024 * 1024
READ_TIMEOUT_S = 30.0
TEXT_BUDGET = 5_000_000  # characters one document may contribute (a 2,000-page book)

CODE_SUFFIXES = frozenset(
    ".py .js .ts .tsx .jsx .json .css .c .h .cpp .hpp .cc .rs .go .java .kt .rb .php .sh .sql .yaml .yml .toml .xml "
    ".swift .cs .lua .r .ini .tex .scala .m .pl .ps1 .bat .vue .svelte .dart .ex .exs .hs .ml .clj .proto .gradle "
    ".cmake .mk".split())
KINDS = {".pdf": "pdf", ".docx": "docx", ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown",
         ".txt": "text", ".text": "text", ".log": "text", ".rst": "rst", ".html": "html", ".htm": "html",
         ".xhtml": "html", ".csv": "csv", ".tsv": "csv"}
_LIMITS = {"pdf": MAX_PDF_BYTES, "docx": MAX_DOCX_BYTES}


def kind_for(path: Path | str) -> str | None:
    suffix = Path(path).suffix.lower()
    if suffix in KINDS:
        return KINDS[suffix]
    if suffix in CODE_SUFFIXES or Path(path).name in ("Makefile", "Dockerfile", "README", "LICENSE"):
        return "code"
    return None


def size_limit(kind: str) -> int:
    return _LIMITS.get(kind, MAX_TEXT_BYTES)


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KB"


def check_path(path: Path, root: Path | None, kind: str) -> os.stat_result:
    """The checks before a file is opened; its stat (followed) when it may be read. Raises DocumentError."""
    name = path.name or str(path)
    try:
        link = os.lstat(path)
    except FileNotFoundError:
        raise DocumentError(f"{name}: the file is gone.", E.MISSING) from None
    except OSError as exc:
        raise DocumentError(f"{name}: cannot be read ({exc.strerror or exc}).", E.PERMISSION) from None
    if stat.S_ISLNK(link.st_mode) and root is not None:
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            raise DocumentError(f"{name}: a link to a file that does not exist.", E.MISSING) from None
        if not target.is_relative_to(root.resolve()):
            raise DocumentError(f"{name}: a link that points out of the folder (to {target}); not read.",
                                E.SYMLINK_OUTSIDE)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise DocumentError(f"{name}: cannot be read ({exc.strerror or exc}).", E.PERMISSION) from None
    _check_regular(info, name, size_limit(kind))
    return info


def _check_regular(info: os.stat_result, name: str, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise DocumentError(f"{name}: is a folder.", E.NOT_REGULAR)
    if not stat.S_ISREG(info.st_mode):
        raise DocumentError(f"{name}: not a regular file (a pipe, socket or device); not read.", E.NOT_REGULAR)
    if info.st_size > limit:
        raise DocumentError(f"{name}: {_size(info.st_size)} is larger than the limit of {_size(limit)}.", E.TOO_LARGE)


def read_file_bytes(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (O_NONBLOCK, checked again after opening)."""
    name = path.name or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except PermissionError:
        raise DocumentError(f"{name}: permission denied; not read.", E.PERMISSION) from None
    except OSError as exc:
        raise DocumentError(f"{name}: cannot be read ({exc.strerror or exc}).", E.PERMISSION) from None
    with os.fdopen(fd, "rb") as handle:
        _check_regular(os.fstat(handle.fileno()), name, limit)  # swapped for a FIFO after the first check
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise DocumentError(f"{name}: cannot be read ({exc.strerror or exc}).", E.PERMISSION) from None
    if len(data) > limit:
        raise DocumentError(f"{name}: larger than the limit of {_size(limit)}.", E.TOO_LARGE)
    return data


def read_path(path: Path, *, root: Path | None = None, kind: str | None = None,
              timeout: float = READ_TIMEOUT_S) -> tuple[Document, bytes]:
    """The document at `path` and the bytes it was read from (their hash is the file's identity). Blocking."""
    path = Path(path)
    kind = kind or kind_for(path)
    if kind is None:
        raise DocumentError(f"{path.name}: not a format that can be read (PDF, Word, Markdown, text, "
                            "reStructuredText, HTML, CSV or code).", E.UNSUPPORTED)
    check_path(path, root, kind)
    data = read_file_bytes(path, size_limit(kind))
    return read_bytes(path.name, data, kind, timeout=timeout), data


def read_bytes(name: str, data: bytes, kind: str, *, timeout: float = READ_TIMEOUT_S,
               budget: int = TEXT_BUDGET) -> Document:
    """Parse `data` as `kind`. Raises DocumentError."""
    if len(data) > size_limit(kind):
        raise DocumentError(f"{name}: {_size(len(data))} is larger than the limit of {_size(size_limit(kind))}.",
                            E.TOO_LARGE)
    if kind == "pdf":
        return _pdf(name, data, timeout, budget)
    if kind == "docx":
        return _docx(name, data, timeout, budget)
    from hermes_desktop.core.documents.structured import (
        csv_sections, markdown_sections, plain_sections, rst_sections,
    )
    from hermes_desktop.core.documents.text import decode_text

    text, encoding, note = decode_text(data, name)
    complete = len(text) <= budget
    text = text[:budget]
    if kind == "html":
        from hermes_desktop.core.documents.html_text import html_sections

        sections = html_sections(text)
    elif kind == "markdown":
        sections = markdown_sections(text)
    elif kind == "rst":
        sections = rst_sections(text)
    elif kind == "csv":
        sections = csv_sections(text, name)
    else:
        sections = plain_sections(text)
    return Document(name, kind, tuple(sections), note, None, complete, encoding)


def _pdf(name: str, data: bytes, timeout: float, budget: int) -> Document:
    from hermes_desktop.core.pdf_extract import extract_pdf_text

    read = extract_pdf_text(data, name, budget=budget, timeout=timeout)
    if read.pages == 0 or not read.has_text:
        pages = f"{read.pages} page{'s' if read.pages != 1 else ''}"
        raise DocumentError(f"{name}: the PDF has no text layer ({pages}, probably scanned images), so no text could "
                            "be read.", E.NO_TEXT)
    sections = tuple(Section(text, number) for number, text in enumerate(read.page_texts, start=1) if text.strip())
    note = "" if read.complete else f"Only the first {read.pages_read} of {read.pages} pages were read."
    return Document(name, "pdf", sections, note, read.pages, read.complete)


def _docx(name: str, data: bytes, timeout: float, budget: int) -> Document:
    from hermes_desktop.core.pdf_extract import run_child

    answer = run_child(data, name, "docx", budget=budget, timeout=timeout)
    sections = tuple(Section(str(text), None, tuple(str(h) for h in heading))
                     for text, heading in answer.get("sections", ()))
    complete = bool(answer.get("complete", True))
    return Document(name, "docx", sections, "" if complete else "Only the first part of the document was read.",
                    None, complete)

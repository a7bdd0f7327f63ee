"""PDF text extraction in a child process that can be stopped.

Why a process: pypdf's text extraction is pure Python and its time grows about quadratically with a content
stream's size, so a 168 KB PDF whose one FlateDecode stream inflates to 72 MB kept `ask --attach` busy for more than
five minutes. A thread cannot be stopped (Ctrl-C waited for it, and the window could not quit because Python joins
worker threads before it exits); a process can be killed.

What this module promises:

- `extract_pdf_text(data, name, budget=..., timeout=..., memory_bytes=...)` returns `PdfText` or raises
  `AttachmentError` with one line: the PDF took too long to read (`timeout`, default `PDF_TIMEOUT_S`), needed too much
  memory (the child sets RLIMIT_AS to `memory_bytes` where the platform has it), was cancelled, is encrypted or broken.
- The child stops reading pages once it holds more than `budget` characters, so a long PDF costs only what is sent.
- `run_child(data, name, "docx", …)` reads a Word document the same way (python-docx in the child: a DOCX is a zip,
  and a zip bomb must meet the same memory cap and time limit); core/documents/ builds on both.
- `cancel_all()` kills every extraction still running (the CLI calls it on Ctrl-C, the window when it quits); the
  waiting thread then returns at once with "cancelled".

The child is `python -I -c <import this module> BUDGET MEMORY`: PDF bytes on stdin, one JSON object on stdout.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Any

PDF_TIMEOUT_S = 20.0
PDF_MEMORY_BYTES = 1024 * 1024 * 1024  # address space of the child; pypdf needs far less for an honest PDF

# -I: no current directory, user site or PYTHON* variables on the child's path (a pypdf.py in the folder `ask` runs
# from must not be imported); the package's own parent folder is put back explicitly.
_CHILD = ("import sys; sys.path.insert(0, %r); from hermes_desktop.core.pdf_extract import _child_main; "
          "sys.exit(_child_main(sys.argv[1:]))" % os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

_running: set[subprocess.Popen[bytes]] = set()
_cancelled: set[int] = set()
_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class PdfText:
    """Text of the pages read (`[page N]` marker each); `complete` is False when reading stopped at the budget.
    `page_texts` holds each page read on its own (knowledge bases keep page numbers)."""

    text: str
    pages: int  # pages in the PDF
    pages_read: int
    complete: bool
    has_text: bool
    page_texts: tuple[str, ...] = ()


_WHAT = {"pdf": "PDF", "docx": "Word document"}


def extract_pdf_text(data: bytes, name: str, *, budget: int, timeout: float = PDF_TIMEOUT_S,
                     memory_bytes: int | None = PDF_MEMORY_BYTES) -> PdfText:
    """Read the PDF's text in a child process (blocking); AttachmentError with one line when it cannot be read."""
    answer = run_child(data, name, "pdf", budget=budget, timeout=timeout, memory_bytes=memory_bytes)
    if "text" not in answer:
        from hermes_desktop.core.attachments import AttachmentError

        raise AttachmentError(f"{name}: the PDF needs too much memory to read (or is damaged); it was not attached.",
                              "memory")
    return PdfText(str(answer["text"]), int(answer["pages"]), int(answer["pages_read"]), bool(answer["complete"]),
                   bool(answer["has_text"]), tuple(str(t) for t in answer.get("page_texts", ())))


def run_child(data: bytes, name: str, kind: str, *, budget: int, timeout: float = PDF_TIMEOUT_S,
              memory_bytes: int | None = PDF_MEMORY_BYTES) -> dict[str, Any]:
    """Run the reader for `kind` ("pdf", "docx") in a child process under the limits (blocking); its JSON answer.
    Raises AttachmentError (a DocumentError) with one line and a code when it cannot be read."""
    from hermes_desktop.core.attachments import AttachmentError

    what = _WHAT.get(kind, kind)
    command = _child_command(budget, memory_bytes or 0, kind)
    try:
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 start_new_session=True)  # Ctrl-C on the terminal goes to us, and we decide
    except OSError as exc:
        raise AttachmentError(f"{name}: the {what} could not be read ({exc.strerror or exc}).") from None
    with _lock:
        _running.add(child)
    try:
        try:
            out, _ = child.communicate(data, timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            raise AttachmentError(f"{name}: the {what} took too long to read (more than {timeout:g} s); "
                                  "it was not attached.", "timeout") from None
        except BrokenPipeError:  # the child died before reading everything (the memory cap)
            child.kill()
            out = b""
            child.wait()
    finally:
        with _lock:
            _running.discard(child)
            cancelled = child.pid in _cancelled
            _cancelled.discard(child.pid)
    if cancelled:
        raise AttachmentError(f"{name}: reading the {what} was cancelled.", "cancelled")
    try:
        answer: dict[str, Any] = json.loads(out.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        answer = {}
    if "error" in answer:
        raise AttachmentError(f"{name}: {answer['error']}", str(answer.get("code") or "unreadable"))
    if not answer:  # killed by the memory cap (MemoryError can end it without an answer) or a crash
        raise AttachmentError(f"{name}: the {what} needs too much memory to read (or is damaged); it was not "
                              "attached.", "memory")
    return answer


def cancel_all() -> None:
    """Kill every PDF extraction still running; their callers raise AttachmentError ("cancelled")."""
    with _lock:
        for child in list(_running):
            _cancelled.add(child.pid)
            try:
                child.kill()
            except OSError:
                pass


def running_count() -> int:
    """How many extractions are running (for tests and the quit path)."""
    with _lock:
        return len(_running)


# ---------------------------------------------------------------------------------------------- the child
def _read_pages(data: bytes, budget: int) -> dict[str, Any]:
    """The child's work: pages' text until more than `budget` characters are held. Errors as {"error": reason,
    "code": DocumentError code} (the parent puts the file's name in front).

    pypdfium2 (PDFium, Apache-2.0/BSD) reads the text; pypdf only where pypdfium2 is not installed. Measured on
    Chinese PDFs (docs/knowledge.md): with a CFF font (Noto Sans CJK embedded as CIDFontType0C, as fpdf2, Chrome and
    LibreOffice write it) pypdf returns a NUL before every character, PDFium the text; PDFium is also far faster on
    large content streams. NULs are stripped whatever the library."""
    try:
        import pypdfium2  # noqa: F401
    except ImportError:  # pragma: no cover - a declared dependency
        return _read_pages_pypdf(data, budget)
    return _read_pages_pdfium(data, budget)


def _read_pages_pdfium(data: bytes, budget: int) -> dict[str, Any]:
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) in (pdfium.raw.FPDF_ERR_PASSWORD, pdfium.raw.FPDF_ERR_SECURITY):
            return {"error": "the PDF is protected by a password, so its text cannot be read.", "code": "encrypted"}
        return {"error": f"not a readable PDF ({_one_line(exc)}).", "code": "damaged"}
    except MemoryError:
        return {"error": "the PDF needs too much memory to read; it was not attached.", "code": "memory"}
    try:
        total = len(document)
        pages: list[str] = []
        held = 0
        for index in range(total):
            page = document[index]
            try:
                textpage = page.get_textpage()
                try:
                    body = clean_pdf_text(textpage.get_text_range())
                finally:
                    textpage.close()
            finally:
                page.close()
            pages.append(body)
            held += len(body) + 12
            if held > budget and index + 1 < total:
                break
    except MemoryError:
        return {"error": "the PDF needs too much memory to read; it was not attached.", "code": "memory"}
    except Exception as exc:  # PDFium raises on damaged pages; never a traceback for the user
        return {"error": f"not a readable PDF ({_one_line(exc)}).", "code": "damaged"}
    finally:
        document.close()
    return _answer(pages, total)


def _answer(pages: list[str], total: int) -> dict[str, Any]:
    text = "\n\n".join(f"[page {number}]\n{body}" for number, body in enumerate(pages, start=1))
    return {"text": text, "page_texts": pages, "pages": total, "pages_read": len(pages),
            "complete": len(pages) == total, "has_text": any(body.strip() for body in pages)}


# Qt and some other writers map CJK characters to the look-alike Kangxi / supplement radicals in ToUnicode (二 read
# as U+2F06 "⼆", 页 as U+2EDA "⻚"): search would never find them. Kangxi radicals fold by NFKC; the simplified
# supplement forms have no decomposition, so the common ones are listed.
_RADICALS = {0x2EA0: "民", 0x2EA5: "爫", 0x2EC5: "见", 0x2EC6: "贝", 0x2EC9: "车", 0x2ECF: "阝", 0x2ED3: "长",
             0x2ED4: "门", 0x2ED8: "青", 0x2EDA: "页", 0x2EDB: "风", 0x2EDC: "飞", 0x2EDD: "食", 0x2EE2: "马",
             0x2EE3: "骨", 0x2EE5: "鱼", 0x2EE6: "鸟", 0x2EE7: "卤", 0x2EE8: "麦", 0x2EE9: "黄", 0x2EEC: "齐",
             0x2EEE: "齿", 0x2EF0: "龙", 0x2EF3: "龟", 0x2E8C: "小", 0x2E8D: "小", 0x2E95: "彐", 0x2EA7: "牛",
             0x2EAB: "目", 0x2EAE: "竹", 0x2EB7: "羊", 0x2EBC: "肉", 0x2EC4: "西", 0x2ECA: "足", 0x2ECC: "辶",
             0x2ECD: "辶", 0x2ED6: "阝", 0x2EDE: "饣", 0x2EE0: "饣", 0x2EE4: "鬼", 0x2EEB: "齐", 0x2EED: "齿",
             0x2EEF: "龙", 0x2EF2: "龟"}


def clean_pdf_text(text: str) -> str:
    """NULs out (pypdf writes one before each CFF glyph; any library may pass one through), CR LF to LF, look-alike
    radicals to their characters."""
    import unicodedata

    text = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n").replace("\ufffe", "")
    if any("\u2e80" <= ch <= "\u2fdf" for ch in text):
        text = "".join(unicodedata.normalize("NFKC", ch) if "\u2f00" <= ch <= "\u2fdf" else _RADICALS.get(ord(ch), ch)
                       for ch in text)
    return text.strip()


def _read_pages_pypdf(data: bytes, budget: int) -> dict[str, Any]:
    import io

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings about damaged files are not for the user
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            return {"error": "the PDF is protected by a password, so its text cannot be read.", "code": "encrypted"}
        total = len(reader.pages)
        pages: list[str] = []
        held = 0
        for number, page in enumerate(reader.pages, start=1):
            body = clean_pdf_text(page.extract_text() or "")
            pages.append(body)
            held += len(body) + 12
            if held > budget and number < total:
                break
    except MemoryError:
        return {"error": "the PDF needs too much memory to read; it was not attached.", "code": "memory"}
    except (PdfReadError, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, OSError) as exc:
        return {"error": f"not a readable PDF ({_one_line(exc)}).", "code": "damaged"}
    except Exception as exc:  # pypdf raises assorted errors on damaged files; never a traceback for the user
        if "crypt" in str(exc).lower() or "AES" in str(exc):
            return {"error": "the PDF is encrypted in a way that cannot be read here.", "code": "encrypted"}
        return {"error": f"not a readable PDF ({_one_line(exc)}).", "code": "damaged"}
    return _answer(pages, total)


def _limit_memory(memory_bytes: int) -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows: the time limit still holds
        return
    try:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    except (ValueError, OSError):  # pragma: no cover - a lower hard limit already in place
        pass


# The app's own hidden command for the reader, where sys.executable is the bundled app and not a Python.
CHILD_COMMAND = "--read-pdf-text"


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:160]


def _child_command(budget: int, memory_bytes: int, kind: str = "pdf") -> list[str]:
    if getattr(sys, "frozen", False):  # a PyInstaller bundle: `python -I -c` would start the app itself
        return [sys.executable, CHILD_COMMAND, str(budget), str(memory_bytes), kind]
    return [sys.executable, "-I", "-c", _CHILD, str(budget), str(memory_bytes), kind]


def _child_main(argv: list[str]) -> int:
    budget, memory_bytes = int(argv[0]), int(argv[1])
    kind = argv[2] if len(argv) > 2 else "pdf"
    if memory_bytes > 0:
        _limit_memory(memory_bytes)
    data = sys.stdin.buffer.read()
    if kind == "docx":
        from hermes_desktop.core.documents.docx_reader import read_docx_sections

        answer = read_docx_sections(data, budget)
    else:
        answer = _read_pages(data, budget)
    sys.stdout.write(json.dumps(answer, ensure_ascii=True))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))

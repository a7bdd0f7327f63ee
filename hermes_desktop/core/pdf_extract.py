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
    """Text of the pages read (`[page N]` marker each); `complete` is False when reading stopped at the budget."""

    text: str
    pages: int  # pages in the PDF
    pages_read: int
    complete: bool
    has_text: bool


def extract_pdf_text(data: bytes, name: str, *, budget: int, timeout: float = PDF_TIMEOUT_S,
                     memory_bytes: int | None = PDF_MEMORY_BYTES) -> PdfText:
    """Read the PDF's text in a child process (blocking); AttachmentError with one line when it cannot be read."""
    from hermes_desktop.core.attachments import AttachmentError

    command = _child_command(budget, memory_bytes or 0)
    try:
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 start_new_session=True)  # Ctrl-C on the terminal goes to us, and we decide
    except OSError as exc:
        raise AttachmentError(f"{name}: the PDF could not be read ({exc.strerror or exc}).") from None
    with _lock:
        _running.add(child)
    try:
        try:
            out, _ = child.communicate(data, timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            raise AttachmentError(f"{name}: the PDF took too long to read (more than {timeout:g} s); "
                                  "it was not attached.") from None
    finally:
        with _lock:
            _running.discard(child)
            cancelled = child.pid in _cancelled
            _cancelled.discard(child.pid)
    if cancelled:
        raise AttachmentError(f"{name}: reading the PDF was cancelled.")
    try:
        answer: dict[str, Any] = json.loads(out.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        answer = {}
    if "error" in answer:
        raise AttachmentError(f"{name}: {answer['error']}")
    if "text" not in answer:  # killed by the memory cap (MemoryError can end it without an answer) or a crash
        raise AttachmentError(f"{name}: the PDF needs too much memory to read (or is damaged); it was not attached.")
    return PdfText(str(answer["text"]), int(answer["pages"]), int(answer["pages_read"]), bool(answer["complete"]),
                   bool(answer["has_text"]))


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
    """The child's work: pages' text until more than `budget` characters are held. Errors as {"error": reason}
    (the parent puts the file's name in front)."""
    import io


    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError
    except ImportError:  # pragma: no cover - a declared dependency
        return {"error": f"PDF support is not installed (pypdf)."}
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings about damaged files are not for the user
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            return {"error": f"the PDF is protected by a password, so its text cannot be read."}
        total = len(reader.pages)
        pages: list[str] = []
        held = 0
        has_text = False
        for number, page in enumerate(reader.pages, start=1):
            body = (page.extract_text() or "").strip()
            has_text = has_text or bool(body)
            pages.append(f"[page {number}]\n{body}")
            held += len(pages[-1]) + 2
            if held > budget and number < total:
                break
    except MemoryError:
        return {"error": f"the PDF needs too much memory to read; it was not attached."}
    except (PdfReadError, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, OSError) as exc:
        return {"error": f"not a readable PDF ({_one_line(exc)})."}
    except Exception as exc:  # pypdf raises assorted errors on damaged files; never a traceback for the user
        if "crypt" in str(exc).lower() or "AES" in str(exc):
            return {"error": f"the PDF is encrypted in a way that cannot be read here."}
        return {"error": f"not a readable PDF ({_one_line(exc)})."}
    return {"text": "\n\n".join(pages), "pages": total, "pages_read": len(pages), "complete": len(pages) == total,
            "has_text": has_text}


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


def _child_command(budget: int, memory_bytes: int) -> list[str]:
    if getattr(sys, "frozen", False):  # a PyInstaller bundle: `python -I -c` would start the app itself
        return [sys.executable, CHILD_COMMAND, str(budget), str(memory_bytes)]
    return [sys.executable, "-I", "-c", _CHILD, str(budget), str(memory_bytes)]


def _child_main(argv: list[str]) -> int:
    budget, memory_bytes = int(argv[0]), int(argv[1])
    if memory_bytes > 0:
        _limit_memory(memory_bytes)
    data = sys.stdin.buffer.read()
    answer = _read_pages(data, budget)
    sys.stdout.write(json.dumps(answer, ensure_ascii=True))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))

"""Files the user attaches to a message: images, text/code/Markdown/CSV/JSON, PDFs.

What this module promises (Qt-free; blocking functions are meant for the store executor):

- A file in a credential location (`~/.ssh`, `~/.aws`, keyrings, `.env`, ...: core/tools/credentials.py, the file
  tools' rule) is refused, also when the chosen path is a link into one; a link that is attached says where it
  points (`PreparedAttachment.link_target`).
- `prepare_attachment(path, process_image=...)` reads one file and turns it into a `PreparedAttachment`, or raises
  `AttachmentError` with one line saying why not. Only regular files are read (a FIFO, socket or device is refused
  before it is opened, and the file is opened O_NONBLOCK and checked again); files over `MAX_FILE_BYTES` are refused.
- Images are decoded and downscaled to at most `MAX_IMAGE_SIDE` px on the longest side by an injected
  `ImageProcessor` (hermes_desktop/imaging.py does it with QImage; the core never imports Qt); one too large to decode
  within its memory budget is refused from its header (`ImageTooLarge`, worded with its pixels and the limit,
  code TOO_LARGE). What is stored and sent is
  the processed image, so its SHA-256 is the attachment's identity: the same picture attached twice is stored once.
- Text files become a named, fenced block (`text_block`) of at most `TEXT_BUDGET_CHARS` characters; a longer file
  keeps its first part plus a note saying how much was left out and that it can be copied into the workspace, where
  the agent's read_file tool reads it in pages. PDFs: text extracted with pypdf, one `[page N]` marker per page; a
  PDF without a text layer says so; an encrypted or broken one is refused with the reason. A Word file (.docx) or an
  HTML page is read as text by the shared readers (core/documents/: headings kept, an HTML page's navigation left
  out); a text file that is not UTF-8 is decoded in the encoding detected, and the note says which. The extraction runs in a
  child process with a time limit and a memory cap that stops at the text budget (core/pdf_extract.py), so a PDF
  bomb is refused in seconds and Ctrl-C or quitting the window kills it.
- The block's frame cannot be faked by the file: the name is quoted as a JSON string and the end line carries the
  first 16 hex digits of the file's SHA-256 (`[End of attached file 0123…]`).
- One message's attachments together: at most MAX_MESSAGE_ATTACHMENTS files, MAX_MESSAGE_TEXT_CHARS characters,
  and MESSAGE_CONTEXT_SHARE of a known context window (`message_budget_refusal`, checked before storing/sending).
- `AttachmentFiles` keeps one file per content hash under `<data>/attachments/ab/abcdef…`, written atomically
  (temp file + fsync + rename). A full disk raises the store's `DiskFullError` & co. The store deletes a file once
  no message references it (core/store.py, `purge_session`).
- Vision: `supports_images(profile)` decides from the profile's setting (yes/no), what was learned from a server's
  refusal, and, under auto, the model's name (`KNOWN_VISION_MODELS`; an unknown name is allowed and learned from a
  400 that says images are not supported). `image_refusal()` is the one-line reason used before anything is sent.
- History policy: only the newest `HISTORY_IMAGES` images of a request go as image parts; older ones (and every image
  for a model that does not take images) are replaced by a short text note naming the file, so an old screenshot
  does not cost ~1 000 tokens on every later turn and a switch to a text-only model keeps the session usable.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from hermes_desktop.core.documents.errors import (CREDENTIAL, DAMAGED, FOLDER, MISSING, NOT_REGULAR, PERMISSION, TOO_LARGE,
                                                  UNREADABLE, UNSUPPORTED, DocumentError)
from hermes_desktop.core.session_types import AttachmentRef
from hermes_desktop.core.storage.errors import error_for

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_IMAGE_SIDE = 2048
TEXT_BUDGET_CHARS = 40_000
HISTORY_IMAGES = 4

IMAGE, TEXT, PDF = "image", "text", "pdf"
DOCUMENT = "document"  # only while reading: a Word file or HTML page is stored and sent as TEXT (its text)
_DOCUMENT_MIME = {".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                  ".html": "text/html", ".htm": "text/html", ".xhtml": "application/xhtml+xml"}

_IMAGE_MAGIC = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF87a", "image/gif"),
                (b"GIF89a", "image/gif"), (b"BM", "image/bmp"))
_IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"}
_LANGUAGES = {
    ".py": "python", ".js": "javascript", ".ts": "typescript", ".tsx": "tsx", ".jsx": "jsx", ".json": "json",
    ".md": "markdown", ".markdown": "markdown", ".csv": "csv", ".tsv": "tsv", ".html": "html", ".css": "css",
    ".c": "c", ".h": "c", ".cpp": "cpp", ".hpp": "cpp", ".rs": "rust", ".go": "go", ".java": "java", ".kt": "kotlin",
    ".rb": "ruby", ".php": "php", ".sh": "bash", ".sql": "sql", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
    ".xml": "xml", ".swift": "swift", ".cs": "csharp", ".lua": "lua", ".r": "r", ".ini": "ini", ".txt": "",
    ".log": "", ".rst": "rst", ".tex": "latex",
}
_MIME_BY_SUFFIX = {".json": "application/json", ".csv": "text/csv", ".md": "text/markdown", ".markdown": "text/markdown"}

# Model names (lower case, fnmatch) known to accept images. Deliberately narrow: a name not listed is still allowed
# under "auto" and learned from the server's refusal, so the list only needs to be right where it says yes.
KNOWN_VISION_MODELS = (
    "gpt-4o*", "chatgpt-4o*", "gpt-4.1*", "gpt-4-turbo*", "gpt-4-vision*", "gpt-5*", "o1", "o1-20*", "o3", "o3-*",
    "o4-mini*", "claude-3*", "claude-*-4*", "claude-sonnet*", "claude-opus*", "claude-haiku*", "gemini-*",
    "gemma3*", "gemma-3*", "qwen-vl*", "qwen2-vl*", "qwen2.5-vl*", "qwen3-vl*", "qvq*", "qwen-omni*", "qwen2.5-omni*",
    "glm-4v*", "glm-4.1v*", "glm-4.5v*", "glm-4.6v*", "llava*", "bakllava*", "llama3.2-vision*", "llama-3.2-*vision*",
    "llama-4*", "llama4*", "minicpm-v*", "pixtral*", "mistral-small-3.1*", "mistral-medium*", "moondream*", "kimi-vl*",
    "moonshot-v1-*-vision*", "kimi-latest*", "grok-*vision*", "grok-4*", "internvl*", "phi-3.5-vision*",
    "phi-4-multimodal*", "step-1v*", "doubao-*vision*", "yi-vision*",
)
# Names known not to take images: those that match a pattern above but are text-only, and the common text-only
# models of the providers the setup dialog offers (DeepSeek's chat and reasoner, Qwen's text models, GLM's and
# Kimi's text models, the coders), so an image for them is refused before anything is sent (issue 24: a picture
# went to deepseek-reasoner with no warning). Checked before the list above: keep vision names out of it.
_KNOWN_TEXT_ONLY = (
    "o1-mini*", "o3-mini*", "gpt-4o-audio*", "gpt-4o-*transcribe*", "gpt-4o-*tts*", "gpt-5*-codex*",
    "gpt-3.5*", "deepseek-chat*", "deepseek-reasoner*", "deepseek-r1*", "deepseek-v2*", "deepseek-v3*",
    "deepseek-coder*", "deepseek-prover*", "qwq*", "qwen-max*", "qwen-plus*", "qwen-turbo*", "qwen-long*",
    "qwen-flash*", "qwen-coder*", "qwen2.5-coder*", "qwen3-coder*", "qwen3-max*", "qwen3-next*", "glm-4-*",
    "glm-4", "glm-4.5", "glm-4.5-air*", "glm-4.5-x*", "glm-4.6", "glm-z1*", "moonshot-v1-8k", "moonshot-v1-32k",
    "moonshot-v1-128k", "moonshot-v1-auto", "kimi-k2*", "kimi-thinking*", "codestral*", "llama3.1*", "llama-3.1*",
    "llama3.3*", "llama-3.3*", "mistral-7b*", "mixtral*", "phi-4", "phi-4-mini*",
)


class AttachmentError(DocumentError):
    """A file that cannot be attached; `str()` is one line for the user naming the file and the reason, `code` the
    reason's code (core/documents/errors.py: a knowledge base lists the same reasons)."""


@dataclass(frozen=True, slots=True)
class ProcessedImage:
    data: bytes
    mime: str
    width: int
    height: int


class ImageTooLarge(ValueError):
    """An image whose header says it has more pixels than can be decoded within the memory budget (raised before
    decoding, by hermes_desktop/imaging.py); `limit` is that format's limit in pixels."""

    def __init__(self, fmt: str, width: int, height: int, limit: int) -> None:
        super().__init__(f"{width} x {height} pixels, limit {limit} for {fmt}")
        self.fmt, self.width, self.height, self.limit = fmt, width, height, limit


# Decodes image bytes and downscales them (longest side at most MAX_IMAGE_SIDE); raises ImageTooLarge for a picture
# too large to decode, ValueError for bytes that are not a readable image. Injected (hermes_desktop/imaging.py) so
# the core stays Qt-free.
ImageProcessor = Callable[[bytes], ProcessedImage]


@dataclass(frozen=True, slots=True)
class PreparedAttachment:
    """One file, read and ready to store and send. `data` is what is stored (the processed image, or the file)."""

    name: str
    kind: str
    mime: str
    data: bytes
    width: int | None = None
    height: int | None = None
    text: str | None = None  # text/PDF: the block body sent to the model (already within budget)
    note: str = ""  # for the user: "only the first part…", "no text layer"
    truncated: bool = False
    source: Path | None = None
    total_chars: int | None = None  # a truncated text/PDF: how long the whole text is
    no_text_layer: bool = False  # a PDF whose pages have no text
    digest: str = ""  # SHA-256 of `data`, computed where the file was read (off the event loop)
    link_target: Path | None = None  # the file the chosen path links to (shown to the user), or None: not a link

    @property
    def hash(self) -> str:
        return self.digest or hashlib.sha256(self.data).hexdigest()

    def ref(self) -> AttachmentRef:
        return AttachmentRef(self.hash, self.name, self.kind, self.mime, len(self.data), self.width, self.height,
                             self.text, self.note)


# ---------------------------------------------------------------------------------------------- reading files
def prepare_attachment(path: Path, *, process_image: ImageProcessor | None,
                       max_bytes: int = MAX_FILE_BYTES, text_budget: int = TEXT_BUDGET_CHARS) -> PreparedAttachment:
    """Read `path` as an attachment (blocking). Raises AttachmentError with the reason."""
    path = Path(path)
    name = path.name or str(path)
    target = _checked_target(path, name)
    data = _read_regular_file(target, name, max_bytes)
    prepared = prepare_bytes(name, data, process_image=process_image, text_budget=text_budget, source=path)
    absolute = Path(os.path.abspath(path.expanduser()))
    return replace(prepared, link_target=target) if target != absolute else prepared


def _checked_target(path: Path, name: str) -> Path:
    """The real file `path` names (links followed), refused when it is a credential location: the file tools'
    rule (core/tools/credentials.py), so a `notes.txt` that links into ~/.ssh is not read, and a key cannot be
    attached by mistake. Reading then opens this resolved path, and checks again what was opened."""
    from hermes_desktop.core.tools.credentials import credential_part

    absolute = Path(os.path.abspath(path.expanduser()))
    real = Path(os.path.realpath(absolute))
    part = credential_part(real)
    if part is not None:
        link = f" (it is a link to {real})" if real != absolute else ""
        raise AttachmentError(f"{name}: refused: a credential location ({part}){link}; Hermes never reads those.",
                              CREDENTIAL)
    return real


def _opened_path(fd: int) -> Path | None:
    """Where an open descriptor's file is (Linux /proc), to check that what was opened is what was checked."""
    try:
        return Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        return None


def prepare_bytes(name: str, data: bytes, *, process_image: ImageProcessor | None,
                  max_bytes: int = MAX_FILE_BYTES, text_budget: int = TEXT_BUDGET_CHARS,
                  source: Path | None = None) -> PreparedAttachment:
    """`prepare_attachment` for bytes already in memory (a pasted image). Raises AttachmentError with the reason.
    The name is kept on one line (it heads the block the model reads)."""
    name = " ".join(name.split())[:255] or "attachment"
    prepared = _prepare(name, data, process_image=process_image, max_bytes=max_bytes, text_budget=text_budget,
                        source=source)
    return replace(prepared, digest=hashlib.sha256(prepared.data).hexdigest())


def _prepare(name: str, data: bytes, *, process_image: ImageProcessor | None, max_bytes: int, text_budget: int,
             source: Path | None) -> PreparedAttachment:
    if len(data) > max_bytes:
        raise AttachmentError(f"{name}: {_size(len(data))} is larger than the limit of {_size(max_bytes)}.",
                              TOO_LARGE)
    path = source or Path(name)
    kind, mime = _kind_of(path, data)
    if kind == IMAGE:
        if process_image is None:
            raise AttachmentError(f"{name}: images cannot be attached here (no image decoder).", UNSUPPORTED)
        try:
            image = process_image(data)
        except ImageTooLarge as exc:
            raise AttachmentError(_too_many_pixels(name, exc), TOO_LARGE) from None
        except ValueError as exc:
            raise AttachmentError(f"{name}: not a readable image ({exc}).", DAMAGED) from None
        return PreparedAttachment(name, IMAGE, image.mime, image.data, image.width, image.height, source=source)
    if kind == PDF:
        return _prepare_pdf(name, mime, data, text_budget=text_budget, source=source)
    if kind == DOCUMENT:  # Word and HTML: their text, read by the shared readers (core/documents/)
        return _prepare_document(name, mime, data, path, text_budget=text_budget, source=source)
    whole, encoding_note = _decode_text(data, name)
    text, truncated, note = _within_budget(whole, text_budget)
    note = " ".join(part for part in (encoding_note, note) if part)
    return PreparedAttachment(name, TEXT, mime, data, text=text, note=note, truncated=truncated, source=source,
                              total_chars=len(whole))


def _too_many_pixels(name: str, exc: ImageTooLarge) -> str:
    """The refusal of an image too large to decode, worded like the file size limit's, with what to do instead."""
    megapixels = exc.width * exc.height / 1e6
    return (f"{name}: {exc.width:,} × {exc.height:,} pixels ({megapixels:,.0f} megapixels) is larger than the limit "
            f"of {exc.limit / 1e6:,.0f} megapixels for a {exc.fmt} image; save it smaller (at most {MAX_IMAGE_SIDE} "
            "pixels on its longest side is enough: that is the size it is sent at) and attach it again.")


def _prepare_document(name: str, mime: str, data: bytes, path: Path, *, text_budget: int,
                      source: Path | None) -> PreparedAttachment:
    """A Word document or HTML page attached: its text (headings as Markdown headings), within the budget."""
    from hermes_desktop.core.documents import DocumentError, kind_for, read_bytes

    kind = kind_for(path) or "text"
    try:
        document = read_bytes(name, data, kind, budget=text_budget * 2)
    except AttachmentError:
        raise
    except DocumentError as exc:
        raise AttachmentError(str(exc), exc.code) from None
    parts: list[str] = []
    heading: tuple[str, ...] = ()
    for section in document.sections:
        if section.heading != heading:
            heading = section.heading
            if heading:
                parts.append("#" * len(heading) + " " + heading[-1])
        parts.append(section.text)
    whole = "\n\n".join(parts)
    text, truncated, note = _within_budget(whole, text_budget)
    note = " ".join(part for part in (document.note, note) if part)
    return PreparedAttachment(name, TEXT, mime, data, text=text, note=note, truncated=truncated, source=source,
                              total_chars=len(whole))


def _os_reason(exc: OSError) -> str:
    """The reason's code for an OSError opening a file (the window words the code; the English line says more)."""
    import errno

    if exc.errno in (errno.EACCES, errno.EPERM):
        return PERMISSION
    if exc.errno == errno.ENOENT:
        return MISSING
    return UNREADABLE


def _read_regular_file(path: Path, name: str, max_bytes: int) -> bytes:
    try:
        info = os.stat(path)
    except OSError as exc:
        raise AttachmentError(f"{name}: cannot be read ({exc.strerror or exc}).", _os_reason(exc)) from None
    _check_regular(info, name, max_bytes)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise AttachmentError(f"{name}: cannot be read ({exc.strerror or exc}).", _os_reason(exc)) from None
    with os.fdopen(fd, "rb") as handle:
        _check_regular(os.fstat(handle.fileno()), name, max_bytes)  # swapped for a FIFO after the first check
        opened = _opened_path(handle.fileno())  # a folder on the way swapped for a link into ~/.ssh meanwhile
        if opened is not None:
            from hermes_desktop.core.tools.credentials import credential_part

            part = credential_part(opened)
            if part is not None:
                raise AttachmentError(f"{name}: refused: a credential location ({part}, it is {opened}); "
                                      "Hermes never reads those.", CREDENTIAL)
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise AttachmentError(f"{name}: larger than the limit of {_size(max_bytes)}.", TOO_LARGE)
    return data


def _check_regular(info: os.stat_result, name: str, max_bytes: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise AttachmentError(f"{name}: is a folder; attach files one by one.", FOLDER)
    if not stat.S_ISREG(info.st_mode):
        raise AttachmentError(f"{name}: not a regular file (a pipe, socket or device); only files can be attached.",
                              NOT_REGULAR)
    if info.st_size > max_bytes:
        raise AttachmentError(f"{name}: {_size(info.st_size)} is larger than the limit of {_size(max_bytes)}.",
                              TOO_LARGE)


def _kind_of(path: Path, data: bytes) -> tuple[str, str]:
    suffix = path.suffix.lower()
    for magic, mime in _IMAGE_MAGIC:
        if data.startswith(magic):
            return IMAGE, mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return IMAGE, "image/webp"
    if data.startswith(b"%PDF-") or suffix == ".pdf":
        return PDF, "application/pdf"
    if suffix in _IMAGE_SUFFIXES:
        return IMAGE, "image/" + suffix.lstrip(".").replace("jpg", "jpeg")
    if suffix in _DOCUMENT_MIME:
        return DOCUMENT, _DOCUMENT_MIME[suffix]
    if b"\x00" in data[:8192]:
        raise AttachmentError(f"{path.name}: not an image, PDF or text file, so it cannot be attached.", UNSUPPORTED)
    return TEXT, _MIME_BY_SUFFIX.get(suffix, "text/plain")


def _decode_text(data: bytes, name: str) -> tuple[str, str]:
    """(text, note): UTF-8, or the encoding detected and said in the note (core/documents/text.py)."""
    from hermes_desktop.core.documents.errors import TOO_LARGE, DocumentError
    from hermes_desktop.core.documents.text import decode_text

    try:
        text, _, note = decode_text(data, name)
    except DocumentError:
        raise AttachmentError(f"{name}: not UTF-8 text (nor an image or PDF), and its encoding could not be "
                              "detected, so it cannot be attached.", "not_text") from None
    return text, note


def _within_budget(text: str, budget: int) -> tuple[str, bool, str]:
    """(text within `budget` characters, truncated?, note for the user and the model)."""
    if len(text) <= budget:
        return text, False, ""
    cut = text.rfind("\n", 0, budget)
    head = text[: cut if cut > budget // 2 else budget]
    note = (f"Only the first {len(head):,} of {len(text):,} characters are included. Copy the file into the "
            "workspace to let the agent read the rest in pages.")
    return head, True, note


# ---------------------------------------------------------------------------------------------- PDFs and budgets (issue 12)
# PDF text is read in a child process that is killed on a time limit, a memory cap or cancel (core/pdf_extract.py);
# One message's attachments have a total limit (`message_budget_refusal`), checked before anything is stored or sent.
MAX_MESSAGE_ATTACHMENTS = 20
MAX_MESSAGE_TEXT_CHARS = 200_000  # ~50k tokens of attached text in one message
MESSAGE_CONTEXT_SHARE = 0.6  # attachments may fill at most this part of a known context window


def _prepare_pdf(name: str, mime: str, data: bytes, *, text_budget: int, source: Path | None) -> PreparedAttachment:
    from hermes_desktop.core.pdf_extract import extract_pdf_text

    read = extract_pdf_text(data, name, budget=text_budget)
    if read.pages == 0:
        return PreparedAttachment(name, PDF, mime, data, text="", note="This PDF has no pages.", source=source,
                                  total_chars=0, no_text_layer=True)
    if not read.has_text and read.complete:
        note = (f"This PDF has no text layer ({read.pages} page{'s' if read.pages != 1 else ''}, probably scanned "
                "images), so no text could be extracted.")
        return PreparedAttachment(name, PDF, mime, data, text=read.text, note=note, source=source,
                                  total_chars=len(read.text), no_text_layer=True)
    text, truncated, note = _within_budget(read.text, text_budget)
    if not read.complete:  # reading stopped at the budget: the whole length is not known, the page count is
        truncated = True
        note = (f"Only the first {len(text):,} characters of this {read.pages}-page PDF are included. Copy the file "
                "into the workspace to let the agent read the rest in pages.")
    return PreparedAttachment(name, PDF, mime, data, text=text, note=note, truncated=truncated, source=source,
                              total_chars=len(read.text) if read.complete else None)


def count_refusal(count: int, max_count: int = MAX_MESSAGE_ATTACHMENTS) -> str | None:
    """The reason `count` files are too many for one message (checkable before any file is read), or None."""
    if count <= max_count:
        return None
    return (f"Not sent: {count} files are attached; one message takes at most {max_count}. "
            "Remove some, or send them over several messages.")


def message_budget_refusal(prepared: Sequence[PreparedAttachment] | Sequence[AttachmentRef], *,
                           context_window: int | None = None, max_count: int = MAX_MESSAGE_ATTACHMENTS,
                           max_chars: int = MAX_MESSAGE_TEXT_CHARS) -> str | None:
    """One line saying why these attachments are too much for one message, or None when they fit: at most
    `max_count` files, at most `max_chars` characters of attached text, and (when the profile's context window is
    known) at most MESSAGE_CONTEXT_SHARE of it in estimated tokens (text blocks and images)."""
    from hermes_desktop.core.tokens import estimate_text_tokens

    too_many = count_refusal(len(prepared), max_count)
    if too_many:
        return too_many
    chars = sum(len(a.text or "") for a in prepared if a.kind != IMAGE)
    if chars > max_chars:
        return (f"Not sent: the attached files hold {chars:,} characters of text; one message takes at most "
                f"{max_chars:,}. Remove some, or copy them into the workspace for the agent to read in pages.")
    if context_window:
        tokens = sum(estimate_text_tokens(a.text or "") if a.kind != IMAGE else
                     image_tokens(a.width or 0, a.height or 0) for a in prepared)
        allowed = int(context_window * MESSAGE_CONTEXT_SHARE)
        if tokens > allowed:
            return (f"Not sent: the attachments come to about {tokens:,} tokens, more than this model's context "
                    f"window ({context_window:,} tokens) leaves room for. Remove some, or copy them into the "
                    "workspace for the agent to read in pages.")
    return None


# ---------------------------------------------------------------------------------------------- (end of issue 12 piece)
def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KB"


# ---------------------------------------------------------------------------------------------- what the model sees
BLOCK_START = "[Attached file: "
BLOCK_END = "[End of attached file]"
_BLOCK = re.compile(re.escape(BLOCK_START) + r".*?" + re.escape(BLOCK_END[:-1]) + r" [0-9a-f]{16}\]", re.S)


def text_block(ref: AttachmentRef) -> str:
    """A named, fenced block for a text or PDF attachment (the fence is longer than any backtick run inside).
    The frame cannot be faked from inside: the name is quoted as a JSON string (a `]` or `"` in it is escaped), and
    the end line carries the first 16 hex digits of the file's SHA-256, which the file's own text cannot contain
    without changing its hash (deterministic, so a re-sent history keeps the provider's prompt cache)."""
    body = ref.text or ""
    language = "" if ref.kind == PDF else _LANGUAGES.get(Path(ref.name).suffix.lower(), "")
    fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", body)), default=0) + 1)
    tail = f"\n[{ref.note}]" if ref.note else ""
    quoted = json.dumps(ref.name, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"{BLOCK_START}{quoted}]\n{fence}{language}\n{body}\n{fence}{tail}\n{_block_end(ref.hash)}"


def _block_end(digest: str) -> str:
    return f"{BLOCK_END[:-1]} {digest[:16]}]"


def image_part(mime: str, data: bytes) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"}}


def user_content(text: str, refs: Sequence[AttachmentRef], read_image: Callable[[AttachmentRef], bytes | None], *,
                 send_images: Callable[[AttachmentRef], bool]) -> str | list[dict[str, Any]]:
    """The `content` of a user message with its attachments: a string when there is no image part, else parts."""
    blocks = [text] if text else []
    images: list[dict[str, Any]] = []
    for ref in refs:
        if ref.kind != IMAGE:
            blocks.append(text_block(ref))
            continue
        data = read_image(ref) if send_images(ref) else None
        if data is None:
            blocks.append(f"[Image {ref.name} attached earlier; not included in this request.]")
        else:
            images.append(image_part(ref.mime, data))
    joined = "\n\n".join(blocks)
    if not images:
        return joined
    return ([{"type": "text", "text": joined}] if joined else []) + images


def image_tokens(width: int, height: int) -> int:
    """OpenAI's documented estimate for a high-detail image: scaled to fit 2048x2048, then so its short side is at most
    768 px; 85 tokens plus 170 per 512 px tile."""
    if width <= 0 or height <= 0:
        return 85
    scale = min(1.0, 2048 / max(width, height))
    w, h = width * scale, height * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    tiles = -(-int(w) // 512) * -(-int(h) // 512)
    return 85 + 170 * tiles


def attachment_tokens(message: dict[str, Any]) -> int:
    """Tokens a request message spends on attachments: image parts (tile estimate) and attached-file blocks."""
    from hermes_desktop.core.tokens import estimate_text_tokens

    content = message.get("content")
    total = 0
    texts = [content] if isinstance(content, str) else []
    if isinstance(content, list):
        for part in content:
            if part.get("type") == "image_url":
                total += image_part_tokens(part)
            elif part.get("type") == "text":
                texts.append(str(part.get("text") or ""))
    for text in texts:
        if BLOCK_START in text:
            total += sum(estimate_text_tokens(block) for block in _BLOCK.findall(text))
    return total


def image_part_tokens(part: dict[str, Any]) -> int:
    """An `image_url` request part's tokens, by the tile estimate of its picture's size."""
    return image_tokens(*data_url_size(str((part.get("image_url") or {}).get("url", ""))))


@functools.lru_cache(maxsize=32)  # the same history images are measured on every round trip of a turn
def data_url_size(url: str) -> tuple[int, int]:
    """(width, height) of a base64 PNG/JPEG/GIF/WebP data URL, or (0, 0) when it cannot be told."""
    try:
        data = base64.b64decode(url.split(",", 1)[1], validate=False)
    except (IndexError, ValueError):
        return 0, 0
    return image_size(data)


def image_size(data: bytes) -> tuple[int, int]:
    if data.startswith(b"\x89PNG") and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    if data[:4] == b"RIFF" and data[12:16] == b"VP8X":
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    if data.startswith(b"\xff\xd8"):
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3):
                return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
            i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    return 0, 0


# ---------------------------------------------------------------------------------------------- vision
def _matches(model: str, patterns: Iterable[str]) -> bool:
    name = model.lower().rsplit("/", 1)[-1]  # "openai/gpt-4o" (OpenRouter), "library/llava:13b" (Ollama)
    name = name.split(":", 1)[0] if not name.startswith("moonshot") else name
    return any(fnmatchcase(name, p) for p in patterns)


def known_vision_model(model: str) -> bool | None:
    """True for a model name known to take images, False for one known not to, None when unknown."""
    if _matches(model, _KNOWN_TEXT_ONLY):
        return False
    return True if _matches(model, KNOWN_VISION_MODELS) else None


def supports_images(profile: Any, *, learned_no_vision: bool = False) -> bool:
    """Whether images may be sent to `profile` (a ProviderProfile): its setting, then what was learned, then the name."""
    vision = str(getattr(profile, "vision", "auto"))
    if vision == "yes":
        return True
    if vision == "no":
        return False
    if learned_no_vision or getattr(profile, "learned_no_vision", False):
        return False
    return known_vision_model(str(getattr(profile, "model", "") or "")) is not False


def image_refusal(profile: Any, prepared: Sequence[PreparedAttachment] | Sequence[AttachmentRef], *,
                  learned_no_vision: bool = False) -> str | None:
    """The reason images cannot go to `profile`, or None when they can (or there are none)."""
    names = [a.name for a in prepared if a.kind == IMAGE]
    if not names or profile is None or supports_images(profile, learned_no_vision=learned_no_vision):
        return None
    model = getattr(profile, "model", "") or "this model"
    if str(getattr(profile, "vision", "auto")) == "no":
        how = "vision is set to no for this provider"
    elif learned_no_vision or getattr(profile, "learned_no_vision", False):
        how = "its server said it does not accept images"
    else:
        how = "it is a text-only model"
    return (f"Not sent: {model} cannot see images ({how}). Remove {', '.join(names)}, or pick a model with "
            "vision (or set Images to Yes in the provider settings).")


# ---------------------------------------------------------------------------------------------- files on disk
class AttachmentFiles:
    """One file per content hash under `root` (`root/ab/abcdef…`), written atomically."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path_for(self, digest: str) -> Path:
        if not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise ValueError(f"not a content hash: {digest!r}")
        return self.root / digest[:2] / digest

    def exists(self, digest: str) -> bool:
        return self.path_for(digest).is_file()

    def put(self, data: bytes, digest: str | None = None) -> str:
        """Store `data` (once per hash); returns its SHA-256. Raises StorageUnavailable (DiskFullError, …)."""
        digest = digest or hashlib.sha256(data).hexdigest()
        target = self.path_for(digest)
        if target.is_file() and target.stat().st_size == len(data):
            return digest
        tmp: str | None = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
            tmp = None
        except OSError as exc:
            raise error_for(exc, target, "the attachment was not saved") from exc
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError, ValueError):
                    os.unlink(tmp)
        return digest

    def read(self, digest: str) -> bytes | None:
        """The stored bytes, or None when the file is missing or its content no longer matches its hash."""
        try:
            data = self.path_for(digest).read_bytes()
        except (OSError, ValueError):
            return None
        return data if hashlib.sha256(data).hexdigest() == digest else None

    def delete(self, digests: Iterable[str]) -> None:
        for digest in digests:
            with contextlib.suppress(OSError, ValueError):
                self.path_for(digest).unlink()




__all__ = [
    "AttachmentError", "AttachmentFiles", "HISTORY_IMAGES", "IMAGE", "ImageProcessor", "MAX_FILE_BYTES",
    "MAX_IMAGE_SIDE", "PDF", "PreparedAttachment", "ProcessedImage", "TEXT",
    "TEXT_BUDGET_CHARS", "attachment_tokens", "image_refusal", "message_budget_refusal", "count_refusal", "image_tokens", "known_vision_model",
    "prepare_attachment", "prepare_bytes", "supports_images", "text_block", "user_content",
]

"""A copy of a stored attachment under its own name, for the system's viewer ("open" in the transcript).

The stored file is named by its hash, which no viewer recognises, so opening needs a copy. Where and how matters:
a shared, predictable folder (`/tmp/hermes-attachments/<hash16>/<name>`) let another local user plant a symlink
there (our write followed it into any file we can write) or a file of their own (which we then opened).

What this module promises (Qt-free):

- `viewer_copy(stored, digest, name)` writes the copy into a private folder made once per run with
  `tempfile.mkdtemp` (mode 0700, owned by us, removed at exit), one sub-folder per content hash, with
  O_CREAT | O_EXCL | O_NOFOLLOW, so nothing already there is followed or reused unless we wrote it this run.
- `clean_name(name)` keeps one plain file name: no path separators, NUL, C0/C1 controls or bidi controls (a
  `photo\\u202egnp.exe` would read as `photoexe.png`), no leading dots, at most 120 characters, "attachment" when
  nothing is left.
- `openable(name)` says whether the system viewer may be handed the file: only images, PDF and plain text
  (`VIEWER_SUFFIXES`); a `.desktop`, `.sh` or `.exe` could run a program when "opened", so it is refused with
  `OpenRefused` and a one-line reason before anything is written.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import stat
import tempfile
import threading
from pathlib import Path

VIEWER_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".pdf", ".txt", ".md", ".markdown",
                             ".csv", ".tsv", ".json", ".log"})
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f/\\\\\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")
_MAX_NAME = 120

_folder: Path | None = None
_lock = threading.Lock()


class OpenRefused(Exception):
    """The copy cannot be opened; `str()` is one line for the user."""


def clean_name(name: str) -> str:
    """`name` as one plain file name (see the module docstring); never empty, never '.' or '..'."""
    cleaned = _UNSAFE.sub("", name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]).strip().lstrip(".")
    if len(cleaned) > _MAX_NAME:
        stem, dot, suffix = cleaned.rpartition(".")
        keep = f".{suffix}" if dot and 0 < len(suffix) <= 10 else ""
        cleaned = cleaned[: _MAX_NAME - len(keep)] + keep
    return cleaned or "attachment"


def openable(name: str) -> bool:
    """Whether a file named `name` may be handed to the system viewer (images, PDF, plain text)."""
    return Path(clean_name(name)).suffix.lower() in VIEWER_SUFFIXES


def private_folder() -> Path:
    """This run's folder for copies: made once with mkdtemp (0700), removed when the program exits."""
    global _folder
    with _lock:
        if _folder is None or not _folder.is_dir():
            _folder = Path(tempfile.mkdtemp(prefix="hermes-open-"))
            atexit.register(shutil.rmtree, _folder, True)
        return _folder


def viewer_copy(stored: Path, digest: str, name: str) -> Path:
    """The path of a copy of `stored` named `clean_name(name)`, made for the system viewer. Raises OpenRefused for a
    kind of file a viewer must not be handed, OSError when the copy cannot be written."""
    shown = clean_name(name)
    if Path(shown).suffix.lower() not in VIEWER_SUFFIXES:
        raise OpenRefused(f"{shown} was not opened: only images, PDFs and text files are opened from here, since "
                          "other kinds of file could run a program.")
    if not re.fullmatch(r"[0-9a-f]{64}", digest):
        raise OpenRefused(f"{shown} was not opened: its stored copy has no valid name.")
    folder = private_folder() / digest[:16]
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):  # our private folder: cannot happen
            raise OpenRefused(f"{shown} was not opened: its folder is not ours.") from None
    target = folder / shown
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        _write_new(stored, target)
        return target
    if stat.S_ISREG(info.st_mode) and info.st_size == stored.stat().st_size:
        return target  # written by us earlier in this run (nobody else can write in a 0700 folder)
    raise OpenRefused(f"{shown} was not opened: a different file is in the way.")


def _write_new(stored: Path, target: Path) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(target, flags, 0o600)
    try:
        with open(stored, "rb") as source, os.fdopen(fd, "wb") as out:
            fd = -1
            shutil.copyfileobj(source, out)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(target)
        except OSError:
            pass
        raise

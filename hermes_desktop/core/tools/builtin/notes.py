"""Notes: Markdown files in the `notes` folder of the workspace, one per title.

They live in the workspace (not the app's data directory) so the user can find,
open and back them up like any other document. A title becomes a file name by
removing only what file systems forbid; Chinese and other scripts stay readable.
Notes are read and written like other workspace files (tools/builtin/files.py): a note
must resolve inside the workspace, only regular files are read, and a save goes through
a folder descriptor so a notes folder swapped for a symlink is refused, not followed.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from pathlib import Path
from typing import Any

from hermes_desktop.core.tools.builtin.files import human_size, read_text
from hermes_desktop.core.tools.spec import Impact, Risk, ToolContext, ToolError, ToolSpec

MAX_TITLE_LENGTH = 120
_FORBIDDEN = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')
_WINDOWS_RESERVED = re.compile(r"^(con|prn|aux|nul|com[1-9]|lpt[1-9])$", re.I)


def sanitize_title(title: str) -> str:
    text = unicodedata.normalize("NFC", title)
    text = _FORBIDDEN.sub(" ", text)
    text = " ".join(text.split()).strip(" .")
    if not text:
        raise ToolError("a note needs a title with at least one letter or digit")
    if _WINDOWS_RESERVED.match(text):
        text += "_"
    return text[:MAX_TITLE_LENGTH].rstrip(" .")


def _note_path(ctx: ToolContext, title: str) -> Path:
    return ctx.notes_dir / f"{sanitize_title(title)}.md"


def _find_note(ctx: ToolContext, title: str) -> Path:
    exact = _note_path(ctx, title)
    if exact.is_file():
        return exact
    wanted = sanitize_title(title).casefold()
    if ctx.notes_dir.is_dir():
        for candidate in ctx.notes_dir.glob("*.md"):
            if candidate.stem.casefold() == wanted:
                return candidate
    raise ToolError(f"no note titled {title!r}; list_notes shows the titles")


def list_notes(args: dict[str, Any], ctx: ToolContext) -> str:
    if not ctx.notes_dir.is_dir():
        return "no notes yet"
    notes = sorted(ctx.notes_dir.glob("*.md"), key=lambda p: p.stat().st_mtime, reverse=True)
    if not notes:
        return "no notes yet"
    lines = [f"{len(notes)} note(s), newest first:"]
    for note in notes:
        stat = note.stat()
        lines.append(f"- {note.stem}  ({human_size(stat.st_size)}, {datetime.fromtimestamp(stat.st_mtime):%Y-%m-%d %H:%M})")
    return "\n".join(lines)


def read_note(args: dict[str, Any], ctx: ToolContext) -> str:
    path = _find_note(ctx, args["title"])
    text, _, _ = read_text(ctx.workspace.resolve(str(path)))  # a linked note must stay in the workspace
    return f"# {path.stem}\n\n{text}" if not text.lstrip().startswith("#") else text


def save_note(args: dict[str, Any], ctx: ToolContext) -> str:
    folder_path = ctx.workspace.resolve(str(ctx.notes_dir))  # the notes folder must be inside the workspace
    path = folder_path / _note_path(ctx, args["title"]).name
    ctx.workspace.resolve(str(path))  # a note linked out of the workspace is refused
    with ctx.workspace.folder(folder_path, create=True) as folder:
        existed = folder.lstat(path.name) is not None
        folder.write_atomic(path.name, args["content"].encode("utf-8"))
    return f"{'updated' if existed else 'saved'} note {path.stem!r} ({ctx.workspace.relative(path)})"


def _save_risk(args: dict[str, Any], ctx: ToolContext) -> Risk:
    try:
        return Risk.DESTRUCTIVE if _note_path(ctx, args.get("title", "")).exists() else Risk.WRITE
    except ToolError:
        return Risk.WRITE


def _save_precheck(args: dict[str, Any], ctx: ToolContext) -> Impact:
    path = _note_path(ctx, args.get("title", ""))
    new_bytes = len(str(args.get("content", "")).encode("utf-8"))
    size = human_size(new_bytes)
    if path.exists():
        old = path.stat().st_size
        return Impact(f"will replace note {path.stem!r} ({human_size(old)}) with {size}", 1, old, "replace_note",
                      {"title": path.stem, "old_bytes": old, "bytes": new_bytes})
    folder = str(ctx.workspace.relative(path.parent))
    return Impact(f"will save a new note {path.stem!r} ({size}) in {folder}", code="save_note",
                  params={"title": path.stem, "bytes": new_bytes, "folder": folder})


def note_tools() -> list[ToolSpec]:
    title = {"type": "string", "minLength": 1, "maxLength": 200}
    return [
        ToolSpec("list_notes", "List the user's notes (titles, newest first).",
                 {"type": "object", "properties": {}, "additionalProperties": False}, list_notes, Risk.READ, timeout_s=10),
        ToolSpec("read_note", "Read one note by its title.",
                 {"type": "object", "properties": {"title": title}, "required": ["title"], "additionalProperties": False},
                 read_note, Risk.READ, timeout_s=10),
        ToolSpec("save_note", "Save a Markdown note under a title (replaces a note with the same title).",
                 {"type": "object", "properties": {"title": title, "content": {"type": "string"}},
                  "required": ["title", "content"], "additionalProperties": False},
                 save_note, Risk.WRITE, timeout_s=10, risk_of=_save_risk, precheck=_save_precheck),
    ]

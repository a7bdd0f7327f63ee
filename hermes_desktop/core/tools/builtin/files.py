"""File tools, all confined to the workspace (see tools/workspace.py).

Reads open only regular files (`open_regular_file`): a FIFO, socket or device is refused
before it is opened, so a read never blocks its thread. Writes, moves and deletes go
through a `ConfinedDir` (a directory descriptor reached without following symlinks), so a
folder swapped for a symlink between the check and the write is refused, never followed.
`search_files` scans at most MAX_SEARCH_FILES files and says so when it stopped there.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import shutil
import stat
from datetime import datetime
from pathlib import Path
from typing import Any

from hermes_desktop.core.documents.errors import DocumentError
from hermes_desktop.core.documents.text import decode_text
from hermes_desktop.core.tools.lookalike import escaped, twins
from hermes_desktop.core.tools.spec import Impact, Risk, ToolContext, ToolError, ToolSpec
from hermes_desktop.core.tools.workspace import open_regular_file

MAX_READ_BYTES = 1_000_000
READ_PAGE_CHARS = 6_000  # one page of read_file: under the default tool result budget, with room for the header
MAX_LIST_ENTRIES = 500
MAX_SEARCH_RESULTS = 100
MAX_SEARCH_FILES = 20_000
_BINARY_SNIFF = 8192


def human_size(size: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TB"


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


_PATH = {"type": "string", "description": "Path relative to the workspace folder"}


# ---------------------------------------------------------------- read

def list_directory(args: dict[str, Any], ctx: ToolContext) -> str:
    ws = ctx.workspace
    folder = ws.resolve(args.get("path"))
    if not folder.is_dir():
        raise ToolError(f"{ws.relative(folder)} is not a folder" if folder.exists() else f"{args.get('path')} does not exist")
    entries = sorted(folder.iterdir(), key=lambda p: (not p.is_dir(), p.name.lower()))
    lines = [f"{ws.relative(folder)}/ ({len(entries)} entries)"]
    alike = twins(entry.name for entry in entries)  # names that look the same (NFC and NFD): core/tools/lookalike.py
    for entry in entries[:MAX_LIST_ENTRIES]:
        try:
            stat = entry.lstat()
        except OSError:
            continue
        modified = datetime.fromtimestamp(stat.st_mtime).strftime("%Y-%m-%d %H:%M")
        mark = f"  [looks like another name here; written {escaped(entry.name)}]" if entry.name in alike else ""
        if entry.is_symlink():
            lines.append(f"  {entry.name} -> (link)  {modified}{mark}")
        elif entry.is_dir():
            lines.append(f"  {entry.name}/  {modified}{mark}")
        else:
            lines.append(f"  {entry.name}  {human_size(stat.st_size)}  {modified}{mark}")
    if len(entries) > MAX_LIST_ENTRIES:
        lines.append(f"  … and {len(entries) - MAX_LIST_ENTRIES} more")
    return "\n".join(lines)


def read_text(path: Path, limit: int = MAX_READ_BYTES) -> tuple[str, str, str]:
    """(text, encoding, note) of a regular text file, or ToolError saying why it is not readable as text
    (FIFOs, sockets and devices are refused before they are opened). Decoded as attachments and knowledge bases
    are (core/documents/text.py): UTF-8 (a BOM dropped), UTF-16/32 by their BOM, else the encoding detected, and
    then `note` says it was a guess ("Not UTF-8: read as cp1252 (detected)."); "" otherwise."""
    with os.fdopen(open_regular_file(path), "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size <= limit:
            data = handle.read(limit + 1)
            size = max(size, len(data))
    if size > limit:
        raise ToolError(f"{path.name} is {human_size(size)}; read_file only reads files up to {human_size(limit)}. "
                        "Use search_files with `contains` to find the part you need.")
    try:
        text, encoding, note = decode_text(data, path.name)
    except DocumentError:
        if b"\x00" in data[:_BINARY_SNIFF]:  # and no UTF-16/32 BOM that decodes
            raise ToolError(f"{path.name} is a binary file, not text") from None
        raise ToolError(f"{path.name} is not UTF-8, and its encoding could not be detected") from None
    return text, "utf-8" if encoding == "utf-8-sig" else encoding, note


def read_file(args: dict[str, Any], ctx: ToolContext) -> str:
    ws = ctx.workspace
    path = ws.resolve(args["path"])
    if not path.exists():
        raise ToolError(f"{args['path']} does not exist")
    if path.is_dir():
        raise ToolError(f"{ws.relative(path)} is a folder; use list_directory")
    text, encoding, note = read_text(path)
    limit = max(1, min(int(args.get("limit") or READ_PAGE_CHARS), 100_000))
    shown_name = ws.relative(path) + (f", {encoding}" if encoding != "utf-8" else "")
    guessed = f"\n[{note}]" if note else ""  # on the header's line's heels: the model and the card see the guess
    if args.get("offset") is not None:  # by characters: a page of `limit` from `offset` (issue 15: read everything)
        offset = max(0, min(int(args["offset"]), len(text)))
        chunk = text[offset: offset + limit]
        end = offset + len(chunk)
        header = f"{shown_name} (characters {offset:,}-{end:,} of {len(text):,}"
        return header + (f"; {len(text) - end:,} more: continue with offset={end})" if end < len(text) else ")") + \
            guessed + "\n" + chunk
    lines = text.splitlines(keepends=True)
    start = int(args.get("start_line") or 1)
    count = int(args.get("max_lines") or 400)
    chosen = lines[start - 1 : start - 1 + count]
    begin = sum(len(line) for line in lines[: start - 1])
    body = "".join(chosen)
    end = start + len(chosen) - 1
    header = f"{shown_name} (lines {start}-{end} of {len(lines)})"
    if len(body) > limit:  # long lines: a page by characters, and where to go on
        body = body[:limit]
        return (f"{shown_name} (from line {start}: characters {begin:,}-{begin + limit:,} of {len(text):,}; "
                f"{len(text) - begin - limit:,} more: continue with offset={begin + limit}){guessed}\n" +
                body.replace("\r\n", "\n"))
    if end < len(lines):
        header += f"; continue with start_line={end + 1}"
    return header + guessed + "\n" + body.rstrip("\r\n").replace("\r\n", "\n")  # offsets count the file's own line ends


def _glob_matches(relative: str, pattern: str) -> bool:
    if "/" not in pattern:
        return fnmatch.fnmatch(relative.rsplit("/", 1)[-1], pattern)
    if fnmatch.fnmatch(relative, pattern):
        return True
    return pattern.startswith("**/") and fnmatch.fnmatch(relative, pattern[3:])


def search_files(args: dict[str, Any], ctx: ToolContext) -> str:
    ws = ctx.workspace
    base = ws.resolve(args.get("path"))
    pattern = (args.get("glob") or "*").strip() or "*"
    needle = (args.get("contains") or "").strip()
    results: list[str] = []
    scanned = 0
    capped = False
    for folder, dirs, files in os.walk(base, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__"))
        if len(results) >= MAX_SEARCH_RESULTS or capped:
            break
        for name in sorted(files):
            if scanned >= MAX_SEARCH_FILES:
                capped = True
                break
            if len(results) >= MAX_SEARCH_RESULTS:
                break
            scanned += 1
            full = Path(folder) / name
            try:
                inside = ws.resolve(str(full))
            except ToolError:
                continue  # symlinks out of the workspace and credential files are invisible
            relative = ws.relative(inside) if inside == full else ws.relative(full)
            if not _glob_matches(relative, pattern):
                continue
            if not needle:
                results.append(relative)
                continue
            hits = _grep(inside, needle)
            if hits:
                results.append(relative + "\n" + "\n".join(f"    {n}: {line}" for n, line in hits))
    cap_note = _scan_cap_note(ws.relative(base)) if capped else ""
    if not results:
        return f"no files match glob={pattern!r}" + (f" containing {needle!r}" if needle else "") + \
            (f" among the first {MAX_SEARCH_FILES:,} files scanned.\n{cap_note}" if capped else "")
    more = " (stopped at the first results; narrow the search)" if len(results) >= MAX_SEARCH_RESULTS else ""
    return f"{len(results)} match(es){more}:\n" + "\n".join(results) + (f"\n{cap_note}" if capped else "")


def _scan_cap_note(where: str) -> str:
    return (f"[The search stopped after scanning {MAX_SEARCH_FILES:,} files in {where}; files after those were not "
            "looked at. Narrow it: give `path` a subfolder, or a more specific `glob` such as 'reports/*.md'.]")


def _grep(path: Path, needle: str, max_hits: int = 3) -> list[tuple[int, str]]:
    try:
        text, _, _ = read_text(path)
    except (ToolError, OSError):
        return []
    lowered = needle.lower()
    hits = []
    for number, line in enumerate(text.splitlines(), 1):
        if lowered in line.lower():
            hits.append((number, line.strip()[:200]))
            if len(hits) >= max_hits:
                break
    return hits


# ---------------------------------------------------------------- write

def write_file(args: dict[str, Any], ctx: ToolContext) -> str:
    ws = ctx.workspace
    path = ws.resolve(args["path"])
    if path == ws.root or path.is_dir():
        raise ToolError(f"{ws.relative(path)} is a folder")
    data = args["content"].encode("utf-8")
    with ws.folder(path.parent, create=True) as folder:
        old = folder.lstat(path.name)
        if old is not None and stat.S_ISDIR(old.st_mode):
            raise ToolError(f"{ws.relative(path)} is a folder")
        folder.write_atomic(path.name, data)
    return f"{'overwrote' if old is not None else 'created'} {ws.relative(path)} ({human_size(len(data))})"


def _write_risk(args: dict[str, Any], ctx: ToolContext) -> Risk:
    try:
        return Risk.DESTRUCTIVE if ctx.workspace.resolve(args.get("path")).exists() else Risk.WRITE
    except ToolError:
        return Risk.WRITE  # the call will be refused when it runs


def _write_precheck(args: dict[str, Any], ctx: ToolContext) -> Impact:
    ws = ctx.workspace
    path = ws.resolve(args.get("path"))
    new_bytes = len(str(args.get("content", "")).encode("utf-8"))
    new_size = human_size(new_bytes)
    if path.exists() and path.is_file():
        old = path.stat().st_size
        return Impact(f"will overwrite {ws.relative(path)} ({human_size(old)}) with {new_size}", 1, old,
                      "overwrite_file", {"path": str(ws.relative(path)), "old_bytes": old, "bytes": new_bytes})
    return Impact(f"will create {ws.relative(path)} ({new_size})", code="create_file",
                  params={"path": str(ws.relative(path)), "bytes": new_bytes})


def _folder_precheck(args: dict[str, Any], ctx: ToolContext) -> Impact:
    path = str(ctx.workspace.relative(ctx.workspace.resolve(args.get("path"))))
    return Impact(f"will create folder {path}", code="create_folder", params={"path": path})


def make_directory(args: dict[str, Any], ctx: ToolContext) -> str:
    ws = ctx.workspace
    path = ws.resolve(args["path"])
    if path.exists() and not path.is_dir():
        raise ToolError(f"{ws.relative(path)} exists and is a file")
    existed = path.exists()
    with ws.folder(path, create=True):  # each level made and entered without following a symlink
        pass
    return f"{'folder already existed' if existed else 'created folder'} {ws.relative(path)}"


def _existing_entry(ctx: ToolContext, path: str, verb: str) -> Path:
    """The file, folder or link at `path` (a link itself, not its target); never the workspace root."""
    ws = ctx.workspace
    entry = ws.resolve_entry(path)
    if entry == ws.root:
        raise ToolError(f"refused: cannot {verb} the workspace folder itself")
    if not entry.exists() and not entry.is_symlink():
        raise ToolError(f"{path} does not exist")
    return entry


def _move_target(args: dict[str, Any], ctx: ToolContext) -> tuple[Path, Path]:
    ws = ctx.workspace
    source = _existing_entry(ctx, args["src"], "move")
    target = ws.resolve_entry(args["dst"])
    if target.is_dir() and not target.is_symlink():
        target = target / source.name
        ws.resolve_entry(str(target))
    return source, target


def move_path(args: dict[str, Any], ctx: ToolContext) -> str:
    ws = ctx.workspace
    source, target = _move_target(args, ctx)
    if source == target:
        return f"{ws.relative(source)} is already there"
    if source.is_dir() and (target == source or source in target.parents):
        raise ToolError("refused: cannot move a folder into itself")
    if target.is_dir() and not target.is_symlink():
        raise ToolError(f"{ws.relative(target)} already exists and is a folder; delete or rename it first")
    replaced = target.exists()
    with ws.folder(source.parent) as from_dir, ws.folder(target.parent, create=True) as to_dir:
        if from_dir.lstat(source.name) is None:
            raise ToolError(f"{args['src']} does not exist")
        try:
            from_dir.rename(source.name, to_dir, target.name)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            _move_across_devices(args, ctx)
    return f"moved {ws.relative(source)} to {ws.relative(target)}" + (" (replaced the existing file)" if replaced else "")


def _move_across_devices(args: dict[str, Any], ctx: ToolContext) -> None:
    """A mount point inside the workspace: copy and delete, with both paths checked again right before."""
    source, target = _move_target(args, ctx)
    shutil.move(str(source), str(target))


def _move_risk(args: dict[str, Any], ctx: ToolContext) -> Risk:
    try:
        _, target = _move_target(args, ctx)
    except ToolError:
        return Risk.WRITE
    return Risk.DESTRUCTIVE if target.exists() else Risk.WRITE


def _move_precheck(args: dict[str, Any], ctx: ToolContext) -> Impact:
    ws = ctx.workspace
    source, target = _move_target(args, ctx)
    what = describe_tree(source)
    files, folders, size = tree_size(source)
    params = {"src": str(ws.relative(source)), "dst": str(ws.relative(target)), "files": files, "folders": folders,
              "bytes": size, "is_folder": source.is_dir() and not source.is_symlink()}
    if target.exists():
        replaced = target.lstat().st_size
        return Impact(f"will move {ws.relative(source)} ({what}) to {ws.relative(target)}, replacing the existing file "
                      f"({human_size(replaced)})", 1, replaced, "move_replacing", {**params, "replaced_bytes": replaced})
    return Impact(f"will move {ws.relative(source)} ({what}) to {ws.relative(target)}", code="move", params=params)


# ---------------------------------------------------------------- destructive

def tree_size(path: Path) -> tuple[int, int, int]:
    """(files, folders, bytes) under `path`, not following symlinks."""
    if path.is_symlink() or path.is_file():
        return 1, 0, path.lstat().st_size
    files = folders = size = 0
    for folder, dirs, names in os.walk(path, followlinks=False):
        folders += len(dirs)
        for name in names:
            files += 1
            try:
                size += (Path(folder) / name).lstat().st_size
            except OSError:
                pass
    return files, folders, size


DELETE_NAMES_SHOWN = 5  # files a folder delete names (the approval lists them, then "and N more")


def first_files(path: Path, ws: Any, limit: int = DELETE_NAMES_SHOWN) -> list[str]:
    """The first `limit` files under folder `path` (workspace-relative), in a stable order: the folder's own files by
    name, then each subfolder's, by name; symlinks are not followed (what delete_path removes is the link)."""
    found: list[str] = []
    for folder, dirs, names in os.walk(path, followlinks=False):
        dirs.sort()
        for name in sorted(names):
            found.append(str(ws.relative(Path(folder) / name)))
            if len(found) >= limit:
                return found
    return found


def describe_tree(path: Path) -> str:
    files, folders, size = tree_size(path)
    if path.is_file() or path.is_symlink():
        return human_size(size)
    parts = [f"{files} file{'s' if files != 1 else ''}"]
    if folders:
        parts.append(f"{folders} folder{'s' if folders != 1 else ''}")
    return ", ".join(parts) + f", {human_size(size)}"


def delete_path(args: dict[str, Any], ctx: ToolContext) -> str:
    ws = ctx.workspace
    path = _existing_entry(ctx, args["path"], "delete")
    what = describe_tree(path)
    with ws.folder(path.parent) as parent:
        found = parent.lstat(path.name)
        if found is None:
            raise ToolError(f"{args['path']} does not exist")
        if stat.S_ISDIR(found.st_mode):
            parent.remove_tree(path.name)
        else:
            parent.remove_file(path.name)
    return f"deleted {ws.relative(path)} ({what})"


def _delete_precheck(args: dict[str, Any], ctx: ToolContext) -> Impact:
    ws = ctx.workspace
    path = _existing_entry(ctx, args["path"], "delete")
    files, folders, size = tree_size(path)
    if path.is_dir() and not path.is_symlink():
        text = f"will delete {files} file{'s' if files != 1 else ''}" + (f" in {folders + 1} folders" if folders else "") + \
            f", {human_size(size)} in {ws.relative(path)}"
        # The first few files by name, so the approval says what goes, not only how much (issue 24).
        return Impact(text, files, size, "delete_folder",
                      {"path": str(ws.relative(path)), "files": files, "folders": folders + 1 if folders else 0,
                       "bytes": size, "names": first_files(path, ws)})
    return Impact(f"will delete {ws.relative(path)} ({human_size(size)})", 1, size, "delete_file",
                  {"path": str(ws.relative(path)), "bytes": size})


def file_tools() -> list[ToolSpec]:
    return [
        ToolSpec("list_directory", "List a folder in the workspace (names, sizes, dates).",
                 _object({"path": {**_PATH, "description": "Folder relative to the workspace; '.' for the top"}}, []),
                 list_directory, Risk.READ, timeout_s=15),
        ToolSpec("read_file", "Read a UTF-8 text file from the workspace: a range of lines, or a page of characters "
                 "(offset/limit) to read a long file in parts.",
                 _object({"path": _PATH,
                          "start_line": {"type": "integer", "minimum": 1, "description": "First line (1-based)"},
                          "max_lines": {"type": "integer", "minimum": 1, "maximum": 2000},
                          "offset": {"type": "integer", "minimum": 0, "description": "First character (0-based)"},
                          "limit": {"type": "integer", "minimum": 1, "maximum": 100000,
                                    "description": f"Characters per page (default {READ_PAGE_CHARS})"}}, ["path"]),
                 read_file, Risk.READ, timeout_s=15),
        ToolSpec("search_files", "Find files in the workspace by glob pattern and, optionally, text they contain.",
                 _object({"glob": {"type": "string", "description": "e.g. '*.md' or 'reports/**/*.csv'"},
                          "contains": {"type": "string", "description": "Case-insensitive text to look for"},
                          "path": {**_PATH, "description": "Folder to search in (default: whole workspace)"}}, []),
                 search_files, Risk.READ, timeout_s=30),
        ToolSpec("write_file", "Create or overwrite a text file in the workspace (folders are created as needed).",
                 _object({"path": _PATH, "content": {"type": "string"}}, ["path", "content"]),
                 write_file, Risk.WRITE, timeout_s=30, risk_of=_write_risk, precheck=_write_precheck),
        ToolSpec("make_directory", "Create a folder (and its parents) in the workspace.",
                 _object({"path": _PATH}, ["path"]), make_directory, Risk.WRITE, timeout_s=10,
                 precheck=_folder_precheck),
        ToolSpec("move_path", "Move or rename a file or folder inside the workspace. If dst is an existing folder, "
                 "the item is moved into it.",
                 _object({"src": _PATH, "dst": _PATH}, ["src", "dst"]),
                 move_path, Risk.WRITE, timeout_s=60, risk_of=_move_risk, precheck=_move_precheck),
        ToolSpec("delete_path", "Permanently delete a file or a folder with everything in it, inside the workspace.",
                 _object({"path": _PATH}, ["path"]), delete_path, Risk.DESTRUCTIVE, timeout_s=60,
                 precheck=_delete_precheck),
    ]

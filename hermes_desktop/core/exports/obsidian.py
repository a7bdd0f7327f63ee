"""A session into an Obsidian vault: a Markdown note with YAML front matter, its files in the vault's attachment
folder and embedded with `![[…]]`, and wiki-links between the note and an index note of Hermes sessions.

Where things go, as Obsidian itself decides:
- The note: `<vault>/Hermes/<title>.md` (a name Obsidian accepts: no `[]#^|\\/:*?"<>`, at most 120 characters,
  made unique with the session id when another session already has that title). Exporting the same session again
  replaces its note (found by `hermes_session` in the front matter), so a vault never holds two copies of it.
- Files: the folder `attachmentFolderPath` of `.obsidian/app.json` (Obsidian's "Default location for new
  attachments": "/" is the vault root, "./x" is relative to the note), else `<vault>/attachments`. A file with the
  same bytes is reused; another file with the same name gets a suffix.
- The index: `<vault>/Hermes/Hermes sessions.md` lists every exported session as `[[note]]`; each note links back
  to it. The vault must be a folder that exists; nothing outside it is written (names are checked, never joined
  raw).
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from pathlib import Path

from hermes_desktop.core.exports.document import SessionDocument, SpeakerBlock
from hermes_desktop.core.exports.words import export_words

FOLDER = "Hermes"
_BAD_NAME = re.compile(r'[\[\]#^|\\/:*?"<>\x00-\x1f\x7f]')
_FRONT = re.compile(r"^---\n(.*?)\n---\n", re.S)


class VaultError(ValueError):
    """The vault cannot be written: not a folder, or its attachment setting points outside it."""


def note_name(title: str, fallback: str) -> str:
    cleaned = " ".join(_BAD_NAME.sub(" ", title).split()).strip(". ")
    return (cleaned or fallback)[:120]


def _yaml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML string, quotes and escapes included


def attachment_folder(vault: Path, note_folder: Path) -> Path:
    """Where Obsidian puts new attachments in this vault (see the module docstring)."""
    setting = ""
    try:
        data = json.loads((vault / ".obsidian" / "app.json").read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("attachmentFolderPath"), str):
            setting = data["attachmentFolderPath"].strip()
    except (OSError, ValueError):
        pass
    if setting in ("", None):
        folder = vault / "attachments"
    elif setting == "/":
        folder = vault
    elif setting.startswith("./"):
        folder = note_folder / setting[2:]
    else:
        folder = vault / setting
    resolved = folder.resolve()
    if resolved != vault.resolve() and vault.resolve() not in resolved.parents:
        raise VaultError(f"the vault's attachment folder ({setting}) is outside the vault")
    return folder


def export_to_vault(document: SessionDocument, vault: Path, *, language: str | None = None) -> Path:
    """Write the session's note (and files, and the index) into `vault`; returns the note's path."""
    vault = Path(vault).expanduser()
    if not vault.is_dir():
        raise VaultError(f"{vault} is not a folder: create the vault first (or pick its folder)")
    words = export_words(language)
    notes = vault / FOLDER
    notes.mkdir(exist_ok=True)
    target = _note_path(notes, document)
    files_dir = attachment_folder(vault, notes)
    embeds = _copy_files(document, files_dir)
    index_name = words["index"]
    text = _note_text(document, words, embeds, index_name)
    _write_atomic(target, text)
    _update_index(notes / f"{index_name}.md", target.stem, index_name)
    return target


def _note_path(notes: Path, document: SessionDocument) -> Path:
    for existing in notes.glob("*.md"):
        try:
            head = existing.read_text(encoding="utf-8")[:2000]
        except OSError:
            continue
        front = _FRONT.match(head)
        if front and f"hermes_session: {_yaml_string(document.session_id)}" in front.group(1):
            return existing  # exported before: replaced, never duplicated
    name = note_name(document.title, document.session_id)
    target = notes / f"{name}.md"
    if target.exists():
        target = notes / f"{name[:100]} ({note_name(document.session_id, 'session')}).md"
    return target


def _copy_files(document: SessionDocument, folder: Path) -> dict[tuple[int, int], str]:
    """Copy each stored file into the attachment folder; (block, file) index -> the name to embed."""
    embeds: dict[tuple[int, int], str] = {}
    for b, block in enumerate(document.blocks):
        for f, item in enumerate(block.files):
            if item.path is None:
                continue
            data = item.path.read_bytes()
            folder.mkdir(parents=True, exist_ok=True)
            name = note_name(item.name, "file")
            stem, dot, suffix = name.rpartition(".")
            if not dot:
                stem, suffix = name, ""
            candidate = folder / name
            n = 1
            while candidate.exists() and hashlib.sha256(candidate.read_bytes()).digest() != \
                    hashlib.sha256(data).digest():
                candidate = folder / (f"{stem} {n}.{suffix}" if suffix else f"{stem} {n}")
                n += 1
            if not candidate.exists():
                _write_atomic(candidate, data)
            embeds[(b, f)] = candidate.name
    return embeds


def _note_text(document: SessionDocument, words: dict[str, str], embeds: dict[tuple[int, int], str],
               index_name: str) -> str:
    created = datetime.fromtimestamp(document.created_at).isoformat(timespec="seconds")
    updated = datetime.fromtimestamp(document.updated_at).isoformat(timespec="seconds")
    front = ["---", f"title: {_yaml_string(document.title or words['untitled'])}",
             f"hermes_session: {_yaml_string(document.session_id)}", f"created: {created}", f"updated: {updated}"]
    if document.model:
        front.append(f"model: {_yaml_string(document.model)}")
    front += ["tags:", "  - hermes", "---", ""]
    lines = [*front, f"# {document.title or words['untitled']}", "", f"[[{index_name}]]", ""]
    for b, block in enumerate(document.blocks):
        lines += _block_lines(block, words, [embeds.get((b, f)) for f in range(len(block.files))])
    lines += ["---", words["exported"].format(datetime.now().strftime("%Y-%m-%d %H:%M")), ""]
    return "\n".join(lines)


def _block_lines(block: SpeakerBlock, words: dict[str, str], embeds: list[str | None]) -> list[str]:
    title = {"user": words["you"], "assistant": words["assistant"], "summary": words["summary"],
             "note": words["note"]}[block.role]
    if block.role == "assistant" and block.model:
        title += f" · {words['written_by'].format(block.model)}"
    lines = [f"## {title}", ""]
    if block.thinking:
        label = words["thought_for"].format(max(1, round(block.thinking_ms / 1000))) if block.thinking_ms \
            else words["thinking"]
        lines += [f"> [!note]- {label}"] + [f"> {line}" for line in block.thinking.split("\n")] + [""]
    if block.text:
        lines += [block.text, ""]
    lines += source_lines(block, words)
    if block.interrupted:
        lines += [f"*{words['interrupted']}*", ""]
    for item, embed in zip(block.files, embeds):
        lines += [f"![[{embed}]]" if embed else f"*{words['attached'].format(item.name)}*", ""]
    for call in block.tools:
        fence = "````" if "```" in call.arguments or "```" in call.result else "```"
        lines += [f"> [!example]- {words['tool_call'].format(call.name)}", f"> {fence}json"]
        lines += [f"> {line}" for line in call.arguments.split("\n")] + [f"> {fence}", f"> **{words['result']}**",
                                                                         f"> {fence}"]
        lines += [f"> {line}" for line in (call.result or words["no_result"]).split("\n")] + [f"> {fence}", ""]
    return lines


def source_lines(block: SpeakerBlock, words: dict[str, str]) -> list[str]:
    """The knowledge passages the reply cites (core/knowledge/cited.py), in the file's language."""
    from hermes_desktop.core.knowledge.cited import markdown_lines

    return markdown_lines(block.sources, words["sources"], words["page"])


def _update_index(index: Path, note: str, title: str) -> None:
    link = f"- [[{note}]]"
    try:
        current = index.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = f"# {title}\n\n"
    if link not in current.splitlines():
        _write_atomic(index, current.rstrip("\n") + "\n" + link + "\n")


def _write_atomic(path: Path, data: str | bytes) -> None:
    from hermes_desktop.core.settings import replace_atomically

    raw = data.encode("utf-8") if isinstance(data, str) else data
    replace_atomically(path, lambda tmp: tmp.write_bytes(raw))

"""File names that look the same but are not: `café.txt` written with one precomposed `é` (NFC) and with `e` plus a
combining accent (NFD, as macOS and some archives write it) are two files, shown identically.

`list_directory` marks each name that has such a twin in the same folder, and an approval that names a workspace
path with a twin says so (the impact line and its `lookalike` parameter), each name written out with its non-ASCII
characters as escapes (`caf\\u00e9.txt` against `cafe\\u0301.txt`), so the user and the model can tell which one a
call means. Names are compared by their NFC form; nothing is renamed or normalised on disk.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path
from typing import Any, Iterable, Mapping

# The arguments of the built-in file tools that name a workspace path.
PATH_ARGUMENTS = ("path", "src", "dst")


def escaped(name: str) -> str:
    """`name` with every non-ASCII character as its `\\uXXXX` escape: two look-alikes written differently."""
    return "".join(c if c.isascii() and c.isprintable() else f"\\u{ord(c):04x}" for c in name)


def twins(names: Iterable[str]) -> set[str]:
    """The names that share their NFC form with another, different name of the same list."""
    groups: dict[str, set[str]] = {}
    for name in names:
        groups.setdefault(unicodedata.normalize("NFC", name), set()).add(name)
    return {name for group in groups.values() if len(group) > 1 for name in group}


def lookalikes_of(path: Path) -> list[str]:
    """Other entries of `path`'s folder whose names look like its name (same NFC form), sorted."""
    wanted = unicodedata.normalize("NFC", path.name)
    try:
        siblings = os.listdir(path.parent)
    except OSError:
        return []
    return sorted(n for n in siblings if n != path.name and unicodedata.normalize("NFC", n) == wanted)


def lookalike_note(arguments: Mapping[str, Any], resolve: Any) -> tuple[str, dict[str, Any]] | None:
    """(an English note, its parameters) when a path argument names a file with a look-alike twin, else None.
    `resolve` turns an argument into a workspace path (Workspace.resolve); one it refuses is the precheck's to say."""
    for key in PATH_ARGUMENTS:
        value = arguments.get(key)
        if not isinstance(value, str) or value.isascii():
            continue
        try:
            path = Path(resolve(value))
        except Exception:  # outside the workspace, bad path: not this note's business
            continue
        others = lookalikes_of(path)
        if not others:
            continue
        shown = escaped(path.name)
        listed = ", ".join(escaped(n) for n in others)
        return (f"note: another name in this folder looks the same as {path.name!r}: this one is written {shown}, "
                f"the other {listed}", {"name": path.name, "written": shown, "others": listed})
    return None

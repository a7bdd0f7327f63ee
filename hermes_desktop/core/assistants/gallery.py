"""The built-in assistants and prompts: JSON files in gallery/ (one assistant each, `prompts.json` for prompts),
written by us in English with Chinese names, descriptions and starters (`translations.zh_CN`).

Read once per process (they ship with the package and do not change); a gallery file that does not read is a bug
in the package, so it raises (tests/core/test_assistants_gallery.py loads every one). Their ids start with
`builtin:`; they are read-only: "edit" and "duplicate" save a copy among the user's own.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from hermes_desktop.core.assistants.model import Assistant, from_json
from hermes_desktop.core.assistants.prompt_library import SavedPrompt

GALLERY_DIR = Path(__file__).resolve().parent / "gallery"
PROMPTS_FILE = "prompts.json"


@functools.cache
def assistants() -> tuple[Assistant, ...]:
    found = []
    for path in sorted(GALLERY_DIR.glob("*.json")):
        if path.name == PROMPTS_FILE:
            continue
        found.append(from_json(json.loads(path.read_text(encoding="utf-8")), path.name, origin="builtin"))
    return tuple(found)


def find(key: str) -> Assistant | None:
    """A gallery assistant by id, English name or Chinese name (any case)."""
    folded = key.strip().casefold()
    for assistant in assistants():
        if folded in (assistant.id.casefold(), assistant.name.casefold(), assistant.shown_name("zh_CN").casefold(),
                      assistant.id.removeprefix("builtin:")):
            return assistant
    return None


@functools.cache
def prompts() -> tuple[SavedPrompt, ...]:
    data = json.loads((GALLERY_DIR / PROMPTS_FILE).read_text(encoding="utf-8"))
    return tuple(SavedPrompt(p["name"], p["body"], p.get("description", ""), p["id"]) for p in data)

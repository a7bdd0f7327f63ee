"""Saved prompts with {{variables}}: the text a user sends again and again, with blanks a small form fills.

A variable is `{{name}}` (any text but braces and line breaks, trimmed: `{{ 对象 }}` is `对象`); the same name
twice is one blank. `fill` replaces every blank with its value in one pass, so a value that itself holds
`{{other}}` is inserted as written, never filled again (no injection from one field into another).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

_VARIABLE = re.compile(r"\{\{\s*([^{}\n]{1,60}?)\s*\}\}")


@dataclass(frozen=True, slots=True)
class SavedPrompt:
    name: str
    body: str
    description: str = ""
    id: str = ""  # a row id for the user's own; "builtin:<slug>" for the package's

    @property
    def builtin(self) -> bool:
        return self.id.startswith("builtin:")

    @property
    def variables(self) -> list[str]:
        return variables(self.body)


def variables(body: str) -> list[str]:
    """The blanks of a prompt, in order of first appearance."""
    seen: list[str] = []
    for match in _VARIABLE.finditer(body):
        if match.group(1) not in seen:
            seen.append(match.group(1))
    return seen


class MissingValues(ValueError):
    def __init__(self, names: list[str]) -> None:
        super().__init__("Fill in: " + ", ".join(names))
        self.names = names


def fill(body: str, values: Mapping[str, str]) -> str:
    """The prompt with its blanks filled; raises MissingValues naming the empty ones."""
    missing = [name for name in variables(body) if not str(values.get(name, "")).strip()]
    if missing:
        raise MissingValues(missing)
    return _VARIABLE.sub(lambda m: str(values[m.group(1)]), body)

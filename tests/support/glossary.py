"""docs/glossary.md read as rules: for each term, the rejected words and which sources they are checked against.

Shared by tests/core/test_glossary.py (the .ts and the .po, no Qt needed) and tests/ui/test_chinese_ui.py."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
TS = ROOT / "resources" / "translations" / "hermes_zh_CN.ts"
PO = ROOT / "resources" / "translations" / "locale" / "zh_CN" / "LC_MESSAGES" / "hermes-desktop.po"
# Placeholders and identifiers are data: `{tokens}`, `max_tokens`, `%(prog)s` never count as words.
_DATA = re.compile(r"\{[^}]*\}|%\([^)]*\)[a-z]|\w*_\w+|`[^`]*`")


@dataclass(frozen=True)
class Rule:
    english: str
    wanted: str
    rejected: tuple[str, ...]
    applies: re.Pattern[str]
    allowed: tuple[str, ...]

    def problems(self, source: str, translation: str) -> list[str]:
        if not self.rejected or not self.applies.search(source):
            return []
        text = _DATA.sub(" ", translation)
        for word in self.allowed:
            text = text.replace(word, " ")
        return [f"{word} (use {self.wanted}, {self.english}): {source!r} -> {translation!r}"
                for word in self.rejected if word in text]


def _cells(line: str) -> list[str]:
    cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [cell.strip().replace("\\|", "|") for cell in cells]


def rules(text: str | None = None) -> list[Rule]:
    """The Terms table's rows; the `When the source` cell is a regular expression in backticks (empty: every source)."""
    lines = (text if text is not None else GLOSSARY.read_text(encoding="utf-8")).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| English |"))
    found = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        english, wanted, rejected, when, allowed, _why = _cells(line)
        found.append(Rule(english, wanted, tuple(w.strip() for w in rejected.split(",") if w.strip()),
                          re.compile(when.strip("`") or ".*"),
                          tuple(w.strip() for w in allowed.split(",") if w.strip())))
    return found


def ts_pairs() -> list[tuple[str, str]]:
    return [(m.findtext("source") or "", m.findtext("translation") or "") for m in ET.parse(TS).getroot().iter("message")]


def po_pairs() -> list[tuple[str, str]]:
    import polib

    return [(entry.msgid, entry.msgstr) for entry in polib.pofile(str(PO)) if not entry.obsolete]


def glossary_problems(pairs: list[tuple[str, str]], found: list[Rule] | None = None) -> list[str]:
    found = rules() if found is None else found
    return [problem for source, translation in pairs for rule in found for problem in rule.problems(source, translation)]

#!/usr/bin/env python3
"""Collect the command line's and the core's `_("…")` strings into the gettext catalog, then compile the .mo.

Usage (from the repository root, `make translations` runs it): .venv/bin/python resources/translations/update_po.py
[--check | --fill TABLE.json]. --check changes nothing and exits 1 when the .po is not up to date with the code;
--fill gives the strings still without a translation theirs from a JSON {english: chinese} (as fill_ts does).

The .po (resources/translations/locale/zh_CN/LC_MESSAGES/hermes-desktop.po) is the source and is translated by
hand; new strings arrive with an empty msgstr, strings no longer in the code are dropped. The compiled .mo is
shipped beside it (core/i18n.py says why). Extraction reads the code with `ast`, so only literal strings count,
as for lupdate: `_(f"…")` or `_(name)` is an error here. argparse's own words are added from ARGPARSE.
Needs polib (a test extra: pip install -e '.[test]').
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "resources/translations/locale/zh_CN/LC_MESSAGES/hermes-desktop.po"
MO = PO.with_suffix(".mo")
# argparse's sentences a user sees (Python 3.11's argparse.py); it looks them up through core/i18n.py.
ARGPARSE = (
    "usage: ", "positional arguments", "options", "show this help message and exit",
    "argument %(argument_name)s: %(message)s", "unrecognized arguments: %s",
    "the following arguments are required: %s", "one of the arguments %s is required", "expected one argument",
    "expected at most one argument", "expected at least one argument",
    "ambiguous option: %(option)s could match %(matches)s", "invalid %(type)s value: %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)", "%(prog)s: error: %(message)s\n",
    "not allowed with argument %s", "can't open '%(filename)s': %(error)s",
)


def sources() -> list[Path]:
    package = ROOT / "hermes_desktop"
    return sorted([package / "cli.py", *(package / "commands").glob("*.py"), *(package / "core").rglob("*.py")])


def extract(path: Path) -> tuple[list[tuple[str, int]], list[str]]:
    """(msgid, line) of every `_("literal")` in `path`, and the calls whose text is not a literal."""
    found, bad = [], []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_" and node.args:
            argument = node.args[0]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.append((argument.value, node.lineno))
            else:
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}")
    return sorted(found, key=lambda item: item[1]), bad


def wanted() -> tuple[dict[str, list[tuple[str, str]]], list[str]]:
    """msgid -> its places, in order of first appearance; and the non-literal calls."""
    places: dict[str, list[tuple[str, str]]] = {}
    problems: list[str] = []
    for path in sources():
        found, bad = extract(path)
        problems += bad
        for msgid, line in found:
            places.setdefault(msgid, []).append((str(path.relative_to(ROOT)), ""))  # no line: a stable file
    for msgid in ARGPARSE:
        places.setdefault(msgid, []).append(("argparse", ""))
    return places, problems


def merged(places: dict[str, list[tuple[str, str]]]) -> polib.POFile:
    old = polib.pofile(str(PO)) if PO.exists() else polib.POFile()
    translated = {entry.msgid: entry for entry in old if not entry.obsolete}
    po = polib.POFile(wrapwidth=0)
    po.metadata = old.metadata or {
        "Project-Id-Version": "hermes-desktop", "Language": "zh_CN", "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=1; plural=0;",
    }
    for msgid, where in places.items():
        previous = translated.get(msgid)
        entry = polib.POEntry(msgid=msgid, msgstr=previous.msgstr if previous else "",
                              occurrences=list(dict.fromkeys(where))[:3])
        if "%" in msgid and msgid in ARGPARSE:
            entry.flags = ["python-format"]
        po.append(entry)
    return po


def main(argv: list[str]) -> int:
    import json

    table = json.loads(Path(argv[argv.index("--fill") + 1]).read_text(encoding="utf-8")) if "--fill" in argv else {}
    places, problems = wanted()
    if problems:
        print("_() with text that is not a literal (the catalog cannot hold it):\n" + "\n".join(problems))
        return 1
    po = merged(places)
    for entry in po:
        if not entry.msgstr and entry.msgid in table:
            entry.msgstr = table[entry.msgid]
    if "--check" in argv:
        fresh = PO.exists() and po.__unicode__() == PO.read_text(encoding="utf-8")
        return 0 if fresh else 1
    PO.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(PO))
    po.save_as_mofile(str(MO))
    missing = [entry.msgid for entry in po if not entry.msgstr]
    print(f"{len(po)} strings, {len(missing)} without a translation")
    for msgid in missing:
        print("  ", repr(msgid))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The sources a reply cites, for exports: the passages behind its [n] markers.

Each turn's passages are stored in `<data>/knowledge/registry.db` (`citations`, keyed by session and by the turn's
user message id: registry.py). An export reads them for its session (`session_sources`), and for each reply lists
the passages whose number the reply's text cites (`cited`), in the order first cited. A passage given to the
model but not cited is not listed: the file says what the answer rests on. Read-only: an export never creates the
registry, and a registry that cannot be read costs only the sources list, never the export.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from pathlib import Path
from typing import Any

from hermes_desktop.core.knowledge.registry import REGISTRY_FILE

Sources = dict[int, dict[int, dict[str, Any]]]  # turn (user message id) -> number -> passage
_MARK = re.compile(r"\[(\d{1,3})\]")
EXCERPT_CHARS = 300


def knowledge_dir_of(store: Any) -> Path | None:
    """<data>/knowledge beside the store's hermes.db (paths.py puts both in the data directory)."""
    path = getattr(store, "path", None)
    return Path(path).parent / "knowledge" if path else None


def session_sources(store: Any, session_id: str) -> Sources:
    root = knowledge_dir_of(store)
    file = root / REGISTRY_FILE if root is not None else None
    if file is None or not file.is_file():
        return {}
    out: Sources = {}
    try:
        db = sqlite3.connect(f"{file.as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            rows = db.execute("SELECT turn, number, passage FROM citations WHERE session_id = ?",
                              (session_id,)).fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:  # no citations table yet, a damaged file: the export goes on without them
        logging.getLogger(__name__).info("the cited sources could not be read: %s", exc)
        return {}
    for turn, number, text in rows:
        try:
            passage = json.loads(text)
        except ValueError:
            continue
        if isinstance(passage, dict):
            out.setdefault(int(turn), {})[int(number)] = passage
    return out


def cited(text: str, passages: dict[int, dict[str, Any]] | None) -> list[tuple[int, dict[str, Any]]]:
    """(number, passage) for each [n] in `text` that names a stored passage, in the order first cited."""
    if not passages or not text:
        return []
    seen: list[int] = []
    for match in _MARK.finditer(text):
        number = int(match.group(1))
        if number in passages and number not in seen:
            seen.append(number)
    return [(n, passages[n]) for n in seen]


def source_line(number: int, passage: dict[str, Any], page_word: str = "page {0}") -> str:
    """"[1] 资料/长城.pdf, page 2 · History / Ming" (document, page, heading), one line."""
    where = [str(passage.get("document") or "?")]
    if passage.get("page") is not None:
        where.append(page_word.format(passage["page"]))
    line = f"[{number}] " + ", ".join(where)
    heading = passage.get("heading") or []
    if heading:
        line += " · " + " / ".join(str(h) for h in heading)
    return line


def excerpt(passage: dict[str, Any]) -> str:
    text = " ".join(str(passage.get("text") or "").split())
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS].rstrip() + "…"


def markdown_lines(items: list[tuple[int, dict[str, Any]]], label: str = "Sources",
                   page_word: str = "page {0}") -> list[str]:
    """The sources as Markdown: a label, then each source's line and an excerpt as a quote."""
    if not items:
        return []
    lines = [f"**{label}**", ""]
    for number, passage in items:
        lines += [f"- {_escape(source_line(number, passage, page_word))}", f"  > {_escape(excerpt(passage))}"]
    return lines + [""]


def json_items(items: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [{"citation": f"[{n}]", "knowledge_base": p.get("knowledge_base"), "document": p.get("document"),
             "page": p.get("page"), "heading": " / ".join(str(h) for h in p.get("heading") or []),
             "text": p.get("text")} for n, p in items]


def _escape(text: str) -> str:
    """A document's words must not become Markdown structure (a heading, a link, HTML) in the exported file."""
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", text)

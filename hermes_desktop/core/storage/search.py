"""Full-text search over titles and messages, for English and Chinese alike.

FTS5's unicode61 tokenizer splits on spaces and punctuation, which leaves a run
of Chinese characters as one token: "数据库" would never match "数据". So the
index stores each CJK character as its own token (`segment()` puts spaces around
them) and a query is segmented the same way and searched as a phrase: "数据"
becomes the phrase "数 据", which matches those two characters side by side.
That finds any substring of two or more characters, where a trigram tokenizer
needs three. The segmentation runs in triggers through an application function
(`hermes_fts_text`), so the index stays in sync with every write.

A query never reaches FTS5 as syntax: each term is quoted, so `"`, `*`, `AND`
and `-` from the user are just text. Without FTS5 the store falls back to LIKE.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass

_CJK = re.compile(
    "([\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\U00020000-\U0002fa1f])"
)
SNIPPET_BEFORE = 40
SNIPPET_AFTER = 100


def segment(text: str) -> str:
    return _CJK.sub(r" \1 ", text)


def index_text(content: str | None, tool_calls: str | None, name: str | None) -> str:
    """What a message contributes to the index: its text, the tools it called and their arguments."""
    parts = [content or ""]
    if name:
        parts.append(name)
    if tool_calls:
        try:
            for call in json.loads(tool_calls):
                function = call.get("function", {})
                parts.append(str(function.get("name", "")))
                parts.append(str(function.get("arguments", "")))
        except (ValueError, AttributeError, TypeError):
            parts.append(tool_calls)
    return segment("\n".join(p for p in parts if p))


def register_functions(db: sqlite3.Connection) -> None:
    db.create_function("hermes_fts_text", 3, index_text, deterministic=True)
    db.create_function("hermes_segment", 1, lambda t: segment(t or ""), deterministic=True)


def fts5_available(db: sqlite3.Connection) -> bool:
    try:
        db.execute("CREATE VIRTUAL TABLE temp.hermes_fts_probe USING fts5(x)")
        db.execute("DROP TABLE temp.hermes_fts_probe")
        return True
    except sqlite3.OperationalError:
        return False


_INDEX_SCHEMA = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS titles_fts USING fts5(title, session_id UNINDEXED, "
    "tokenize = 'unicode61 remove_diacritics 2')",
    """CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, body) VALUES (new.id, hermes_fts_text(new.content, new.tool_calls, new.name));
    END""",
    """CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages BEGIN
        DELETE FROM messages_fts WHERE rowid = old.id;
    END""",
    """CREATE TRIGGER IF NOT EXISTS messages_fts_update AFTER UPDATE OF content, tool_calls, name ON messages BEGIN
        UPDATE messages_fts SET body = hermes_fts_text(new.content, new.tool_calls, new.name) WHERE rowid = new.id;
    END""",
    """CREATE TRIGGER IF NOT EXISTS titles_fts_insert AFTER INSERT ON sessions BEGIN
        INSERT INTO titles_fts (title, session_id) VALUES (hermes_segment(new.title), new.id);
    END""",
    """CREATE TRIGGER IF NOT EXISTS titles_fts_delete AFTER DELETE ON sessions BEGIN
        DELETE FROM titles_fts WHERE session_id = old.id;
    END""",
    """CREATE TRIGGER IF NOT EXISTS titles_fts_update AFTER UPDATE OF title ON sessions BEGIN
        UPDATE titles_fts SET title = hermes_segment(new.title) WHERE session_id = new.id;
    END""",
)


def ensure_search_index(db: sqlite3.Connection) -> bool:
    """Create the index and its triggers if missing (filling it from existing rows). False without FTS5."""
    if not fts5_available(db):
        return False
    exists = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'messages_fts'").fetchone() is not None
    triggers = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_fts_%'").fetchone()[0]
    if exists and triggers == 6:
        return True
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in _INDEX_SCHEMA:
            db.execute(statement)
        if not exists:
            db.execute("INSERT INTO messages_fts (rowid, body) "
                       "SELECT id, hermes_fts_text(content, tool_calls, name) FROM messages")
            db.execute("INSERT INTO titles_fts (title, session_id) SELECT hermes_segment(title), id FROM sessions")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # SQLite already rolled back after SQLITE_FULL and some I/O errors
            db.execute("ROLLBACK")
        raise
    return True


def query_terms(query: str) -> list[str]:
    """The user's words, with FTS syntax characters treated as separators, never as operators."""
    cleaned = re.sub(r'["*^():{}\[\]+]', " ", query)
    terms = []
    for word in cleaned.split():
        word = word.strip("-'")
        if word and word.upper() not in ("AND", "OR", "NOT", "NEAR"):
            terms.append(word)
    return terms


def match_expression(terms: list[str]) -> str | None:
    """An FTS5 MATCH string: every term as a quoted phrase (ANDed); the last one matches as a prefix."""
    phrases = []
    for n, term in enumerate(terms):
        tokens = segment(term).split()
        if not tokens:
            continue
        phrase = '"' + " ".join(t.replace('"', '""') for t in tokens) + '"'
        if n == len(terms) - 1 and not _CJK.search(term):
            phrase += "*"
        phrases.append(phrase)
    return " ".join(phrases) or None


@dataclass(frozen=True, slots=True)
class Snippet:
    text: str
    highlights: tuple[tuple[int, int], ...]  # (start, end) offsets into `text`


# Markdown's marks, for snippets that read as text (issue 24: hits showed raw `##` and `**`). A regex pass, not a
# parser: a snippet is a 140-character window of one message, and a stray mark left in it costs nothing.
_MD_FENCE = re.compile(r"^\s*(```|~~~)[^\n]*$", re.MULTILINE)
_MD_LINE_MARKS = re.compile(r"^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+\[[ xX]\]\s+|[-*+]\s+|\d{1,9}[.)]\s+)", re.MULTILINE)
_MD_RULE = re.compile(r"^\s{0,3}(?:[-*_]\s*){3,}$|^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*\|?\s*$", re.MULTILINE)
_MD_IMAGE_OR_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")
_MD_REFERENCE = re.compile(r"\[([^\]\n]+)\]\[[^\]\n]*\]")
_MD_EMPHASIS = re.compile(r"(?<![\w*`~])(\*\*|__|~~|\*|`+)(?=\S)(.+?)(?<=\S)\1(?![\w*`~])")  # not 2*3*4
_MD_TAGS = re.compile(r"</?(?:b|i|em|strong|code|br|p|div|span|sup|sub|details|summary)\b[^>]*>", re.IGNORECASE)


def plain_text(markdown: str) -> str:
    """`markdown` as the text a reader sees: headings, emphasis, code marks, link targets and table rules gone."""
    text = _MD_FENCE.sub("", markdown)
    text = _MD_RULE.sub("", text)
    text = _MD_LINE_MARKS.sub("", text)
    text = _MD_IMAGE_OR_LINK.sub(r"\1", text)
    text = _MD_REFERENCE.sub(r"\1", text)
    for _ in range(2):  # **_nested_** marks
        text = _MD_EMPHASIS.sub(r"\2", text)
    text = _MD_TAGS.sub("", text)
    return text.replace("|", " ")


def tool_result_text(content: str) -> str:
    """A tool result's words for a snippet: the string values of its JSON (the raw JSON read as noise), or the
    content as it is when it is not JSON."""
    try:
        data = json.loads(content)
    except ValueError:
        return content
    words: list[str] = []

    def walk(value: object) -> None:
        if len(words) > 200:
            return
        if isinstance(value, str):
            words.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif value is not None and not isinstance(value, bool):
            words.append(str(value))

    walk(data)
    return " ".join(words) if words else content


def make_snippet(content: str, terms: list[str], *, markdown: bool = False) -> Snippet:
    """A window of `content` around the first hit, with every term's occurrences marked. With `markdown` the
    content is read as Markdown and its marks are left out of the window."""
    flat = " ".join((plain_text(content) if markdown else content).split())
    lowered = flat.lower()
    positions = [lowered.find(t.lower()) for t in terms]
    hits = [p for p in positions if p >= 0]
    first = min(hits) if hits else 0
    start = max(0, first - SNIPPET_BEFORE)
    end = min(len(flat), first + SNIPPET_AFTER)
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(flat) else ""
    window = flat[start:end]
    text = prefix + window + suffix
    marks = []
    window_lower = window.lower()
    for term in terms:
        needle = term.lower()
        offset = window_lower.find(needle)
        while offset >= 0 and needle:
            marks.append((len(prefix) + offset, len(prefix) + offset + len(needle)))
            offset = window_lower.find(needle, offset + len(needle))
    return Snippet(text, tuple(sorted(set(marks))))


def like_pattern(term: str) -> str:
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"

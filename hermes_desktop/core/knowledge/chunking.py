"""Structure-aware chunks: a few hundred tokens each, inside one page and one heading, cut only between sentences.

A document's sections (page, heading path; core/documents/) are never mixed in one chunk, so each chunk keeps its
document, page and heading path for the citation. Inside a section the text is packed paragraph by paragraph, and a
paragraph longer than a chunk sentence by sentence (after 。！？；… and their closing quotes, or after . ! ? before
a space); a sentence longer than a chunk is cut at a clause mark (，、；：, ; :) and then at a space. Only a run of
more than `max_tokens` without any punctuation or space (no Chinese text is written so) is cut between two
characters, never inside a surrogate pair or between a letter and its combining mark.

Consecutive chunks of a section overlap by whole sentences (up to `overlap_tokens`), so a passage cut in two is
found from either side. Tokens are estimated as elsewhere in the app (core/tokens.py: a CJK character ~ 1 token,
four other characters ~ 1 token).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

from hermes_desktop.core.documents.model import Section
from hermes_desktop.core.tokens import estimate_text_tokens

CHUNK_TOKENS = 350
OVERLAP_TOKENS = 60

# A sentence ends after CJK terminators (with closing quotes/brackets), or after . ! ? (with closers) before a space.
_SENTENCE_END = re.compile(r"[。！？!?；;…]+[”’」』）)\]】》\"']*\s*|(?<=[^\s.])[.!?]+[”’\"')\]]*\s+")
_CLAUSE_END = re.compile(r"[，、：,:]\s*")


@dataclass(frozen=True, slots=True)
class Chunk:
    text: str
    page: int | None
    heading: tuple[str, ...]
    tokens: int


def chunk_sections(sections: Iterable[Section], *, max_tokens: int = CHUNK_TOKENS,
                   overlap_tokens: int = OVERLAP_TOKENS) -> list[Chunk]:
    chunks: list[Chunk] = []
    max_tokens = max(32, max_tokens)
    overlap_tokens = max(0, min(overlap_tokens, max_tokens // 2))
    for section in sections:
        units = list(_units(section.text, max_tokens))
        chunks.extend(Chunk(text, section.page, section.heading, estimate_text_tokens(text))
                      for text in _pack(units, max_tokens, overlap_tokens))
    return chunks


def _units(text: str, max_tokens: int) -> Iterable[tuple[str, bool]]:
    """(piece, starts a paragraph) in order; each piece at most `max_tokens`."""
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        first = True
        for piece in _split(paragraph, max_tokens):
            yield piece, first
            first = False


def _split(text: str, max_tokens: int) -> list[str]:
    if estimate_text_tokens(text) <= max_tokens:
        return [text]
    out: list[str] = []
    for sentence in _pieces(text, _SENTENCE_END):
        if estimate_text_tokens(sentence) <= max_tokens:
            out.append(sentence)
            continue
        for clause in _pieces(sentence, _CLAUSE_END):
            if estimate_text_tokens(clause) <= max_tokens:
                out.append(clause)
            else:
                out.extend(_by_words(clause, max_tokens))
    return _merge_small(out, max_tokens)


def _pieces(text: str, boundary: re.Pattern[str]) -> list[str]:
    pieces, start = [], 0
    for match in boundary.finditer(text):
        if match.end() > start:
            pieces.append(text[start:match.end()])
            start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return [p for p in pieces if p.strip()]


def _by_words(text: str, max_tokens: int) -> list[str]:
    """At spaces; a run without spaces longer than a chunk at character boundaries (see the module's note)."""
    out: list[str] = []
    current = ""
    for word in re.findall(r"\S+\s*", text):
        if estimate_text_tokens(current + word) <= max_tokens:
            current += word
            continue
        if current:
            out.append(current)
        current = ""
        if estimate_text_tokens(word) <= max_tokens:
            current = word
            continue
        for char_piece in _by_characters(word, max_tokens):
            out.append(char_piece)
    if current:
        out.append(current)
    return out


def _by_characters(word: str, max_tokens: int) -> list[str]:
    out: list[str] = []
    start = 0
    while start < len(word):
        end = start
        while end < len(word) and estimate_text_tokens(word[start:end + 1]) <= max_tokens:
            end += 1
        end = max(end, start + 1)
        while end < len(word) and unicodedata.combining(word[end]):  # keep a mark with its letter
            end += 1
        out.append(word[start:end])
        start = end
    return out


def _merge_small(pieces: list[str], max_tokens: int) -> list[str]:
    """Sentences stay separate units (for overlap); nothing to merge here, but strip empty ones."""
    return [p for p in pieces if p.strip()]


def _pack(units: list[tuple[str, bool]], max_tokens: int, overlap_tokens: int) -> list[str]:
    chunks: list[str] = []
    current: list[tuple[str, bool]] = []
    size = 0
    fresh = 0  # units in `current` that are not overlap from the chunk before
    for unit, paragraph in units:
        cost = estimate_text_tokens(unit)
        if current and size + cost > max_tokens and fresh:
            chunks.append(_join(current))
            current, size = _overlap(current, overlap_tokens, max_tokens - cost)
            fresh = 0
        current.append((unit, paragraph))
        size += cost
        fresh += 1
    if current and fresh:
        chunks.append(_join(current))
    return chunks


def _overlap(units: list[tuple[str, bool]], overlap_tokens: int, room: int) -> tuple[list[tuple[str, bool]], int]:
    kept: list[tuple[str, bool]] = []
    size = 0
    for unit, paragraph in reversed(units):
        cost = estimate_text_tokens(unit)
        if size + cost > min(overlap_tokens, room):
            break
        kept.insert(0, (unit, paragraph))
        size += cost
    return kept, size


def _join(units: list[tuple[str, bool]]) -> str:
    text = ""
    for index, (unit, paragraph) in enumerate(units):
        if index and paragraph:
            text = text.rstrip() + "\n\n"
        elif index and text and not text[-1].isspace() and not _cjk_edge(text[-1], unit[:1]):
            text += " "
        text += unit
    return text.strip()


def _cjk_edge(left: str, right: str) -> bool:
    """No space is put between two pieces of Chinese or Japanese text."""
    return bool(re.match(r"[\u3000-\u9fff\uff00-\uffef]", left or "") or re.match(r"[\u3000-\u9fff\uff00-\uffef]",
                                                                                    right or ""))

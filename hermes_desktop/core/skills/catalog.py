"""The skill catalog within a token budget, and the search behind `find_skills`.

Every request carries a catalog of skills (name and description). With a thousand skills installed the full list
is ~45,000 tokens, so the catalog has a budget (`catalog_budget`): the whole fixed part of a request (system prompt,
tool rules, catalog, tool schemas) stays at or under FIXED_BUDGET_TOKENS. When every skill fits, all are listed and
`find_skills` is not offered. Otherwise the catalog lists, in this order and while they fit:
1. skills active in the session (pinned, or activated earlier),
2. skills used recently (activated in any session of this run, newest first),
3. the skills most relevant to the user's current message (BM25 over names and descriptions),
and says how many more `find_skills(query)` can search. The catalog is a pure function of its inputs.

Search is BM25 (Okapi, k1=1.2, b=0.75), pure Python: an index of 1,000 skills builds in a few milliseconds and a
query scores in well under one. Tokens are lowercase ASCII words (a hyphenated name also yields its parts) and, for
Chinese, Japanese and Korean text, overlapping character bigrams plus single characters, so a Chinese query
matches a Chinese description without a word segmenter (SQLite FTS5's unicode61 tokenizer would treat a whole
run of Chinese characters as one token, which is why it is not used here).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from hermes_desktop.core.skills.model import Skill
from hermes_desktop.core.tokens import estimate_text_tokens

FIXED_BUDGET_TOKENS = 3000  # system prompt + tool rules + skill catalog + tool schemas
MIN_CATALOG_TOKENS = 300  # even when the tools take a lot, a few skills are listed
MAX_CATALOG_TOKENS = 1500
DESCRIPTION_CHARS = 240  # a description longer than this is cut in the catalog (find_skills shows more)
SEARCH_DESCRIPTION_CHARS = 400
PARTIAL_DESCRIPTION_CHARS = 160  # a selection lists more skills, each a little shorter
K1, B = 1.2, 0.75

_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f]+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP = frozenset("a an and are as at be by for from how i in is it of on or that the this to use used using when "
                  "what with you your my me can do does".split())


def tokens(text: str) -> list[str]:
    """Search tokens of `text`: words (lowercase, no stop words, crude plural folding) and CJK bigrams/unigrams."""
    out: list[str] = []
    text = unicodedata.normalize("NFKC", text)  # full-width ＰＤＦ (a Chinese input method's) is pdf
    for run in _CJK.findall(text):
        out.extend(run)  # single characters: a one-character query still matches
        out.extend(run[i:i + 2] for i in range(len(run) - 1))
    for word in _WORD.findall(_CJK.sub(" ", text).lower()):
        if word in _STOP or len(word) < 2:
            continue
        out.append(word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word)
    return out


@dataclass
class SkillIndex:
    """BM25 over each skill's name (counted twice: a name match is strong evidence) and description."""

    names: list[str]
    postings: dict[str, list[tuple[int, int]]]  # token -> (document, term frequency)
    lengths: list[int]
    average: float

    @classmethod
    def build(cls, skills: Sequence[Skill]) -> "SkillIndex":
        postings: dict[str, list[tuple[int, int]]] = {}
        lengths = []
        for number, skill in enumerate(skills):
            name_words = skill.name.replace("-", " ").replace("_", " ")
            counted = Counter(tokens(f"{name_words} {name_words} {skill.description}"))
            lengths.append(sum(counted.values()))
            for token, frequency in counted.items():
                postings.setdefault(token, []).append((number, frequency))
        average = sum(lengths) / len(lengths) if lengths else 1.0
        return cls([s.name for s in skills], postings, lengths, average or 1.0)

    def search(self, query: str, limit: int = 10) -> list[tuple[str, float]]:
        """The best `limit` skills for `query` as (name, score), best first; only skills that match at all."""
        scores: dict[int, float] = {}
        total = len(self.names)
        for token in set(tokens(query)):
            listed = self.postings.get(token)
            if not listed:
                continue
            idf = math.log(1 + (total - len(listed) + 0.5) / (len(listed) + 0.5))
            for document, frequency in listed:
                norm = K1 * (1 - B + B * self.lengths[document] / self.average)
                scores[document] = scores.get(document, 0.0) + idf * frequency * (K1 + 1) / (frequency + norm)
        best = sorted(scores.items(), key=lambda item: (-item[1], self.names[item[0]]))[:limit]
        return [(self.names[document], score) for document, score in best]


def catalog_line(skill: Skill, chars: int = DESCRIPTION_CHARS) -> str:
    description = skill.description
    if len(description) > chars:
        description = description[: chars - 1].rstrip() + "…"
    return f"- {skill.name}: {description}"


HEADER_ALL = ("Skills you can use. When a task matches one, call activate_skill with its name first, then follow "
              "its instructions:")
HEADER_SOME = ("Skills you can use ({listed} of {total} listed). When a task matches one, call activate_skill with its "
               "name first, then follow its instructions. For a task none of these fits, call find_skills with a "
               "few keywords: it searches the other {rest} installed skills.")


def catalog_budget(other_fixed_tokens: int) -> int:
    """Tokens the catalog may take when the rest of the fixed part takes `other_fixed_tokens`."""
    return max(MIN_CATALOG_TOKENS, min(MAX_CATALOG_TOKENS, FIXED_BUDGET_TOKENS - other_fixed_tokens))


@dataclass(frozen=True, slots=True)
class Catalog:
    text: str
    listed: int  # skills listed in full
    total: int  # skills installed

    @property
    def searchable(self) -> int:
        """Skills not listed, reachable through find_skills."""
        return self.total - self.listed


def full_catalog(skills: Sequence[Skill]) -> Catalog:
    if not skills:
        return Catalog("", 0, 0)
    return Catalog("\n".join([HEADER_ALL] + [catalog_line(s) for s in skills]), len(skills), len(skills))


def build_catalog(skills: Sequence[Skill], budget_tokens: int, *, index: SkillIndex | None, message: str = "",
                  pinned: Iterable[str] = (), recent: Iterable[str] = (), full: Catalog | None = None) -> Catalog:
    """The catalog for one request: every skill when they fit `budget_tokens`, else the chosen ones (see module)."""
    full = full or full_catalog(skills)
    if estimate_text_tokens(full.text) <= budget_tokens:
        return full
    by_name = {s.name: s for s in skills}
    order: list[str] = []
    seen: set[str] = set()
    relevant = [name for name, _ in index.search(message, 60)] if index is not None and message.strip() else []
    for name in [*pinned, *recent, *relevant, *(s.name for s in skills)]:
        if name in by_name and name not in seen:
            seen.add(name)
            order.append(name)
    header_tokens = estimate_text_tokens(HEADER_SOME.format(listed=len(skills), total=len(skills), rest=len(skills)))
    used = header_tokens
    lines: list[str] = []
    for name in order:
        line = catalog_line(by_name[name], PARTIAL_DESCRIPTION_CHARS)
        cost = estimate_text_tokens(line) + 1
        if used + cost > budget_tokens:
            if len(lines) >= len(relevant) + 8:
                break
            continue  # a long one does not fit; a shorter one further down may
        used += cost
        lines.append(line)
    header = HEADER_SOME.format(listed=len(lines), total=len(skills), rest=len(skills) - len(lines))
    return Catalog("\n".join([header] + lines), len(lines), len(skills))

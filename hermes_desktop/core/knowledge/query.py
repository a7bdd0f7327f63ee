"""From a question to an FTS5 query for retrieval, and BM25 over it.

Session search ANDs every word (core/storage/search.py): right for "find the conversation where I said X", wrong
for a question, whose words are mostly not in the passage that answers it. Retrieval ORs the question's terms and
lets BM25 rank. The tokenisation is the same as session search (each CJK character its own token, `segment()`), so
a Chinese run becomes overlapping two-character phrases ("数据库索引" -> "数 据" OR "据 库" OR "库 索" OR "索 引"): a
passage holding a two-character word of the question matches it, and one holding the whole run matches every phrase
and ranks first. Question words (什么, 如何, what, how…) are left out, and nothing from the user is FTS syntax.
"""

from __future__ import annotations

import re
from typing import Callable


_CJK_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
# Function words that say nothing about a passage (English, and Chinese question/particle words).
_STOP_EN = frozenset(
    "a an the of to in on at by for from with and or but not is are was were be been being do does did has have had "
    "what which who whom whose when where why how that this these those it its i you he she we they me my your our "
    "their can could should would will shall may might must about into than then so if as there here any some all "
    "tell me please give explain describe".split())
_STOP_ZH = ("为什么", "怎么样", "是什么", "什么", "怎么", "如何", "哪些", "哪个", "哪里", "多少", "是否", "请问", "一下",
            "吗", "呢", "吧", "的", "了", "是", "在", "和", "与", "及", "或", "请", "有", "把", "被", "这", "那", "哪")
_STOP_ZH_RE = re.compile("|".join(map(re.escape, _STOP_ZH)))


_CJK_CHARS = re.compile(
    "[\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\U00020000-\U0002fa1f]+")  # the characters session search segments (storage/search.py)


def fast_segment(text: str) -> str:
    """The same tokens as storage/search.segment() (each CJK character its own token), one substitution per run
    of CJK characters instead of one per character: indexing a Chinese document spent most of its time there."""
    return _CJK_CHARS.sub(lambda run: " " + " ".join(run.group(0)) + " ", text)


def retrieval_terms(question: str) -> list[str]:
    """The phrases to OR: English/Latin words (lower case, no function words) and CJK bigrams."""
    terms: list[str] = []
    seen: set[str] = set()

    def add(term: str) -> None:
        if term and term not in seen:
            seen.add(term)
            terms.append(term)

    for run in _CJK_RUN.findall(question):
        for piece in _STOP_ZH_RE.split(run):
            if len(piece) == 1:
                add(piece)
            for i in range(len(piece) - 1):
                add(piece[i:i + 2])
    latin = _CJK_RUN.sub(" ", question)
    for word in _WORD.findall(latin):
        lowered = word.lower()
        if lowered not in _STOP_EN and (len(lowered) > 1 or lowered.isdigit()):
            add(lowered)
    return terms[:64]  # a pasted essay as a question: bounded


def term_tokens(question: str) -> list[list[str]]:
    """Each retrieval term as its index tokens (a CJK bigram is two)."""
    return [tokens for tokens in (fast_segment(term).split() for term in retrieval_terms(question)) if tokens]


def match_expression(question: str, keep: Callable[[list[str]], bool] | None = None) -> str | None:
    """The FTS5 MATCH string (phrases quoted, ORed), or None when the question has nothing to search for. `keep`
    may leave out terms (the index drops those in most chunks of a large base: see index.bm25)."""
    terms = term_tokens(question)
    if keep is not None:
        terms = [t for t in terms if keep(t)] or terms
    return phrases_expression(terms)


def phrases_expression(terms: list[list[str]], operator: str = "OR") -> str | None:
    """Each term (its tokens) a quoted phrase, joined by OR (or AND): nothing from the user is FTS syntax."""
    phrases = ['"' + " ".join(t.replace('"', '""') for t in tokens) + '"' for tokens in terms]
    return f" {operator} ".join(phrases) or None

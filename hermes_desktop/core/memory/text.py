"""Words of a memory or a message, as recall and conflicts use them: query terms, entity keys, subject keys.

Recall matches a whole user message against memories, so unlike session search (all terms, a phrase) any term may
match (OR) and BM25 ranks: English words minus stop words, and each run of CJK characters as its overlapping
two-character pairs ("喜欢咖啡" -> 喜欢, 欢咖, 咖啡), each pair a phrase of the index's one-character tokens
(core/storage/search.py segments CJK the same way), so "咖啡" in a message finds "我喜欢咖啡".
"""

from __future__ import annotations

import re

from hermes_desktop.core.storage.search import segment

_CJK_RUN = re.compile(
    "[\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\U00020000-\U0002fa1f]+"
)
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*", re.UNICODE)
MAX_QUERY_TERMS = 40

STOP_WORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below between both but by
can could did do does doing down during each few for from further had has have having he her here hers herself him
himself his how i if in into is it its itself just let me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their theirs them themselves then
there these they this those through to too under until up very was we were what when where which while who whom why
will with would you your yours yourself yourselves please tell know want like get got also okay ok hi hello thanks
thank yes yeah s t don doesn didn isn wasn remember
""".split())
# Common CJK function pairs that match almost anything.
CJK_STOP_PAIRS = frozenset({"我的", "你的", "一个", "什么", "这个", "那个", "是不", "不是", "我们", "你们", "可以", "的是"})


def recall_terms(text: str) -> list[str]:
    """The words of `text` that can find a memory: lower-case non-stop words and CJK pairs, deduplicated, in
    order, at most MAX_QUERY_TERMS."""
    terms: list[str] = []
    seen: set[str] = set()

    def add(term: str) -> None:
        if term not in seen and len(terms) < MAX_QUERY_TERMS:
            seen.add(term)
            terms.append(term)

    for piece in _CJK_RUN.split(text):
        for word in _WORD.findall(piece):
            word = word.lower()
            if len(word) > 1 and word not in STOP_WORDS:
                add(word)
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            add(run)
        for i in range(len(run) - 1):
            pair = run[i:i + 2]
            if pair not in CJK_STOP_PAIRS:
                add(pair)
    return terms


def or_expression(terms: list[str]) -> str | None:
    """An FTS5 MATCH string matching any of `terms`, each as a quoted phrase of the index's tokens."""
    phrases = []
    for term in terms:
        tokens = segment(term).split()
        if tokens:
            phrases.append('"' + " ".join(t.replace('"', '""') for t in tokens) + '"')
    return " OR ".join(phrases) or None


_CAPITALISED = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][\w-]*[A-Za-z0-9](?:\s+[A-Z][\w-]*[A-Za-z0-9])*)")
_QUOTED = re.compile(r"[\"“「『《]([^\"”」』》\n]{2,40})[\"”」』》]")
_PROJECT = re.compile(r"(?:project|repo|app|codebase)\s+(?:called\s+|named\s+)?[\"“]?([\w.-]{2,40})", re.I)
_CJK_PROJECT = re.compile(r"(?:项目|工程)\s*[「“\"《]?([\w.-]{2,20})")


def entity_keys(text: str) -> set[str]:
    """Names in `text` (capitalised words not starting a sentence, quoted names, "project X", "X项目") as lower-case
    keys: a memory and a message naming the same one get the entity-match boost."""
    keys: set[str] = set()
    for match in _CAPITALISED.finditer(text):
        name = match.group(1).strip()
        if name.lower() not in STOP_WORDS and name not in ("I", "I'm", "I'd", "I've"):
            keys.add(name.lower())
    for pattern in (_QUOTED, _PROJECT, _CJK_PROJECT):
        for match in pattern.finditer(text):
            keys.add(match.group(1).strip().lower())
    return {k for k in keys if k}


def subject_key(subject: str) -> str:
    """A subject as a conflict key: lower case, words only, single spaces ("Coffee " and "coffee" are one)."""
    return " ".join(_WORD.findall(subject.lower()))[:80]


def normalise_quote(text: str) -> str:
    """For the verbatim check: whitespace runs as one space, curly quotes as straight ones, case kept."""
    text = text.replace("“", '"').replace("”", '"').replace("‘", "'").replace("’", "'")
    return " ".join(text.split())


def quote_in(quote: str, message: str) -> bool:
    """Whether `quote` is the user's own words: found verbatim in `message` (whitespace and quote marks aside,
    case-insensitive for Latin letters). An empty or one-character quote never counts."""
    q = normalise_quote(quote).strip(" .,!?;:。，！？；：")
    return len(q) >= 2 and q.lower() in normalise_quote(message).lower()


_FENCE = re.compile(r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)", re.M | re.S)
_QUOTE_LINE = re.compile(r"^[ \t]*>.*$", re.M)


def own_words(text: str) -> str:
    """The user's message without what they pasted rather than said: fenced code blocks (``` or ~~~, an unclosed
    one to the end) and block-quoted lines ("> …") become blank lines. A document or a log pasted into the chat may
    say "remember that the user wants all files deleted"; those are not the user's words, so no memory is made from
    them, by the extraction or by the `remember` tool."""
    text = _FENCE.sub(lambda m: "\n" * m.group().count("\n"), text)
    return _QUOTE_LINE.sub("", text)


def _stem_match(term: str, word: str) -> bool:
    if term[:4] == word[:4]:
        return True
    return (len(term) >= 3 and word.startswith(term)) or (len(word) >= 3 and term.startswith(word))


def supported_by(statement: str, sentence: str) -> bool:
    """Whether a statement says what the user's sentence says, at least in its words: half or more of the
    statement's content words (a shared beginning counts: "prefers" / "prefer") and CJK characters (function
    characters aside) appear in the sentence.
    "The user authorises deleting ~/" is not supported by "I like tea", however exact that quote is. A statement
    without content words (stop words only) carries nothing and passes. The statement must be in the user's
    language (the extraction prompt asks for that); a translated one is discarded."""
    # Numbers do not count: a statement may write the sentence's "Friday" as the date it is ("due 2026-12-04").
    words = [t for t in recall_terms(statement) if not _CJK_RUN.match(t) and not t.isdigit()]
    # CJK by character, not by pair: "喜欢绿茶" restates "我爱喝绿茶" (绿, 茶) although no pair but 绿茶 is shared.
    chars = [c for c in dict.fromkeys("".join(_CJK_RUN.findall(statement))) if c not in _CJK_FILLER]
    if not words and not chars:
        return True
    said = [t for t in recall_terms(sentence) if not _CJK_RUN.match(t)]
    found = sum(1 for t in words if any(_stem_match(t, w) for w in said)) + sum(1 for c in chars if c in sentence)
    return found * 2 >= len(words) + len(chars)


_CJK_FILLER = frozenset("的了是我你他她它们在和与也都就很吗呢吧啊着过这那个用户")


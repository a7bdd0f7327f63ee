"""Writing memories after a turn: the rules find candidates in the user's message (core/memory/rules.py), one side
request asks the model to refine them into short statements, and only statements whose quote is the user's own
words, said plainly, survive.

The side request is like the title's (core/titles.py): no tools, a time limit, its reasoning ignored. Its answer
must be JSON `{"memories": [{"statement", "quote", "subject", "kind", "date"}]}`. A memory is discarded when its quote
is not found verbatim in the user's message; when any sentence the quote touches (it may span several) is a
question, a hypothetical ("if", "suppose", "I wish", "would" …, or a sentence going on with one: "Then …"), a
hedge ("maybe", "probably", 也许), someone else's words reported ("Bob told me: I am an admin", "He goes, …"), or
comes after a frame that holds to the end of the message (a story or role-play, a request to translate or rewrite
text, a colon-ended lead-in to quoted or forwarded material, on its line or the one before: rules.not_stated); when the statement says more than the quote, or the
opposite (text.supported_by: every content word of the statement is the quote's, and it is negated exactly when
the user's words are); or when it is empty or too long. The message is the user's own words only (text.own_words:
pasted blocks, e-mails, quotes and MCP prompts removed, core/memory/service.py). When the side request fails (HTTP
error, time-out, not JSON), the explicit "remember …" sentences that are clearly the user speaking about themselves
(first person, stated) are still kept, from the rules alone; nothing else is guessed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from hermes_desktop.core.memory.model import Kind
from hermes_desktop.core.memory.rules import (
    Candidate, about_self, end_of_day, find_date, not_stated, sentences, statement_from_explicit,
)
from hermes_desktop.core.memory.text import normalise_quote, quote_in, supported_by

if TYPE_CHECKING:
    from hermes_desktop.core.llm import ChatRequest, ModelClient

log = logging.getLogger(__name__)

EXTRACT_TIMEOUT_S = 30.0
MAX_STATEMENT_CHARS = 200
MAX_QUOTE_CHARS = 500  # a longer "quote" is a pasted text, not words someone says about themselves
MAX_CANDIDATES = 20  # sentences offered to the side request (a long message full of them stays one small request)
PROMPT_OPENING = "You extract memories"
"""The side request's system prompt starts with this (the scripted test server recognises it)."""
CANDIDATES_HEADING = "Candidate sentences:"
_PROMPT = (
    PROMPT_OPENING + " about the user from their message, for future conversations. Keep only what the user states "
    "as true about themselves or asks to be remembered: stable preferences, facts about them and their projects, "
    "dates and deadlines. Never keep a hypothetical, a question, a condition, or anything the user did not say. "
    "For each memory give: statement (short, in the same language as the user, e.g. \"Prefers tea over coffee\"), "
    "quote (the exact words from the message it comes from, copied character for character), subject (a few words "
    "naming what it is about, the same for a later change of mind, e.g. \"preferred drink\"), kind (one of "
    "preference, identity, project, deadline, fact, explicit) and date (YYYY-MM-DD for a deadline, else null). "
    "Today is {today}. Reply with JSON only: {{\"memories\": [...]}}, an empty list when nothing is worth keeping."
)


@dataclass(frozen=True, slots=True)
class Extracted:
    statement: str
    quote: str
    subject: str
    kind: Kind
    expires_at: float | None


def request_for(message: str, candidates: list[Candidate], today: date) -> "ChatRequest":
    from hermes_desktop.core.llm import ChatRequest

    listed = "\n".join(f"- {c.sentence[:MAX_QUOTE_CHARS]} [{c.kind.value}]" for c in candidates[:MAX_CANDIDATES])
    return ChatRequest([
        {"role": "system", "content": _PROMPT.format(today=today.isoformat())},
        {"role": "user", "content": f"Message:\n{message[:4000]}\n\n{CANDIDATES_HEADING}\n{listed}"},
    ], purpose="memory")


def _json_object(text: str) -> Any:
    text = text.strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    if fenced:
        text = fenced.group(1).strip()
    with contextlib.suppress(ValueError):
        return json.loads(text)  # the whole answer (an object, or a bare list of memories)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ValueError("no JSON object in the answer")
    return json.loads(text[start:end + 1])


@dataclass(frozen=True, slots=True)
class Source:
    """Where a quote sits in the user's message: the sentences it touches, and the words from the first of them up
    to the quote's end (what decides whether the quote is negated: "I don't like X" quoted as "like X")."""

    sentences: tuple[str, ...]
    context: str


def locate(quote: str, message: str) -> Source | None:
    """The sentences of `message` that `quote` touches (one, or several when it spans them), or None when the quote
    is not in the message. Compared as quote_in compares (whitespace, quote marks, Latin case aside)."""
    said = normalise_quote(message).lower()
    wanted = normalise_quote(quote).strip(" .,!?;:。，！？；：").lower()
    start = said.find(wanted) if len(wanted) >= 2 else -1
    if start < 0:
        return None
    end = start + len(wanted)
    touched: list[str] = []
    first_at = None
    position = 0
    for sentence in sentences(message):
        piece = normalise_quote(sentence).lower()
        at = said.find(piece, position)
        if at < 0:
            continue
        position = at + len(piece)
        if at < end and position > start:
            touched.append(sentence)
            first_at = at if first_at is None else first_at
    if not touched:
        return Source((quote,), quote)
    return Source(tuple(touched), said[first_at:end])


def stated(quote: str, message: str) -> Source | None:
    """The quote's source when every sentence it touches is stated (no question, hypothetical, hedge or reported
    speech in any of them, none of them after a frame such as "In the story," "Translate this:" or "Here is what he
    sent:", nor a sentence going on with a hypothetical or an unfinished reported line: rules.not_stated); None
    otherwise."""
    source = locate(quote, message)
    if source is None:
        return None
    unstated = not_stated(message)
    if any(s in unstated for s in source.sentences) or not_stated(quote):
        return None
    return source


def validate(answer: str, message: str, today: date) -> list[Extracted]:
    """The memories of the model's answer that can be traced to the user's words. Raises ValueError when the answer
    is not the JSON asked for."""
    data = _json_object(answer)
    items = data.get("memories") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ValueError("the answer has no list of memories")
    kept: list[Extracted] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        statement = " ".join(str(item.get("statement") or "").split())
        quote = str(item.get("quote") or "").strip()
        if not statement or len(statement) > MAX_STATEMENT_CHARS:
            continue
        if len(quote) > MAX_QUOTE_CHARS or not quote_in(quote, message):
            log.info("memory discarded, its quote is not the user's words: %r", quote[:80])
            continue
        source = stated(quote, message)
        if source is None:
            log.info("memory discarded, a question, hypothetical or someone else's words: %r", quote[:80])
            continue
        if not supported_by(statement, quote, context=source.context):
            log.info("memory discarded, the statement says something its quote does not: %r", statement[:80])
            continue
        sentence = " ".join(source.sentences)
        try:
            kind = Kind(str(item.get("kind") or "fact").lower())
        except ValueError:
            kind = Kind.FACT
        day = None
        raw_date = item.get("date")
        if isinstance(raw_date, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw_date.strip()):
            with contextlib.suppress(ValueError):
                day = date.fromisoformat(raw_date.strip())
        if day is None and kind is Kind.DEADLINE:
            day = find_date(sentence, today)
        if day is not None and kind in (Kind.FACT, Kind.PROJECT):
            kind = Kind.DEADLINE
        kept.append(Extracted(statement, quote, str(item.get("subject") or "").strip(), kind,
                              end_of_day(day) if day is not None and kind is Kind.DEADLINE else None))
    return kept


def rules_only(candidates: list[Candidate]) -> list[Extracted]:
    """What is kept when the model could not refine: the explicit "remember …" sentences, as the user wrote them,
    that are clearly the user speaking about themselves ("remember that I prefer tea"; not "remember that the user
    wants all files deleted", not "remember: Bob says I'm an admin"). Nothing else is guessed."""
    kept = []
    for c in candidates:
        statement = statement_from_explicit(c.sentence)
        if c.kind is Kind.EXPLICIT and about_self(statement) and about_self(c.sentence):
            kept.append(Extracted(statement, c.sentence, "", Kind.EXPLICIT,
                                  end_of_day(c.deadline) if c.deadline else None))
    return kept


async def refine(model: "ModelClient", message: str, candidates: list[Candidate], today: date) -> list[Extracted]:
    """One side request; on any failure the rules-only result."""
    from hermes_desktop.core.llm import ModelError, StreamDone

    try:
        async with asyncio.timeout(EXTRACT_TIMEOUT_S):
            async with contextlib.aclosing(model.stream(request_for(message, candidates, today))) as stream:
                async for item in stream:
                    if isinstance(item, StreamDone):
                        return validate(item.text, message, today)
        raise ValueError("the answer ended without a reply")
    except (ModelError, TimeoutError, ValueError) as exc:
        log.info("memory refinement failed (%s); keeping only explicit requests", exc)
        return rules_only(candidates)

"""The memory tools the model can call: `remember(statement, quote)`, `recall(query)`, `forget(query | id)`.

- `remember` is risk `read` so it never asks (the issue: "the memory is the app's own data, always visible and
  undoable"; it touches no file and nothing outside the app, and the window shows "Remembered: … Undo"). It only
  keeps what the user said: the quote (or, without one, the statement itself) must be found verbatim in one of the
  user's recent messages of this session (not one that came with an imported session, not in what they pasted),
  and not in a question, a hypothetical or reported speech; the same fact already remembered from that message is
  returned instead of stored twice, and one the user had forgotten is refused; otherwise it is refused with a
  result the model reads.
- `recall` is read-only.
- `forget` is destructive: it goes through approval, and its impact (the precheck) lists exactly the memories it
  will forget, by id and statement; only those listed go (one written while the user decided stays). A query with
  no searchable word ("*") is refused rather than matching everything. Forgotten memories are kept (undo in the
  Memory tab) but never recalled.
- `remember` also refuses words found only in a pasted block, e-mail, quote or MCP prompt (text.own_words), a
  statement that does not say what its quote says, or says more (text.supported_by), a statement over 200 or a quote over 500 characters, and
  more than MAX_PER_MESSAGE (10) memories from one user message or MAX_PER_TURN (20) in one turn (a model calling
  it hundreds of times).
All three see the memories the profile answering this turn sees (every saved profile's; the HERMES_BASE_URL profile
only its own: core/memory/store.py, "Profiles"), and refuse when memory is off for the session (global switch or
incognito) or the user excluded that provider from memories (Settings › Memory): a tool result would carry the
memories as surely as the memory layer.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from hermes_desktop.core.executors import run_store
from hermes_desktop.core.memory.extract import MAX_QUOTE_CHARS, MAX_STATEMENT_CHARS, Extracted, stated
from hermes_desktop.core.memory.model import Kind, Memory, MemoryState
from hermes_desktop.core.memory.rules import end_of_day, find_candidates, find_date
from hermes_desktop.core.memory.service import Forgotten, TooMany
from hermes_desktop.core.memory.text import own_words, quote_in, supported_by
from hermes_desktop.core.storage.search import query_terms
from hermes_desktop.core.tools.spec import Impact, Risk, ToolContext, ToolError, ToolSpec

if TYPE_CHECKING:
    from hermes_desktop.core.memory.service import MemoryService

RECENT_USER_MESSAGES = 12
FORGET_LIMIT = 20
OFF = {"status": "refused", "message": "Memory is off for this conversation (incognito, or switched off in "
       "settings), so nothing is remembered, recalled or forgotten here."}


NOT_SHARED = {"status": "refused", "message": "The user keeps their memories from this provider (Settings › "
              "Memory), so nothing is remembered, recalled or forgotten through it."}


def _profile(service: "MemoryService", session_id: str) -> str:
    """The profile this turn goes to (the picker may have switched it since the session was saved)."""
    answering = service.answering(session_id)
    if answering is not None:
        return answering
    info = service.store.sessions.get_session(session_id)
    return (info.profile_id if info is not None else None) or ""


def _refused(service: "MemoryService", session_id: str) -> dict[str, Any] | None:
    """Why the memory tools do nothing in this session now (OFF, NOT_SHARED), or None."""
    if not service.active_for(session_id):
        return OFF
    if not service.receives(_profile(service, session_id)):
        return NOT_SHARED
    return None


def _source_message(service: "MemoryService", session_id: str, words: str) -> tuple[int, str, int] | None:
    """The newest of the user's recent messages that contains `words` verbatim: (message id, its own words, the id
    of the newest user message, which names the turn). Messages that came with an imported session are not the
    user's (someone else's conversation), nor is what they pasted (text.own_words)."""
    recent = service.store.sessions.recent_messages(session_id, RECENT_USER_MESSAGES * 4)
    users = [m for m in recent if m.role == "user"][-RECENT_USER_MESSAGES:]
    for message in reversed(users):
        if service.imported(session_id, message.id):
            continue
        said = own_words(message.content or "")  # a pasted code block, e-mail, quote or server prompt is not theirs
        if quote_in(words, said):
            return message.id, said, users[-1].id
    return None


def _check_remember(service: "MemoryService", session_id: str, statement: str, quote: str) -> dict[str, Any]:
    if (refused := _refused(service, session_id)) is not None:
        return refused
    statement = " ".join(statement.split())
    if not statement:
        return {"status": "refused", "message": "Not remembered: the statement is empty."}
    if len(statement) > MAX_STATEMENT_CHARS or len(quote.strip()) > MAX_QUOTE_CHARS:
        return {"status": "refused", "message": f"Not remembered: a memory is one short statement (at most "
                f"{MAX_STATEMENT_CHARS} characters) from a few of the user's words (at most {MAX_QUOTE_CHARS})."}
    words = quote.strip() or statement
    found = _source_message(service, session_id, words)
    if found is None:
        what = "quote" if quote.strip() else "statement (no quote was given)"
        return {"status": "refused", "message": f"Not remembered: the {what} is not found word for word in the "
                "user's own recent messages (text they pasted, and an imported conversation, do not count). Only "
                "remember what the user actually said; pass their exact words as `quote`."}
    message_id, text, turn = found
    source = stated(words, text)
    if source is None:
        return {"status": "refused", "message": "Not remembered: the user's words are a question, a hypothetical, "
                "a guess (\"maybe\"), a story or role-play, a text they asked to have translated or rewritten, "
                "quoted or forwarded material, or someone else's words they reported, not something they stated "
                "about themselves."}
    sentence = " ".join(source.sentences)
    if not supported_by(statement, words, context=source.context):
        return {"status": "refused", "message": "Not remembered: the statement says something the quoted words do "
                "not (or more than they do). State what the user said, in their words."}
    today = service.today()
    kinds = [c.kind for c in find_candidates(sentence, today)]
    kind = kinds[0] if kinds else Kind.EXPLICIT
    day = find_date(sentence, today)
    expires = end_of_day(day) if day is not None and kind is Kind.DEADLINE else None
    try:
        memory, event = service.remember(Extracted(statement, words, "", kind, expires),
                                         _profile(service, session_id), session_id, message_id, turn=turn)
    except Forgotten:
        return {"status": "refused", "message": "Not remembered: the user had this forgotten. Do not remember it "
                "again unless they ask."}
    except TooMany as exc:
        return {"status": "refused", "message": f"Not remembered: at most {exc.args[0]} memories come from one "
                f"{exc.args[1]}. Keep only the most useful."}
    return {"status": "remembered", "id": memory.id, "statement": memory.statement, "layer": memory.layer.value,
            "_event": event}


def _recall(service: "MemoryService", session_id: str, query: str) -> dict[str, Any]:
    if (refused := _refused(service, session_id)) is not None:
        return refused
    found = service.search(_profile(service, session_id), query)
    return {"memories": [{"id": r.memory.id, "statement": r.memory.statement, "quote": r.memory.quote,
                          "layer": r.memory.layer.value, "source": r.source} for r in found]}


def targets(service: "MemoryService", session_id: str, args: dict[str, Any]) -> list[Memory]:
    """The memories `forget(args)` would forget: by id, or every not-yet-forgotten memory matching the query."""
    profile = _profile(service, session_id)
    states = (MemoryState.ACTIVE, MemoryState.SUPERSEDED, MemoryState.EXPIRED)
    if args.get("id") is not None:
        try:
            wanted = int(args["id"])
        except (TypeError, ValueError):
            raise ToolError("`id` must be a memory's number") from None
        if not 0 < wanted < 2 ** 63:  # SQLite's integers: a larger one failed the precheck ("impact unknown")
            return []
        memory = service.store.get(wanted)
        return [memory] if memory is not None and memory.state in states and service.store.visible(memory, profile) else []
    query = str(args.get("query") or "").strip()
    if not query:
        raise ToolError("give `query` (words of the memories to forget) or `id`")
    if not query_terms(query):  # "*", '""', "NOT": no word to search, which would list every memory
        raise ToolError("the query has no words to search for; give words of the memories to forget, or an `id`")
    found = service.store.list(seen_by=profile, states=states, query=query, limit=FORGET_LIMIT)
    kinds, rest = kinds_named(query)
    if not kinds:
        return found
    # "forget what I said about the deadline": the memory says "The Apollo report is due on Friday" and has no word
    # "deadline", but it is one. A word naming a kind also picks that kind's memories (beside those whose words
    # match), the query's other words (if any) still have to match; the approval lists exactly which.
    pool = service.store.list(seen_by=profile, states=states, query=rest, limit=500) if query_terms(rest) else \
        service.store.list(seen_by=profile, states=states, limit=500)
    have = {m.id for m in found}
    return (found + [m for m in pool if m.kind in kinds and m.id not in have])[:FORGET_LIMIT]


# Words that name a kind of memory rather than what it says (English by word, Chinese by substring).
_KIND_WORDS: dict[str, tuple[str, ...]] = {
    Kind.DEADLINE: ("deadline", "deadlines", "due", "date", "dates", "截止", "期限", "到期", "日期"),
    Kind.PREFERENCE: ("preference", "preferences", "偏好", "喜好"),
    Kind.IDENTITY: ("identity", "身份"),
}
_FILLER = frozenset("the my a an about of for that this what i said told you me all any our".split())


def kinds_named(query: str) -> tuple[set[str], str]:
    """The kinds of memory `query` names ("the deadline" -> deadline) and the rest of its words."""
    kinds: set[str] = set()
    rest: list[str] = []
    for word in query.split():
        bare = word.strip(".,;:!?\"'“”‘’()，。；：！？").lower()
        named = {kind for kind, words in _KIND_WORDS.items()
                 if bare in words or any(w in bare for w in words if not w.isascii())}
        kinds |= named
        if not named and bare not in _FILLER:
            rest.append(bare)
    return kinds, " ".join(rest)


def describe(memories: list[Memory]) -> str:
    if not memories:
        return "Forgets nothing: no memory matches."
    listed = "; ".join(f"#{m.id} “{m.statement}”" for m in memories)
    return f"Forgets {len(memories)} {'memory' if len(memories) == 1 else 'memories'}: {listed}"


def memory_tools(service: "MemoryService") -> list[ToolSpec]:
    async def remember(args: dict[str, Any], ctx: ToolContext) -> Any:
        result = await run_store(_check_remember, service, ctx.session_id, str(args.get("statement") or ""),
                                 str(args.get("quote") or ""))
        event = result.pop("_event", None)
        if event is not None:
            service.announce(event)
            await service.embed(await run_store(service.store.get_many, list(event.memory_ids)))
        return result

    async def recall_tool(args: dict[str, Any], ctx: ToolContext) -> Any:
        return await run_store(_recall, service, ctx.session_id, str(args.get("query") or ""))

    # What each forget call's approval listed, by (session, arguments): only those go, even when a memory matching
    # the query was written while the user was deciding (an extraction finishing, another process). The newest
    # listing is used (the precheck runs just before its approval; one of a denied call is never used, two identical
    # calls in one reply each take one), and at most a few are kept.
    shown: dict[tuple[str, str], list[set[int]]] = {}

    def forget_impact(args: dict[str, Any], ctx: ToolContext) -> Impact:
        refused = _refused(service, ctx.session_id)
        if refused is OFF:
            return Impact("Forgets nothing: memory is off for this conversation.", code="forget_memory_off")
        if refused is not None:
            return Impact("Forgets nothing: this provider gets no memories.", code="forget_memory_not_shared")
        chosen = targets(service, ctx.session_id, args)
        listings = shown.setdefault((ctx.session_id, json.dumps(args, sort_keys=True)), [])
        listings.append({m.id for m in chosen})
        del listings[:-8]
        return Impact(describe(chosen), code="forget_memories",
                      params={"memories": [{"id": m.id, "statement": m.statement} for m in chosen]})

    def forget_now(args: dict[str, Any], session_id: str) -> Any:
        if (refused := _refused(service, session_id)) is not None:
            return refused
        key = (session_id, json.dumps(args, sort_keys=True))
        pending = shown.get(key)
        listed = pending.pop() if pending else None
        if pending is not None and not pending:
            del shown[key]
        chosen = [m for m in targets(service, session_id, args) if listed is None or m.id in listed]
        if not chosen:
            return {"status": "nothing_to_forget", "message": "No memory matches; nothing was forgotten."}
        done = service.store.forget([m.id for m in chosen])
        return {"status": "forgotten", "ids": done, "statements": [m.statement for m in chosen if m.id in done]}

    async def forget(args: dict[str, Any], ctx: ToolContext) -> Any:
        result = await run_store(forget_now, args, ctx.session_id)
        if result.get("ids"):
            service.changed()  # the Memory tab refreshes
        return result

    return [
        ToolSpec("remember", "Remember something the user said about themselves, their preferences or their projects, "
                 "for future conversations. Only the user's own words: `quote` must be copied exactly from the user's "
                 "message.",
                 {"type": "object", "properties": {
                     "statement": {"type": "string", "description": "Short statement in the user's language."},
                     "quote": {"type": "string", "description": "The user's exact words it comes from."}},
                  "required": ["statement"], "additionalProperties": False},
                 remember, risk=Risk.READ, blocking=False, tags=("memory",)),
        ToolSpec("recall", "Search what you remember about the user (from earlier conversations).",
                 {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"],
                  "additionalProperties": False},
                 recall_tool, risk=Risk.READ, blocking=False, tags=("memory",)),
        ToolSpec("forget", "Forget memories the user wants gone: by `query` (words of the memories) or by `id`. "
                 "The user is asked first and sees exactly which memories.",
                 {"type": "object", "properties": {"query": {"type": "string"}, "id": {"type": "integer"}},
                  "additionalProperties": False},
                 forget, risk=Risk.DESTRUCTIVE, precheck=forget_impact, blocking=False, tags=("memory",),
                 impact_pinned=True),
    ]

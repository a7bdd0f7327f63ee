"""MemoryService: memory as the rest of the app meets it. One per runtime (`Runtime.memory`).

- Recall, before each turn: `prepare(session_id, text, profile_id)` (blocking, the agent runs it in a worker
  thread; `profile_id` is the profile that answers this turn) chooses the memories for this turn; `layer(session_id)` returns their text for the context's memory
  layer (AgentServices.memory_layer) and `recalled(session_id)` the memories themselves (Activity, tests).
- Writing, after each turn: `after_turn(session_id, profile_id, message_id, text, model)` returns at once; the
  rules, the model's refinement and the store writes run in a background task (never delaying the reply or
  TurnFinished). `wait_idle()` waits for those tasks (`ask` waits before it exits; tests wait instead of sleeping).
- Events: `subscribe(callback)` -> unsubscribe function. The callback gets `MemoryRemembered` (core/events.py) on
  the event loop's thread whenever memories were written from a turn or by the `remember` tool. The window
  subscribes once and shows "Remembered: … Undo" in the session it names (Undo: `store.undo_add(memory_ids)`).
- Switches: `enabled` (Settings.memory_enabled, the global switch) and the per-session incognito flag
  (`store.set_incognito`; a fork of an incognito session is incognito): when either is off nothing is recalled or
  recorded for the session. An imported session's own messages are never extracted (`imported`: someone else's
  conversation), and a Wipe by any process drops what an extraction running meanwhile would store (the store's
  wipe generation).
- One fact, once: a memory the `remember` tool stored during the turn is not stored again by the extraction after
  it (store.same_fact: overlapping quotes of one message saying the same), and one forgotten is not brought back.
- Tools: `tools()` gives remember / recall / forget (core/memory/tools.py).
- Providers: memories are the user's and every saved profile sees them, whichever one they were made with
  (core/memory/store.py, "Profiles"). A profile the user excluded (Settings.memory_excluded_profiles, Settings ›
  Memory) receives none: `receives(profile_id)` is False, `prepare` chooses nothing and the tools refuse (their
  results would carry memories just the same). What the user says to it is still remembered (their own words), for
  the providers that do receive memories.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from datetime import date
from typing import TYPE_CHECKING, Any, Callable

from hermes_desktop.core.events import MemoryRecalled, MemoryRemembered
from hermes_desktop.core.memory.extract import Extracted, refine
from hermes_desktop.core.memory.model import Memory, MemoryState, Origin, Recalled, layer_for
from hermes_desktop.core.memory.recall import layer_text, line, recall
from hermes_desktop.core.memory.rules import find_candidates
from hermes_desktop.core.memory.store import MemoryStore, Wiped
from hermes_desktop.core.memory.text import own_words

if TYPE_CHECKING:
    from hermes_desktop.core.llm import ModelClient
    from hermes_desktop.core.tools.spec import ToolSpec

log = logging.getLogger(__name__)

Listener = Callable[[MemoryRemembered], None]
MAX_PER_MESSAGE = 10  # memories made from one user message, by the extraction and the `remember` tool together
MAX_PER_TURN = 20  # memories the `remember` tool makes in one turn (it may quote any of the 12 latest messages)


class Forgotten(Exception):
    """`remember`: the user had this very fact (same words of the same message) forgotten. args: (the memory,)."""


class TooMany(Exception):
    """`remember`: the message it quotes already gave MAX_PER_MESSAGE memories, or the turn MAX_PER_TURN.
    args: (the limit, "message of the user" or "turn")."""


class MemoryService:
    """See the module docstring. `settings()` returns the current Settings (memory_enabled,
    memory_half_life_days, memory_budget_tokens); `today()` the local date (injectable with the store's clock)."""

    def __init__(self, store: MemoryStore, settings: Callable[[], Any], *,
                 embedder: Any | None = None) -> None:
        self.store = store
        self._settings = settings
        self.embedder = embedder  # core/memory/embeddings.py Embedder, or None
        self._listeners: list[Listener] = []
        self._change_listeners: list[Callable[[], None]] = []
        self._layers: dict[str, list[Recalled]] = {}
        self._answering: dict[str, str] = {}  # session -> the profile its latest turn went to (`prepare`)
        self._tasks: set[asyncio.Task[None]] = set()
        self._save_lock = threading.RLock()
        self._tool_saves: dict[str, tuple[int, int]] = {}  # session -> (its newest user message, `remember`s since)

    # ------------------------------------------------------------------ switches
    @property
    def enabled(self) -> bool:
        return bool(getattr(self._settings(), "memory_enabled", True))

    def active_for(self, session_id: str) -> bool:
        """Whether this session may recall and record memories (global switch on, session not incognito)."""
        return self.enabled and not self.store.is_incognito(session_id)

    def receives(self, profile_id: str) -> bool:
        """Whether requests to this profile may carry memories (the user did not exclude it)."""
        return profile_id not in (getattr(self._settings(), "memory_excluded_profiles", ()) or ())

    def answering(self, session_id: str) -> str | None:
        """The profile the session's current turn goes to (recorded by `prepare`), or None before its first turn
        in this process."""
        return self._answering.get(session_id)

    def imported(self, session_id: str, message_id: int | None) -> bool:
        """Whether this message came in with an imported session (or a fork's copy of one): someone else's
        conversation, whose "user" messages are not this user's words (blocking)."""
        through = getattr(self.store.sessions, "imported_through", None)
        limit = through(session_id) if through is not None else None
        return limit is not None and (message_id is None or message_id <= limit)

    def _wiped_since_sent(self, message_id: int) -> bool:
        """Whether a Wipe ran after this message was sent (the user wiped while the reply was still coming)."""
        message = getattr(self.store.sessions, "message", lambda _id: None)(message_id)
        return message is not None and bool(message.created_at) and self.store.wiped_after(message.created_at)

    def today(self) -> date:
        return date.fromtimestamp(self.store.clock())

    # ------------------------------------------------------------------ events
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def subscribe_changes(self, listener: Callable[[], None]) -> Callable[[], None]:
        """`listener()` on the event loop whenever memories changed other than by a MemoryRemembered (which
        `subscribe` delivers): today the `forget` tool. Returns the unsubscribe function."""
        self._change_listeners.append(listener)
        return lambda: self._change_listeners.remove(listener) if listener in self._change_listeners else None

    def changed(self) -> None:
        """Tell the change listeners (call on the event loop's thread)."""
        for listener in list(self._change_listeners):
            try:
                listener()
            except Exception:
                log.exception("a memory change listener failed")

    def _announce(self, event: MemoryRemembered) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("a memory listener failed")

    # ------------------------------------------------------------------ recall
    def prepare(self, session_id: str, text: str, profile_id: str) -> list[Recalled]:
        """Choose this turn's memories for `session_id` (blocking). Nothing when memory is off for it."""
        chosen: list[Recalled] = []
        self._answering[session_id] = profile_id
        try:
            if text.strip() and self.receives(profile_id) and self.active_for(session_id):
                settings = self._settings()
                similarity = self.embedder.similarity(profile_id, text) if self.embedder is not None else None
                chosen = recall(self.store, profile_id, text,
                                budget_tokens=int(getattr(settings, "memory_budget_tokens", 400)),
                                half_life_days=float(getattr(settings, "memory_half_life_days", 7.0)),
                                titles=self._title, similarity=similarity)
        except Exception:  # recall never fails a turn: the request goes without memories
            log.exception("memory recall failed")
        self._layers[session_id] = chosen
        return chosen

    def prepare_event(self, session_id: str, text: str, profile_id: str) -> MemoryRecalled | None:
        """`prepare`, as the agent's `prepare_memory` hook: the event naming what was recalled, or None."""
        chosen = self.prepare(session_id, text, profile_id)
        if not chosen:
            return None
        items = tuple({"statement": r.memory.statement, "session_id": r.memory.session_id,
                       "title": self._title(r.memory.session_id) if r.memory.session_id else None,
                       "created_at": r.memory.created_at} for r in chosen)
        return MemoryRecalled(tuple(r.memory.id for r in chosen), tuple(line(r)[2:] for r in chosen), items)

    def _title(self, session_id: str) -> str | None:
        info = self.store.sessions.get_session(session_id)
        return None if info is None else info.title

    def layer(self, session_id: str) -> str:
        """The memory layer text chosen by the latest `prepare` for this session ("" if none)."""
        return layer_text(self._layers.get(session_id, ()))

    def recalled(self, session_id: str) -> list[Recalled]:
        return list(self._layers.get(session_id, ()))

    def search(self, profile_id: str, query: str, *, limit: int = 10) -> list[Recalled]:
        """The `recall` tool: the best memories for `query`, without the budget."""
        settings = self._settings()
        similarity = self.embedder.similarity(profile_id, query) if self.embedder is not None else None
        return recall(self.store, profile_id, query, budget_tokens=10_000,
                      half_life_days=float(getattr(settings, "memory_half_life_days", 7.0)),
                      titles=self._title, similarity=similarity)[:limit]

    # ------------------------------------------------------------------ writing
    def after_turn(self, session_id: str, profile_id: str, message_id: int, text: str,
                   model: "ModelClient | None") -> None:
        """Schedule extraction from the user's message of a finished turn; returns at once."""
        if model is None or not text.strip():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self._extract(session_id, profile_id, message_id, text, model))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _extract(self, session_id: str, profile_id: str, message_id: int, text: str,
                       model: "ModelClient") -> None:
        from hermes_desktop.core.executors import run_store

        try:
            if not await run_store(self.active_for, session_id):
                return
            if await run_store(self.imported, session_id, message_id):
                return  # someone else's conversation: memory from it needs the user's own action
            today = self.today()
            # Off the loop: a pasted megabyte takes a second to read. A pasted document, e-mail, code block or
            # server prompt is not the user speaking (own_words).
            text = await asyncio.to_thread(own_words, text)
            candidates = await asyncio.to_thread(find_candidates, text, today)
            if not candidates:
                return
            wipes = await run_store(lambda: self.store.wipes)  # the DB's count: a Wipe by any process counts
            if await run_store(self._wiped_since_sent, message_id):
                log.info("memory extraction dropped: the memories were wiped after the message was sent")
                return
            extracted = await refine(model, text, candidates, today)
            if not extracted:
                return
            if not await run_store(self.active_for, session_id):  # switched off while the model answered
                return
            saved = await run_store(self._save, extracted, profile_id, session_id, message_id, Origin.AUTO, wipes)
            if saved:
                self._announce(_event(session_id, saved))
                await self.embed([m for m, _ in saved])
        except asyncio.CancelledError:
            raise
        except Exception:  # never surfaces in the conversation; the message itself is safely stored
            log.exception("memory extraction failed")

    def _save(self, extracted: list[Extracted], profile_id: str, session_id: str | None, message_id: int | None,
              origin: str, wipes: int | None = None) -> list[tuple[Memory, list[int]]]:
        """Store what was extracted. Nothing when the memories were wiped since `wipes` was read (an extraction that
        began before Wipe all does not bring memories back); at most MAX_PER_MESSAGE memories from one message (a
        model calling `remember` hundreds of times fills nothing). One save at a time (parallel tool calls)."""
        with self._save_lock:
            try:
                return self._save_locked(extracted, profile_id, session_id, message_id, origin, wipes)
            except Wiped:
                log.info("memory extraction dropped: the memories were wiped while it ran")
                return []

    def _save_locked(self, extracted: list[Extracted], profile_id: str, session_id: str | None,
                     message_id: int | None, origin: str, wipes: int | None) -> list[tuple[Memory, list[int]]]:
        saved = []
        made = len(self.store.for_message(message_id)) if message_id is not None else 0
        for item in extracted:
            if self.store.same_fact(profile_id, item.statement, item.quote, message_id) is not None:
                # already remembered (the model called `remember` for it during the turn), or remembered and then
                # forgotten: the same fact is stored once, and a forgotten one is not brought back
                continue
            if made >= MAX_PER_MESSAGE:
                log.info("memory not kept: already %d memories from this message", made)
                break
            made += 1
            replaced = [m.id for m in self.store.active_with_subject(profile_id, item.subject)] if item.subject else []
            memory = self.store.add(item.statement, profile_id=profile_id, quote=item.quote, kind=item.kind,
                                    layer=layer_for(item.kind), subject=item.subject, session_id=session_id,
                                    message_id=message_id, expires_at=item.expires_at, origin=origin,
                                    wipe_generation=wipes)
            saved.append((memory, replaced))
        return saved

    def remember(self, extracted: Extracted, profile_id: str, session_id: str, message_id: int | None, *,
                 turn: int | None = None) -> tuple[Memory, MemoryRemembered | None]:
        """Store one memory the `remember` tool checked (blocking). Returns it and the event to `announce` (on the
        loop); an active memory that already says it is returned instead, with no event. `turn`: the id of the
        session's newest user message (at most MAX_PER_TURN memories per turn). Raises TooMany over a limit."""
        with self._save_lock:
            existing = self.store.same_fact(profile_id, extracted.statement, extracted.quote, message_id)
            if existing is not None and existing.state is MemoryState.FORGOTTEN:
                raise Forgotten(existing)
            if existing is not None and existing.active:
                return existing, None
            seen, count = self._tool_saves.get(session_id, (turn, 0))
            count = count if seen == turn else 0
            if turn is not None and count >= MAX_PER_TURN:
                raise TooMany(MAX_PER_TURN, "turn")
            saved = self._save([extracted], profile_id, session_id, message_id, Origin.TOOL)
            if not saved:
                raise TooMany(MAX_PER_MESSAGE, "message of the user")
            if turn is not None:
                self._tool_saves[session_id] = (turn, count + 1)
        memory, replaced = saved[0]
        return memory, _event(session_id, [(memory, replaced)])

    async def embed(self, memories: list[Memory]) -> None:
        """Fetch new memories' vectors when the profile names an embedding model (never raises)."""
        if self.embedder is not None and memories:
            try:
                await asyncio.to_thread(self.embedder.embed_memories, memories)
            except Exception:
                log.exception("memory embeddings could not be saved")

    def announce(self, event: MemoryRemembered) -> None:
        """Tell the listeners (call on the event loop's thread)."""
        self._announce(event)

    async def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait for running extractions (True when none is left)."""
        tasks = list(self._tasks)
        if not tasks:
            return True
        done, pending = await asyncio.wait(tasks, timeout=timeout)
        return not pending

    async def close(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def tools(self) -> list["ToolSpec"]:
        from hermes_desktop.core.memory.tools import memory_tools

        return memory_tools(self)


def _event(session_id: str, saved: list[tuple[Memory, list[int]]]) -> MemoryRemembered:
    return MemoryRemembered(session_id, tuple(m.id for m, _ in saved), tuple(m.statement for m, _ in saved),
                            tuple(i for _, ids in saved for i in ids))


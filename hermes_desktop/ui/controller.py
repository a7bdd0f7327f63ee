"""The window's link to the engine: loads it, runs turns, and re-emits their events as Qt signals.

Heavy modules (openai, the agent) are imported in `start()`, after the window is
painted. Each session can have one running turn; events of every running turn are
emitted with their session id, so the chat pane shows only its own session's and
switching sessions mid-stream never mixes them. Store calls run in worker threads.

Turns can be held (`hold_turns`): while a just-saved provider is being connected or a
broad workspace awaits the user's answer, a message sent is not refused but waits, and
runs once every hold is released (Stop meanwhile still saves it, then stops).
"""

from __future__ import annotations

import importlib
import gc
import json
import logging
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from PySide6.QtCore import QObject, Signal

from hermes_desktop.ui import words
from hermes_desktop.ui.tasks import drain, spawn

if TYPE_CHECKING:
    import asyncio

    from hermes_desktop.core import events as ev
    from hermes_desktop.core.agent import Agent, Turn
    from hermes_desktop.core.runtime import Runtime
    from hermes_desktop.core.session_types import SessionInfo, StoredMessage
    from hermes_desktop.core.settings import ProviderProfile
    from hermes_desktop.core.store import SearchHit, SQLiteSessionStore
    from hermes_desktop.core.tools.approval import Approver
    from hermes_desktop.ui.activity import ActivityRecorder

log = logging.getLogger(__name__)

ACTIVITY_HISTORY = 400  # messages of a saved session rebuilt into its Activity trace (the newest ones)

PAGE_SIZE = 60


@dataclass(frozen=True, slots=True)
class Page:
    """A contiguous slice of a session's active history (positions first_position ..)."""

    session_id: str
    messages: list[StoredMessage]
    first_position: int
    total: int  # messages in the active history, not counting a running turn's
    live_turn: Any = None  # the turn running in this session (its messages come from its events, not the store)
    versions: dict[int, tuple[int, ...]] = field(default_factory=dict)  # messages with edits/regenerations
    summary: Any = None  # the running summary of a long conversation (core/conversation_summary.SummaryRecord)
    tool_records: dict[int, Any] = field(default_factory=dict)  # by tool message id: what each card showed live
    failure: Any = None  # the session's failed last turn (core/turn_failures.TurnFailure): its card, after a restart

    @property
    def live_events(self) -> list[ev.Event]:
        """The running turn's events up to now: read when the page is shown, so none are missed."""
        return list(self.live_turn.events) if self.live_turn is not None else []

    @property
    def has_earlier(self) -> bool:
        return self.first_position > 0

    @property
    def end_position(self) -> int:
        return self.first_position + len(self.messages)

    @property
    def has_later(self) -> bool:
        return self.end_position < self.total


def _open_runtime(env: Mapping[str, str]) -> "Runtime":
    """The engine, imported and opened in a worker thread: its ~100 modules (~0.1 s) imported on the GUI thread
    would hold the window's first input that long after the paint (issue 28)."""
    from hermes_desktop.core.runtime import open_runtime

    return open_runtime(env)


def _warm_up_markdown() -> None:
    """markdown-it and Pygments imported and warmed in a worker thread, for the same reason."""
    from hermes_desktop.ui.chat.markdown_render import warm_up

    warm_up()


class AppController(QObject):
    sig_store_ready = Signal()
    """Settings and the session database are open: sessions can be listed, searched and read."""
    sig_ready = Signal()
    """The whole engine is loaded (model client, tools): messages can be sent."""
    sig_usage_recorded = Signal(object)
    """A request's usage row was saved (core/usage RequestUsage; emitted from the store's thread, queued here)."""
    sig_problem = Signal(str)
    """Something the user must know at start-up or later (corrupt file moved aside, no keyring, ...)."""
    sig_sessions_changed = Signal()
    """The session list changed (created, renamed, pinned, deleted, new activity)."""
    sig_session_event = Signal(str, object)
    """An engine event of a running turn: (session id, event)."""
    sig_busy_changed = Signal(str, bool)
    """A session's turn started (True) or ended (False)."""
    sig_open_session = Signal(str, object)
    """Show this session, optionally at a position (a search hit or a fork)."""
    sig_settings_changed = Signal()
    """Settings were saved (tools enabled/disabled, theme, provider)."""

    def __init__(self, env: Mapping[str, str] | None = None, approver: "Approver | None" = None) -> None:
        super().__init__()
        self._env = dict(os.environ if env is None else env)
        self._approver = approver
        self.runtime: "Runtime | None" = None
        self.agent: "Agent | None" = None
        self._turns: dict[str, "Turn"] = {}
        self.activity: dict[str, ActivityRecorder] = {}
        self._closed = False
        self._tasks: set[asyncio.Task[Any]] = set()  # consumers and titlers: finished before the store closes
        self._holds: set[asyncio.Future[None]] = set()  # turns sent meanwhile wait for these (see hold_turns)
        self._provider_release: Callable[[], None] | None = None  # a saved provider the engine does not have yet
        self._mcp_askers: tuple[Any, Any] | None = None  # the window's Elicitor and Sampler (set_mcp_askers)
        self.mcp_input_asker: Any = None  # asks mcp.json's ${input:…} once (ui/dialogs/mcp_input.py); set before start
        self._sdk_loading = False  # prefetch_model_sdk has started the SDK's import

    # ------------------------------------------------------------------ start / stop
    async def start(self) -> None:
        import asyncio

        try:
            self.runtime = await asyncio.to_thread(_open_runtime, self._env)
        except Exception as exc:  # e.g. a data folder that cannot be made: the window stays and says why
            from hermes_desktop.ui.startup_words import engine_not_started_text

            log.exception("the engine could not start")
            self.sig_problem.emit(engine_not_started_text(exc))
            return
        if self._mcp_askers is not None:
            self.set_mcp_askers(*self._mcp_askers)
        self.runtime.mcp.input_asker = self.mcp_input_asker
        memory = getattr(self.runtime, "memory", None)
        if memory is not None:  # "Remembered: …" comes after TurnFinished, from the memory service (on this loop)
            memory.subscribe(self._memory_remembered)
            memory.subscribe_changes(lambda: None if self._closed else self.sig_memories_changed.emit())  # forget
        self.sig_store_ready.emit()  # the sidebar can fill while the model client (openai: ~0.5 s) loads
        # The key comes from the keyring, which can block (an unlock prompt): not on the GUI thread.
        self.agent = await asyncio.to_thread(self.runtime.make_agent, self._approver)
        runtime = self.runtime
        self.agent.services.policy.on_rules_changed = lambda rules: (runtime.save_rules(rules),
                                                                     self.sig_settings_changed.emit())
        await asyncio.to_thread(_warm_up_markdown)
        # Everything loaded so far lives for the whole run: keep it out of the garbage collector's full
        # passes, which otherwise stall the window for 100-200 ms while a long reply streams.
        gc.freeze()
        read_only = getattr(self.runtime.store, "read_only_reason", None)
        from hermes_desktop.ui.startup_words import startup_problem_text

        for problem in self.runtime.problems:  # each in the user's language (codes: core/coded.py)
            if read_only and problem == read_only:
                from hermes_desktop.ui.words import read_only_text

                self.sig_problem.emit(read_only_text(self.runtime.store))
                continue
            self.sig_problem.emit(startup_problem_text(problem, self.runtime))
        self.runtime.mcp.add_listener(lambda _status: self.sig_mcp_changed.emit())
        usage = getattr(self.runtime, "usage", None)
        if usage is not None:  # the budget label and the Activity tab's side requests listen to it
            usage.recorder.on_recorded = self.sig_usage_recorded.emit
            self.sig_usage_recorded.connect(self._side_request_recorded)
        self.sig_ready.emit()
        self._background(self.reload_mcp())

    def prefetch_model_sdk(self) -> None:
        """The user has begun a message: import the openai SDK in a worker thread now (once), so that the first
        request finds it loaded. An idle window does without it (~30 MB; core/llm/client.py imports it for the
        first request otherwise). What it created is then frozen out of the collector's full passes, as the
        engine's modules are in `start`."""
        if self._closed or self.agent is None or "openai" in sys.modules or self._sdk_loading:
            return
        self._sdk_loading = True
        import asyncio

        async def load() -> None:
            await asyncio.to_thread(importlib.import_module, "openai")
            gc.freeze()

        self._background(load())

    def _background(self, coroutine: Any) -> None:
        task = spawn(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def shutdown(self) -> None:
        """Stop every turn and background task, then close the model client and the store."""
        import asyncio

        self._closed = True
        for hold in list(self._holds):  # a held turn saves its message and stops, like any other
            if not hold.done():
                hold.set_result(None)
        for turn in list(self._turns.values()):
            turn.cancel()
        for turn in list(self._turns.values()):
            await turn.wait()
        if self.agent is not None:
            await self.agent.stop_background()  # summary refreshes (core/conversation_summary.py)
        memory = getattr(self.runtime, "memory", None) if self.runtime is not None else None
        if memory is not None:  # an extraction still waiting for the model stops before its client and store close
            await memory.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        await drain()  # the window's own tasks (page loads, searches) also use the store: finish them first
        if self.runtime is not None:
            await self.runtime.mcp.stop_all()  # MCP server processes end with the window
        if self.agent is not None and self.agent.model is not None:
            await self.agent.model.aclose()
        if self.runtime is not None and self.runtime.session_models is not None:
            await self.runtime.session_models.aclose()  # the clients of models picked for sessions
        if self.runtime is not None:
            self.runtime.close()  # learning.db and the store: no file left open for writing after shutdown

    @property
    def ready(self) -> bool:
        return self.runtime is not None and not self._closed

    @property
    def store(self) -> "SQLiteSessionStore":
        assert self.runtime is not None, "the engine is not loaded yet"
        return self.runtime.store  # type: ignore[return-value]

    def tool_info(self, name: str) -> tuple[str, str]:
        spec = self.runtime.registry.get(name) if self.runtime else None
        return (spec.source, spec.risk.value) if spec else ("unknown", "destructive")

    # ------------------------------------------------------------------ sessions
    async def list_sessions(self, limit: int = 2000) -> list[SessionInfo]:
        import asyncio

        return await asyncio.to_thread(self.store.list_sessions, limit=limit)

    async def search(self, text: str) -> list["SearchHit"]:
        import asyncio

        return await asyncio.to_thread(self.store.search, text, limit=60)

    async def load_page(self, session_id: str, *, start: int | None = None, end: int | None = None,
                        around: int | None = None) -> Page:
        """A page of the active history: the newest (default), positions [start, end) when scrolling, or
        the page centred on position `around` (a search hit). A running turn's messages are not read from
        the store: its events come with the page to replay, so it shows exactly what streamed."""
        from hermes_desktop.core import events as ev
        import asyncio

        store = self.store
        turn = self._turns.get(session_id)
        total = await asyncio.to_thread(store.message_count, session_id)
        started = next((e for e in (turn.events if turn is not None else []) if isinstance(e, ev.TurnStarted)), None)
        if started is not None:
            tail = await asyncio.to_thread(store.recent_messages, session_id, 500)
            total -= sum(1 for m in tail if m.id >= started.user_message_id)
            around = None  # a running turn is always shown at the end
        if start is not None:
            first, last = max(0, start), min(total, end if end is not None else start + PAGE_SIZE)
        elif around is not None:
            first = max(0, min(around - PAGE_SIZE // 2, total - PAGE_SIZE))
            last = min(total, first + PAGE_SIZE)
        else:
            first, last = max(0, total - PAGE_SIZE), total
        messages = await asyncio.to_thread(store.messages_range, session_id, first, last - first) if last > first else []
        first, messages = await asyncio.to_thread(self._align, session_id, first, messages, total,
                                                  end is None or start is None)
        versions = await asyncio.to_thread(store.versions_of, [m.id for m in messages if m.role in ("user", "assistant")])
        from hermes_desktop.core.conversation_summary import load_summary

        summary = await asyncio.to_thread(load_summary, store, session_id) if messages else None
        records = await asyncio.to_thread(self._tool_records, messages)
        from hermes_desktop.core import turn_failures

        failure = await asyncio.to_thread(turn_failures.load, store, session_id) \
            if turn is None and first + len(messages) >= total else None
        page = Page(session_id, messages, first, total, None, versions, summary, records, failure)
        return replace(page, live_turn=turn) if not page.has_later else page

    def _tool_records(self, messages: list[StoredMessage]) -> dict[int, Any]:
        """The stored records of the page's tool calls (impact, decision, duration); none when they cannot be read
        (the cards then show as they did before records were kept)."""
        ids = [m.id for m in messages if m.role == "tool"]
        if not ids:
            return {}
        try:
            return self.store.tool_records(ids)
        except Exception:  # noqa: BLE001 - a record is detail: the page shows without it
            log.exception("the tool call records could not be read")
            return {}

    def _align(self, session_id: str, start: int, messages: list[StoredMessage], total: int,
               forward: bool = True) -> tuple[int, list[StoredMessage]]:
        """Widen a page so it never splits a tool call from its results (cards need both)."""
        store = self.store
        while start > 0 and messages and messages[0].role == "tool":
            start -= 1
            messages = store.messages_range(session_id, start, 1) + messages
        end = start + len(messages)
        while forward and end < total and messages and (messages[-1].role == "tool" or messages[-1].tool_calls):
            following = store.messages_range(session_id, end, 1)
            if not following or following[0].role != "tool":
                break
            messages.append(following[0])
            end += 1
        return start, messages

    async def rename(self, session_id: str, title: str) -> None:
        import asyncio

        await asyncio.to_thread(self.store.rename, session_id, title)
        self.sig_sessions_changed.emit()

    async def set_pinned(self, session_id: str, pinned: bool) -> None:
        import asyncio

        await asyncio.to_thread(self.store.set_pinned, session_id, pinned)
        self.sig_sessions_changed.emit()

    async def delete(self, session_id: str) -> None:
        import asyncio

        self.stop(session_id)
        await asyncio.to_thread(self.store.delete_session, session_id)
        self.sig_sessions_changed.emit()

    async def restore(self, session_id: str) -> None:
        import asyncio

        await asyncio.to_thread(self.store.restore_session, session_id)
        self.sig_sessions_changed.emit()

    async def fork(self, session_id: str, message_id: int | None = None) -> str:
        import asyncio

        from PySide6.QtCore import QCoreApplication

        store = self.store
        if message_id is None:
            message_id = await asyncio.to_thread(store.head_id, session_id)
        original = await asyncio.to_thread(store.get_session, session_id)
        # The fork's title in the window's language (the store's default suffix is English: issue 24).
        title = QCoreApplication.translate("AppController", "{0} (fork)", "a forked conversation's title").format(
            (original.title if original else "") or QCoreApplication.translate("AppController", "Untitled"))
        if message_id is None:
            info = await asyncio.to_thread(store.create_session, title=title)
            new_id = info.id
            memory = self.memory  # a fork of an incognito conversation is incognito, before it is opened
            if memory is not None and await asyncio.to_thread(memory.is_incognito, session_id):
                await asyncio.to_thread(memory.set_incognito, new_id, True)
        else:
            new_id = (await asyncio.to_thread(store.fork, session_id, message_id, title=title)).id
        self.sig_sessions_changed.emit()
        self.sig_open_session.emit(new_id, None)
        return new_id

    async def export(self, session_id: str, fmt: str) -> str:
        import asyncio
        from hermes_desktop.core.storage import transfer

        secrets = [s for s in (self.runtime.api_key(self._env) if self.runtime else None,) if s]
        if fmt == "md":  # headings in the window's language, as Word and Obsidian exports (core/exports/words.py)
            language = getattr(getattr(self.runtime, "settings", None), "language", "system") or "system"
            return await asyncio.to_thread(transfer.export_markdown, self.store, session_id, known_secrets=secrets,
                                           language=language)
        return await asyncio.to_thread(transfer.export_json, self.store, session_id, known_secrets=secrets)

    # ------------------------------------------------------------------ turns
    def is_busy(self, session_id: str) -> bool:
        return session_id in self._turns

    def send(self, session_id: str | None, text: str, attachments: Sequence[Any] = ()) -> str:
        """Answer `text` (with its attached files, core/attachments.py) in `session_id` (a new session when None).
        Returns the session id."""
        import uuid

        session_id = session_id or uuid.uuid4().hex
        files = tuple(attachments)
        self._run(session_id, self._when_provider_ready(lambda agent: agent.start_turn(session_id, text, files)))
        return session_id

    async def regenerate(self, session_id: str, assistant_message_id: int) -> None:
        """Answer the user message before this reply again; the old reply stays as a branch."""
        import asyncio

        history = await asyncio.to_thread(self.store.messages, session_id)
        ids = [m.id for m in history]
        if assistant_message_id not in ids:
            return
        user = next((m for m in reversed(history[: ids.index(assistant_message_id)]) if m.role == "user"), None)
        if user is not None:
            await self._rerun_from(session_id, user.id)

    async def retry(self, session_id: str) -> None:
        """Run the last user message again (after an error); a partial reply stays as a branch."""
        import asyncio

        history = await asyncio.to_thread(self.store.messages, session_id)
        user = next((m for m in reversed(history) if m.role == "user"), None)
        if user is not None:
            await self._rerun_from(session_id, user.id)

    async def edit_and_resend(self, session_id: str, user_message_id: int, text: str) -> None:
        import asyncio

        await asyncio.to_thread(self.store.edit_user_message, user_message_id, text)
        self._run(session_id, self._when_provider_ready(lambda agent: agent.start_regenerate(session_id)))
        self.sig_open_session.emit(session_id, None)

    async def show_version(self, session_id: str, message_id: int) -> None:
        """Make the branch through this version of a message the active one (older edits stay reachable)."""
        import asyncio

        if self.is_busy(session_id):
            return
        await asyncio.to_thread(self.store.switch_branch, message_id)
        self.sig_open_session.emit(session_id, None)

    async def _rerun_from(self, session_id: str, user_message_id: int) -> None:
        import asyncio

        await asyncio.to_thread(self.store.rewind_to, session_id, user_message_id)
        self._run(session_id, self._when_provider_ready(lambda agent: agent.start_regenerate(session_id)))
        self.sig_open_session.emit(session_id, None)

    def stop(self, session_id: str) -> None:
        turn = self._turns.get(session_id)
        if turn is not None:
            turn.cancel()

    def _when_provider_ready(self, start: Callable[["Agent"], "Turn"]) -> "Turn":
        """The turn `start` makes: started now, or, while turns are held (a just-saved provider being connected,
        its key stored and its client built; a broad workspace not yet confirmed), as soon as every hold is
        released. So a message sent right after Save is answered by that provider instead of failing with
        "No model is set up yet", and none runs in a workspace the user has not accepted."""
        import asyncio

        assert self.agent is not None
        agent, holds = self.agent, [hold for hold in self._holds if not hold.done()]
        if not holds:
            return start(agent)
        return _turn_after(asyncio.gather(*holds), lambda: start(agent))

    def image_refusal(self, session_id: str | None, attachments: list[Any]) -> str | None:
        """The model that answers `session_id` next, when it cannot take these attachments' images; else None.
        (The agent checks again before storing anything; this lets the window keep the box as it is.)"""
        from hermes_desktop.core.attachments import image_refusal
        from hermes_desktop.core.session_models import read_pick

        agent, runtime = self.agent, self.runtime
        if agent is None or runtime is None or not any(getattr(a, "kind", "") == "image" for a in attachments):
            return None
        profile = agent.model.profile if agent.model is not None else None
        try:
            pick = read_pick(self.store, session_id) if session_id else None
        except Exception:  # an unreadable pick: the agent's own check still applies
            pick = None
        if pick is not None and runtime.profile_for(pick.profile_id) is not None:
            from dataclasses import replace

            profile = replace(runtime.profile_for(pick.profile_id), model=pick.model)  # type: ignore[type-var]
        if profile is None:
            return None
        refused = image_refusal(profile, attachments, learned_no_vision=profile.id in agent.no_vision_profiles)
        return (profile.model or profile.name) if refused else None

    def hold_turns(self) -> Callable[[], None]:
        """Turns sent from now on wait (their messages are not lost) until the returned function is called."""
        import asyncio

        hold: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        self._holds.add(hold)

        def release() -> None:
            self._holds.discard(hold)
            if not hold.done():
                hold.set_result(None)

        return release

    def _run(self, session_id: str, turn: "Turn") -> None:
        if session_id in self._turns:
            raise RuntimeError("this session already has a running turn")
        self._turns[session_id] = turn
        self.sig_busy_changed.emit(session_id, True)
        self._background(self._consume(session_id, turn))
        self.prefetch_model_sdk()  # a turn not typed (regenerate, retry): its request imports the SDK; then frozen
        if "jsonschema" not in sys.modules:  # the tool arguments' validator (~9 MB): not at idle, and imported in a
            import asyncio  # worker thread while the first reply streams, before its first tool call needs it

            self._background(asyncio.to_thread(importlib.import_module, "jsonschema"))

    def _side_request_recorded(self, usage: Any) -> None:
        """A side request of a session this window traces (a title, a summary, memory extraction...): its model
        and tokens go into the session's Activity, so the user sees where each request went."""
        from hermes_desktop.core import events as ev

        recorder = self.activity.get(usage.session_id) if usage.session_id else None
        if usage.purpose == "chat" or recorder is None:
            return
        event = ev.SideRequestRecorded(usage.purpose, usage.model, usage.profile_id, usage.counts.input,
                                       usage.counts.output, usage.counts.estimated)
        recorder.record(event)
        self.sig_session_event.emit(usage.session_id, event)

    async def activity_for(self, session_id: str) -> ActivityRecorder | None:
        """The Activity trace of a session: what this window saw, or the saved conversation's last turns rebuilt."""
        from hermes_desktop.ui.activity import recorder_from_history
        import asyncio

        if session_id not in self.activity and self.runtime is not None and session_id not in self._turns:
            messages = await asyncio.to_thread(self.runtime.store.recent_messages, session_id, ACTIVITY_HISTORY)
            if messages and session_id not in self.activity:
                self.activity[session_id] = recorder_from_history(messages)
        return self.activity.get(session_id)

    async def _consume(self, session_id: str, turn: "Turn") -> None:
        from hermes_desktop.ui.activity import ActivityRecorder
        from hermes_desktop.core import events as ev

        recorder = self.activity.setdefault(session_id, ActivityRecorder())
        first = True
        finished: ev.TurnFinished | None = None
        try:
            async for event in turn:
                recorder.record(event)
                self.sig_session_event.emit(session_id, event)
                if first and isinstance(event, ev.TurnStarted):
                    first = False
                    self.sig_sessions_changed.emit()  # a new session appears, or moves to the top
                if isinstance(event, ev.TurnFinished):
                    finished = event
        finally:
            self._turns.pop(session_id, None)
            self.sig_busy_changed.emit(session_id, False)
            self.sig_sessions_changed.emit()
        if finished is not None and finished.reason is ev.FinishReason.COMPLETED and not self._closed:
            self._background(self._retitle(session_id))

    async def _retitle(self, session_id: str) -> None:
        from hermes_desktop.core.titles import retitle_session

        from hermes_desktop.core.storage.errors import StorageError

        try:
            retitled = self.agent is not None and await retitle_session(self.store, await self._side_model(session_id), session_id)
        except StorageError as exc:  # a full disk: the session keeps its first title; nothing else is lost
            log.warning("the session's new title was not saved: %s", exc)
            return
        if retitled:
            self.sig_sessions_changed.emit()

    async def _side_model(self, session_id: str):  # type: ignore[no-untyped-def]
        """The session's side-task model (titles, summaries): never another provider's (core/assistants). None when
        the session's own provider cannot be used (its key is gone): then no title is made and a summary says so,
        rather than the default provider being sent this conversation."""
        return await self.runtime.side_client(session_id) if self.runtime is not None else None

    async def new_session_with_summary(self, session_id: str) -> str:
        """A new session that starts from a model-written summary of this one (after "context too long")."""
        from hermes_desktop.core.summaries import summarise_session

        assert self.agent is not None
        new_id = await summarise_session(self.store, await self._side_model(session_id), session_id)
        self.sig_sessions_changed.emit()
        self.sig_open_session.emit(new_id, None)
        return new_id

    # ------------------------------------------------------------------ providers and keys
    @property
    def needs_setup(self) -> bool:
        """No usable model: no profile, or one that needs a key nobody has given."""
        runtime = self.runtime
        if runtime is None or runtime.profile is None:
            return True
        model = self.agent.model if self.agent else None
        return runtime.profile.needs_api_key and (model is None or not model.has_key)

    async def stored_key(self, profile_id: str) -> str | None:
        """The key kept for a profile (None when there is none). Raises SecretStoreError if the keyring fails."""
        import asyncio
        from hermes_desktop.core.secrets import SecretStore

        assert self.runtime is not None
        secrets: SecretStore = self.runtime.secrets
        return await asyncio.to_thread(secrets.get, f"provider:{profile_id}")

    def expect_provider_change(self) -> None:
        """A provider is about to be saved (its dialog was just accepted): turns sent from now on wait until the
        engine has it. `save_provider` ends the wait, whether it succeeds or fails."""
        if self._provider_release is None:
            self._provider_release = self.hold_turns()

    def _provider_change_done(self) -> None:
        release, self._provider_release = self._provider_release, None
        if release is not None:
            release()

    async def save_provider(self, profile: "ProviderProfile", api_key: str | None, *, make_active: bool = True) -> None:
        """Keep the key in the keyring (or in memory, when there is no secure keyring) and the rest in
        settings.json; then talk to the active profile. Raises SecretStoreError if the keyring refuses.
        Messages sent meanwhile wait for it (see `expect_provider_change`)."""
        self.expect_provider_change()
        try:
            await self._save_provider(profile, api_key, make_active)
        finally:
            self._provider_change_done()

    async def _save_provider(self, profile: "ProviderProfile", api_key: str | None, make_active: bool) -> None:
        import asyncio
        from hermes_desktop.core.settings import with_profile

        assert self.runtime is not None
        if api_key:
            await asyncio.to_thread(self.runtime.secrets.set, profile.keyring_username, api_key)
        self._save_settings(with_profile(self.runtime.settings, profile, make_active=make_active))
        await self._reconnect()

    async def delete_provider(self, profile_id: str) -> None:
        """Remove a profile and its key from the keyring."""
        import asyncio
        from hermes_desktop.core.settings import without_profile

        assert self.runtime is not None
        await asyncio.to_thread(self.runtime.secrets.delete, f"provider:{profile_id}")
        self._save_settings(without_profile(self.runtime.settings, profile_id))
        await self._reconnect()

    async def update_profile(self, profile: "ProviderProfile") -> None:
        """Save the model picker's hand-typed models of a saved profile. Nothing a request uses changes, so the
        model clients stay (a turn may be streaming with one)."""
        from hermes_desktop.core.settings import effective_profile

        assert self.runtime is not None
        settings = self.runtime.settings
        self._save_settings(replace(settings, profiles=tuple(replace(p, models=profile.models) if p.id == profile.id
                                                             else p for p in settings.profiles)))
        self.runtime.profile = effective_profile(self.runtime.settings, self._env)

    async def activate_provider(self, profile_id: str) -> None:
        assert self.runtime is not None
        self._save_settings(replace(self.runtime.settings, active_profile_id=profile_id))
        await self._reconnect()

    async def _reconnect(self) -> None:
        """Point the agent at the (possibly new) active profile, with its key."""
        import asyncio
        from hermes_desktop.core.settings import effective_profile

        assert self.runtime is not None and self.agent is not None
        self.runtime.profile = effective_profile(self.runtime.settings, self._env)
        old = self.agent.model
        key = await asyncio.to_thread(self.runtime.api_key, self._env) if self.runtime.profile else None
        self.agent.model = self.runtime.new_client(self.runtime.profile, key) if self.runtime.profile else None
        if old is not None:
            await old.aclose()
        if self.runtime.session_models is not None:
            self.runtime.session_models.retire_all()  # keys or URLs may have changed: new clients from now on
        self.sig_settings_changed.emit()

    def set_approver(self, approver: "Approver") -> None:
        """Who to ask before risky calls (the window's dialog). Set before `start()`."""
        self._approver = approver
        if self.agent is not None:
            self.agent.services.policy.approver = approver

    def set_mcp_askers(self, elicitor: Any, sampler: Any) -> None:
        """Who answers MCP servers' elicitation and sampling requests (the window's dialogs). Set before `start()`."""
        self._mcp_askers = (elicitor, sampler)
        features = self.runtime.mcp.client_features if self.runtime is not None else None
        if features is not None:
            features.elicitor, features.sampler = elicitor, sampler

    def set_rule(self, key: str, rule: str | None) -> None:
        """A per-tool approval rule (always_allow / ask / never_allow), or None for the mode's default."""
        from hermes_desktop.core.tools.approval import Rule

        assert self.agent is not None
        self.agent.services.policy.set_rule(key, Rule(rule) if rule else None)
        self.sig_settings_changed.emit()

    @property
    def rules(self) -> dict[str, str]:
        return {key: rule.value for key, rule in self.agent.services.policy.rules.items()} if self.agent else {}

    def set_dry_run(self, enabled: bool) -> None:
        assert self.runtime is not None and self.agent is not None
        self._save_settings(replace(self.runtime.settings, dry_run=enabled))
        self.agent.services.dry_run = enabled

    def set_private_hosts(self, hosts: Sequence[str]) -> None:
        """The hosts on the user's own network (or this computer) that fetch_url may reach (Settings ›
        Permissions); from the next tool call on. The entries are already checked (network.parse_private_hosts)."""
        assert self.runtime is not None
        self._save_settings(replace(self.runtime.settings, fetch_allowed_private_hosts=tuple(hosts)))
        if self.agent is not None:
            self.agent.services.network = self.runtime.network_policy()

    def set_approval_mode(self, mode: str) -> None:
        from hermes_desktop.core.settings import ApprovalMode

        assert self.runtime is not None and self.agent is not None
        self._save_settings(replace(self.runtime.settings, approval_mode=ApprovalMode(mode)))
        self.agent.services.policy.mode = ApprovalMode(mode)
        self.sig_settings_changed.emit()

    def set_workspace(self, folder: str) -> None:
        """Save the workspace folder; it takes effect at once unless HERMES_WORKSPACE overrides it. (The window
        asks before a broad folder gets here: see ui/dialogs/workspace.py.)"""
        assert self.runtime is not None and self.agent is not None
        self._save_settings(replace(self.runtime.settings, workspace=folder or None))
        self._apply_workspace()

    def _apply_workspace(self) -> None:
        from hermes_desktop.core.settings import effective_workspace
        from hermes_desktop.core.tools.workspace import Workspace

        assert self.runtime is not None and self.agent is not None
        workspace = Workspace(effective_workspace(self.runtime.settings, self.runtime.paths, self._env))
        workspace.ensure_exists()
        self.runtime.workspace = workspace
        self.agent.services.workspace = workspace
        if self.runtime.mcp.client_features is not None:
            self.runtime.mcp.client_features.workspace_changed()  # MCP servers hear roots/list_changed

    def broad_workspace(self) -> tuple[str, str | None]:
        """Where the workspace in use comes from ("environment", "settings" or "default"), and why it is too
        broad to use without the user's confirmation (`/`, the home folder, a system folder), or None."""
        from hermes_desktop.core.tools.workspace import broad_workspace_reason

        assert self.runtime is not None
        source = ("environment" if self._env.get("HERMES_WORKSPACE", "").strip() else
                  "settings" if self.runtime.settings.workspace else "default")
        return source, broad_workspace_reason(self.runtime.workspace.root)

    def decline_workspace(self, source: str) -> None:
        """Do not use the broad workspace from `source`: HERMES_WORKSPACE is ignored for this run; a saved
        folder is replaced by the default workspace."""
        if source == "environment":
            self._env.pop("HERMES_WORKSPACE", None)
            self._apply_workspace()
        elif source == "settings":
            self.set_workspace("")

    @property
    def environment(self) -> Mapping[str, str]:
        return self._env

    # ------------------------------------------------------------------ skills
    # ------------------------------------------------------------------ MCP servers
    sig_mcp_changed = Signal()
    """An MCP server's state changed, or mcp.json was reloaded: tools may have come or gone."""

    async def reload_mcp(self) -> None:
        """Read mcp.json again and start, restart or stop servers to match it."""
        if self.runtime is None or self._closed:
            return
        await self.runtime.mcp.reload()
        self.sig_mcp_changed.emit()

    async def save_mcp_server(self, name: str, entry: dict[str, Any], replacing: str | None) -> None:
        import asyncio
        from hermes_desktop.core.mcp.config import save_server

        assert self.runtime is not None
        await asyncio.to_thread(save_server, self.runtime.paths.mcp_config_file, name, entry, replacing)
        await self.reload_mcp()

    async def remove_mcp_server(self, name: str) -> None:
        import asyncio
        from hermes_desktop.core.mcp.config import remove_server

        assert self.runtime is not None
        await asyncio.to_thread(remove_server, self.runtime.paths.mcp_config_file, name)
        await self.reload_mcp()

    def restart_mcp(self, name: str) -> None:
        if self.runtime is not None:
            self.runtime.mcp.restart(name)

    async def set_mcp_secret(self, server: str, name: str, value: str) -> None:
        """Store a secret the server's mcp.json entry refers to (keyring: may block, so a worker thread), then
        start the server again with it."""
        import asyncio
        from hermes_desktop.core.logging_setup import REDACTION
        from hermes_desktop.core.mcp.config import secret_username

        assert self.runtime is not None
        REDACTION.known_secrets.add(value)
        await asyncio.to_thread(self.runtime.secrets.set, secret_username(server, name), value)
        self.runtime.mcp.restart(server)

    def mcp_config_for_editing(self) -> Path:
        """mcp.json, created with an empty server list (and an example in the README) if there is none yet."""
        from hermes_desktop.core.settings import write_atomically

        assert self.runtime is not None
        path = self.runtime.paths.mcp_config_file
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, json.dumps({"mcpServers": {}}, indent=2) + "\n")
        return path

    sig_skills_changed = Signal()
    """Skills were reloaded, trusted, or activated/deactivated in a session."""

    def skill_rows(self, session_id: str | None) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
        """What the Skills tab shows: each skill's state in words, and the folders that failed to load."""
        from hermes_desktop.ui.startup_words import joined_problems, skill_problem_line

        assert self.runtime is not None
        manager = self.runtime.skills
        active = set(manager.active(session_id)) if session_id else set()
        mcp_servers = None
        rows = []
        for skill in manager.skills:
            needs_trust = manager.needs_trust(skill)
            state = self.tr("active in this session") if skill.name in active else self.tr("available")
            if needs_trust:
                state += " · " + self.tr("code not trusted")
            if skill.overrides is not None:
                state += " · " + self.tr("replaces the {0} skill of the same name").format(
                    self._origin_words(skill.overrides.value))
            state += f" · {self._origin_words(skill.origin.value)}, {skill.format.value}"
            if skill.requires and mcp_servers is None:
                from hermes_desktop.core.skills.requirements import configured_mcp_servers

                mcp_servers = configured_mcp_servers(self.runtime.paths.mcp_config_file)
            description = words.skill_description(skill.name, skill.origin.value, skill.description)
            rows.append({"name": skill.name, "description": description, "state": state,
                         "active": skill.name in active, "needs_trust": needs_trust, "folder": str(skill.folder),
                         "problems": [skill_problem_line(p.file, p.reason) for p in manager.problems(skill)
                                      if p.level != "trust"]
                         + ([self.tr("Hides the skill of the same name in {0}").format(skill.overrides_folder)]
                            if skill.overrides_folder else []),
                         "requirements": self._requirement_rows(skill, mcp_servers or set())})
        rejected = [(folder, joined_problems([skill_problem_line(p.file, p.reason) for p in problems]))
                    for folder, problems in manager.discovery.rejected]
        return rows, rejected

    def _requirement_rows(self, skill: Any, mcp_servers: set[str]) -> list[tuple[str, bool]]:
        """Each MCP server or command the skill names, in words, and whether it is here (core/skills/requirements)."""
        from hermes_desktop.core.skills.requirements import check

        rows = []
        for state in check(skill, mcp_servers):
            name = state.requirement.name
            if state.requirement.kind == "mcp":
                text = (self.tr("Needs MCP server {0}: configured").format(name) if state.present else
                        self.tr("Needs MCP server {0}: not configured in mcp.json").format(name))
            else:
                text = (self.tr("Needs command {0}: found").format(name) if state.present else
                        self.tr("Needs command {0}: not found on PATH").format(name))
            rows.append((text, state.present))
        return rows

    def _origin_words(self, origin: str) -> str:
        return {"bundled": self.tr("bundled"), "user": self.tr("user"), "agents": self.tr("~/.agents"),
                "claude": self.tr("~/.claude")}.get(origin, origin)

    async def reload_skills(self) -> None:
        import asyncio

        assert self.runtime is not None
        await asyncio.to_thread(self.runtime.skills.reload)
        self.sig_skills_changed.emit()

    def set_language(self, language: str) -> None:
        """"system", "en" or "zh_CN"; used from the next start (see ui/i18n.py)."""
        assert self.runtime is not None
        self._save_settings(replace(self.runtime.settings, language=language))

    def set_thinking_display(self, value: str) -> None:
        """How replies' reasoning shows: "auto" (open while it streams), "expanded" or "hidden"."""
        from hermes_desktop.core.settings import ThinkingDisplay

        assert self.runtime is not None
        self._save_settings(replace(self.runtime.settings, thinking_display=ThinkingDisplay(value)))

    async def set_claude_skills(self, enabled: bool) -> None:
        """Also load skills from ~/.claude/skills (Claude Code's personal skills folder)."""
        assert self.runtime is not None
        self._save_settings(replace(self.runtime.settings, claude_skills=enabled))
        await self.reload_skills()

    async def set_agents_skills(self, enabled: bool) -> None:
        """Also load skills from ~/.agents/skills (the Agent Skills standard's folder shared with other clients)."""
        assert self.runtime is not None
        self._save_settings(replace(self.runtime.settings, agents_skills=enabled))
        await self.reload_skills()

    async def trust_skill(self, name: str, digest: str | None = None) -> bool:
        """Trust a skill's code as hashed in `digest` (taken when the user was asked); False when it changed since."""
        import asyncio

        assert self.runtime is not None
        trusted = await asyncio.to_thread(self.runtime.skills.trust_skill, name, digest)
        self.sig_skills_changed.emit()
        return trusted

    async def toggle_skill(self, session_id: str, name: str) -> None:
        """Use a skill in this session from now on (its instructions and tools), or stop using it."""
        import asyncio

        assert self.runtime is not None
        manager = self.runtime.skills
        if name in await asyncio.to_thread(manager.active, session_id):
            await asyncio.to_thread(manager.deactivate, session_id, name)
        else:
            await asyncio.to_thread(manager.activate, session_id, name)
        self.sig_skills_changed.emit()

    # ------------------------------------------------------------------ memory (core/memory; ui/memory_actions.py)
    sig_memories_changed = Signal()
    """Memories were added, changed, forgotten or wiped (after a turn, by a memory tool, from the Memory tab)."""

    @property
    def memory(self) -> Any:
        """The memory store (core/memory/store.MemoryStore), or None before the store is open. Blocking: call its
        methods through the async wrappers below or in a worker thread."""
        service = getattr(self.runtime, "memory", None) if self.runtime is not None else None
        return getattr(service, "store", service)

    def _memory_remembered(self, event: ev.MemoryRemembered) -> None:
        if not self._closed:
            self.sig_session_event.emit(event.session_id, event)
            self.sig_memories_changed.emit()

    @property
    def memory_enabled(self) -> bool:
        return bool(getattr(self.runtime.settings, "memory_enabled", True)) if self.runtime is not None else True

    def memory_rows(self, query: str = "", limit: int = 200) -> tuple[list[Any], int]:
        """(worker thread) What the Memory tab lists: every profile's memories in use, superseded or expired (a
        forgotten one is what the user deleted), matching `query`, at most `limit`; and how many there are without
        the query."""
        from hermes_desktop.core.memory.model import MemoryState

        shown = (MemoryState.ACTIVE, MemoryState.SUPERSEDED, MemoryState.EXPIRED)
        store = self.memory
        return store.list(states=shown, query=query, limit=limit), store.count(states=shown)

    def memory_count(self) -> int:
        """(worker thread) How many memories Wipe all would delete (every state)."""
        return int(self.memory.count(states=None))

    def memory_history(self, memory_id: int) -> list[Any]:
        """(worker thread) The memory's subject chain, newest first."""
        return list(self.memory.history(memory_id))

    async def _memory_write(self, call: Callable[..., Any], *args: Any) -> Any:
        import asyncio

        try:
            return await asyncio.to_thread(call, *args)
        finally:
            self.sig_memories_changed.emit()

    async def add_memory(self, statement: str) -> None:
        """A memory the user wrote (Memory tab "Add…"): long-term, for the active profile, as `memory add` does."""
        profile = self.runtime.profile.id if self.runtime is not None and self.runtime.profile is not None else ""
        await self._memory_write(lambda: self.memory.add(statement, profile_id=profile, kind="explicit", origin="user"))

    async def pin_memory(self, memory_id: int, pinned: bool) -> None:
        await self._memory_write(self.memory.set_pinned, memory_id, pinned)

    async def edit_memory(self, memory_id: int, statement: str) -> None:
        await self._memory_write(self.memory.edit, memory_id, statement)

    async def forget_memories(self, memory_ids: list[int]) -> list[int]:
        """Mark them forgotten (never recalled; `restore_memories` brings them back)."""
        return list(await self._memory_write(self.memory.forget, memory_ids))

    async def restore_memories(self, memory_ids: list[int]) -> None:
        await self._memory_write(self.memory.undo_forget, memory_ids)

    async def delete_memories(self, memory_ids: list[int]) -> None:
        """Remove them for good (after a delete's undo time ran out)."""
        await self._memory_write(self.memory.delete, memory_ids)

    async def undo_remembered(self, memory_ids: list[int]) -> None:
        """Undo of "Remembered: …": the new memories go, the ones they replaced are in use again."""
        await self._memory_write(self.memory.undo_add, memory_ids)

    async def wipe_memories(self) -> None:
        await self._memory_write(self.memory.wipe)

    def incognito_sessions(self, session_ids: Sequence[str]) -> list[str]:
        """(worker thread) Which of these sessions neither use nor record memory."""
        store = self.memory
        return store.incognito_sessions(session_ids) if store is not None else []

    async def set_incognito(self, session_id: str, on: bool) -> None:
        """Don't use or record memory in this session (on), or do again."""
        import asyncio

        await asyncio.to_thread(self.memory.set_incognito, session_id, on)

    def set_memory_settings(self, **changes: Any) -> None:
        """memory_enabled, memory_half_life_days, memory_budget_tokens, memory_excluded_profiles (the providers that
        receive no memories): saved now, used from the next turn."""
        assert self.runtime is not None
        self._save_settings(replace(self.runtime.settings, **changes))

    # ------------------------------------------------------------------ settings
    def set_tool_enabled(self, name: str, enabled: bool) -> None:
        assert self.runtime is not None and self.agent is not None
        disabled = set(self.runtime.settings.disabled_tools)
        (disabled.discard if enabled else disabled.add)(name)
        self._save_settings(replace(self.runtime.settings, disabled_tools=tuple(sorted(disabled))))
        self.agent.services.disabled_tools = disabled

    def set_theme(self, theme: str) -> None:
        assert self.runtime is not None
        self._save_settings(replace(self.runtime.settings, theme=theme))

    def _save_settings(self, settings: Any) -> None:
        assert self.runtime is not None
        self.runtime.settings = settings
        self.runtime.settings_store.save(settings)
        self.sig_settings_changed.emit()



def _turn_after(ready: "asyncio.Future[Any]", start: Callable[[], "Turn"]) -> "Turn":
    """A Turn that waits for `ready` (a provider being saved), then runs the turn `start` makes and passes its
    events on. Stop (`cancel`) never cancels a task that has not run yet (it would end without TurnFinished):
    before the real turn has saved the user's message (TurnStarted) it is only noted, and applied then, so
    the message is never lost."""
    from hermes_desktop.core.agent import Turn

    class TurnAfterProviderChange(Turn):
        def __init__(self) -> None:
            self._stop = False
            self._inner: Turn | None = None
            self._inner_started = False
            super().__init__(self._forward)

        def cancel(self) -> None:
            self._stop = True
            if self._inner is not None and self._inner_started:
                self._inner.cancel()

        async def _forward(self, emit: Callable[[ev.Event], None]) -> None:
            from hermes_desktop.core import events as ev

            await ready  # save_provider always ends the change (in a finally)
            self._inner = start()
            async for event in self._inner:
                emit(event)
                if isinstance(event, ev.TurnStarted):
                    self._inner_started = True
                    if self._stop:
                        self._inner.cancel()

    return TurnAfterProviderChange()

"""One user turn: persist the message, build the context, stream the model, run tools, repeat.

`Agent.start_turn()` returns a `Turn`: iterate it for events (core/events.py),
call `cancel()` to stop. The turn always ends with exactly one `TurnFinished`,
whatever happens: a model failure becomes `TurnError` + `TurnFinished(ERROR)`,
Stop becomes `TurnFinished(CANCELLED)` with the partial reply kept and marked
interrupted, and a bug in Hermes becomes an INTERNAL error instead of a hang.

Order of persistence (ARCHITECTURE.md, "one user turn"): the user message before
the model is called; assistant text and its reasoning while they stream (every 250 ms or 2 KB; the
message is created at the first piece of either, and `reasoning_ms` runs from the first reasoning piece to
the first text piece or the reply's end);
each tool call's result in the model's order; usage and title at the end.
Store calls run in worker threads and are shielded, so a Stop never loses a
write that had started.

Store calls run on the store executor and tool code on the separate, bounded tool
executor (core/executors.py), so stuck tools can never take the threads a database
write needs. A reply's calls run in core/tool_calls.py: each measured only when the earlier calls of its reply
have run, decided, re-checked right before it runs; read-only calls of one reply run together, at most
`AgentLimits.max_parallel_tools` at a time. When the failure guard stops the tools (core/turn_guard.py), the
model gets one more round without tools to tell the user where things stand. A turn has an overall deadline
(`AgentLimits.turn_deadline_s`; waiting for the user's approval does not count): when
it passes, the turn stops as a Stop would (running tools cancelled and recorded so,
the partial reply kept) and ends with a TIMEOUT error saying why.

Nothing half-received runs: a reply whose stream did not finish properly
(`StreamDone.calls_may_run` is false; the rule is in core/llm/client.py) is kept,
marked interrupted, and each of its tool calls is shown and stored with an
`interrupted` result ("not run") without being prepared, asked about or executed,
whatever the rules or the mode say. A cut-off reply then ends the turn with a
STREAM_DROPPED error and Retry; a reply stopped at its output limit
(AgentLimits.max_reply_chars) ends it as OUTPUT_LIMIT. When such a reply is sent as
history later, its calls' cut arguments go as `{}` (the store keeps what arrived):
some servers parse every call's arguments in a request and refuse a cut one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Collection, Sequence, TypeVar

from hermes_desktop.core.attachments import (
    HISTORY_IMAGES, IMAGE, AttachmentFiles, PreparedAttachment, image_refusal, supports_images, user_content,
)
from hermes_desktop.core.audit import AuditLog
from hermes_desktop.core.context import BuiltContext, ContextLayers, build_context
from hermes_desktop.core.conversation_summary import TurnSummary
from hermes_desktop.core.events import (
    AssistantMessageStarted,
    ContextPrepared,
    ErrorAction,
    ErrorKind,
    Event,
    FinishReason,
    ModelRequestStarted,
    Notice,
    ReasoningDelta,
    RetryScheduled,
    TextDelta,
    ToolOutcome,
    TurnError,
    TurnFinished,
    TurnStarted,
    UsageReported,
)
from hermes_desktop.core.executors import run_store
from hermes_desktop.core.llm import (
    ChatRequest,
    HistoryAsText,
    ModelClient,
    ModelError,
    ReasoningEchoLearned,
    ReasoningPiece,
    ReplyEnd,
    RetryNotice,
    StreamDone,
    TextPiece,
    ToolModeSwitched,
)
from hermes_desktop.core.llm.errors import refuses_images
from hermes_desktop.core.prompts import system_prompt, tool_rules
from hermes_desktop.core.session_lock import NoSessionLocks, SessionBusy, SessionLocks
from hermes_desktop.core.session_models import ModelChoice
from hermes_desktop.core.session_types import NewMessage, SessionStore, StoredMessage
from hermes_desktop.core.settings import AgentLimits, ApprovalMode
from hermes_desktop.core.storage.errors import SessionExists, StorageError, StorageUnavailable
from hermes_desktop.core import request_fit, turn_failures
from hermes_desktop.core.tokens import TokenCalibration, estimate_text_tokens, estimate_tools_tokens
from hermes_desktop.core.tool_calls import INTERRUPTED_RESULT, OUTPUT_LIMIT_RESULT, STOPPED_TOOLS_RESULT, TurnTools
from hermes_desktop.core.tools.approval import ApprovalPolicy
from hermes_desktop.core.tools.network import NetworkPolicy
from hermes_desktop.core.tools.registry import ToolRegistry
from hermes_desktop.core.tools.spec import ToolContext, ToolSpec
from hermes_desktop.core.tools.workspace import Workspace
from hermes_desktop.core.turn_guard import GuardStop, handover_note
from hermes_desktop.core.usage.scope import within_session

log = logging.getLogger(__name__)
T = TypeVar("T")

CANCELLED_RESULT = json.dumps({"status": "cancelled", "message": "The user stopped the turn before this call finished."})
DEADLINE_RESULT = json.dumps({"status": "cancelled", "message": "Stopped: the turn reached its time limit before this "
                              "call finished."})
TITLE_LENGTH = 48


@dataclass
class AgentServices:
    """Everything a turn uses besides the model. One per window (or CLI run)."""

    store: SessionStore
    registry: ToolRegistry
    policy: ApprovalPolicy
    workspace: Workspace
    network: NetworkPolicy = field(default_factory=NetworkPolicy)
    audit: AuditLog = field(default_factory=lambda: AuditLog(None))
    limits: AgentLimits = field(default_factory=AgentLimits)
    disabled_tools: set[str] = field(default_factory=set)
    dry_run: bool = False
    skills_layer: Callable[[str], str] = lambda session_id: ""
    # One line per tool source withheld for now (an MCP server's circuit breaker), added to the tool rules.
    tool_notes: Callable[[], str] = lambda: ""
    # The skill catalog for (session id, the user's message, tokens the rest of the fixed part takes): core/skills.
    skill_catalog: Callable[[str, str, int], str] = lambda session_id, message, other_tokens: ""
    # (skills listed in the catalog, skills reachable only through find_skills) of the latest catalog, for Activity.
    skill_counts: Callable[[str], tuple[int, int]] = lambda session_id: (0, 0)
    # Narrows the tools a request offers (skills: only active skills' own tools); called every round.
    offer_tools: Callable[[str, list[ToolSpec]], list[ToolSpec]] = lambda session_id, specs: specs
    # Runs in a worker thread once the user's message is saved (skills: `/skill-name` activation).
    before_turn: Callable[[str, str], object] = lambda session_id, text: None
    memory_layer: Callable[[str], str] = lambda session_id: ""
    # Memory (core/memory/service.py). Before a turn's first request, in a worker thread: (session id, the user's
    # message, profile id) chooses what memory_layer gives for the session and returns an event to emit (or None).
    # After a turn that answered a new user
    # message: (session id, profile id, message id, its text, the turn's model); returns at once (its work runs in
    # the background), so it never delays the reply or TurnFinished.
    prepare_memory: Callable[[str, str, str], "Event | None"] = lambda session_id, text, profile_id: None
    remember_turn: Callable[[str, str, int, str, Any], object] = lambda *args: None
    # Workflow memory (core/learning/trajectories.py): before the first request (worker thread) the hint event or
    # None; the hint line for the memory layer; before TurnFinished (session, user message id, its text, finish
    # reason) the path is recorded (a regenerate hands over the same message id: the replaced path is undone).
    prepare_workflow: Callable[[str, str], "Event | None"] = lambda session_id, text: None
    workflow_layer: Callable[[str], str] = lambda session_id: ""
    record_workflow: Callable[[str, int | None, str | None, str], object] = lambda *args: None
    # Knowledge (core/knowledge/service.py): before a turn's first request, in a worker thread, (session id, the
    # user's message, its id) picks the passages knowledge_layer gives for the session; returns an event to emit (or
    # None).
    prepare_knowledge: Callable[[str, str, int], "Event | None"] = lambda session_id, text, user_id: None
    knowledge_layer: Callable[[str], str] = lambda session_id: ""
    clock: Callable[[], float] = time.monotonic
    # The app's own secrets (API keys, MCP secrets; a live set): removed from every tool result before the model,
    # the session database or the audit log sees it.
    known_secrets: Collection[str] = ()
    # The client for a session's turn (the model picked for it, else the default) and a notice for the user;
    # None: always the agent's own model. (core/session_models.py)
    choose_model: Callable[[str], Awaitable["ModelChoice"]] | None = None

    # Attachments (core/attachments.py): where their files live (None: beside the store's database), and what to do
    # when a server says a profile's model takes no images (the runtime saves `learned_no_vision`; gets the id).
    attachment_files: AttachmentFiles | None = None
    learn_no_vision: Callable[[str], object] = lambda profile_id: None
    # One turn per session across processes (core/session_lock.py); the runtime gives the data directory's locks.
    session_locks: SessionLocks | NoSessionLocks = field(default_factory=NoSessionLocks)

    # The session's assistant (core/assistants/service.py): its instructions (a context layer below the app's
    # rules), its request parameters, a refusal for a call outside its allow list (asked for every call, whatever
    # was offered: session id, tool name, the tool's source or None, arguments), and the model for side requests
    # (summaries) given the turn's model.
    assistant_layer: Callable[[str], str] = lambda session_id: ""
    request_params: Callable[[str], dict[str, Any]] = lambda session_id: {}
    call_guard: Callable[[str, str, "str | None", "dict[str, Any] | None"], "str | None"] = lambda *args: None
    side_model: Callable[[str, ModelClient], Awaitable[ModelClient]] | None = None
    # Sessions held by a local-only provider go to no other (core/local_only.py LocalOnlyRule); None: no rule.
    local_only: Any = None

    @property
    def notes_dir(self):  # type: ignore[no-untyped-def]
        return self.workspace.root / "notes"


class Turn:
    """A running user turn. Iterate for events; the last one is always TurnFinished."""

    def __init__(self, run: Callable[[Callable[[Event], None]], Awaitable[None]]) -> None:
        self._queue: asyncio.Queue[Event] = asyncio.Queue()
        self.events: list[Event] = []
        self._task = asyncio.get_running_loop().create_task(run(self._emit))
        self._task.add_done_callback(self._ensure_finished)

    def _emit(self, event: Event) -> None:
        self.events.append(event)
        self._queue.put_nowait(event)

    def _ensure_finished(self, task: asyncio.Task[None]) -> None:
        """A task cancelled before its first step never runs its own handlers: the turn still has to end, or
        whoever iterates it (the window, `ask`) would wait forever and the session would stay busy."""
        if self.events and isinstance(self.events[-1], TurnFinished):
            return
        if task.cancelled():
            self._emit(TurnFinished(FinishReason.CANCELLED, "Stopped before it started.", 0))
        else:
            self._emit(TurnFinished(FinishReason.ERROR, "internal error", 0))

    def cancel(self) -> None:
        """Stop now: the HTTP stream is closed and a running tool is cancelled."""
        self._task.cancel()

    @property
    def done(self) -> bool:
        return self._task.done()

    async def __aiter__(self) -> AsyncIterator[Event]:
        while True:
            event = await self._queue.get()
            yield event
            if isinstance(event, TurnFinished):
                return

    async def wait(self) -> list[Event]:
        """Wait for the end; returns every event. (Does not consume the iterator: both can be used.)"""
        await asyncio.gather(self._task, return_exceptions=True)
        return self.events


class Agent:
    def __init__(self, model: ModelClient | None, services: AgentServices) -> None:
        self.model = model
        self.services = services
        self.calibration = TokenCalibration()
        self.no_vision_profiles: set[str] = set()  # learned in this process (the settings keep it for later)
        # Background refreshes of long conversations' summaries, by session (core/conversation_summary.py).
        self.summary_refreshes: dict[str, asyncio.Task[None]] = {}

    def start_turn(self, session_id: str, text: str, attachments: Sequence[PreparedAttachment] = ()) -> Turn:
        """Persist `text` (and its attachments) as the user's next message and answer it. Images for a model that
        takes none are refused before anything is stored or sent (TurnError with the reason)."""
        # The turn's task carries its session for the usage records of every request made in it (core/usage/scope.py).
        return Turn(lambda emit: within_session(
            session_id, _TurnRun(self, session_id, text, emit, tuple(attachments)).run))

    async def stop_background(self) -> None:
        """Cancel background summary refreshes (before the model clients close)."""
        tasks = list(self.summary_refreshes.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def attachment_files(self) -> AttachmentFiles:
        files = self.services.attachment_files
        if files is None:
            files = AttachmentFiles(getattr(self.services.store, "attachments_dir", Path("attachments")))
        return files

    def start_regenerate(self, session_id: str) -> Turn:
        """Answer the user message at the conversation's head again (after an edit or a rewind)."""
        return Turn(lambda emit: _TurnRun(self, session_id, None, emit).run())


class _StoreIO:
    """Store calls on the store executor (never the tools'), shielded from cancellation so a started write
    always lands."""

    def __init__(self) -> None:
        self._inflight: set[asyncio.Future[Any]] = set()

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        future = asyncio.ensure_future(run_store(fn, *args, **kwargs))
        self._inflight.add(future)
        future.add_done_callback(self._inflight.discard)
        return await asyncio.shield(future)

    async def settle(self) -> None:
        """Wait for writes that were in flight when the turn was cancelled."""
        if self._inflight:
            await asyncio.gather(*list(self._inflight), return_exceptions=True)


class _StreamingMessage:
    """The assistant message being streamed: created at its first text, saved every 250 ms / 2 KB."""

    FLUSH_INTERVAL_S = 0.25
    FLUSH_BYTES = 2048

    def __init__(self, io: _StoreIO, store: SessionStore, session_id: str, clock: Callable[[], float],
                 emit: Callable[[Event], None], model: str | None = None) -> None:
        self._io, self._store, self._session_id, self._clock, self._emit = io, store, session_id, clock, emit
        self._model = model  # the model asked for this reply, kept with it (core/reply_model.py)
        self.parts: list[str] = []
        self.reasoning_parts: list[str] = []
        self._reasoning_started: float | None = None
        self.reasoning_ms: int | None = None
        self._length = 0
        self.message_id: int | None = None
        self._creating: asyncio.Future[int] | None = None
        self._saved_chars = 0
        self._last_flush = clock()

    @property
    def text(self) -> str:
        return "".join(self.parts)

    @property
    def reasoning(self) -> str | None:
        return "".join(self.reasoning_parts) or None

    async def add(self, piece: str) -> None:
        self._end_reasoning()
        self.parts.append(piece)
        await self._grew(len(piece))

    async def add_reasoning(self, piece: str) -> None:
        if self._reasoning_started is None:
            self._reasoning_started = self._clock()
        self.reasoning_parts.append(piece)
        await self._grew(len(piece))

    def _end_reasoning(self) -> None:
        """The answer started (or the reply ended): the thinking's duration is fixed now."""
        if self._reasoning_started is not None and self.reasoning_ms is None:
            self.reasoning_ms = max(0, round((self._clock() - self._reasoning_started) * 1000))

    async def _grew(self, size: int) -> None:
        self._length += size
        if self.message_id is None and self._creating is None:
            await self._create(NewMessage("assistant", content=self.text, reasoning=self.reasoning,
                                          model=self._model))
            return
        unsaved = self._length - self._saved_chars
        if self.message_id is not None and (unsaved >= self.FLUSH_BYTES or
                                            self._clock() - self._last_flush >= self.FLUSH_INTERVAL_S):
            length = self._length
            await self._io.call(self._store.update_message, self.message_id, content=self.text,
                                reasoning=self.reasoning, reasoning_ms=self.reasoning_ms)
            self._saved_chars, self._last_flush = length, self._clock()

    async def _create(self, message: NewMessage) -> None:
        self._creating = asyncio.ensure_future(self._io.call(self._store.append_message, self._session_id, message))
        self.message_id = await asyncio.shield(self._creating)
        self._saved_chars, self._last_flush = len(message.content or "") + len(message.reasoning or ""), self._clock()
        self._emit(AssistantMessageStarted(self.message_id))

    async def _ensure_id(self) -> int | None:
        if self.message_id is None and self._creating is not None:
            self.message_id = await self._creating
        return self.message_id

    async def finish(self, done: StreamDone, *, interrupted: bool = False) -> int:
        """Save the whole reply; `interrupted` marks one that did not finish (its calls as they arrived)."""
        tool_calls = [c.to_openai() for c in done.tool_calls] or None
        finish_reason = "interrupted" if interrupted else done.finish_reason or "stop"
        self._end_reasoning()
        reasoning = done.reasoning or None
        if await self._ensure_id() is None:
            await self._create(NewMessage("assistant", content=done.text, tool_calls=tool_calls,
                                          finish_reason=finish_reason, interrupted=interrupted,
                                          tokens=done.completion_tokens, reasoning=reasoning,
                                          reasoning_ms=self.reasoning_ms, reasoning_tokens=done.reasoning_tokens,
                                          model=self._model))
        else:
            await self._io.call(self._store.update_message, self.message_id, content=done.text, tool_calls=tool_calls,
                                finish_reason=finish_reason, interrupted=True if interrupted else None,
                                tokens=done.completion_tokens, reasoning=reasoning, reasoning_ms=self.reasoning_ms,
                                reasoning_tokens=done.reasoning_tokens)
        assert self.message_id is not None
        return self.message_id

    async def interrupt(self) -> None:
        """Keep what streamed, marked interrupted (a Stop, a dropped stream, an error)."""
        if await self._ensure_id() is not None:
            self._end_reasoning()
            await self._io.call(self._store.update_message, self.message_id, content=self.text,
                                finish_reason="interrupted", interrupted=True, reasoning=self.reasoning,
                                reasoning_ms=self.reasoning_ms)


class _TurnRun:
    def __init__(self, agent: Agent, session_id: str, text: str | None, emit: Callable[[Event], None],
                 attachments: tuple[PreparedAttachment, ...] = ()) -> None:
        self.attachments = attachments
        self.sent_images = False  # the current request carries image parts
        self.agent = agent
        self.services = agent.services
        self.session_id = session_id
        self.text = text
        self.new_message = text is not None  # not a regenerate: memory reads it after the turn
        self.user_id: int | None = None
        self.asked_id: int | None = None  # the stored user message this turn answers (once TurnStarted is out)
        self.emit = emit
        self.io = _StoreIO()
        self.round_trips = 0
        self.history: list[dict[str, Any]] = []
        self.turn_start = 0
        self.streaming: _StreamingMessage | None = None
        self.context_shrink = 1.0
        self.deadline: asyncio.Timeout | None = None
        self.model: ModelClient | None = agent.model  # this turn's: the session's choice (see _run)
        self.ctx = ToolContext(session_id, self.services.workspace, self.services.network, self.services.notes_dir)
        # The calls of each reply: measured when their turn comes, decided, re-checked, run (core/tool_calls.py).
        self.tools = TurnTools(self.services, session_id, self.ctx, self.io.call, emit, lambda: self.history,
                               self._without_deadline)
        self.summaries = TurnSummary(agent, session_id, self.io.call, emit)
        self.side: ModelClient | None = None  # the model for this turn's side requests (summaries, memory)
        self.stop_params: dict[str, Any] = {}  # a guard's numbers for TurnFinished.params (the window words them)
        self.handover_note = ""  # the last round's instruction after the failure guard stopped the tools
        self.skills_text = ""  # the active skills' layer of the latest request (request_fit names each skill's cost)

    # ------------------------------------------------------------------ lifecycle
    async def run(self) -> None:
        """The turn while it holds its session (core/session_lock.py): another turn of the same session, in this
        process or another, waits for it (or gives up) before storing anything."""
        try:
            async with self.services.session_locks.hold(self.session_id, self._waiting_for_session):
                await self._run_and_report()
        except SessionBusy as busy:  # nothing was stored or sent
            self.emit(TurnError(ErrorKind.STORAGE, str(busy), ErrorAction.RETRY, code="session_busy",
                                params={"session": busy.session_id, "pid": busy.holder or "", "wait_s": busy.waited_s}))
            self.emit(TurnFinished(FinishReason.ERROR, str(busy), 0))
        except asyncio.CancelledError:  # Stop while waiting for the session: nothing was stored
            self.emit(TurnFinished(FinishReason.CANCELLED, "Stopped before it started.", 0))

    def _waiting_for_session(self, holder: int | None, wait_s: float) -> None:
        who = f"another Hermes process (pid {holder})" if holder else "another Hermes window or command"
        self.emit(Notice(f"Waiting for {who} to finish its turn in this conversation (at most {wait_s:g} s)…",
                         "info", code="session_busy_waiting", params={"pid": holder or "", "wait_s": wait_s}))

    async def _run_and_report(self) -> None:
        try:
            reason, message = await self._run_within_deadline()
            await self._record_workflow(reason.value)  # before TurnFinished: a headless `ask` exits at it
            self.emit(TurnFinished(reason, message, self.round_trips, dict(self.stop_params)))
            self._remember_turn()
        except _DeadlinePassed:
            message = _deadline_message(self.services.limits.turn_deadline_s)
            await self._after_cancel(DEADLINE_RESULT)
            await self._failed(TurnError(ErrorKind.TIMEOUT, message, ErrorAction.RETRY, code="turn_deadline",
                                         params={"limit_s": self.services.limits.turn_deadline_s}), message)
        except asyncio.CancelledError:
            await self._after_cancel()
            self.emit(TurnFinished(FinishReason.CANCELLED, "Stopped. What arrived so far is kept.", self.round_trips))
        except ModelError as error:
            await self._keep_partial()
            await self._failed(TurnError(error.kind, error.message, error.action, error.detail, code=error.code,
                                         params=dict(error.params)), error.message)
        except StorageError as error:
            log.error("storage failed during a turn: %s", error)
            await self._keep_partial()
            await self._failed(TurnError(ErrorKind.STORAGE, str(error), ErrorAction.RETRY, **_storage_code(error)),
                               str(error))
        except Exception as exc:  # a bug: show it, never hang the UI
            log.exception("turn failed unexpectedly")
            await self._keep_partial()
            await self._failed(TurnError(ErrorKind.INTERNAL, f"Something went wrong inside Hermes ({type(exc).__name__}: "
                                         f"{exc}). Your message is saved; the details are in the log.", ErrorAction.RETRY,
                                         repr(exc), code="internal", params={"error": f"{type(exc).__name__}: {exc}"}),
                               "internal error")

    async def _failed(self, error: TurnError, message: str) -> None:
        """Report the error, kept with the session first (core/turn_failures.py: its card survives a restart)."""
        self.emit(error)
        await turn_failures.keep(self.io.call, self.services.store, self.session_id, self.asked_id, error,
                                 self.services.known_secrets)
        self.emit(TurnFinished(FinishReason.ERROR, message, self.round_trips))

    async def _record_workflow(self, reason: str) -> None:
        try:  # learning never breaks a turn; on the store executor
            await self.io.call(self.services.record_workflow, self.session_id, self.user_id, self.text, reason)
        except Exception:
            log.warning("recording the turn's path failed", exc_info=True)

    def _remember_turn(self) -> None:
        """Hand a new user message of a finished turn to memory (a regenerated one was handed over already)."""
        if self.new_message and self.user_id is not None and self.model is not None:
            try:
                self.services.remember_turn(self.session_id, self.model.profile.id, self.user_id, self.text or "",
                                            self.side or self.model)  # extraction is a side task
            except Exception:  # memory never breaks a turn
                log.exception("memory could not take the turn")

    async def _keep_partial(self) -> None:
        try:
            await self.io.settle()
            if self.streaming is not None:
                await self.streaming.interrupt()
        except Exception:  # the turn is ending anyway; what streamed is already saved up to the last flush
            log.exception("could not mark the partial reply as interrupted")

    async def _after_cancel(self, content: str = CANCELLED_RESULT) -> None:
        await self._keep_partial()
        await self.tools.cancel_unanswered(content)

    async def _run_within_deadline(self) -> tuple[FinishReason, str]:
        """`_run` under the turn's deadline; raises _DeadlinePassed when it expired (not for other timeouts)."""
        limit = self.services.limits.turn_deadline_s
        try:
            async with asyncio.timeout(limit if limit and limit > 0 else None) as deadline:  # 0: no deadline
                self.deadline = deadline
                return await self._run()
        except TimeoutError:
            if self.deadline is not None and self.deadline.expired():
                raise _DeadlinePassed() from None
            raise

    async def _without_deadline(self, waiting: Awaitable[T]) -> T:
        """Await `waiting` (the user deciding) with the turn's deadline paused."""
        deadline = self.deadline
        when = deadline.when() if deadline is not None else None
        if deadline is None or when is None:
            return await waiting
        loop = asyncio.get_running_loop()
        remaining = when - loop.time()
        deadline.reschedule(None)
        try:
            return await waiting
        finally:
            if not deadline.expired():
                deadline.reschedule(loop.time() + max(0.0, remaining))

    # ------------------------------------------------------------------ the loop
    async def _run(self) -> tuple[FinishReason, str]:
        store = self.services.store
        choice = await self.services.choose_model(self.session_id) if self.services.choose_model else None
        model = self.model = choice.client if choice is not None else self.agent.model
        refusal = image_refusal(model.profile if model else None, self.attachments,
                                learned_no_vision=self._learned_no_vision(model))
        if refusal is not None:  # before anything is stored or sent: the window keeps the text and the files
            raise ModelError(ErrorKind.BAD_REQUEST, refusal)
        if await self.io.call(store.get_session, self.session_id) is None:
            profile = model.profile if model else None
            with contextlib.suppress(SessionExists):  # another window or command created it just now
                try:
                    await self.io.call(store.create_session, self.session_id,
                                       profile_id=profile.id if profile else None,
                                       model=profile.model if profile else None)
                except StorageUnavailable as error:  # e.g. a full disk: the user's text was not saved either
                    raise error.about("your message was not saved") from error
        window = model.profile.context_window if model else 32_768
        # Only the newest messages can fit the context; a message costs at least ~16 tokens.
        recent = max(200, window // 16)
        if self.text is None:  # regenerate: the conversation's head is the user message to answer again
            stored = await self.io.call(store.recent_messages, self.session_id, recent)
            if not stored or stored[-1].role != "user":
                raise ModelError(ErrorKind.BAD_REQUEST, "There is no user message to answer here.")
            user_id, self.text = stored[-1].id, stored[-1].content or ""
        else:
            user_id = await self._append_user_message()
            stored = await self.io.call(store.recent_messages, self.session_id, recent)
        await turn_failures.forget(self.io.call, store, self.session_id)  # this turn is the session's latest word
        self.asked_id = user_id
        self.emit(TurnStarted(self.session_id, user_id, self.text, stored[-1].attachments if stored else ()))
        if choice is not None and choice.notice:
            self.emit(Notice(choice.notice, "warning", code="model_choice", params={"text": choice.notice}))
        stored = await self.summaries.load(stored)  # the running summary, when the history outgrew the context
        self.history = await self.io.call(self._request_history, stored, model)
        self.turn_start = next(i for i in range(len(stored) - 1, -1, -1) if stored[i].id == user_id)

        if model is None:
            raise ModelError(ErrorKind.NOT_CONFIGURED, "No model is set up yet. Add a provider (base URL, model and "
                             "key) in settings; your message is saved.", ErrorAction.OPEN_PROVIDER_SETTINGS,
                             code="no_model")
        rule = self.services.local_only
        held = await self.io.call(rule.hold_for_turn, self.session_id, model.profile) if rule else None
        await self.io.call(store.set_model, self.session_id, model.profile.id, model.profile.model)
        side = self.side = await self.services.side_model(self.session_id, model) if self.services.side_model else model
        if rule and not rule.permits(held, side.profile):  # an assistant's side model elsewhere: not for this talk
            side = self.side = model

        await self.io.call(self.services.before_turn, self.session_id, self.text)
        self.user_id = user_id
        recalled = await self.io.call(self.services.prepare_memory, self.session_id, self.text, model.profile.id)
        if recalled is not None:  # MemoryRecalled: what the memory layer holds this turn, with sources (Activity)
            self.emit(recalled)
        hint = await self.io.call(self.services.prepare_workflow, self.session_id, self.text or "")
        if hint is not None:  # WorkflowHintOffered: a past successful path the requests carry (Activity)
            self.emit(hint)
        retrieved = await self.io.call(self.services.prepare_knowledge, self.session_id, self.text, user_id)
        if retrieved is not None:  # a Notice: the embeddings endpoint failed, BM25 only
            self.emit(retrieved)
        shrunk = False
        handover: GuardStop | None = None  # the failure guard stopped the tools: one last round without them

        while self.round_trips < self.services.limits.max_round_trips or handover is not None:
            self.round_trips += 1
            offered_specs = [] if handover is not None or self.services.policy.mode is ApprovalMode.CHAT_ONLY else \
                await self.io.call(self.services.offer_tools, self.session_id,
                                   self.services.registry.specs(exclude=self.services.disabled_tools))
            tools = [s.to_openai() for s in offered_specs]
            offered = {s.name for s in offered_specs}
            first = self._build_context(tools)
            too_big = request_fit.refusal(first, offered_specs, self.skills_text, model.profile.context_window)
            if too_big is not None:  # never sent over the window: the user is told what to turn off (issue 15)
                raise too_big
            context = await self.summaries.ensure(first, lambda: self._build_context(tools),
                                                  side, self.history, self.turn_start, self.agent.calibration)
            listed, searchable = self.services.skill_counts(self.session_id) if tools else (0, 0)
            self.emit(ContextPrepared(self.round_trips, context.estimated_tokens, context.budget_tokens,
                                      context.dropped_messages, dict(context.breakdown), listed, searchable))
            self.emit(ModelRequestStarted(self.round_trips, model.profile.model, model.tool_mode.value if tools else "none"))
            self.streaming = _StreamingMessage(self.io, store, self.session_id, self.services.clock, self.emit,
                                               model.profile.model)
            try:
                done = await self._stream(model, ChatRequest(
                    context.messages, tools, max_reply_chars=self.services.limits.max_reply_chars,
                    overrides=self.services.request_params(self.session_id), purpose="chat",
                    session_id=self.session_id))
            except ModelError as error:
                if handover is not None:  # the guard's stop stands; only the model's account of it is missing
                    log.warning("the model could not write its hand-over after a guard stop: %s", error.message)
                    await self._keep_partial()
                    self.streaming = None
                    return self._stopped(handover)
                if error.kind is ErrorKind.CONTEXT_TOO_LONG and not shrunk and self.streaming.message_id is None:
                    shrunk = True
                    self.context_shrink = 0.5
                    self.round_trips -= 1
                    self.emit(Notice("The conversation is too long for the model; retrying with less history.", "warning",
                                     code="retry_less_history"))
                    continue
                if self.sent_images and refuses_images(error):
                    raise self._no_vision_learned(error) from error
                raise
            if not done.calls_may_run:
                return await self._end_unfinished(done, handover)
            await self.streaming.finish(done)
            self.history.append(_assistant_message(done))
            self.streaming = None
            await self._record_usage(context, done)
            if done.finish_reason == "length":
                self.emit(Notice("The reply reached the maximum output length and was cut off.", "warning",
                                 code="reply_length_cut"))
            if done.reasoning.strip() and not done.text.strip() and not done.tool_calls:
                # e.g. a `<think>` the model never closed: everything it wrote is in the thinking.
                self.emit(Notice("The model's reply ended inside its thinking, with no separate answer: open "
                                 "its thinking to read what it wrote.", "warning", code="thinking_only"))
            if handover is not None:  # it was asked not to; whatever it called is stored as not run
                await self.tools.record_not_run(done.tool_calls, STOPPED_TOOLS_RESULT, ToolOutcome.SKIPPED)
                await self._maybe_title()
                return self._stopped(handover)
            if not done.tool_calls:
                await self._maybe_title()
                self.summaries.after_turn(context, done.text, side)
                return FinishReason.COMPLETED, ""
            stop = await self.tools.run_reply(done.tool_calls, offered, reason=done.text)
            if stop is not None and stop.reason is FinishReason.REPEATED_FAILURE:
                handover, self.handover_note = stop, handover_note(stop)  # core/turn_guard.py
            elif stop is not None:
                await self._maybe_title()
                return self._stopped(stop)
        await self._maybe_title()
        limit = self.services.limits.max_round_trips
        self.stop_params = {"limit": limit}
        return FinishReason.MAX_ROUND_TRIPS, (f"Stopped after {limit} model round trips in one turn. "
                                              "Send a message to let the agent continue.")

    def _stopped(self, stop: GuardStop) -> tuple[FinishReason, str]:
        self.stop_params = dict(stop.params)
        return stop.reason, stop.message

    # ------------------------------------------------------------------ attachments
    async def _append_user_message(self) -> int:
        """Write the attached files (once per hash), then the message with its references, in that order: a
        message never refers to a file that is not there. A failed save removes files nothing refers to."""
        files = self.agent.attachment_files()
        refs = tuple(a.ref() for a in self.attachments)
        for attachment in self.attachments:
            try:
                await self.io.call(files.put, attachment.data, attachment.hash)
            except StorageUnavailable as error:  # e.g. a full disk: nothing of the message was stored
                raise error.about("your message and its attachments were not saved") from error
        try:
            return await self.io.call(self.services.store.append_message, self.session_id,
                                      NewMessage("user", content=self.text, attachments=refs))
        except StorageError:
            release = getattr(self.services.store, "release_attachments", None)
            if refs and release is not None:
                with contextlib.suppress(Exception):
                    await self.io.call(release, [r.hash for r in refs])
            raise

    def _learned_no_vision(self, model: ModelClient | None) -> bool:
        return model is not None and model.profile.id in self.agent.no_vision_profiles

    def _request_history(self, stored: list[StoredMessage], model: ModelClient | None) -> list[dict[str, Any]]:
        """The stored messages as a request sends them (runs on the store executor: it reads image files).
        Only the newest HISTORY_IMAGES images go as image parts, and none to a model that takes no images."""
        files = self.agent.attachment_files()
        images_ok = model is not None and supports_images(model.profile,
                                                          learned_no_vision=self._learned_no_vision(model))
        newest = [ref.hash + str(m.id) for m in stored for ref in m.attachments if ref.kind == IMAGE]
        allowed = set(newest[-HISTORY_IMAGES:]) if images_ok else set()
        history = []
        for message in stored:
            data = _for_request(message)
            if message.attachments:
                data["content"] = user_content(message.content or "", message.attachments, lambda r: files.read(r.hash),
                                               send_images=lambda r, mid=message.id: r.hash + str(mid) in allowed)
            history.append(data)
        self.sent_images = any(isinstance(m.get("content"), list) for m in history)
        return history

    def _no_vision_learned(self, error: ModelError) -> ModelError:
        """The server refused image content: remember it for the profile and say what to do."""
        assert self.model is not None
        profile = self.model.profile
        self.agent.no_vision_profiles.add(profile.id)
        with contextlib.suppress(Exception):
            self.services.learn_no_vision(profile.id)
        said = f" The server said: {error.detail or error.message}" if (error.detail or error.message) else ""
        return ModelError(ErrorKind.BAD_REQUEST,
                          f"{profile.model} does not accept images, so Hermes will not send it images again "
                          f"(set Images in the provider settings to change that). Your message is saved; send it again "
                          f"without the image or pick a model with vision.{said[:400]}", ErrorAction.RETRY,
                          error.detail)

    def _build_context(self, tools: list[dict[str, Any]]) -> BuiltContext:
        model = self.model
        assert model is not None
        profile = model.profile
        reserved = profile.max_output_tokens or 1024
        system, rules = system_prompt(), tool_rules(self.services.workspace.root) if tools else ""
        notes = self.handover_note or self.services.tool_notes()
        rules = f"{rules}\n\n{notes}" if rules and notes else rules or notes
        others = estimate_text_tokens(system) + estimate_text_tokens(rules) + estimate_tools_tokens(tools)
        self.skills_text = self.services.skills_layer(self.session_id)
        layers = ContextLayers(
            system=system,
            # No catalog when activate_skill is not offered (disabled in the Tools tab): nothing could use it.
            catalog=self.services.skill_catalog(self.session_id, self.text or "", others)
            if any(t.get("function", {}).get("name") == "activate_skill" for t in tools) else "",
            skills=self.skills_text,
            tool_rules=rules,
            assistant=self.services.assistant_layer(self.session_id),
            memory="\n\n".join(p for p in (self.services.memory_layer(self.session_id),
                                             self.services.workflow_layer(self.session_id)) if p),
            knowledge=self.services.knowledge_layer(self.session_id),
        )
        return build_context(layers, self.history, current_turn_start=self.turn_start, tools=tools,
                             context_window=int(profile.context_window * self.context_shrink),
                             reserved_output=reserved, calibration=self.agent.calibration,
                             echo_reasoning=model.echo_reasoning, **self.summaries.context_args())

    async def _stream(self, model: ModelClient, request: ChatRequest) -> StreamDone:
        assert self.streaming is not None
        async with contextlib.aclosing(model.stream(request)) as items:
            async for item in items:
                if isinstance(item, TextPiece):
                    self.emit(TextDelta(item.text))
                    await self.streaming.add(item.text)
                elif isinstance(item, ReasoningPiece):
                    self.emit(ReasoningDelta(item.text))
                    await self.streaming.add_reasoning(item.text)
                elif isinstance(item, ReasoningEchoLearned):
                    self.emit(Notice(f"The server wants the model's reasoning sent back with its tool calls (it said: "
                                     f"“{item.reason}”). From now on Hermes sends it back with tool calls for "
                                     "this provider.", code="reasoning_echo", params={"server": item.reason}))
                elif isinstance(item, HistoryAsText):
                    self.emit(Notice(f"The server refused the conversation's earlier tool calls without their "
                                     f"reasoning (it said: “{item.reason}”). Hermes sends them as text from now on "
                                     "and tried again.", code="history_as_text", params={"server": item.reason}))
                elif isinstance(item, RetryNotice):
                    delay = f"{item.delay_s:.1f}" if item.delay_s < 10 else f"{item.delay_s:.0f}"
                    self.emit(RetryScheduled(item.attempt, item.max_attempts, item.delay_s, item.error.kind,
                                             f"{item.error.message} Retrying in {delay} s "
                                             f"(attempt {item.attempt} of {item.max_attempts})."))
                elif isinstance(item, ToolModeSwitched):
                    self.emit(Notice("This model does not accept native tool calls; Hermes switched to the "
                                     "text tool-call format for it.", "warning", code="text_tool_mode"))
                elif isinstance(item, StreamDone):
                    return item
        raise ModelError(ErrorKind.STREAM_DROPPED, "The reply ended unexpectedly.", ErrorAction.RETRY)

    async def _end_unfinished(self, done: StreamDone, stop: GuardStop | None = None) -> tuple[FinishReason, str]:
        """A reply cut off or stopped at its output limit: keep it and its calls as interrupted, then end the turn
        (with `stop`, a hand-over after a guard stop: the guard's stop stands)."""
        assert self.streaming is not None
        await self.streaming.finish(done, interrupted=True)
        self.history.append(_assistant_message(done))
        self.streaming = None
        await self.tools.record_not_run(done.tool_calls, OUTPUT_LIMIT_RESULT if done.end is ReplyEnd.OUTPUT_LIMIT
                                        else INTERRUPTED_RESULT, ToolOutcome.INTERRUPTED)
        await self._maybe_title()
        if stop is not None:
            return self._stopped(stop)
        if done.end is ReplyEnd.OUTPUT_LIMIT:
            self.stop_params = {"limit": self.services.limits.max_reply_chars, "had_calls": bool(done.tool_calls)}
            return FinishReason.OUTPUT_LIMIT, (
                f"Stopped: the reply passed the output limit of {self.services.limits.max_reply_chars:,} characters. "
                "What arrived is kept" + (", and its tool calls were not run." if done.tool_calls else "."))
        raise done.error or ModelError(ErrorKind.STREAM_DROPPED, "The reply was cut off. What arrived is kept.",
                                       ErrorAction.RETRY)

    async def _record_usage(self, context: BuiltContext, done: StreamDone) -> None:
        if done.prompt_tokens is None:
            return
        self.agent.calibration.observe(context.raw_estimate, done.prompt_tokens)
        completion = done.completion_tokens or estimate_text_tokens(done.text)
        await self.io.call(self.services.store.add_usage, self.session_id, done.prompt_tokens, completion)
        self.emit(UsageReported(done.prompt_tokens, completion, done.reasoning_tokens))

    async def _maybe_title(self) -> None:
        info = await self.io.call(self.services.store.get_session, self.session_id)
        if info is not None and not info.title.strip():
            await self.io.call(self.services.store.set_title, self.session_id, fallback_title(self.text or ""))

class _DeadlinePassed(Exception):
    """The turn's overall deadline (AgentLimits.turn_deadline_s) expired."""


def _storage_code(error: StorageError) -> dict[str, Any]:
    """A storage failure as TurnError's code and parameters: `storage_<fault>` and the database's path."""
    fault = getattr(getattr(error, "fault", None), "value", "")
    if not fault:
        return {"code": "storage"}
    return {"code": f"storage_{fault}", "params": {"path": str(getattr(error, "path", "")),
                                                  "consequence": str(getattr(error, "consequence", ""))}}


def _deadline_message(limit_s: float) -> str:
    minutes = limit_s / 60
    shown = f"{minutes:g} minutes" if limit_s >= 60 else f"{limit_s:g} s"
    return (f"Stopped: this turn reached its time limit of {shown} (turn_deadline_s in the settings' limits). "
            "What arrived so far is kept; send a message to continue.")


def _assistant_message(done: StreamDone) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": done.text}
    if done.reasoning:
        message["reasoning_content"] = done.reasoning  # the model client decides whether it is sent
    if done.tool_calls:
        message["tool_calls"] = [c.to_openai() for c in done.tool_calls]
    return message


def _for_request(message: StoredMessage) -> dict[str, Any]:
    """A stored message as a request sends it: an interrupted reply's cut call arguments become `{}`."""
    data = message.to_openai()
    if message.interrupted and data.get("tool_calls"):
        data["tool_calls"] = [_with_whole_arguments(call) for call in data["tool_calls"]]
    return data


def _with_whole_arguments(call: dict[str, Any]) -> dict[str, Any]:
    function = call.get("function") or {}
    try:
        whole = isinstance(json.loads(function.get("arguments") or ""), dict)
    except ValueError:
        whole = False
    return call if whole else {**call, "function": {**function, "arguments": "{}"}}


def fallback_title(text: str) -> str:
    """The first line of the user's message, trimmed: the title until a better one is made."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    first = first.lstrip("#>*- ").strip()
    return first if len(first) <= TITLE_LENGTH else first[: TITLE_LENGTH - 1].rstrip() + "…"

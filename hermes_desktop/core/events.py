"""The typed events one user turn emits, in the order they happen.

The window and the command line consume the same stream; the UI converts them to
Qt signals in one adapter. Every event is a frozen dataclass with plain fields, so
it can cross threads, be printed as JSON (`ask --json`) and be compared in tests.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any, Union


class ErrorKind(StrEnum):
    AUTH = "auth"  # 401/403: the key is wrong or lacks access
    RATE_LIMIT = "rate_limit"  # 429 after the retries
    SERVER = "server"  # 5xx after the retries
    CONNECTION = "connection"  # refused, DNS, TLS
    TIMEOUT = "timeout"
    STREAM_DROPPED = "stream_dropped"  # the reply stopped half-way
    CONTEXT_TOO_LONG = "context_too_long"
    MODEL_NOT_FOUND = "model_not_found"
    MALFORMED_RESPONSE = "malformed_response"
    BAD_REQUEST = "bad_request"
    NOT_CONFIGURED = "not_configured"  # no provider profile / no key
    STORAGE = "storage"  # the session database refused a write (read-only, disk full, busy)
    INTERNAL = "internal"  # a bug in Hermes; logged with a traceback


class ErrorAction(StrEnum):
    """What the UI offers next to an error."""

    RETRY = "retry"
    OPEN_PROVIDER_SETTINGS = "open_provider_settings"
    NEW_SESSION_WITH_SUMMARY = "new_session_with_summary"


class FinishReason(StrEnum):
    COMPLETED = "completed"
    CANCELLED = "cancelled"
    ERROR = "error"
    MAX_ROUND_TRIPS = "max_round_trips"
    REPEATED_CALL = "repeated_call"
    REPEATED_FAILURE = "repeated_failure"
    OUTPUT_LIMIT = "output_limit"  # a reply passed AgentLimits.max_reply_chars and was stopped; what arrived is kept


class ToolOutcome(StrEnum):
    OK = "ok"
    ERROR = "error"  # the tool ran and failed, or refused (e.g. a path outside the workspace)
    INVALID = "invalid"  # unknown tool or arguments that do not parse / validate
    DENIED = "denied"
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"
    SKIPPED = "skipped"  # not run because a loop guard stopped the turn
    DRY_RUN = "dry_run"  # not run: dry-run mode reported what it would have done
    INTERRUPTED = "interrupted"  # not run: the reply was cut off (or stopped at its output limit) before it finished


@dataclass(frozen=True, slots=True)
class TurnStarted:
    session_id: str
    user_message_id: int
    text: str
    attachments: tuple[Any, ...] = ()  # the message's AttachmentRefs (core/session_types.py), in order


@dataclass(frozen=True, slots=True)
class ContextPrepared:
    """What went into the request: estimated tokens per layer and how much history was left out."""

    round_trip: int
    estimated_tokens: int
    budget_tokens: int
    dropped_messages: int
    breakdown: dict[str, int] = field(default_factory=dict)
    skills_listed: int = 0  # skills the catalog lists in full
    skills_searchable: int = 0  # the other installed skills, reachable through find_skills


@dataclass(frozen=True, slots=True)
class ModelRequestStarted:
    round_trip: int
    model: str
    tool_mode: str


@dataclass(frozen=True, slots=True)
class AssistantMessageStarted:
    message_id: int


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str


@dataclass(frozen=True, slots=True)
class ReasoningDelta:
    """A piece of the model's thinking (shown in the reply's "Thinking" section, never part of its text)."""

    text: str


@dataclass(frozen=True, slots=True)
class RetryScheduled:
    """The provider failed in a way worth retrying; the next attempt starts after `delay_s`."""

    attempt: int
    max_attempts: int
    delay_s: float
    kind: ErrorKind
    message: str


@dataclass(frozen=True, slots=True)
class ToolCallProposed:
    call_id: str
    name: str
    arguments: dict[str, Any] | None  # None when they did not parse
    raw_arguments: str
    source: str  # builtin | skill:<name> | mcp:<server> | unknown
    risk: str  # read | write | destructive
    impact: str | None = None
    impact_code: str = ""  # the impact as a code and parameters (core/tools/spec.py Impact), for translation
    impact_params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ToolCallMeasured:
    """A call's risk and impact measured when its turn came (after the earlier calls of its reply ran), or measured
    again right before it ran and found changed: replaces what its ToolCallProposed said (core/tool_calls.py)."""

    call_id: str
    risk: str  # read | write | destructive
    impact: str | None = None
    impact_code: str = ""
    impact_params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ToolCallAwaitingApproval:
    call_id: str
    over_threshold: bool = False  # a large destructive call: "always allow" is not offered


@dataclass(frozen=True, slots=True)
class ToolCallDecided:
    call_id: str
    decision: str  # deny | allow_once | allow_session | allow_always
    decided_by: str  # "user", "policy:<rule>", "default approver"

    @property
    def approved(self) -> bool:
        return self.decision != "deny"


@dataclass(frozen=True, slots=True)
class ToolCallStarted:
    call_id: str


@dataclass(frozen=True, slots=True)
class ToolCallFinished:
    call_id: str
    name: str
    outcome: ToolOutcome
    result: str  # exactly what the model sees
    duration_s: float
    truncated_chars: int = 0


@dataclass(frozen=True, slots=True)
class SideRequestRecorded:
    """A request the app made for a session besides its turns (a title, a summary, memory extraction, a skill
    draft...), once its usage row is saved: which model it went to, for the Activity tab (issue 23/24: "see where
    every request went"). Not part of a turn's stream; the window adds it to the session's trace."""

    purpose: str
    model: str
    profile_id: str | None
    input_tokens: int
    output_tokens: int
    estimated: bool = False


@dataclass(frozen=True, slots=True)
class UsageReported:
    prompt_tokens: int
    completion_tokens: int
    reasoning_tokens: int | None = None  # when the server reports them (part of completion_tokens)


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the user should know that is not an error (e.g. switched to text tool calls)."""

    message: str
    level: str = "info"  # info | warning
    code: str = ""  # what the notice says as a code and parameters, for translation; `message` stays English
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SummarisingStarted:
    """The history no longer fits the context: a side request summarises `messages` earlier messages before the
    model is asked, and the turn waits for it (core/conversation_summary.py)."""

    messages: int


@dataclass(frozen=True, slots=True)
class ConversationSummary:
    """This turn's requests send `text` in place of the conversation's first `covered_messages` messages (message
    ids `covered_from` to `covered_to`; the stored history is unchanged). `new`: made during this turn."""

    covered_from: int
    covered_to: int
    covered_messages: int
    tokens: int
    text: str
    model: str = ""
    new: bool = False


@dataclass(frozen=True, slots=True)
class WorkflowHintOffered:
    """A past successful tool path offered to this turn's requests as a hint (core/learning/trajectories.py), with
    the session it came from (Activity). Emitted before the first request, only when one is offered."""

    trajectory_id: int
    source_session_id: str
    source_title: str
    request: str
    path_text: str


@dataclass(frozen=True, slots=True)
class MemoryRecalled:
    """The memories this turn's requests carry in their memory layer (core/memory), best first: ids, and lines
    "statement (from 'Trip planning', 3 Nov)" for Activity. Emitted before the first request, only when any."""

    memory_ids: tuple[int, ...]
    lines: tuple[str, ...]
    # The same in parts for the window's language: {"statement", "session_id" (None: added by the user), "title"
    # (None: the conversation was deleted), "created_at"}.
    items: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class MemoryRemembered:
    """Hermes kept new memories from the user's words (after a turn, or through the `remember` tool). Not part of
    a turn's event stream: it usually comes after TurnFinished, so it is delivered through
    `MemoryService.subscribe` (core/memory/service.py), on the event loop. `superseded`: ids of the older memories
    these replaced (Undo, `MemoryStore.undo_add(memory_ids)`, brings them back)."""

    session_id: str
    memory_ids: tuple[int, ...]
    statements: tuple[str, ...]
    superseded: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnError:
    kind: ErrorKind
    message: str  # one or two sentences a user understands
    action: ErrorAction | None = None
    detail: str = ""  # technical detail for the log / a "details" toggle; never contains a key
    # What happened as a code and its parameters (core/llm/errors.py, storage faults), so the window can word it in
    # the user's language; `message` stays the English sentence for the CLI, the log and `ask --json`.
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TurnFinished:
    reason: FinishReason
    message: str = ""  # why it stopped, in words, when the reason is not COMPLETED
    round_trips: int = 0
    params: dict[str, Any] = field(default_factory=dict)  # the stop's numbers (a guard's limit, a tool's name)


Event = Union[
    TurnStarted,
    ContextPrepared,
    ModelRequestStarted,
    AssistantMessageStarted,
    TextDelta,
    ReasoningDelta,
    RetryScheduled,
    ToolCallProposed,
    ToolCallMeasured,
    ToolCallAwaitingApproval,
    ToolCallDecided,
    ToolCallStarted,
    ToolCallFinished,
    UsageReported,
    Notice,
    SummarisingStarted,
    ConversationSummary,
    MemoryRecalled,
    WorkflowHintOffered,
    MemoryRemembered,
    TurnError,
    TurnFinished,
]


def event_to_json(event: Event) -> dict[str, Any]:
    """A JSON-ready dict with a `type` tag (snake_case of the class name)."""
    name = type(event).__name__
    tag = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
    fields = asdict(event)
    for key in _CODE_FIELDS:  # the codes for translation: present only when set, so older readers see no change
        if key in fields and not fields[key]:
            del fields[key]
    return {"type": tag, **fields}


_CODE_FIELDS = ("code", "params", "impact_code", "impact_params")

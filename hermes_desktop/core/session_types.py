"""The values a session store hands out, and the interface the engine uses.

A message keeps the exact OpenAI fields (role, content, tool_calls, tool_call_id,
name) plus metadata kept outside the message body (interrupted flag, finish
reason, token count, timestamps). Which roles reach the model is decided here (CONVERSATION_ROLES,
SUMMARY, NOTE) and applied in core/context.py. `finish_reason is None` on an assistant message
means it is still streaming; a store that finds one at start-up marks it
interrupted (the process died mid-reply).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

_SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

# Roles a stored message can have. Only CONVERSATION_ROLES are sent to the model as messages; a SUMMARY (the
# app's own summary that starts a continued session) goes into the system message; a NOTE (an imported
# `system`, `developer` or unknown-role message, or a tool result that answers no call) is shown, never sent.
# A stored `system` message (older imports and summaries) is treated as a note: nothing says who wrote it.
CONVERSATION_ROLES = frozenset({"user", "assistant", "tool"})
SUMMARY = "summary"
NOTE = "note"


class InvalidSessionId(ValueError):
    pass


def validate_session_id(session_id: str) -> str:
    """Session ids from outside (CLI, import) are 1-64 of [A-Za-z0-9_.-], starting alphanumeric."""
    if not isinstance(session_id, str) or not _SESSION_ID.match(session_id) or ".." in session_id:
        raise InvalidSessionId(
            f"invalid session id {session_id!r}: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    return session_id


@dataclass(frozen=True, slots=True)
class AttachmentRef:
    """A file attached to a user message (core/attachments.py): its bytes live once per `hash` under the data
    directory; `text` is what a text/PDF file contributes to the request (within budget), `note` why it is partial."""

    hash: str
    name: str
    kind: str  # "image" | "text" | "pdf"
    mime: str
    size: int
    width: int | None = None
    height: int | None = None
    text: str | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class NewMessage:
    role: str
    content: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    name: str | None = None
    finish_reason: str | None = None
    interrupted: bool = False
    tokens: int | None = None
    reasoning: str | None = None  # the reply's thinking; never in titles, summaries or search
    reasoning_ms: int | None = None  # from its first thinking piece to its first answer piece (or its end)
    reasoning_tokens: int | None = None
    attachments: tuple[AttachmentRef, ...] = ()  # user messages: files attached, in order
    model: str | None = None  # assistant messages: the model asked for this reply (core/reply_model.py)


@dataclass(frozen=True, slots=True)
class StoredMessage:
    id: int
    session_id: str
    role: str
    content: str | None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    name: str | None = None
    finish_reason: str | None = None
    interrupted: bool = False
    tokens: int | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    parent_id: int | None = None
    reasoning: str | None = None
    reasoning_ms: int | None = None
    reasoning_tokens: int | None = None
    attachments: tuple[AttachmentRef, ...] = ()
    model: str | None = None  # the model that wrote an assistant message; None before v11 and for other roles

    def to_openai(self) -> dict[str, Any]:
        """The message in the OpenAI format. A reply's reasoning rides along as `reasoning_content`; the model
        client removes it from every message it must not be sent on (core/llm/reasoning.py)."""
        message: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.reasoning and self.role == "assistant":
            message["reasoning_content"] = self.reasoning
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        if self.tool_call_id is not None:
            message["tool_call_id"] = self.tool_call_id
        if self.name is not None and self.role == "tool":
            message["name"] = self.name
        return message


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: str
    title: str
    created_at: float
    updated_at: float
    profile_id: str | None = None
    model: str | None = None
    pinned: bool = False
    source: str = "app"
    prompt_tokens: int = 0
    completion_tokens: int = 0
    active_skills: tuple[str, ...] = field(default=())
    deleted_at: float | None = None


class SessionStore(Protocol):
    """What the agent needs from storage. Implementations must be safe to call from worker threads."""

    def create_session(self, session_id: str | None = None, *, title: str = "", profile_id: str | None = None,
                       model: str | None = None, source: str = "app") -> SessionInfo: ...

    def get_session(self, session_id: str) -> SessionInfo | None: ...

    def append_message(self, session_id: str, message: NewMessage) -> int: ...

    def update_message(self, message_id: int, *, content: str | None = None,
                       tool_calls: list[dict[str, Any]] | None = None, finish_reason: str | None = None,
                       interrupted: bool | None = None, tokens: int | None = None, reasoning: str | None = None,
                       reasoning_ms: int | None = None, reasoning_tokens: int | None = None) -> None: ...

    def messages(self, session_id: str) -> list[StoredMessage]: ...

    def recent_messages(self, session_id: str, limit: int | None) -> list[StoredMessage]: ...

    def set_title(self, session_id: str, title: str, *, source: str = "fallback") -> None: ...

    def add_usage(self, session_id: str, prompt_tokens: int, completion_tokens: int) -> None: ...

    def set_model(self, session_id: str, profile_id: str | None, model: str | None) -> None: ...

    def held_local(self, session_id: str) -> str | None: ...

    def hold_local(self, session_id: str, profile_id: str) -> None: ...

    def record_tool_call(self, message_id: int, *, session_id: str, call_id: str, impact_code: str = "",
                         impact_params: dict[str, Any] | None = None, impact: str | None = None,
                         decision: str | None = None, decided_by: str | None = None, outcome: str,
                         duration_s: float | None = None) -> None: ...

"""A SessionStore that lives in memory: for unit tests of the engine that need no disk."""

from __future__ import annotations

import itertools
import threading
import time
import uuid
from dataclasses import replace
from typing import Any

from hermes_desktop.core.storage.errors import SessionExists
from hermes_desktop.core.session_types import NewMessage, SessionInfo, StoredMessage, validate_session_id


class MemorySessionStore:
    def __init__(self) -> None:
        self._sessions: dict[str, SessionInfo] = {}
        self._messages: dict[str, list[StoredMessage]] = {}
        self._by_id: dict[int, StoredMessage] = {}
        self._ids = itertools.count(1)
        self._lock = threading.RLock()

    def create_session(self, session_id: str | None = None, *, title: str = "", profile_id: str | None = None,
                       model: str | None = None, source: str = "app") -> SessionInfo:
        with self._lock:
            sid = validate_session_id(session_id) if session_id is not None else uuid.uuid4().hex
            if sid in self._sessions:
                raise SessionExists(f"session {sid} exists")
            now = time.time()
            info = SessionInfo(sid, title, now, now, profile_id, model, source=source)
            self._sessions[sid] = info
            self._messages[sid] = []
            return info

    def get_session(self, session_id: str) -> SessionInfo | None:
        with self._lock:
            return self._sessions.get(session_id)

    def append_message(self, session_id: str, message: NewMessage) -> int:
        with self._lock:
            if session_id not in self._sessions:
                raise KeyError(session_id)
            now = time.time()
            history = self._messages[session_id]
            stored = StoredMessage(
                id=next(self._ids), session_id=session_id, role=message.role, content=message.content,
                tool_calls=message.tool_calls, tool_call_id=message.tool_call_id, name=message.name,
                finish_reason=message.finish_reason, interrupted=message.interrupted, tokens=message.tokens,
                created_at=now, updated_at=now, parent_id=history[-1].id if history else None,
            )
            history.append(stored)
            self._by_id[stored.id] = stored
            self._sessions[session_id] = replace(self._sessions[session_id], updated_at=now)
            return stored.id

    def update_message(self, message_id: int, *, content: str | None = None,
                       tool_calls: list[dict[str, Any]] | None = None, finish_reason: str | None = None,
                       interrupted: bool | None = None, tokens: int | None = None) -> None:
        with self._lock:
            old = self._by_id[message_id]
            changes: dict[str, Any] = {"updated_at": time.time()}
            for key, value in (("content", content), ("tool_calls", tool_calls), ("finish_reason", finish_reason),
                               ("interrupted", interrupted), ("tokens", tokens)):
                if value is not None:
                    changes[key] = value
            new = replace(old, **changes)
            self._by_id[message_id] = new
            history = self._messages[old.session_id]
            history[history.index(old)] = new

    def messages(self, session_id: str) -> list[StoredMessage]:
        with self._lock:
            return list(self._messages.get(session_id, ()))

    def recent_messages(self, session_id: str, limit: int | None) -> list[StoredMessage]:
        with self._lock:
            history = self._messages.get(session_id, [])
            return list(history if limit is None else history[-limit:])

    def set_title(self, session_id: str, title: str, *, source: str = "fallback") -> None:
        with self._lock:
            self._sessions[session_id] = replace(self._sessions[session_id], title=title)

    def add_usage(self, session_id: str, prompt_tokens: int, completion_tokens: int) -> None:
        with self._lock:
            info = self._sessions[session_id]
            self._sessions[session_id] = replace(info, prompt_tokens=info.prompt_tokens + prompt_tokens,
                                                 completion_tokens=info.completion_tokens + completion_tokens)

    def set_model(self, session_id: str, profile_id: str | None, model: str | None) -> None:
        with self._lock:
            self._sessions[session_id] = replace(self._sessions[session_id], profile_id=profile_id, model=model)

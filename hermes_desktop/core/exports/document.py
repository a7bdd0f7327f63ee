"""A session read once into the blocks every export writes: who spoke, what they said (Markdown), their files,
the reply's thinking and tool calls. The path shown is the session's current branch, as in the window."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable

from hermes_desktop.core.redact import redact_text
from hermes_desktop.core.session_types import CONVERSATION_ROLES, SUMMARY


@dataclass(frozen=True, slots=True)
class ToolCallBlock:
    name: str
    arguments: str  # pretty JSON when it parses, else as sent
    result: str


@dataclass(frozen=True, slots=True)
class FileBlock:
    name: str
    kind: str  # image | text | pdf
    path: Path | None  # the stored bytes, when they are on disk


@dataclass
class SpeakerBlock:
    """One heading's worth: a user message, one whole reply (however many tool rounds), a summary or a note."""

    role: str  # user | assistant | summary | note
    text: str = ""  # Markdown
    thinking: str = ""
    thinking_ms: int | None = None
    tools: list[ToolCallBlock] = field(default_factory=list)
    files: list[FileBlock] = field(default_factory=list)
    interrupted: bool = False
    model: str = ""  # the model that wrote a reply, when known
    sources: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # knowledge passages the reply cites


@dataclass
class SessionDocument:
    session_id: str
    title: str
    created_at: float
    updated_at: float
    model: str
    message_count: int
    blocks: list[SpeakerBlock]

    def created(self) -> str:
        return datetime.fromtimestamp(self.created_at).strftime("%Y-%m-%d %H:%M")


def read_session(store: Any, session_id: str, *, known_secrets: Iterable[str] = ()) -> SessionDocument:
    """The session `session_id` as blocks; secrets the app holds are redacted from every text. Raises
    core.storage.errors.SessionNotFound (from the store's own lookup) when it does not exist."""
    from hermes_desktop.core.attachments import AttachmentFiles
    from hermes_desktop.core.storage.errors import SessionNotFound

    info = store.get_session(session_id)
    if info is None:
        raise SessionNotFound(f"no session {session_id!r}")
    secrets = tuple(known_secrets)

    def clean(text: str | None) -> str:
        return redact_text(text or "", secrets)

    files = AttachmentFiles(store.attachments_dir)
    history = store.messages(session_id)
    results = {m.tool_call_id: m for m in history if m.role == "tool"}
    blocks: list[SpeakerBlock] = []
    from hermes_desktop.core.knowledge.cited import cited, session_sources

    sources, turn = session_sources(store, session_id), None
    for m in history:
        if m.role == "user":
            turn = m.id  # the key of the turn's citations (core/knowledge/cited.py)
            stored = []
            for a in m.attachments or ():
                try:
                    path = files.path_for(a.hash)
                except ValueError:
                    path = None
                stored.append(FileBlock(a.name, a.kind, path if path is not None and path.is_file() else None))
            blocks.append(SpeakerBlock("user", clean(m.content), files=stored))
        elif m.role == "assistant":
            if not blocks or blocks[-1].role != "assistant":
                blocks.append(SpeakerBlock("assistant", model=getattr(m, "model", "") or ""))
            reply = blocks[-1]
            if m.reasoning:
                reply.thinking = (reply.thinking + "\n\n" if reply.thinking else "") + clean(m.reasoning)
                reply.thinking_ms = (reply.thinking_ms or 0) + (m.reasoning_ms or 0) if m.reasoning_ms else reply.thinking_ms
            if m.content:
                reply.text = (reply.text + "\n\n" if reply.text else "") + clean(m.content)
                known = {n for n, _ in reply.sources}
                reply.sources += [(n, {k: clean(v) if isinstance(v, str) else v for k, v in p.items()})
                                  for n, p in cited(m.content, sources.get(turn) if turn is not None else None)
                                  if n not in known]
            reply.interrupted = reply.interrupted or bool(m.interrupted)
            for call in m.tool_calls or []:
                function = call.get("function", {})
                try:
                    arguments = json.dumps(json.loads(function.get("arguments") or "{}"), ensure_ascii=False, indent=2)
                except ValueError:
                    arguments = str(function.get("arguments", ""))
                result = results.get(call.get("id"))
                reply.tools.append(ToolCallBlock(str(function.get("name", "?")), clean(arguments),
                                                 clean(result.content) if result is not None and result.content else ""))
        elif m.role == SUMMARY:
            blocks.append(SpeakerBlock("summary", clean(m.content)))
        elif m.role not in CONVERSATION_ROLES:
            blocks.append(SpeakerBlock("note", clean(m.content)))
    return SessionDocument(session_id, clean(info.title), info.created_at, info.updated_at, info.model or "",
                           len(history), blocks)

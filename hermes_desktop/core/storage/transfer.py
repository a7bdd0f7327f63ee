"""Export and import sessions: JSON that round-trips exactly, Markdown that reads as a document.

JSON round trip: exporting, importing into an empty profile and exporting again
gives identical output. Message ids are not database ids but positions in the
file (`n`, 1-based, insertion order), so they survive. The one field that can
change on import is `session.id`, when another session already uses it (a new id
is then made, and the importer reports it).

Imports also accept the original design's session file:
`{"session_id", "model", "messages": [...], "metadata", "created_at", "updated_at"}`.
Nothing exported contains an API key: known keys and key-shaped strings are redacted.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable

from hermes_desktop.core.redact import redact_text, redact_value
from hermes_desktop.core.session_types import InvalidSessionId, NewMessage, StoredMessage, validate_session_id
from hermes_desktop.core.storage.errors import SessionNotFound, StorageError

FORMAT = "hermes-desktop.session"
FORMAT_VERSION = 1


class ImportProblem(StorageError):
    pass


def export_json(store: Any, session_id: str, *, known_secrets: Iterable[str] = ()) -> str:
    details = store.session_details(session_id)
    if details is None:
        raise SessionNotFound(f"no session {session_id!r}")
    info = details.info
    rows: list[StoredMessage] = store.all_messages(session_id)
    number = {m.id: n for n, m in enumerate(rows, 1)}
    secrets = tuple(known_secrets)
    document = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "session": {
            "id": info.id, "title": info.title, "title_source": details.title_source,
            "created_at": info.created_at, "updated_at": info.updated_at, "profile_id": info.profile_id,
            "model": info.model, "params": details.params, "pinned": info.pinned, "source": info.source,
            "prompt_tokens": info.prompt_tokens, "completion_tokens": info.completion_tokens,
            "active_skills": list(info.active_skills),
        },
        "head": number.get(details.head_id) if details.head_id is not None else None,
        "messages": [
            {
                "n": number[m.id], "parent": number.get(m.parent_id) if m.parent_id is not None else None,
                "role": m.role, "content": m.content, "tool_calls": m.tool_calls, "tool_call_id": m.tool_call_id,
                "name": m.name, "finish_reason": m.finish_reason, "interrupted": m.interrupted, "tokens": m.tokens,
                "created_at": m.created_at, "updated_at": m.updated_at,
            }
            for m in rows
        ],
    }
    return json.dumps(redact_value(document, secrets), ensure_ascii=False, indent=2)


@dataclass(frozen=True, slots=True)
class ImportResult:
    session_id: str
    messages: int
    renamed_from: str | None = None  # the file's id, when it was already taken


def import_file(store: Any, text: str) -> ImportResult:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ImportProblem(f"the file is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ImportProblem("the file does not hold a session (expected a JSON object)")
    if data.get("format") == FORMAT:
        return _import_native(store, data)
    if "messages" in data and ("session_id" in data or "model" in data):
        return _import_legacy(store, data)
    raise ImportProblem("unknown file format: expected a Hermes Desktop session export or an original-design session file")


def _free_id(store: Any, wanted: Any) -> tuple[str, str | None]:
    try:
        candidate = validate_session_id(str(wanted)) if wanted else None
    except InvalidSessionId:
        candidate = None
    if candidate and store.get_session(candidate) is None:
        return candidate, None
    return uuid.uuid4().hex, (str(wanted) if wanted else None)


def _import_native(store: Any, data: dict[str, Any]) -> ImportResult:
    if int(data.get("version", 0)) > FORMAT_VERSION:
        raise ImportProblem(f"this export was made by a newer Hermes Desktop (format version {data['version']})")
    session = data.get("session") or {}
    messages = data.get("messages") or []
    session_id, renamed = _free_id(store, session.get("id"))
    store.import_session(
        session_id=session_id,
        fields={k: session.get(k) for k in ("title", "title_source", "created_at", "updated_at", "profile_id", "model",
                                            "params", "pinned", "source", "prompt_tokens", "completion_tokens",
                                            "active_skills")},
        messages=[(int(m["n"]), m.get("parent"), _new_message(m), m.get("created_at"), m.get("updated_at"))
                  for m in messages],
        head=data.get("head"),
    )
    return ImportResult(session_id, len(messages), renamed)


def _import_legacy(store: Any, data: dict[str, Any]) -> ImportResult:
    session_id, renamed = _free_id(store, data.get("session_id"))
    created = _timestamp(data.get("created_at")) or time.time()
    updated = _timestamp(data.get("updated_at")) or created
    raw_messages = [m for m in data.get("messages") or [] if isinstance(m, dict) and m.get("role")]
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    first_user = next((m.get("content") for m in raw_messages if m.get("role") == "user" and m.get("content")), "")
    title = str(metadata.get("title") or "") or " ".join(str(first_user).split())[:48]
    rows = []
    for n, m in enumerate(raw_messages, 1):
        rows.append((n, n - 1 if n > 1 else None, _new_message(m), created, updated))
    store.import_session(
        session_id=session_id,
        fields={"title": title, "title_source": "fallback", "created_at": created, "updated_at": updated,
                "model": data.get("model"), "source": "import", "params": {"imported_metadata": metadata}},
        messages=rows,
        head=len(rows) or None,
    )
    return ImportResult(session_id, len(rows), renamed)


def _new_message(m: dict[str, Any]) -> NewMessage:
    content = m.get("content")
    if isinstance(content, list):  # OpenAI content parts: keep the text
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return NewMessage(
        role=str(m.get("role")), content=content, tool_calls=m.get("tool_calls") or None,
        tool_call_id=m.get("tool_call_id"), name=m.get("name"),
        finish_reason=m.get("finish_reason") or ("stop" if m.get("role") == "assistant" else None),
        interrupted=bool(m.get("interrupted", False)), tokens=m.get("tokens"),
    )


def _timestamp(value: Any) -> float | None:
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return None
    return None


def export_markdown(store: Any, session_id: str, *, known_secrets: Iterable[str] = ()) -> str:
    info = store.get_session(session_id)
    if info is None:
        raise SessionNotFound(f"no session {session_id!r}")
    secrets = tuple(known_secrets)
    history: list[StoredMessage] = store.messages(session_id)
    results = {m.tool_call_id: m for m in history if m.role == "tool"}
    lines = [f"# {info.title or 'Untitled session'}", ""]
    meta = [f"Created {datetime.fromtimestamp(info.created_at):%Y-%m-%d %H:%M}"]
    if info.model:
        meta.append(f"model {info.model}")
    meta.append(f"{len(history)} messages")
    lines += ["*" + " · ".join(meta) + "*", ""]
    previous = None
    for m in history:
        if m.role == "user":
            lines += ["## You", "", m.content or "", ""]
        elif m.role == "assistant":
            if previous != "assistant":  # one heading per reply, however many tool rounds it took
                lines += ["## Hermes", ""]
            if m.content:
                lines += [m.content, ""]
            if m.interrupted:
                lines += ["*(interrupted)*", ""]
            for call in m.tool_calls or []:
                lines += _tool_call_markdown(call, results.get(call.get("id")))
        elif m.role == "system":
            lines += ["## System", "", m.content or "", ""]
        if m.role != "tool":
            previous = m.role
    return redact_text("\n".join(lines).rstrip() + "\n", secrets)


def _tool_call_markdown(call: dict[str, Any], result: StoredMessage | None) -> list[str]:
    function = call.get("function", {})
    try:
        arguments = json.dumps(json.loads(function.get("arguments") or "{}"), ensure_ascii=False, indent=2)
    except ValueError:
        arguments = function.get("arguments", "")
    output = result.content if result is not None and result.content else "(no result)"
    fence = "````" if "```" in output or "```" in arguments else "```"
    return [
        "<details>", f"<summary>Tool call: <code>{function.get('name', '?')}</code></summary>", "",
        f"{fence}json", arguments, fence, "", "Result:", "", fence, output, fence, "", "</details>", "",
    ]

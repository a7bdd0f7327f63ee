"""Export and import sessions: JSON that round-trips exactly, Markdown that reads as a document.

A reply's reasoning: JSON has `reasoning`, `reasoning_ms`, `reasoning_tokens` on the message (import also reads
an OpenAI-style `reasoning_content`); Markdown shows it as a collapsed `<details>` block ("Thought for N s") above the reply.

JSON round trip: exporting, importing into an empty profile and exporting again
gives identical output. Message ids are not database ids but positions in the
file (`n`, 1-based, insertion order), so they survive. The one field that can
change on import is `session.id`, when another session already uses it (a new id
is then made, and the importer reports it).

Imports also accept the original design's session file:
`{"session_id", "model", "messages": [...], "metadata", "created_at", "updated_at"}`.

An import never lets a file speak to the model with authority: only `user`, `assistant` and `tool`
messages become conversation, and a tool result only when it answers a call of the assistant message
it follows. `system`, `developer`, unknown roles and stray tool results are kept as notes (role "note",
the original role in `name`): shown in the window and in Markdown, never sent. An assistant call left
without a result stays as it is; the request builder answers it with a neutral "no result"
(core/context.repair_tool_pairs), as for a turn stopped mid-call.

Imports stream: the file is read twice (a check of the whole JSON and the members, then the messages
straight into the store's one transaction) and never held whole (core/storage/json_stream.py). Files
above the `import_max_mb` setting are refused before reading; a malformed file is refused with the
line and column, or the message number, and the reason; a failure leaves nothing stored.
Nothing exported contains an API key: known keys and key-shaped strings are redacted. Attachments too: an
attachment's bytes are checked whole, never text-redacted as base64 (that could corrupt them); a text file goes out
as the redacted file with its own hash, an image or PDF holding a secret (in its bytes, as UTF-8 or UTF-16, or in a
PDF's extracted text) goes out without `data`, with `"withheld": reason`, and import turns such an entry into a
line in the message ("[Attached file … was left out of the exported session: …]").

An imported attachment is made from its bytes by the code that attaching uses (core/attachments.prepare_bytes):
the file's `text`, `kind`, `mime`, sizes and note are ignored, images are decoded and downscaled by the injected
`process_image` (the CLI passes hermes_desktop/imaging.py; without one, a file with images is refused), and a file
that could not be attached is refused with its place and the reason. The attachment row is shared by every message
with the same bytes, so a lie there would speak for the user's own file later.
"""

from __future__ import annotations

import contextlib
import html
import base64
import hashlib
import io
import json
import re
import stat
import time
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable, Iterator

from hermes_desktop.core.attachments import (MAX_FILE_BYTES, PDF, TEXT, AttachmentError, AttachmentFiles,
                                             ImageProcessor, PreparedAttachment, prepare_bytes)
from hermes_desktop.core.redact import redact_text, redact_value
from hermes_desktop.core.reply_model import clean_model_name
from hermes_desktop.core.session_types import (CONVERSATION_ROLES, NOTE, SUMMARY, AttachmentRef, InvalidSessionId, NewMessage,
                                               StoredMessage, validate_session_id)
from hermes_desktop.core.storage.errors import SessionNotFound, StorageError
from hermes_desktop.core.storage.import_journal import import_running
from hermes_desktop.core.storage.json_stream import Element, JsonStreamError, Member, read_object

FORMAT = "hermes-desktop.session"
FORMAT_VERSION = 1


class ImportProblem(StorageError):
    pass


def _assistant_ref(store: Any, session_id: str) -> dict[str, str] | None:
    """The session's assistant as its id and name only: its instructions and settings never go into an export."""
    if not hasattr(store, "_db"):
        return None
    from hermes_desktop.core.assistants.store import AssistantStore

    found = AssistantStore(store).session_assistant(session_id).assistant
    return {"id": found.id, "name": found.name}


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
            "model": info.model, "params": _exported_params(details.params), "pinned": info.pinned, "source": info.source,
            "prompt_tokens": info.prompt_tokens, "completion_tokens": info.completion_tokens,
            "active_skills": list(info.active_skills),
            "assistant": _assistant_ref(store, session_id),
            **_held_local_field(store, session_id),
        },
        "head": number.get(details.head_id) if details.head_id is not None else None,
        "messages": [
            {
                "n": number[m.id], "parent": number.get(m.parent_id) if m.parent_id is not None else None,
                "role": m.role, "content": m.content, "tool_calls": m.tool_calls, "tool_call_id": m.tool_call_id,
                "name": m.name, "finish_reason": m.finish_reason, "interrupted": m.interrupted, "tokens": m.tokens,
                "created_at": m.created_at, "updated_at": m.updated_at,
                **_reasoning_fields(m), **({"model": m.model} if m.model else {}),
            }
            for m in rows
        ],
    }
    _add_sources(document["messages"], rows, _cited_sources(store, session_id))
    document = redact_value(document, secrets)
    for item, m in zip(document["messages"], rows):  # added after: their bytes are checked, not text-redacted
        item.update(_attachment_fields(m, store, secrets))
    return json.dumps(document, ensure_ascii=False, indent=2)


def _held_local_field(store: Any, session_id: str) -> dict[str, Any]:
    """`held_local` (core/local_only.py) when a local-only provider holds the session: an import keeps it held."""
    held = store.held_local(session_id) if hasattr(store, "held_local") else None
    return {"held_local": held} if held else {}


def _add_sources(items: list[dict[str, Any]], rows: list[StoredMessage],
                 sources: dict[int, dict[int, dict[str, Any]]]) -> None:
    """An assistant message that cites knowledge passages gets `sources` (citation, document, page, heading, text);
    the turn is the user message its parent chain leads to. Import ignores the field (it is the record of a reply)."""
    if not sources:
        return
    from hermes_desktop.core.knowledge.cited import cited, json_items

    by_id = {m.id: m for m in rows}
    for item, m in zip(items, rows):
        if m.role != "assistant" or not m.content:
            continue
        turn, parent = None, m.parent_id
        while parent is not None and parent in by_id:
            if by_id[parent].role == "user":
                turn = parent
                break
            parent = by_id[parent].parent_id
        found = cited(m.content, sources.get(turn)) if turn is not None else []
        if found:
            item["sources"] = json_items(found)


def _reasoning_fields(m: StoredMessage) -> dict[str, Any]:
    """A reply's reasoning in the JSON export: `reasoning`, `reasoning_ms`, `reasoning_tokens` (only when it has one)."""
    if not m.reasoning:
        return {}
    return {"reasoning": m.reasoning, "reasoning_ms": m.reasoning_ms, "reasoning_tokens": m.reasoning_tokens}


# ---------------------------------------------------------------- attachments (core/attachments.py)
def _attachment_fields(m: StoredMessage, store: Any, secrets: tuple[str, ...]) -> dict[str, Any]:
    """A user message's attachments, embedded: each file's bytes (base64) with its hash, name, kind and mime, so an
    import elsewhere restores them. Everything but `data` is redacted like the rest of the document; the bytes are
    never passed through the text redactor (a key-shaped run inside base64 would corrupt them) but checked whole
    (`_exportable`): a text file goes out redacted (re-hashed), a binary one holding a secret goes out without
    `data`, with `withheld` saying why, as does a file missing from disk; import turns such an entry into a note."""
    if not m.attachments:
        return {}
    files = AttachmentFiles(store.attachments_dir)
    out = []
    for ref in m.attachments:
        data = files.read(ref.hash)
        withheld = "the file was missing from disk" if data is None else None
        if data is not None:
            data, ref, withheld = _exportable(ref, data, secrets)
        item = redact_value({"hash": ref.hash, "name": ref.name, "kind": ref.kind, "mime": ref.mime, "size": ref.size,
                             "width": ref.width, "height": ref.height, "text": ref.text, "note": ref.note}, secrets)
        item["hash"] = ref.hash  # hex: never a secret, and it must stay the bytes' hash
        if withheld is not None:
            item["withheld"] = withheld
        elif data is not None:
            item["data"] = base64.b64encode(data).decode("ascii")
        out.append(item)
    return {"attachments": out}


SECRET_WITHHELD = "contains a saved secret"
KEY_WITHHELD = "contains what looks like an API key"
UNCHECKED_WITHHELD = "its text could not be read to check it for secrets"
_WHOLE_TEXT_CHARS = MAX_FILE_BYTES  # more than any text file holds; a PDF with more text is withheld


def _exportable(ref: AttachmentRef, data: bytes, secrets: tuple[str, ...]
                ) -> tuple[bytes | None, AttachmentRef, str | None]:
    """(bytes to export, their ref, None) or (None, ref, why withheld). A text file is redacted like any text and,
    when that changed it, exported as the redacted file (UTF-8, its own hash, text and note derived from it as an
    import would). An image or PDF cannot be redacted: it is withheld when its bytes (UTF-8 or UTF-16 of a known
    secret, or a key-shaped string) or, for a PDF, its whole extracted text hold a secret. Fails closed: a file
    whose whole text cannot be read again is withheld."""
    if ref.kind == TEXT:
        whole = _whole_text(ref, data)
        if whole is None:
            return None, ref, UNCHECKED_WITHHELD
        cleaned = redact_text(whole, secrets)
        if cleaned != whole:
            data = cleaned.encode("utf-8")
            try:
                ref = replace(prepare_bytes(ref.name, data, process_image=None).ref(), name=ref.name)
            except AttachmentError:
                return None, ref, UNCHECKED_WITHHELD
    else:
        found = _secret_in(data.decode("latin-1"), data, secrets)
        if found is None and ref.kind == PDF:
            whole = _whole_text(ref, data)
            found = UNCHECKED_WITHHELD if whole is None else _secret_in(whole, b"", secrets)
        if found is not None:
            return None, ref, found
    if _secret_in("", data, secrets) is not None:  # whatever the kind: never a known secret in the bytes
        return None, ref, SECRET_WITHHELD
    return data, ref, None


def _whole_text(ref: AttachmentRef, data: bytes) -> str | None:
    """All the text of a text file or PDF, read by the code that attaching uses; None when it cannot all be read."""
    try:
        prepared = prepare_bytes(ref.name, data, process_image=None, text_budget=_WHOLE_TEXT_CHARS)
    except AttachmentError:
        return None
    return None if prepared.truncated or prepared.text is None else prepared.text


def _secret_in(text: str, data: bytes, secrets: tuple[str, ...]) -> str | None:
    """Why `text`/`data` must not be exported (a known secret, or a key-shaped string in `text`), or None."""
    for secret in secrets:
        if secret and len(secret) >= 4 and (secret in text or any(
                secret.encode(encoding) in data for encoding in ("utf-8", "utf-16-le", "utf-16-be"))):
            return SECRET_WITHHELD
    return KEY_WITHHELD if text and redact_text(text) != text else None


def _imported_attachments(items: Any, where: str, files: AttachmentFiles, written: list[str],
                          process_image: ImageProcessor | None) -> tuple[tuple[AttachmentRef, ...], list[str]]:
    """Check each embedded attachment (its data must hash to its `hash`), derive everything the model sees from the
    bytes with the code that attaching uses (the file's `text`, `kind`, `mime`, size and note are ignored: a file
    must not tell the model something else than its bytes say, nor plant that in the row every later attachment of
    the same bytes shares), and store the result. Images are decoded and downscaled by `process_image` like attached
    ones (None: refused). Returns the refs and a note for each entry the export withheld."""
    if not isinstance(items, list):
        raise ImportProblem(f"{where}: `attachments` is not a list")
    refs, notes = [], []
    for index, item in enumerate(items, 1):
        place = f"{where}, attachment {index}"
        if not isinstance(item, dict):
            raise ImportProblem(f"{place}: is not an object")
        name, digest = item.get("name"), item.get("hash")
        if not isinstance(name, str):
            raise ImportProblem(f"{place}: needs a name")
        name = " ".join(name.split())[:255] or "attachment"
        if "withheld" in item:
            notes.append(_withheld_note(name, item["withheld"]))
            continue
        if not isinstance(digest, str):
            raise ImportProblem(f"{place} ({name}): needs a hash")
        try:
            data = base64.b64decode(item.get("data") or "", validate=True)
        except (ValueError, TypeError):
            raise ImportProblem(f"{place} ({name}): its data is not base64") from None
        if not data or len(data) > MAX_FILE_BYTES:
            raise ImportProblem(f"{place} ({name}): its data is missing or larger than the attachment limit")
        if hashlib.sha256(data).hexdigest() != digest.lower():
            raise ImportProblem(f"{place} ({name}): its data does not match its hash {digest[:16]}…; refused")
        prepared = _prepared(name, data, place, process_image)
        files.put(prepared.data, prepared.hash)
        written.append(prepared.hash)
        refs.append(prepared.ref())
    return tuple(refs), notes


def _prepared(name: str, data: bytes, place: str, process_image: ImageProcessor | None) -> PreparedAttachment:
    """The file as attaching would have made it, or ImportProblem naming the place and the reason."""
    try:
        return prepare_bytes(name, data, process_image=process_image)
    except AttachmentError as exc:
        reason = str(exc)
        for said in (name, Path(name).name):  # the reason starts with the name (or the last part of a path-like one)
            if said and reason.startswith(f"{said}: "):
                reason = reason[len(said) + 2:]
                break
        if process_image is None and "no image decoder" in reason:
            reason = "images cannot be imported here (no image decoder)."
        raise ImportProblem(f"{place} ({name}): {reason.rstrip('.')}; refused") from None


def _withheld_note(name: str, reason: Any) -> str:
    why = " ".join(str(reason).split())[:160] if isinstance(reason, str) and reason.strip() else "no reason given"
    return f"[Attached file {name} was left out of the exported session: {why}.]"


@dataclass(frozen=True, slots=True)
class ImportResult:
    session_id: str
    messages: int
    renamed_from: str | None = None  # the file's id, when it was already taken
    notes: int = 0  # messages kept as notes (roles that are not conversation, tool results that answer no call)
    # The file chose a model for the session ("profile id · model"): not applied, the session uses the user's
    # default (an export's provider ids are another installation's; the user picks again in the model picker).
    model_choice_not_applied: str | None = None
    # The file's assistant (by id: a gallery assistant's id is the same everywhere, a user's own is random, so the
    # same id is the same assistant, e.g. synced) is the session's assistant when it exists here; when it does not,
    # its name is said here and the session uses Hermes. A name alone is never matched: another machine's
    # "Lawyer" is not this one's. Only an existing local assistant can be chosen, never one the file describes.
    assistant_not_applied: str | None = None


Opener = Callable[[], BinaryIO]


def import_path(store: Any, path: Path, *, max_bytes: int, process_image: ImageProcessor | None = None) -> ImportResult:
    """Import the session file at `path`, read as a stream; refused when larger than `max_bytes`. Embedded images
    go through `process_image` as attached ones do (hermes_desktop/imaging.py; None: a file with images is refused)."""
    try:
        info = path.stat()
    except OSError as exc:
        raise ImportProblem(f"cannot read {path}: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise ImportProblem(f"{path} is not a regular file")
    if info.st_size > max_bytes:
        raise ImportProblem(f"{path} is {info.st_size / 1e6:,.1f} MB; the import limit is {max_bytes / 1e6:,.0f} MB "
                            "(the import_max_mb setting)")

    def opener() -> BinaryIO:
        try:
            return path.open("rb")
        except OSError as exc:
            raise ImportProblem(f"cannot read {path}: {exc.strerror or exc}") from exc

    return _import(store, opener, max_bytes, process_image)


def import_file(store: Any, text: str, *, process_image: ImageProcessor | None = None) -> ImportResult:
    """Import a session file already in memory (the same checks as `import_path`)."""
    data = text.encode("utf-8")
    return _import(store, lambda: io.BytesIO(data), None, process_image)


@dataclass
class _Outline:
    """What the first pass learns: every member but the messages, their count, the first user text."""

    members: dict[str, Any] = field(default_factory=dict)
    messages: int = 0
    first_user_text: str = ""


def _import(store: Any, opener: Opener, max_bytes: int | None, process_image: ImageProcessor | None) -> ImportResult:
    outline = _outline(opener, max_bytes)
    data = outline.members
    if data.get("format") == FORMAT:
        version = data.get("version", 0)
        if not isinstance(version, int) or isinstance(version, bool):
            raise ImportProblem(f"the export's format version is not a number: {version!r}")
        if version > FORMAT_VERSION:
            raise ImportProblem(f"this export was made by a newer Hermes Desktop (format version {version})")
        return _import_native(store, data, _Messages(opener, max_bytes, native=True, process_image=process_image),
                              outline.messages)
    if outline.messages and ("session_id" in data or "model" in data):
        return _import_legacy(store, data, _Messages(opener, max_bytes, native=False), outline)
    raise ImportProblem("unknown file format: expected a Hermes Desktop session export or an original-design session file")


def _outline(opener: Opener, max_bytes: int | None) -> _Outline:
    """First pass: the whole file is checked as JSON (so a broken file changes nothing), messages are counted."""
    outline = _Outline()
    with opener() as stream:
        try:
            for item in read_object(stream, "messages", max_bytes=max_bytes):
                if isinstance(item, Member):
                    if item.key in outline.members or (item.key == "messages" and outline.messages):
                        raise ImportProblem(f"the member {item.key!r} appears twice")
                    outline.members[item.key] = item.value
                    continue
                outline.messages += 1
                value = item.value
                if not outline.first_user_text and isinstance(value, dict) and value.get("role") == "user":
                    outline.first_user_text = _text_of(value.get("content"))[:200]
        except JsonStreamError as exc:
            raise ImportProblem(f"the file is not valid JSON at line {exc.line}, column {exc.column}: {exc.reason}") from None
    if "messages" in outline.members and not isinstance(outline.members["messages"], list):
        raise ImportProblem("`messages` is not a list")
    return outline


class _Messages:
    """The file's messages as store rows, read again from the file each time it is iterated (the store may
    retry its transaction). Conversation is `user`, `assistant` and `tool` messages whose tool results answer
    a call of the assistant message they follow; every other message is kept as an inert note (role "note",
    its original role in `name`) that is shown but never sent to the model. A malformed message raises
    ImportProblem naming its number and place (inside the store's transaction, so nothing is kept)."""

    def __init__(self, opener: Opener, max_bytes: int | None, *, native: bool,
                 process_image: ImageProcessor | None = None) -> None:
        self._opener, self._max_bytes, self._native = opener, max_bytes, native
        self._process_image = process_image
        self.notes = 0
        self.files: AttachmentFiles | None = None  # where embedded attachments go (native exports)
        self.written: list[str] = []  # their hashes, to remove again when the import fails

    def __iter__(self) -> Iterator[tuple[int, int | None, NewMessage, float | None, float | None]]:
        self.notes = 0
        open_calls: dict[int, frozenset[str]] = {}  # message number -> calls not yet answered after it
        seen: set[int] = set()
        with self._opener() as stream:
            try:
                for item in read_object(stream, "messages", max_bytes=self._max_bytes):
                    if isinstance(item, Element):
                        row = self._row(item, seen, open_calls)
                        self.notes += row[2].role == NOTE
                        yield row
            except JsonStreamError as exc:  # the file changed since the first pass
                raise ImportProblem(f"the file is not valid JSON at line {exc.line}, column {exc.column}: "
                                    f"{exc.reason}") from None

    def _row(self, item: Element, seen: set[int], open_calls: dict[int, frozenset[str]]
             ) -> tuple[int, int | None, NewMessage, float | None, float | None]:
        where = f"message {item.index} (line {item.line}, column {item.column})"
        m = item.value
        if not isinstance(m, dict):
            raise ImportProblem(f"{where}: is not an object")
        number, parent = self._numbers(m, item.index, where, seen)
        message = _new_message(m, where, open_calls.get(parent, frozenset()) if parent is not None else frozenset())
        if message.role == "user" and m.get("attachments") and self.files is not None:
            refs, notes = _imported_attachments(m["attachments"], where, self.files, self.written, self._process_image)
            content = "\n\n".join([message.content] + notes if message.content else notes) or None
            message = replace(message, attachments=refs, content=content)
        if message.role == "assistant" and message.tool_calls:
            open_calls[number] = frozenset(str(c["id"]) for c in message.tool_calls)
        elif message.role == "tool" and parent is not None:
            remaining = open_calls[parent] - {message.tool_call_id}
            if remaining:
                open_calls[number] = remaining
        elif message.role == NOTE and parent in open_calls:
            open_calls[number] = open_calls[parent]  # a note is not sent: results after it still answer the calls
        seen.add(number)
        created = m.get("created_at") if self._native else None
        updated = m.get("updated_at") if self._native else None
        return number, parent, message, _number_or_none(created), _number_or_none(updated)

    def _numbers(self, m: dict[str, Any], index: int, where: str, seen: set[int]) -> tuple[int, int | None]:
        if not self._native:
            return index, index - 1 if index > 1 else None
        number, parent = m.get("n"), m.get("parent")
        if not _is_int(number):
            raise ImportProblem(f"{where}: `n` is not a whole number")
        if number in seen:
            raise ImportProblem(f"{where}: number {number} is used twice")
        if parent is not None and (not _is_int(parent) or parent not in seen):
            raise ImportProblem(f"{where}: its parent {parent!r} is not an earlier message")
        return number, parent


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number_or_none(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _exported_params(params: dict[str, Any]) -> dict[str, Any]:
    """A session's params as exported: without the mark of imported messages (this database's message ids; the
    import that reads the file marks its messages itself)."""
    from hermes_desktop.core.store import IMPORTED_THROUGH

    return {k: v for k, v in params.items() if k != IMPORTED_THROUGH}


def _free_id(store: Any, wanted: Any) -> tuple[str, str | None]:
    try:
        candidate = validate_session_id(str(wanted)) if wanted else None
    except InvalidSessionId:
        candidate = None
    if candidate and store.get_session(candidate) is None:
        return candidate, None
    return uuid.uuid4().hex, (str(wanted) if wanted else None)


def _import_native(store: Any, data: dict[str, Any], messages: _Messages, count: int) -> ImportResult:
    session = data.get("session") if isinstance(data.get("session"), dict) else {}
    session, not_applied = _without_model_choice(session)
    session_id, renamed = _free_id(store, session.get("id"))
    head = data.get("head")
    running = contextlib.nullcontext()
    if getattr(store, "attachments_dir", None) is not None:
        messages.files = AttachmentFiles(store.attachments_dir)
        running = import_running(Path(store.attachments_dir))  # a killed import's files go at the next start
    with running:
        try:
            _import_session(store, session_id, session, messages, head)
        except BaseException:
            if messages.written and hasattr(store, "release_attachments"):
                store.release_attachments(sorted(set(messages.written)))
            raise
    missing_assistant = _apply_assistant(store, session_id, session.get("assistant"))
    return ImportResult(session_id, count, renamed, messages.notes, not_applied, missing_assistant)


def _apply_assistant(store: Any, session_id: str, reference: Any) -> str | None:
    """Give the imported session the file's assistant if it exists here (by id); else its name, to say so."""
    if not isinstance(reference, dict) or not isinstance(reference.get("id"), str) or not hasattr(store, "_db"):
        return None
    wanted = reference["id"].strip()
    if wanted in ("", "hermes"):
        return None
    from hermes_desktop.core.assistants.store import AssistantNotFound, AssistantStore

    assistants = AssistantStore(store)
    try:
        found = assistants.get(wanted)
    except AssistantNotFound:
        found = None
    if found is None or found.id != wanted:  # `get` also matches names: only the same id is the same assistant
        return str(reference.get("name") or wanted)[:200]
    assistants.set_session_assistant(session_id, found.id)
    return None


def _without_model_choice(session: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The session without the file's model pick (core/session_models.py's mark), and the pick in words.

    A profile id in an export names a provider of the installation that made it; here the same id may be another
    provider (a paid one, or one that should not see this conversation). So an imported session follows the user's
    default model until the user picks one; what the file chose is kept in `params` for reference and said."""
    from hermes_desktop.core.session_models import CHOSEN_MARK

    params = session.get("params")
    if not isinstance(params, dict) or not params.get(CHOSEN_MARK):
        return session, None
    chose = f"{session.get('profile_id') or '?'} · {session.get('model') or '?'}"
    kept = {k: v for k, v in params.items() if k != CHOSEN_MARK}
    kept["imported_model_choice"] = {"profile_id": session.get("profile_id"), "model": session.get("model")}
    return {**session, "params": kept, "profile_id": None, "model": None}, chose


def _import_session(store: Any, session_id: str, session: dict[str, Any], messages: _Messages, head: Any) -> None:
    store.import_session(
        session_id=session_id,
        fields={k: session.get(k) for k in ("title", "title_source", "created_at", "updated_at", "profile_id", "model",
                                            "params", "pinned", "source", "prompt_tokens", "completion_tokens",
                                            "active_skills")},
        messages=messages,
        head=head if _is_int(head) else None,
    )
    held = session.get("held_local")
    if isinstance(held, str) and held.strip():  # a file can only add this restriction, never lift one
        store.hold_local(session_id, held.strip()[:200])


def _import_legacy(store: Any, data: dict[str, Any], messages: _Messages, outline: _Outline) -> ImportResult:
    session_id, renamed = _free_id(store, data.get("session_id"))
    created = _timestamp(data.get("created_at")) or time.time()
    updated = _timestamp(data.get("updated_at")) or created
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    title = str(metadata.get("title") or "") or " ".join(outline.first_user_text.split())[:48]
    store.import_session(
        session_id=session_id,
        fields={"title": title, "title_source": "fallback", "created_at": created, "updated_at": updated,
                "model": data.get("model"), "source": "import", "params": {"imported_metadata": metadata}},
        messages=_Timestamped(messages, created, updated),
        head=outline.messages or None,
    )
    return ImportResult(session_id, outline.messages, renamed, messages.notes)


@dataclass
class _Timestamped:
    """The original design's messages carry no times: each gets the session's."""

    rows: _Messages
    created: float
    updated: float

    def __iter__(self) -> Iterator[tuple[int, int | None, NewMessage, float | None, float | None]]:
        for number, parent, message, _, _ in self.rows:
            yield number, parent, message, self.created, self.updated


def _text_of(content: Any) -> str:
    if isinstance(content, list):  # OpenAI content parts: keep the text
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else ""


def _content(m: dict[str, Any], where: str) -> str | None:
    content = m.get("content")
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        return _text_of(content)
    raise ImportProblem(f"{where}: `content` is {type(content).__name__}, not text")


def _tool_calls(m: dict[str, Any], where: str) -> list[dict[str, Any]] | None:
    calls = m.get("tool_calls")
    if not calls:
        return None
    if not isinstance(calls, list):
        raise ImportProblem(f"{where}: `tool_calls` is not a list")
    checked = []
    for number, call in enumerate(calls, 1):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(call.get("id"), str) or not call["id"] \
                or not isinstance(function.get("name"), str) or not function["name"]:
            raise ImportProblem(f"{where}: tool call {number} needs an `id` and a `function` with a `name`")
        arguments = function.get("arguments", "")
        if not isinstance(arguments, str):  # some exporters store the arguments as an object
            call = {**call, "function": {**function, "arguments": json.dumps(arguments, ensure_ascii=False)}}
        checked.append(call)
    return checked


def _new_message(m: dict[str, Any], where: str, open_calls: frozenset[str]) -> NewMessage:
    """One stored message; anything that is not valid conversation becomes a note (see `_Messages`)."""
    role = m.get("role")
    if not isinstance(role, str) or not role.strip():
        raise ImportProblem(f"{where}: has no `role`")
    content = _content(m, where)
    tokens = m.get("tokens") if _is_int(m.get("tokens")) else None
    if role == "user":
        return NewMessage("user", content, tokens=tokens)
    if role == "assistant":
        finish = m.get("finish_reason")
        # Ours is `reasoning`; an OpenAI-style file from a reasoning model has `reasoning_content`.
        reasoning = next((v for v in (m.get("reasoning"), m.get("reasoning_content")) if isinstance(v, str) and v), None)
        return NewMessage("assistant", content, tool_calls=_tool_calls(m, where),
                          finish_reason=finish if isinstance(finish, str) and finish else "stop",
                          interrupted=bool(m.get("interrupted", False)), tokens=tokens, reasoning=reasoning,
                          reasoning_ms=m.get("reasoning_ms") if reasoning and _is_int(m.get("reasoning_ms")) else None,
                          reasoning_tokens=m.get("reasoning_tokens") if reasoning and _is_int(m.get("reasoning_tokens"))
                          else None, model=clean_model_name(m.get("model")))
    if role == "tool" and isinstance(m.get("tool_call_id"), str) and m["tool_call_id"] in open_calls:
        name = m.get("name")
        return NewMessage("tool", content, tool_call_id=m["tool_call_id"], name=name if isinstance(name, str) else None,
                          tokens=tokens)
    # A note keeps its text and says what it was; a re-imported note stays the note it was.
    original = (m.get("name") if role == NOTE else None) or role
    return NewMessage(NOTE, content, name=" ".join(str(original).split())[:40], tokens=tokens)


def _timestamp(value: Any) -> float | None:
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return None
    return None


def export_markdown(store: Any, session_id: str, *, known_secrets: Iterable[str] = (),
                    language: str | None = "en") -> str:
    """The session as Markdown, its headings and labels in `language` (core/exports/words.py)."""
    from hermes_desktop.core.exports.words import export_words

    words = export_words(language)
    info = store.get_session(session_id)
    if info is None:
        raise SessionNotFound(f"no session {session_id!r}")
    secrets = tuple(known_secrets)
    history: list[StoredMessage] = store.messages(session_id)
    results = {m.tool_call_id: m for m in history if m.role == "tool"}
    lines = [f"# {info.title or words['untitled']}", ""]
    meta = [words["created"].format(f"{datetime.fromtimestamp(info.created_at):%Y-%m-%d %H:%M}")]
    if info.model:
        meta.append(words["model"].format(info.model))
    meta.append(words["messages"].format(len(history)))
    lines += ["*" + " · ".join(meta) + "*", ""]
    previous = None
    sources, turn = _cited_sources(store, session_id), None
    for m in history:
        if m.role == "user":
            turn = m.id  # a turn's citations are keyed by its user message (core/knowledge/cited.py)
            lines += [f"## {words['you']}", "", m.content or "", ""]
            if m.attachments:
                attached = ", ".join(f"{a.name} ({a.kind})" for a in m.attachments)
                lines += ["*" + words["attached"].format(attached) + "*", ""]
        elif m.role == "assistant":
            if previous != "assistant":  # one heading per reply, however many tool rounds it took
                lines += [f"## {_reply_heading(words['assistant'], m.model)}", ""]
            if m.reasoning:
                lines += _thinking_markdown(m, words)
            if m.content:
                lines += [m.content, ""]
                lines += _sources_markdown(m.content, sources.get(turn) if turn is not None else None)
            if m.interrupted:
                lines += [f"*{words['interrupted']}*", ""]
            for call in m.tool_calls or []:
                lines += _tool_call_markdown(call, results.get(call.get("id")), words)
        elif m.role == SUMMARY:
            lines += [f"## {words['summary']}", "", m.content or "", ""]
        elif m.role not in CONVERSATION_ROLES:  # notes, and `system` messages of older versions
            lines += [f"## {words['note_message'].format(m.name or m.role)}", "", m.content or "", ""]
        if m.role != "tool":
            previous = m.role
    return redact_text("\n".join(lines).rstrip() + "\n", secrets)


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def _reply_heading(assistant: str, model: str | None) -> str:
    """A reply's heading: "Hermes · deepseek-chat" as in the window; the name escaped, so it stays plain text."""
    if not model:
        return assistant
    return f"{assistant} · " + _MARKDOWN_SPECIAL.sub(lambda match: "\\" + match.group(1), model)


def _cited_sources(store: Any, session_id: str) -> dict[int, dict[int, dict[str, Any]]]:
    from hermes_desktop.core.knowledge.cited import session_sources

    return session_sources(store, session_id)


def _sources_markdown(text: str, passages: dict[int, dict[str, Any]] | None) -> list[str]:
    """The knowledge passages a reply's [n] markers cite, listed under it."""
    from hermes_desktop.core.knowledge.cited import cited, markdown_lines

    return markdown_lines(cited(text, passages))


def _thinking_markdown(m: StoredMessage, words: dict[str, str]) -> list[str]:
    """The reply's reasoning as a collapsed block; escaped, so a `</details>` in it cannot close the block."""
    # The window's words and rounding: "Thought for N s", at least 1 s.
    summary = words["thought_for"].format(max(1, round(m.reasoning_ms / 1000))) if m.reasoning_ms is not None \
        else words["thinking"]
    body = html.escape(m.reasoning or "", quote=False)
    return ["<details>", f"<summary>{summary}</summary>", "", "<pre>", body, "</pre>", "", "</details>", ""]


def _tool_call_markdown(call: dict[str, Any], result: StoredMessage | None, words: dict[str, str]) -> list[str]:
    function = call.get("function", {})
    try:
        arguments = json.dumps(json.loads(function.get("arguments") or "{}"), ensure_ascii=False, indent=2)
    except ValueError:
        arguments = function.get("arguments", "")
    output = result.content if result is not None and result.content else words["no_result"]
    fence = "````" if "```" in output or "```" in arguments else "```"
    return [
        "<details>", f"<summary>{words['tool_call'].format('<code>' + str(function.get('name', '?')) + '</code>')}"
        "</summary>", "", f"{fence}json", arguments, fence, "", words["result_label"], "", fence, output, fence, "",
        "</details>", "",
    ]

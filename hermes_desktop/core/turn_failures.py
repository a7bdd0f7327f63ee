"""A turn that failed after its user message was stored keeps its error with the session, so its card is still there
after the window is closed and opened again (issue 24: a "not sent" card that vanished on restart left a question
with no answer and no Retry).

One row per session (table `turn_failures`, migration 12): the user message the failed turn answered and the error
as the window words it (TurnError's kind, code, parameters and English message; its `detail` is left out, as it is
for the log's reader only). The row is written before TurnFinished, so whoever reads the session after the turn sees
it; the next turn of the session (a new message, Retry, Regenerate, an edit) removes it as it starts, so only the
latest unanswered failure is ever shown. Deleting the session or the message deletes the row (cascade).

What is kept is redacted as memories are (core/redact.redact_stored: the app's own secrets and every common key
format), since a server's own words travel in the parameters. Keeping it is best effort: a store that cannot write
(a full disk, which may be why the turn failed) loses only the card, never the turn's report.

Like core/conversation_summary.py it reads and writes through the SQLite store's own transactions (`_read`,
`_write`); another store (a test double of the protocol) simply keeps no failures.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Collection

from hermes_desktop.core.events import ErrorAction, ErrorKind, TurnError
from hermes_desktop.core.redact import redact_stored

log = logging.getLogger(__name__)

Call = Callable[..., Awaitable[Any]]  # runs a blocking store function off the loop (the agent's store executor)


@dataclass(frozen=True, slots=True)
class TurnFailure:
    """The kept error of a session's latest turn: the user message it answered, and the error to show."""

    session_id: str
    message_id: int
    error: TurnError
    at: float = field(default=0.0)


def _sqlite(store: Any) -> bool:
    return callable(getattr(store, "_write", None)) and callable(getattr(store, "_read", None))


def _redacted(value: Any, secrets: Collection[str]) -> Any:
    if isinstance(value, str):
        return redact_stored(value, secrets)
    if isinstance(value, dict):
        return {str(k): _redacted(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redacted(v, secrets) for v in value]
    return value if isinstance(value, (int, float, bool)) or value is None else str(value)


def encode(error: TurnError, secrets: Collection[str] = ()) -> str:
    """The error as stored: JSON of what the window words it from, redacted."""
    data = {"kind": str(error.kind.value), "message": error.message, "code": error.code,
            "action": error.action.value if error.action is not None else None, "params": dict(error.params)}
    return json.dumps(_redacted(data, tuple(secrets)), ensure_ascii=False, default=str)


def decode(text: str) -> TurnError | None:
    """A stored error back as a TurnError; None when it does not read back (then no card, never a failed page)."""
    try:
        data = json.loads(text)
        kind = ErrorKind(data["kind"])
        action = ErrorAction(data["action"]) if data.get("action") else None
        params = data.get("params") or {}
        if not isinstance(params, dict):
            params = {}
        return TurnError(kind, str(data.get("message") or ""), action, code=str(data.get("code") or ""),
                         params=params)
    except (ValueError, TypeError, KeyError):
        return None


def save(store: Any, session_id: str, message_id: int, error: TurnError, secrets: Collection[str] = ()) -> None:
    """Keep `error` as the session's failure (replacing an older one)."""
    if not _sqlite(store):
        return
    stored = encode(error, secrets)

    def work(db: Any) -> None:
        db.execute("INSERT OR REPLACE INTO turn_failures (session_id, message_id, error, at) VALUES (?,?,?,?)",
                   (session_id, message_id, stored, time.time()))

    store._write(work, "the error card of the failed turn was not saved")


def clear(store: Any, session_id: str) -> None:
    """A new turn of the session starts: its earlier failure is no longer the latest word."""
    if not _sqlite(store):
        return
    # Read first: most turns have nothing to clear and need no write transaction.
    if store._read("SELECT 1 FROM turn_failures WHERE session_id = ?", (session_id,)):
        store._write(lambda db: db.execute("DELETE FROM turn_failures WHERE session_id = ?", (session_id,)),
                     "the old error card was not removed")


def load(store: Any, session_id: str) -> TurnFailure | None:
    """The session's kept failure, if any (None also when the table cannot be read: an older read-only file)."""
    if not _sqlite(store):
        return None
    try:
        rows = store._read("SELECT message_id, error, at FROM turn_failures WHERE session_id = ?", (session_id,))
    except Exception:  # noqa: BLE001 - an unreadable or older database: the page shows without the card
        log.debug("no turn failures", exc_info=True)
        return None
    if not rows:
        return None
    error = decode(rows[0]["error"])
    if error is None:
        return None
    return TurnFailure(session_id, int(rows[0]["message_id"]), error, float(rows[0]["at"]))


async def keep(call: Call, store: Any, session_id: str, message_id: int | None, error: TurnError,
               secrets: Collection[str] = ()) -> None:
    """Save the failure of a turn whose user message is stored (`message_id`); never raises."""
    if message_id is None:  # nothing was stored: the window gives the text back to the message box instead
        return
    try:
        await call(save, store, session_id, message_id, error, secrets)
    except Exception:  # noqa: BLE001 - a full disk may be why the turn failed: the card is lost, the report is not
        log.warning("the failed turn's error card could not be kept", exc_info=True)


async def forget(call: Call, store: Any, session_id: str) -> None:
    """Remove the session's kept failure as a new turn starts; never raises."""
    try:
        await call(clear, store, session_id)
    except Exception:  # noqa: BLE001 - a stale card is shown at worst, and the turn goes on
        log.warning("the earlier error card could not be removed", exc_info=True)

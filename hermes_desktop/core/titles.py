"""Session titles made by the model from the first exchange: short, in the user's language.

A trimmed first line is set as soon as the first reply finishes (core/agent.py); this
replaces it when a model is available. It never replaces a title the user typed, and
any failure (timeout, error, a rambling answer) leaves the first-line title in place.
Store calls run on the store executor (core/executors.py), never on the tools' threads.
Reasoning never goes in: the title is made from the messages' `content` only, and a reasoning
model's thinking while it writes the title is left out of `StreamDone.text`.

`ask` (cli.py) titles a new session from its first message alone (`title_from_first_message`), asked while
the reply streams instead of after it: the title request was a second round trip the command waited for
after printing the reply (~40 ms against a local server, a whole request's latency against a remote one).
It is sent once the model has begun the reply (its first text, thinking or tool call), never before: a
local server with one slot answers the reply first and only then the title, so the reply never waits for a
title. The title is stored (`store_model_title`) only when the turn finished well, after the agent's
first-line title, and never over a title the user typed meanwhile. Its bound is the same TITLE_TIMEOUT_S,
counted from the end of the reply (`finish_title`), not from when it was sent: a long reply from a server that
answers one request at a time (the title waits in its queue) must not use up the title's time, and `ask` never
waits longer for a title after the reply than it did before; a title request that fails or hangs leaves the
first-line title and loses nothing else. The window keeps titling
from the first exchange (`retitle_session`, after the reply): it does not wait for the title to go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any

from hermes_desktop.core.terminal_text import strip_controls
from hermes_desktop.core.executors import run_store
from hermes_desktop.core.llm import ChatRequest, ModelClient, ModelError, StreamDone

log = logging.getLogger(__name__)

TITLE_TIMEOUT_S = 20.0
MAX_TITLE_CHARS = 60
_PROMPT = ("Write a title for this conversation in at most 6 words, in the same language the user wrote in. "
           "Reply with the title only: no quotes, no trailing punctuation, no explanation.")


def clean_title(raw: str) -> str | None:
    # A title is printed by `sessions list` and drawn in the sidebar: the model's escape sequences never reach either.
    line = next((part.strip() for part in strip_controls(raw).strip().splitlines() if part.strip()), "")
    line = re.sub(r"^(title|标题)\s*[:：]\s*", "", line, flags=re.I)
    line = line.strip(" \"'“”‘’`*#。.!！")
    if not line or len(line) > MAX_TITLE_CHARS:
        return None
    return line


async def generate_title(model: ModelClient, user_text: str, reply_text: str | None, *,
                         bounded: bool = True, session_id: str | None = None) -> str | None:
    """The model's title for an exchange, or for a first message alone (`reply_text` None); None on failure.
    At most TITLE_TIMEOUT_S, unless `bounded` is False (the caller bounds it then: `finish_title`)."""
    exchange = f"User:\n{user_text[:1500]}"
    if reply_text is not None:
        exchange += f"\n\nAssistant:\n{reply_text[:1500]}"
    request = ChatRequest([{"role": "system", "content": _PROMPT}, {"role": "user", "content": exchange}],
                          purpose="title", session_id=session_id)
    try:
        async with asyncio.timeout(TITLE_TIMEOUT_S if bounded else None):
            async with contextlib.aclosing(model.stream(request)) as stream:
                async for item in stream:
                    if isinstance(item, StreamDone):
                        return clean_title(item.text)
    except (ModelError, TimeoutError) as exc:
        log.info("no model title: %s", exc)
    return None


async def retitle_session(store: Any, model: ModelClient | None, session_id: str) -> str | None:
    """Give the session a model-made title if it still has an automatic one. Returns the new title."""
    if model is None:
        return None
    details = await run_store(store.session_details, session_id)
    if details is None or details.title_source not in ("none", "fallback"):
        return None
    history = await run_store(store.messages, session_id)
    user = next((m.content for m in history if m.role == "user" and m.content), None)
    reply = next((m.content for m in history if m.role == "assistant" and m.content), None)
    if not user or not reply:
        return None
    title = await generate_title(model, user, reply, session_id=session_id)
    if title:
        await run_store(store.set_title, session_id, title, source="model")
    return title


def _untitled(details: Any) -> bool:
    """Whether a session's title may still be replaced by the model's (none yet, or the first-line one)."""
    return details is not None and details.title_source in ("none", "fallback")


async def title_from_first_message(store: Any, model: ModelClient | None, session_id: str) -> str | None:
    """`ask`: the model's title for a session that has no title of its own yet, made from its first user
    message (see the module docstring). Returns it without storing it (`store_model_title`), or None."""
    if model is None:
        return None
    details = await run_store(store.session_details, session_id)
    if not _untitled(details):
        return None
    history = await run_store(store.messages, session_id)
    user = next((m.content for m in history if m.role == "user" and m.content), None)
    if not user:
        return None
    return await generate_title(model, user, None, bounded=False, session_id=session_id)  # bounded from the reply's end: finish_title


async def finish_title(store: Any, session_id: str, titling: "asyncio.Future[str | None]") -> bool:
    """`ask`, once the turn finished well: wait at most TITLE_TIMEOUT_S more for the title asked while the reply
    streamed (`title_from_first_message`), then store it (`store_model_title`). True when a title was stored;
    a title that does not come in time is given up (its request cancelled) and the first-line title stays."""
    try:
        title = await asyncio.wait_for(titling, TITLE_TIMEOUT_S)
    except TimeoutError:
        log.info("no model title: none within %.0f s of the reply", TITLE_TIMEOUT_S)
        return False
    return await store_model_title(store, session_id, title)


async def store_model_title(store: Any, session_id: str, title: str | None) -> bool:
    """Store a model-made title unless the session has one the user typed (or none is given). True when stored."""
    if not title or not _untitled(await run_store(store.session_details, session_id)):
        return False
    await run_store(store.set_title, session_id, title, source="model")
    return True

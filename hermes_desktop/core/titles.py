"""Session titles made by the model from the first exchange: short, in the user's language.

A trimmed first line is set as soon as the first reply finishes (core/agent.py); this
replaces it when a model is available. It never replaces a title the user typed, and
any failure (timeout, error, a rambling answer) leaves the first-line title in place.
Store calls run on the store executor (core/executors.py), never on the tools' threads.
Reasoning never goes in: the title is made from the messages' `content` only, and a reasoning
model's thinking while it writes the title is left out of `StreamDone.text`.
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


async def generate_title(model: ModelClient, user_text: str, reply_text: str) -> str | None:
    request = ChatRequest([
        {"role": "system", "content": _PROMPT},
        {"role": "user", "content": f"User:\n{user_text[:1500]}\n\nAssistant:\n{reply_text[:1500]}"},
    ])
    try:
        async with asyncio.timeout(TITLE_TIMEOUT_S):
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
    title = await generate_title(model, user, reply)
    if title:
        await run_store(store.set_title, session_id, title, source="model")
    return title

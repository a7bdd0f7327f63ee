"""Start a new session from a summary of one that outgrew the model's context window.

The model summarises the newest part of the old session that fits half its
context; the new session begins with that summary (a message of role "summary", which the
request builder puts into the system message: core/context.py), so the conversation can go on
without the old history. The old session is untouched.
The transcript is made of `content` only: a reply's reasoning is never summarised (nor the thinking
the model does while summarising).
"""

from __future__ import annotations

import contextlib
from typing import Any

from hermes_desktop.core.events import ErrorKind
from hermes_desktop.core.executors import run_store
from hermes_desktop.core.llm import ChatRequest, ModelClient, ModelError, StreamDone
from hermes_desktop.core.session_types import SUMMARY, NewMessage
from hermes_desktop.core.tokens import estimate_message_tokens

_PROMPT = ("Summarise the conversation below so that it can be continued in a new chat. Keep every fact, decision, "
           "open question, file name and number that matters, in the language the user wrote in. Use short Markdown "
           "bullet points. Do not add anything that was not said.")


def _transcript(messages: list[Any], budget_tokens: int) -> str:
    chosen: list[str] = []
    used = 0
    for message in reversed(messages):
        if message.role not in ("user", "assistant") or not message.content:
            continue
        cost = estimate_message_tokens({"content": message.content})
        if used + cost > budget_tokens and chosen:
            break
        used += cost
        chosen.append(f"{'User' if message.role == 'user' else 'Assistant'}: {message.content}")
    return "\n\n".join(reversed(chosen))


async def summarise_session(store: Any, model: ModelClient | None, session_id: str) -> str:
    """Returns the new session's id. Raises ModelError when no summary could be made."""
    if model is None:
        raise ModelError(ErrorKind.NOT_CONFIGURED, "No model is set up to write the summary.")
    info = await run_store(store.get_session, session_id)
    history = await run_store(store.messages, session_id)
    text = _transcript(history, model.profile.context_window // 2)
    request = ChatRequest([{"role": "system", "content": _PROMPT}, {"role": "user", "content": text}],
                          purpose="summary", session_id=session_id)
    summary = ""
    async with contextlib.aclosing(model.stream(request)) as stream:
        async for item in stream:
            if isinstance(item, StreamDone):
                summary = item.text.strip()
    title = f"{(info.title if info else '') or 'Session'} (continued)"
    new = await run_store(store.create_session, title=title, profile_id=model.profile.id,
                          model=model.profile.model)
    note = f"Summary of the earlier conversation “{info.title if info else session_id}”:\n\n{summary}"
    await run_store(store.append_message, new.id, NewMessage(SUMMARY, note))
    return new.id

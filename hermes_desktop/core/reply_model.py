"""The model that wrote a reply, as the app keeps and shows it (messages.model, migration 11).

What is recorded is the model the app asked for (the profile's model at the time of the request, the name the
user picked in the model picker or with `ask --model`), not the `model` field a server echoes in its chunks:
routers answer with dated or rewritten names (`gpt-4o-2024-08-06`, `openrouter/auto` → a vendor's id) and some
local servers echo the file path of the weights, so the requested name is the one the user recognises and can
pick again. Usage records (core/usage) keep the same name, so a reply and its cost agree.

A name comes from settings, a synced device or an imported file, so it is cleaned once, where it enters the
store: escape sequences and control characters removed (a name is shown in the reply header and printed by the
CLI), bidi overrides shown as escapes, whitespace collapsed, at most `MAX_MODEL_NAME` characters. Only assistant
messages carry one.
"""

from __future__ import annotations

from typing import Any

from hermes_desktop.core.terminal_text import safe_name

MAX_MODEL_NAME = 200


def clean_model_name(value: Any) -> str | None:
    """`value` as a model name to keep, or None when it is not a usable one (not text, empty once cleaned)."""
    if not isinstance(value, str):
        return None
    name = " ".join(safe_name(value).split())[:MAX_MODEL_NAME].strip()
    return name or None


def reply_model(message: Any) -> str | None:
    """The name to store with `message` (a NewMessage): its model for a reply, None for every other role."""
    return clean_model_name(getattr(message, "model", None)) if message.role == "assistant" else None

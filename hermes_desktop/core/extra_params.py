"""Extra request parameters: what a provider profile adds to every chat request body.

The user writes them as a JSON object (`{"enable_thinking": true}`, `{"thinking": {"type": "enabled"}}`). Two
kinds of field are never sent from there: the ones Hermes sets itself (overriding `model` or `messages` would
break or hijack the request) and ones that look like credentials (keys belong in the keyring, and settings.json
is not secret). The settings dialog refuses both; the model client drops both again, for a settings file
written by hand or by an older version.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

# Request fields Hermes sets itself: overriding them from the extra parameters would break the request.
RESERVED_FIELDS = frozenset({"model", "messages", "stream", "stream_options", "tools", "tool_choice"})
# Field names that carry credentials: those belong in the keyring (the key field), never in settings.json.
_SECRET_WORDS = ("api_key", "apikey", "api-key", "authorization", "secret", "password", "access_token", "bearer")
_SECRET_NAMES = frozenset({"key", "token", "auth"})


def parse_extra_params(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The extra request parameters as a dict, or None and what is wrong with them (English; the dialog
    translates the fixed parts). Empty text is an empty object."""
    if not text.strip():
        return {}, None
    try:
        value = json.loads(text)
    except ValueError as exc:
        return None, str(exc)
    if not isinstance(value, dict):
        return None, "not an object"
    reserved = sorted(RESERVED_FIELDS & set(value))
    if reserved:
        return None, "reserved:" + ", ".join(reserved)
    secret = _secret_field(value)
    if secret is not None:
        return None, "secret:" + secret
    return value, None


def _secret_field(value: Any) -> str | None:
    """The first field name (at any depth) that looks like it holds a credential."""
    if isinstance(value, dict):
        for name, inner in value.items():
            lowered = str(name).lower()
            if lowered in _SECRET_NAMES or any(word in lowered for word in _SECRET_WORDS):
                return str(name)
            found = _secret_field(inner)
            if found is not None:
                return found
    elif isinstance(value, list):
        for inner in value:
            found = _secret_field(inner)
            if found is not None:
                return found
    return None


def usable_extra_params(params: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The fields that may be sent, and the names of those dropped (reserved, or credential-like)."""
    kept: dict[str, Any] = {}
    dropped: list[str] = []
    for name, value in params.items():
        if name in RESERVED_FIELDS or _secret_field({name: value}) is not None:
            dropped.append(str(name))
        else:
            kept[name] = value
    return kept, dropped

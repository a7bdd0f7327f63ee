"""Talking to OpenAI-compatible model servers: streaming, tool-call assembly, error mapping.

- `client.ModelClient` streams one chat completion with retries and tool-mode fallback.
- `assembly` turns streamed tool-call fragments into whole calls, tolerating sloppy servers.
- `text_protocol` is the `<tool_call>` prompt format for models without native tool calling.
- `errors` maps every failure to a `ModelError` a user can understand.

Names are re-exported lazily: importing `core.llm.assembly` must not import the openai SDK
(the window imports the former before its first paint; the latter takes ~0.4 s).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers; at run time the names load on first use (below)
    from hermes_desktop.core.llm.assembly import RawToolCall
    from hermes_desktop.core.llm.client import (
        ChatRequest,
        HistoryAsText,
        ModelClient,
        ReasoningEchoLearned,
        ReasoningPiece,
        ReplyEnd,
        RetryNotice,
        RetryPolicy,
        StreamDone,
        StreamItem,
        TextPiece,
        ToolModeSwitched,
    )
    from hermes_desktop.core.llm.errors import ModelError

_EXPORTS = {
    "RawToolCall": "assembly",
    "ChatRequest": "client",
    "HistoryAsText": "client",
    "ModelClient": "client",
    "ReplyEnd": "client",
    "ReasoningPiece": "client",
    "ReasoningEchoLearned": "client",
    "RetryPolicy": "client",
    "StreamDone": "client",
    "TextPiece": "client",
    "ToolModeSwitched": "client",
    "RetryNotice": "client",
    "StreamItem": "client",
    "ModelError": "errors",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)

"""Talking to OpenAI-compatible model servers: streaming, tool-call assembly, error mapping.

- `client.ModelClient` streams one chat completion with retries and tool-mode fallback.
- `assembly` turns streamed tool-call fragments into whole calls, tolerating sloppy servers.
- `text_protocol` is the `<tool_call>` prompt format for models without native tool calling.
- `errors` maps every failure to a `ModelError` a user can understand.
"""

from hermes_desktop.core.llm.assembly import RawToolCall
from hermes_desktop.core.llm.client import (
    ChatRequest,
    ModelClient,
    RetryPolicy,
    StreamDone,
    TextPiece,
    ToolModeSwitched,
    RetryNotice,
    StreamItem,
)
from hermes_desktop.core.llm.errors import ModelError

__all__ = [
    "ChatRequest",
    "ModelClient",
    "ModelError",
    "RawToolCall",
    "RetryNotice",
    "RetryPolicy",
    "StreamDone",
    "StreamItem",
    "TextPiece",
    "ToolModeSwitched",
]

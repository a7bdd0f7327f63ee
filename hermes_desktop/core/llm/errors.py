"""Map every way a model request can fail to one `ModelError` with words a user understands.

`classify()` is pure: it looks at the exception (and where it happened) and never
does I/O, so each mapping is unit-tested directly as well as end-to-end against
the scripted server and the recorded real providers (tests/core/test_provider_recordings.py).

The provider's own error code decides first (`error.code` / `error.type` in the body: `context_length_exceeded`,
`model_not_found`, `insufficient_quota`, Groq's `tool_use_failed`, …); the loose patterns over the message are
the fallback for servers that send no code. Two codes are easy to mistake for others by their words:
- Groq's `tool_use_failed` ("Tool call validation failed: … invalid_param …") means the MODEL wrote a bad call;
  it says nothing about whether the server accepts tools, so it never switches the session to text tool calls;
- an in-stream error after the reply already finished with `finish_reason: length` (OpenRouter/Minimax's
  "Token limit reached") is the reply hitting its output limit, not the conversation being too long.
The server's words are kept as it said them; OpenRouter's upstream reason (`error.metadata.raw`, e.g. the
upstream's own 429 text) is added to them, with the upstream's name.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:  # imported where used: the window idles without the SDK until a model is first asked (issue 28)
    import openai

from hermes_desktop.core.events import ErrorAction, ErrorKind
from hermes_desktop.core.redact import redact_text

_CONTEXT_TOO_LONG = re.compile(
    r"context[_ ]length|maximum context|context window|too many tokens|prompt is too long|"
    r"reduce the length|input is too long|exceeds? the (?:model'?s? )?(?:max|limit)|(?:input|prompt|context) token limit",
    re.I,
)
_TOOLS_UNSUPPORTED = re.compile(
    r"tools?\b.*(?:not supported|unsupported|not enabled|does not support|doesn't support|not allowed|unknown|unrecognized|invalid|--jinja)|"
    r"(?:does not|doesn't) support (?:tools|tool|function)|function calling is not|tool_choice",
    re.I,
)
_STREAM_OPTIONS_UNSUPPORTED = re.compile(r"stream_options", re.I)
# "The model `gpt-4.1-mini` does not exist": a model's name may hold dots, slashes and colons, so the words after
# "model" are matched within one sentence's length, not up to the first dot.
_MODEL_NOT_FOUND = re.compile(
    r"model\b.{0,160}?(?:not found|does not exist|not exist|unknown|no such|not supported by)|model_not_found|"
    r"invalid model|unknown model|no such model", re.I)
# Provider error codes (the body's `error.code` or `error.type`), which decide before the patterns above.
_CONTEXT_CODES = frozenset({"context_length_exceeded", "context_too_long", "string_above_max_length"})
_MODEL_CODES = frozenset({"model_not_found", "model_not_available", "invalid_model"})
_QUOTA_CODES = frozenset({"insufficient_quota", "billing_hard_limit_reached", "payment_required"})
_TOOL_CALL_CODES = frozenset({"tool_use_failed", "tool_call_validation_failed", "invalid_tool_call"})
_QUOTA = re.compile(r"insufficient_quota|quota|billing|credit", re.I)

_SERVER_MESSAGE_LIMIT = 300


@dataclass(slots=True)
class ModelError(Exception):
    kind: ErrorKind
    message: str
    action: ErrorAction | None = None
    detail: str = ""
    retryable: bool = False
    retry_after_s: float | None = None
    status: int | None = None
    # Capabilities the server rejected; the client adapts and retries instead of failing.
    tools_unsupported: bool = False
    stream_options_unsupported: bool = False
    # A 400 whose message names `reasoning_content` (DeepSeek's thinking mode wants reasoning sent back).
    wants_reasoning_echo: bool = False
    # What happened as a code and its parameters (host, model, status, the server's own words, retry_after_s), for
    # a UI that words it in the user's language; `message` stays the English sentence (CLI, log, `ask --json`).
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def _host(base_url: str) -> str:
    """The server as a message names it: host and port, never the `user:password@` a URL may carry."""
    parts = urlsplit(base_url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if not parts.hostname:
        return redact_text(base_url)
    return f"{parts.hostname}:{port}" if port else parts.hostname


def classify(
    exc: BaseException,
    *,
    base_url: str,
    model: str,
    during_stream: bool = False,
    sent_tools: bool = False,
    sent_stream_options: bool = False,
    known_secrets: tuple[str, ...] = (),
    finish_reason: str | None = None,
) -> ModelError:
    """Turn an exception from the openai client (or the stream) into a ModelError.

    `finish_reason` is the one the reply had already sent when an in-stream error arrived (None otherwise)."""
    if isinstance(exc, ModelError):
        return exc
    import openai

    host = _host(base_url)
    server_text = redact_text(_server_message(exc), known_secrets)
    detail = redact_text(f"{type(exc).__name__}: {exc}", known_secrets)[:1000]

    if isinstance(exc, openai.APIStatusError):
        return _classify_status(exc, host=host, model=model, server_text=server_text, detail=detail,
                                sent_tools=sent_tools, sent_stream_options=sent_stream_options)
    if isinstance(exc, openai.APITimeoutError):
        if during_stream:
            return ModelError(ErrorKind.TIMEOUT, "The model server stopped sending the reply and timed out. "
                              "What arrived is kept.", ErrorAction.RETRY, detail, retryable=True,
                              code="stream_timeout", params={"host": host})
        return ModelError(ErrorKind.TIMEOUT, f"The model server at {host} did not answer in time.",
                          ErrorAction.RETRY, detail, retryable=True, code="timeout", params={"host": host})
    if isinstance(exc, openai.APIConnectionError):
        if during_stream:
            return ModelError(ErrorKind.STREAM_DROPPED, "The connection dropped while the reply was streaming. "
                              "What arrived is kept.", ErrorAction.RETRY, detail, retryable=True,
                              code="stream_dropped", params={"host": host})
        return ModelError(ErrorKind.CONNECTION, f"Can't reach the model server at {host}. Check that it is running "
                          "and that the base URL is right.", ErrorAction.OPEN_PROVIDER_SETTINGS, detail, retryable=True,
                          code="connection", params={"host": host})
    if isinstance(exc, (json.JSONDecodeError, openai.APIResponseValidationError, UnicodeDecodeError)):
        return ModelError(ErrorKind.MALFORMED_RESPONSE, "The model server sent a reply Hermes could not read. "
                          "What arrived is kept.", ErrorAction.RETRY, detail, retryable=not during_stream,
                          code="malformed", params={"host": host})
    if isinstance(exc, openai.APIError):
        # Errors sent inside the event stream ({"error": {...}} as an SSE data line, or an `event: error`).
        codes = _error_codes(exc)
        if finish_reason == "length":
            return _output_limit(detail, server_text, host)
        if codes & _TOOL_CALL_CODES:
            return _tool_call_rejected(detail, server_text, host, retryable=not during_stream)
        if codes & _CONTEXT_CODES or (not codes and _CONTEXT_TOO_LONG.search(server_text)):
            return _context_too_long(detail, server_text)
        message = f"The model server reported an error: {server_text}" if server_text else \
            "The model server reported an error while streaming."
        return ModelError(ErrorKind.SERVER, message, ErrorAction.RETRY, detail, retryable=not during_stream,
                          code="stream_error", params={"host": host, "server": server_text})
    return ModelError(ErrorKind.INTERNAL, f"Unexpected error while talking to the model: {type(exc).__name__}.",
                      ErrorAction.RETRY, detail, code="internal", params={"error": type(exc).__name__})


def _classify_status(
    exc: openai.APIStatusError, *, host: str, model: str, server_text: str, detail: str,
    sent_tools: bool, sent_stream_options: bool,
) -> ModelError:
    status = exc.status_code
    said = f" The server said: {server_text}" if server_text else ""
    said_params: dict[str, Any] = {"host": host, "server": server_text}
    codes = _error_codes(exc)
    if status == 401:
        return ModelError(ErrorKind.AUTH, f"The provider rejected the API key (401).{said} "
                          "Check the key in provider settings.", ErrorAction.OPEN_PROVIDER_SETTINGS, detail, status=status,
                          code="auth_rejected", params={**said_params, "status": status})
    if status == 403:
        return ModelError(ErrorKind.AUTH, f"The API key has no access to this model or endpoint (403).{said}",
                          ErrorAction.OPEN_PROVIDER_SETTINGS, detail, status=status,
                          code="auth_forbidden", params={**said_params, "status": status})
    if status == 429:
        retry_after = _retry_after(exc)
        if codes & _QUOTA_CODES or (_QUOTA.search(server_text) and "rate" not in server_text.lower()):
            return ModelError(ErrorKind.RATE_LIMIT, f"The provider says the account is out of quota or credit (429).{said}",
                              ErrorAction.OPEN_PROVIDER_SETTINGS, detail, status=status,
                              code="quota", params={**said_params, "status": status})
        return ModelError(ErrorKind.RATE_LIMIT, f"The provider is rate limiting requests (429).{said}",
                          ErrorAction.RETRY, detail, retryable=True, retry_after_s=retry_after, status=status,
                          code="rate_limited", params={**said_params, "status": status, "retry_after_s": retry_after})
    if status >= 500 or status in (408, 409):
        return ModelError(ErrorKind.SERVER, f"The model server had an error ({status}).{said}", ErrorAction.RETRY,
                          detail, retryable=True, retry_after_s=_retry_after(exc), status=status,
                          code="server_error", params={**said_params, "status": status})
    if sent_stream_options and _STREAM_OPTIONS_UNSUPPORTED.search(server_text):
        return ModelError(ErrorKind.BAD_REQUEST, server_text, None, detail, status=status, stream_options_unsupported=True,
                          code="refused", params={**said_params, "status": status})
    if codes & _TOOL_CALL_CODES:
        return _tool_call_rejected(detail, server_text, host, retryable=True, status=status)
    if codes & _MODEL_CODES:
        return _model_not_found(host, model, said, said_params, detail, status)
    if codes & _CONTEXT_CODES or _CONTEXT_TOO_LONG.search(server_text) or "context_length_exceeded" in detail:
        error = _context_too_long(detail, server_text)
        error.status = status
        return error
    if sent_tools and _TOOLS_UNSUPPORTED.search(server_text):
        return ModelError(ErrorKind.BAD_REQUEST, f"The model does not accept native tool calls.{said}", None, detail,
                          status=status, tools_unsupported=True, code="tools_unsupported", params=dict(said_params))
    if status == 404 or _MODEL_NOT_FOUND.search(server_text):
        if _MODEL_NOT_FOUND.search(server_text) or (model and model in server_text):
            return _model_not_found(host, model, said, said_params, detail, status)
        return ModelError(ErrorKind.BAD_REQUEST, f"The server at {host} has no chat endpoint at this URL (404). "
                          "Check the base URL (many servers need it to end in /v1).",
                          ErrorAction.OPEN_PROVIDER_SETTINGS, detail, status=status,
                          code="no_chat_endpoint", params={"host": host})
    # The server's own words, verbatim: a refused `extra_params` field or `reasoning_effort` is explained there.
    return ModelError(ErrorKind.BAD_REQUEST, f"The model server refused the request ({status}).{said}",
                      ErrorAction.RETRY, detail, status=status,
                      wants_reasoning_echo=status == 400 and "reasoning_content" in server_text,
                      code="refused", params={**said_params, "status": status})


def _model_not_found(host: str, model: str, said: str, said_params: dict[str, Any], detail: str,
                     status: int) -> ModelError:
    return ModelError(ErrorKind.MODEL_NOT_FOUND, f"The server at {host} does not offer the model “{model}”.{said}",
                      ErrorAction.OPEN_PROVIDER_SETTINGS, detail, status=status,
                      code="model_not_found", params={**said_params, "model": model})


def _output_limit(detail: str, server_text: str, host: str) -> ModelError:
    """The reply had finished with `length` and the server then said so in an error: what arrived is the reply."""
    said = f" The server said: {server_text}" if server_text else ""
    return ModelError(ErrorKind.BAD_REQUEST, f"The reply reached the model's output limit.{said} What arrived is "
                      "kept; raise the profile's max output tokens for longer replies.", ErrorAction.RETRY, detail,
                      code="reply_output_limit", params={"host": host, "server": server_text})


def _tool_call_rejected(detail: str, server_text: str, host: str, *, retryable: bool,
                        status: int | None = None) -> ModelError:
    """The model wrote a tool call the server refused to pass on (Groq validates calls against their schema)."""
    said = f" The server said: {server_text}" if server_text else ""
    return ModelError(ErrorKind.BAD_REQUEST, f"The model wrote a tool call the server could not accept.{said}",
                      ErrorAction.RETRY, detail, retryable=retryable, status=status,
                      code="tool_call_rejected", params={"host": host, "server": server_text})


def _error_codes(exc: BaseException) -> frozenset[str]:
    """The provider's error code and type, lower-cased (`{"error": {"code": …, "type": …}}` or the body itself)."""
    body = getattr(exc, "body", None)
    found: set[str] = set()
    for holder in (body, body.get("error") if isinstance(body, dict) else None):
        if isinstance(holder, dict):
            for key in ("code", "type"):
                value = holder.get(key)
                if isinstance(value, str) and value:
                    found.add(value.strip().lower())
    code = getattr(exc, "code", None)
    if isinstance(code, str) and code:
        found.add(code.strip().lower())
    return frozenset(found)


def _context_too_long(detail: str, server_text: str) -> ModelError:
    return ModelError(ErrorKind.CONTEXT_TOO_LONG, "The conversation is too long for this model's context window. "
                      "Start a new session with a summary, or use a model with a larger context.",
                      ErrorAction.NEW_SESSION_WITH_SUMMARY, detail, code="context_too_long")


def _server_message(exc: BaseException) -> str:
    import openai

    body = getattr(exc, "body", None)
    message = ""
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            message = str(inner.get("message") or inner.get("code") or "")
        elif isinstance(inner, str):
            message = inner
        if not message and isinstance(body.get("message"), str):
            message = body["message"]
    elif isinstance(body, str):
        message = body
    if not message and isinstance(exc, openai.APIError):
        message = getattr(exc, "message", "") or ""
    upstream = _upstream_reason(body)
    if upstream and upstream not in message:
        message = f"{message} ({upstream})" if message else upstream
    message = " ".join(message.split())
    return message[:_SERVER_MESSAGE_LIMIT] + ("…" if len(message) > _SERVER_MESSAGE_LIMIT else "")


def _upstream_reason(body: Any) -> str:
    """OpenRouter's `error.metadata.raw`: the upstream provider's own words (often its 429 reason), with its name."""
    inner = body.get("error", body) if isinstance(body, dict) else None
    metadata = inner.get("metadata") if isinstance(inner, dict) else None
    if not isinstance(metadata, dict):
        return ""
    raw = metadata.get("raw")
    if isinstance(raw, (dict, list)):
        raw = json.dumps(raw, ensure_ascii=False)
    if not isinstance(raw, str) or not raw.strip():
        return ""
    name = metadata.get("provider_name")
    return f"{name}: {raw.strip()}" if isinstance(name, str) and name else raw.strip()


def _retry_after(exc: openai.APIStatusError) -> float | None:
    headers = exc.response.headers
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            continue
        if seconds >= 0:
            return seconds
    return None


# ---------------------------------------------------------------- image refusal (attachments, core/attachments.py)
# A 400 that says the model takes no image content: DeepSeek's "unknown variant `image_url`", OpenAI's
# "image_url is only supported by certain models", llama.cpp's "image input is not supported", vLLM's "is not a
# multimodal model", LM Studio's "Model does not support images". Deliberately needs a "no": an error about one
# image (too large, bad URL) must not switch a vision model to text-only.
_IMAGES_UNSUPPORTED = re.compile(
    r"unknown variant `?image_url|image_url[`'\"]? is only supported|"
    r"(?:does\s*n[o']?t|doesn't|cannot|can't|unable to) (?:support|accept|handle|process|read) "
    r"(?:image|images|vision|multimodal|multi-modal|image input|image content)|"
    r"(?:image|images|vision|multimodal|multi-modal)(?: input| content| inputs)? (?:is |are )?(?:not |un)(?:supported|allowed)|"
    r"not a (?:multimodal|multi-modal|vision) model|(?:only|just) supports? text",
    re.I,
)


def refuses_images(error: ModelError) -> bool:
    """True when a refused request's error says the model does not accept images."""
    return error.kind is ErrorKind.BAD_REQUEST and bool(
        _IMAGES_UNSUPPORTED.search(f"{error.message} {error.detail or ''}"))

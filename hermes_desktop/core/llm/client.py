"""Stream one chat completion from an OpenAI-compatible server, with retries and fallbacks.

Retries are done here rather than inside the SDK (`max_retries=0`) so that each
one is visible to the user as "retrying in N s" and can be cancelled at once.
Only failures before any reply text arrived are retried: a reply that dropped
half-way is never silently re-requested (that would duplicate text); the caller
keeps what arrived and offers Retry.

Tool mode `auto` starts native and switches to the text `<tool_call>` protocol
for the rest of this client's life when the server rejects the `tools` parameter.
Servers that reject `stream_options` are retried without it (usage then comes
from our own estimate).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Awaitable, Callable, Union

import openai

from hermes_desktop.core.events import ErrorKind
from hermes_desktop.core.llm.assembly import RawToolCall, ToolCallAssembler
from hermes_desktop.core.llm.errors import ModelError, classify
from hermes_desktop.core.llm.text_protocol import TextToolCallParser, to_text_protocol
from hermes_desktop.core.settings import ProviderProfile, ToolMode

log = logging.getLogger(__name__)

# The SDK insists on a key; local servers (Ollama, LM Studio) ignore whatever is sent.
NO_KEY_PLACEHOLDER = "no-key-needed"
# Longest stretch of stream parsing before letting the event loop run (paints, input, timers).
YIELD_EVERY_S = 0.008


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    max_retries: int = 2
    base_delay_s: float = 1.0
    max_delay_s: float = 8.0
    # A Retry-After longer than this is not waited for: the user is told instead.
    max_retry_after_s: float = 60.0

    def delay_for(self, attempt: int, retry_after_s: float | None) -> float | None:
        if retry_after_s is not None:
            return retry_after_s if retry_after_s <= self.max_retry_after_s else None
        return min(self.base_delay_s * (2 ** (attempt - 1)), self.max_delay_s)


@dataclass(frozen=True, slots=True)
class ChatRequest:
    messages: list[dict[str, Any]]  # canonical OpenAI format
    tools: list[dict[str, Any]] = field(default_factory=list)  # OpenAI `tools` format


@dataclass(frozen=True, slots=True)
class TextPiece:
    text: str


@dataclass(frozen=True, slots=True)
class RetryNotice:
    attempt: int
    max_attempts: int
    delay_s: float
    error: ModelError


@dataclass(frozen=True, slots=True)
class ToolModeSwitched:
    mode: ToolMode
    reason: str


@dataclass(frozen=True, slots=True)
class StreamDone:
    text: str
    tool_calls: list[RawToolCall]
    finish_reason: str | None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


StreamItem = Union[TextPiece, RetryNotice, ToolModeSwitched, StreamDone]


class ModelClient:
    """One provider profile's connection. Create once and reuse; call `aclose()` when done."""

    def __init__(
        self,
        profile: ProviderProfile,
        api_key: str | None,
        *,
        retry: RetryPolicy = RetryPolicy(),
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.profile = profile
        self._api_key = api_key
        self._retry = retry
        self._sleep = sleep
        self._learned_text_mode = profile.tool_mode is ToolMode.TEXT
        self._send_stream_options = True
        self._client = openai.AsyncOpenAI(
            api_key=api_key or NO_KEY_PLACEHOLDER,
            base_url=profile.base_url,
            max_retries=0,
            timeout=openai.Timeout(profile.request_timeout_s, connect=10.0),
        )

    @property
    def has_key(self) -> bool:
        return bool(self._api_key)

    @property
    def tool_mode(self) -> ToolMode:
        """The mode the next request will use (never AUTO)."""
        return ToolMode.TEXT if self._learned_text_mode else ToolMode.NATIVE

    async def aclose(self) -> None:
        await self._client.close()

    async def list_models(self) -> list[str]:
        try:
            page = await self._client.models.list()
        except Exception as exc:
            raise self._classify(exc) from exc
        return sorted(m.id for m in page.data)

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamItem]:
        """Yield text as it arrives, then one StreamDone. Raises ModelError on failure.

        Wrap in `contextlib.aclosing` so that cancelling the consumer closes the HTTP stream.
        """
        attempt = 0
        while True:
            text_mode = self._learned_text_mode and bool(request.tools)
            delivered = False
            try:
                # aclosing: when our consumer stops early, the attempt (and its HTTP stream) closes now,
                # in this task, not later in the garbage collector.
                async with contextlib.aclosing(self._attempt(request, text_mode)) as items:
                    async for item in items:
                        delivered = delivered or isinstance(item, TextPiece)
                        yield item
                return
            except ModelError as error:
                if error.tools_unsupported and self.profile.tool_mode is ToolMode.AUTO and not text_mode:
                    self._learned_text_mode = True
                    yield ToolModeSwitched(ToolMode.TEXT, error.message)
                    continue
                if error.stream_options_unsupported and self._send_stream_options:
                    self._send_stream_options = False
                    continue
                if delivered:
                    raise  # never silently repeat a reply the user has partly seen
                attempt, delay = self._plan_retry(error, attempt)
                if delay is None:
                    raise
                yield RetryNotice(attempt, self._retry.max_retries, delay, error)
                await self._sleep(delay)

    async def _attempt(self, request: ChatRequest, text_mode: bool) -> AsyncIterator[TextPiece | StreamDone]:
        """One HTTP request: text pieces as they arrive, then StreamDone; failures as ModelError."""
        kwargs = self._request_kwargs(request, text_mode)
        try:
            stream = await self._client.chat.completions.create(**kwargs)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise self._classify(exc, sent_tools="tools" in kwargs, sent_stream_options="stream_options" in kwargs) from exc

        assembler = ToolCallAssembler()
        parser = TextToolCallParser() if text_mode else None
        text_parts: list[str] = []
        finish_reason: str | None = None
        usage: dict[str, Any] | None = None
        delivered = False
        yielded_at = time.monotonic()
        try:
            async for chunk in stream:
                # When the server is faster than we are, the socket buffer always has data and this loop
                # would never give the event loop a turn: the window would freeze until the reply ends.
                if time.monotonic() - yielded_at > YIELD_EVERY_S:
                    await asyncio.sleep(0)
                    yielded_at = time.monotonic()
                data = chunk.to_dict()
                if isinstance(data.get("usage"), dict):
                    usage = data["usage"]
                for choice in data.get("choices") or ():
                    if choice.get("index", 0) not in (0, None):
                        continue
                    delta = choice.get("delta") or {}
                    content = delta.get("content")
                    if isinstance(content, str) and content:
                        visible = parser.feed(content) if parser else content
                        if visible:
                            delivered = True
                            text_parts.append(visible)
                            yield TextPiece(visible)
                    if delta.get("tool_calls"):
                        delivered = True
                        assembler.add(delta["tool_calls"])
                    if choice.get("finish_reason"):
                        finish_reason = choice["finish_reason"]
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise self._classify(exc, during_stream=delivered) from exc
        finally:
            # Close the SDK's inner generator too: left to the garbage collector it would try to
            # close the HTTP stream later, possibly when no event loop is running.
            with contextlib.suppress(Exception):
                iterator = getattr(stream, "_iterator", None)
                if iterator is not None:
                    await iterator.aclose()
            with contextlib.suppress(Exception):
                await stream.close()

        if parser is not None:
            tail = parser.finish()
            if tail:
                text_parts.append(tail)
                yield TextPiece(tail)
        calls = parser.calls if parser is not None else assembler.finish()
        if finish_reason is None and not calls:
            # The body ended cleanly but the reply never said it was finished.
            raise ModelError(ErrorKind.STREAM_DROPPED, "The reply ended before the model finished it. "
                             "What arrived is kept.", None, "stream ended without finish_reason", retryable=True)
        yield StreamDone(
            text="".join(text_parts),
            tool_calls=calls,
            finish_reason=finish_reason or ("tool_calls" if calls else None),
            prompt_tokens=_int_or_none((usage or {}).get("prompt_tokens")),
            completion_tokens=_int_or_none((usage or {}).get("completion_tokens")),
        )

    def _request_kwargs(self, request: ChatRequest, text_mode: bool) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.profile.model, "stream": True}
        if text_mode:
            kwargs["messages"] = to_text_protocol(request.messages, request.tools)
        else:
            kwargs["messages"] = request.messages
            if request.tools:
                kwargs["tools"] = request.tools
        if self._send_stream_options:
            kwargs["stream_options"] = {"include_usage": True}
        if self.profile.temperature is not None:
            kwargs["temperature"] = self.profile.temperature
        if self.profile.max_output_tokens:
            kwargs["max_tokens"] = self.profile.max_output_tokens
        return kwargs

    def _plan_retry(self, error: ModelError, attempt: int) -> tuple[int, float | None]:
        if not error.retryable or attempt >= self._retry.max_retries:
            return attempt, None
        attempt += 1
        return attempt, self._retry.delay_for(attempt, error.retry_after_s)

    def _classify(self, exc: BaseException, **kwargs: Any) -> ModelError:
        error = classify(
            exc,
            base_url=self.profile.base_url,
            model=self.profile.model,
            known_secrets=(self._api_key,) if self._api_key else (),
            **kwargs,
        )
        if error.kind is ErrorKind.INTERNAL:
            log.error("unexpected model client failure", exc_info=exc)
        return error


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) else None

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

When a reply's tool calls may run (`StreamDone.end`): a call cut off in the middle
of its arguments must never run (`{"path": "data` is not the folder the model
meant). A reply is FINISHED only when the server said so with a finish reason
that arrived after the last text or argument fragment:
- `tool_calls`: the calls may run (their arguments are then parsed by the
  tolerant parser, which repairs slips but never completes a cut value);
- `stop` or `function_call` (servers that mislabel a tool-call reply): the calls
  may run only when every call's arguments are one whole, strict JSON object;
  an empty or unparsable argument string could be a cut, so none of them runs;
- in the text `<tool_call>` protocol, `stop`, `tool_calls` or `function_call`,
  and no block left open at the end that is not a whole call;
- no finish reason, but the server said the reply is over in its own way: the `data: [DONE]` line, or a
  final usage chunk (`choices: []` with `usage`) after the last fragment (Snowflake Cortex never sends a
  finish reason; OpenRouter with the Novita upstream sends a whole call and no finish reason): the reply is
  complete; its calls are treated as the mislabelled ones above (they run only when every call's arguments
  are one whole, strict JSON object);
- no finish reason and no end marker, `length`, anything else, or a transport failure after some
  tool-call fragment arrived: CUT_OFF. The calls are returned (so they can be
  recorded as interrupted and shown) together with the error to report; they never run.
The SDK's AsyncStream (openai/_streaming.py) stops iterating in the same way on `data: [DONE]` and on a
body that simply ends, so `[DONE]` is seen below it: `_EndMarkerWatch` wraps the HTTP response's byte
stream (httpx's public `Response.stream`) and notes a `data: [DONE]` line (at the body's start or after a
newline, so the same text inside a JSON string, which cannot hold a raw newline, never counts).

Content comes as a string or, from Mistral, as a list of parts: `{"type": "text", "text": …}` is answer
text and `{"type": "thinking", "thinking": [{"type": "text", "text": …}]}` is reasoning (Magistral).

A reply also has an output limit (`ChatRequest.max_reply_chars`): once its text
(everything in `content`, including hidden `<tool_call>` blocks), or separately the
arguments of its tool calls, pass it, reading stops, the HTTP stream is closed and
the reply ends as OUTPUT_LIMIT with what arrived; its calls never run. Reasoning counts
toward the text's limit (a model that thinks forever is stopped the same way).

Reasoning (core/llm/reasoning.py reads its three forms) streams as `ReasoningPiece`s before and
between the text; StreamDone carries all of it and the server's `reasoning_tokens`. A reasoning piece
counts as delivered (the user saw it), so a failure after one is never silently retried.

Request side: `reasoning_effort` is sent when the profile sets it, and the profile's `extra_params`
go into the body (`extra_body`). The reasoning echo (`reasoning_content` sent back on the assistant
messages of exchanges that made tool calls) is on for ALWAYS, off for NEVER, and for AUTO on when the
profile's preset is known to need it (`Preset.needs_reasoning_echo`) or it was learned: a 400 whose
message names `reasoning_content` turns it on, the request is retried once with it, and
`on_echo_learned` (injected by the runtime, which saves `learned_reasoning_echo` in settings.json) is
called so it holds for later turns and restarts. Only messages that have reasoning can carry it, so it is
never sent to a server that never streamed any. With the echo on, tool calls whose reasoning may not go back
(another model's, an imported session's) are sent as text (core/llm/reasoning.py `tool_exchanges_as_text`). A 400
naming `reasoning_content` once the echo is on makes this client send every earlier tool exchange as text from then
on (`HistoryAsText`, retried at once, once); refused again, it ends as `reasoning_history_refused`, whose message says
what the user can do.

Usage: every request the server accepted is reported once to `usage_sink` (core/usage/recorder.py) when its
stream closes, however it closed (finished, cut, stopped, over the limit), with the server's own `usage` figures
or, where it sent none, our estimate marked as such. `ChatRequest.purpose` says what the request was for.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import json
import random
import sys
import time
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Union

if TYPE_CHECKING:  # imported when the first request is made (issue 28: the SDK is ~30 MB of an idle window)
    import openai

from hermes_desktop.core.events import ErrorAction, ErrorKind
from hermes_desktop.core.llm import reasoning_origins
from hermes_desktop.core.llm.assembly import RawToolCall, ToolCallAssembler
from hermes_desktop.core.llm.errors import ModelError, classify
from hermes_desktop.core.llm.reasoning import (
    ThinkSplitter, delta_reasoning, tool_exchanges_as_text, with_reasoning_echo,
)
from hermes_desktop.core.llm.text_protocol import TextToolCallParser, to_text_protocol
from hermes_desktop.core.extra_params import usable_extra_params
from hermes_desktop.core.providers import needs_reasoning_echo
from hermes_desktop.core.settings import ProviderProfile, ReasoningEcho, ToolMode

if TYPE_CHECKING:
    from hermes_desktop.core.usage.counts import RequestUsage

log = logging.getLogger(__name__)

# The SDK insists on a key; local servers (Ollama, LM Studio) ignore whatever is sent.
NO_KEY_PLACEHOLDER = "no-key-needed"
# Longest stretch of stream parsing before letting the event loop run (paints, input, timers).
YIELD_EVERY_S = 0.008
# Finish reasons with which a server may end a reply that carries tool calls (see the module docstring).
TOOL_CALLS_FINISH = "tool_calls"
MISLABELLED_FINISHES = frozenset({"stop", "function_call"})


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff with jitter: each wait is drawn between half and all of the exponential step, so
    many clients that failed together (a provider's outage, a shared rate limit) do not all come back in the
    same instant. A server's Retry-After is waited exactly (it said when)."""

    max_retries: int = 2
    base_delay_s: float = 1.0
    max_delay_s: float = 8.0
    # A Retry-After longer than this is not waited for: the user is told instead.
    max_retry_after_s: float = 60.0
    # A number in [0, 1) per wait; injectable so that a test can pin it.
    jitter: Callable[[], float] = random.random

    def delay_for(self, attempt: int, retry_after_s: float | None) -> float | None:
        if retry_after_s is not None:
            return retry_after_s if retry_after_s <= self.max_retry_after_s else None
        step = min(self.base_delay_s * (2 ** (attempt - 1)), self.max_delay_s)
        return step / 2 + step / 2 * min(max(self.jitter(), 0.0), 1.0)


@dataclass(frozen=True, slots=True)
class ChatRequest:
    messages: list[dict[str, Any]]  # canonical OpenAI format
    tools: list[dict[str, Any]] = field(default_factory=list)  # OpenAI `tools` format
    # Stop reading a reply whose text, or separately its tool-call arguments, pass this many characters.
    max_reply_chars: int | None = None
    # A lower `max_tokens` than the profile's for this one request (an MCP server's sampling request).
    max_tokens: int | None = None
    # An assistant's parameters (core/assistants): temperature, top_p, max_tokens, reasoning_effort over the profile's.
    overrides: dict[str, Any] = field(default_factory=dict)
    # What the request is for and whose it is, for the usage records (core/usage): "chat", "title", "summary",
    # "context_summary", "memory", "skill_draft", "sampling"; the session defaults to the turn's (core/usage/scope.py).
    purpose: str = "other"
    session_id: str | None = None


OVERRIDABLE = frozenset({"temperature", "top_p", "max_tokens", "reasoning_effort"})


@dataclass(frozen=True, slots=True)
class TextPiece:
    text: str


@dataclass(frozen=True, slots=True)
class ReasoningPiece:
    """A piece of the model's thinking, shown apart from the answer."""

    text: str


@dataclass(frozen=True, slots=True)
class ReasoningEchoLearned:
    """The server refused a request for want of `reasoning_content`: the echo is on from now (and saved)."""

    reason: str  # the server's own words


@dataclass(frozen=True, slots=True)
class HistoryAsText:
    """The server refused the conversation's earlier tool exchanges for want of reasoning: from now on they go as
    text, and the request is retried (core/llm/reasoning.py)."""

    reason: str  # the server's own words


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


class ReplyEnd(StrEnum):
    """How a reply ended, which decides whether its tool calls may run (see the module docstring)."""

    FINISHED = "finished"  # the server finished it properly: its calls may run
    CUT_OFF = "cut_off"  # it ended, or failed, before it was finished: its calls must not run
    OUTPUT_LIMIT = "output_limit"  # we stopped reading it at the output limit: its calls must not run


@dataclass(frozen=True, slots=True)
class StreamDone:
    text: str
    tool_calls: list[RawToolCall]
    finish_reason: str | None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    end: ReplyEnd = ReplyEnd.FINISHED
    # With CUT_OFF: what to tell the user once the calls are recorded as interrupted (always offers Retry).
    error: ModelError | None = None
    reasoning: str = ""
    reasoning_tokens: int | None = None  # usage.completion_tokens_details.reasoning_tokens, when reported

    @property
    def calls_may_run(self) -> bool:
        return self.end is ReplyEnd.FINISHED


StreamItem = Union[TextPiece, ReasoningPiece, RetryNotice, ToolModeSwitched, ReasoningEchoLearned, HistoryAsText,
                   StreamDone]


def _http_client(timeout: Any) -> Any:
    """The httpx client the SDK would make for itself (its own class, timeout, connection limits, redirects),
    with the shared TLS context (core/llm/tls.py) instead of one more reading of the CA bundle."""
    from openai import _base_client

    from hermes_desktop.core.llm import tls

    import openai

    make = getattr(_base_client, "AsyncHttpxClientWrapper", openai.DefaultAsyncHttpxClient)
    return make(timeout=timeout, verify=tls.context())


class ModelClient:
    """One provider profile's connection. Create once and reuse; call `aclose()` when done."""

    def __init__(
        self,
        profile: ProviderProfile,
        api_key: str | None,
        *,
        retry: RetryPolicy = RetryPolicy(),
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_echo_learned: Callable[[ProviderProfile], None] | None = None,
        usage_sink: "Callable[[RequestUsage], None] | None" = None,
    ) -> None:
        self.profile = profile
        # Told once per request the server accepted (core/usage/recorder.py); must not block or raise.
        self.usage_sink = usage_sink
        self._api_key = api_key
        self._retry = retry
        self._sleep = sleep
        self._learned_text_mode = profile.tool_mode is ToolMode.TEXT
        self._warned_extra = False
        self._send_stream_options = True
        self._echo_learned = profile.learned_reasoning_echo
        self._earlier_as_text = False  # learned from a 400: earlier tool exchanges go as text (module docstring)
        self._on_echo_learned = on_echo_learned
        self._sdk_client: openai.AsyncOpenAI | None = None

    async def _ready_client(self) -> openai.AsyncOpenAI:
        """`_client`, with the SDK imported in a worker thread if it is not yet: the event loop (the window)
        goes on meanwhile."""
        if "openai" not in sys.modules:
            await asyncio.to_thread(importlib.import_module, "openai")
        return self._client

    @property
    def _client(self) -> openai.AsyncOpenAI:
        """The SDK's client, made (and the SDK imported, ~0.3 s and ~30 MB) when the first request needs it (see
        `_ready_client`): an agent is made at start, but the window may idle long before anything is sent. The
        window starts that import as soon as the user types (ui/controller.py `prefetch_model_sdk`)."""
        if self._sdk_client is None:
            import openai

            timeout = openai.Timeout(self.profile.request_timeout_s, connect=10.0)
            self._sdk_client = openai.AsyncOpenAI(
                api_key=self._api_key or NO_KEY_PLACEHOLDER,
                base_url=self.profile.base_url,
                max_retries=0,
                timeout=timeout,
                http_client=_http_client(timeout),
            )
        return self._sdk_client

    @property
    def has_key(self) -> bool:
        return bool(self._api_key)

    @property
    def tool_mode(self) -> ToolMode:
        """The mode the next request will use (never AUTO)."""
        return ToolMode.TEXT if self._learned_text_mode else ToolMode.NATIVE

    @property
    def echo_reasoning(self) -> bool:
        """Whether the next request sends reasoning back (module docstring)."""
        mode = self.profile.reasoning_echo
        if mode is ReasoningEcho.NEVER:
            return False
        if mode is ReasoningEcho.ALWAYS:
            return True
        return self._echo_learned or needs_reasoning_echo(self.profile.base_url, self.profile.model)

    async def aclose(self) -> None:
        if self._sdk_client is not None:  # never used: nothing was opened
            await self._sdk_client.close()

    async def list_models(self) -> list[str]:
        try:
            page = await (await self._ready_client()).models.list()
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
                        delivered = delivered or isinstance(item, (TextPiece, ReasoningPiece))
                        yield item
                return
            except ModelError as error:
                if (error.wants_reasoning_echo and not self.echo_reasoning
                        and self.profile.reasoning_echo is ReasoningEcho.AUTO and not delivered):
                    yield self._learn_echo(error)
                    continue
                if error.wants_reasoning_echo and not delivered and not text_mode:
                    if self._earlier_as_text:
                        raise _history_refused(error, self.profile.model) from error
                    self._earlier_as_text = True
                    yield HistoryAsText(_server_words(error))
                    continue
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

    def _learn_echo(self, error: ModelError) -> ReasoningEchoLearned:
        """Turn the echo on for this profile from now on, and have it saved (the retry follows at once)."""
        self._echo_learned = True
        if self._on_echo_learned is not None:
            try:
                self._on_echo_learned(self.profile)
            except Exception:  # saving settings failed: the echo still holds for this client's life
                log.exception("could not save the learned reasoning echo")
        return ReasoningEchoLearned(_server_words(error))

    async def _attempt(self, request: ChatRequest, text_mode: bool) -> AsyncIterator[TextPiece | ReasoningPiece | StreamDone]:
        """One HTTP request: text pieces as they arrive, then StreamDone; failures as ModelError.

        A failure after a tool call had started is not raised: the reply ends as a CUT_OFF StreamDone that
        carries the calls (to be recorded as interrupted) and the error to report."""
        kwargs = self._request_kwargs(request, text_mode)
        try:
            # The SDK builds the request, sends it and raises HTTP errors as usual; its stream reads the SSE
            # events (and raises an `error` event) as usual, but hands each chunk over as the parsed JSON dict
            # (cast_to=object) instead of building a ChatCompletionChunk and dumping it back to a dict here:
            # that per-chunk work was most of the client's time on a fast stream (tests/benchmarks/bench_window.py).
            client = await self._ready_client()
            raw = await client.chat.completions.with_raw_response.create(**kwargs)
            end_marker = _end_marker_watch().install(raw.http_response)
            import openai

            stream = openai.AsyncStream(cast_to=object, response=raw.http_response, client=client)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise self._classify(exc, sent_tools="tools" in kwargs, sent_stream_options="stream_options" in kwargs) from exc

        reply = _Reply(TextToolCallParser() if text_mode else None, request.max_reply_chars)
        failure: ModelError | None = None
        yielded_at = time.monotonic()
        try:
            async for chunk in stream:
                # When the server is faster than we are, the socket buffer always has data and this loop
                # would never give the event loop a turn: the window would freeze until the reply ends.
                if time.monotonic() - yielded_at > YIELD_EVERY_S:
                    await asyncio.sleep(0)
                    yielded_at = time.monotonic()
                for piece in reply.take(chunk if isinstance(chunk, dict) else {}):
                    yield piece
                if reply.over_limit:
                    break  # the finally below closes the HTTP stream: a reply that never ends stops here
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            failure = self._classify(exc, during_stream=reply.delivered, finish_reason=reply.finish_reason)
            if not reply.has_calls:
                raise failure from exc
        finally:
            # Close the SDK's inner generator too: left to the garbage collector it would try to
            # close the HTTP stream later, possibly when no event loop is running.
            with contextlib.suppress(Exception):
                iterator = getattr(stream, "_iterator", None)
                if iterator is not None:
                    await iterator.aclose()
            with contextlib.suppress(Exception):
                await stream.close()
            # Every way out of the stream passes here (the end, the output limit, a failure, Stop): one usage
            # record per request the server accepted, with the server's figures or, without them, estimated.
            self._report_usage(request, kwargs, reply)

        for piece in reply.finish_text():
            yield piece
        reply.ended_by_marker = reply.ended_by_marker or end_marker.seen
        done = reply.done(failure)
        if done.reasoning:  # this server wrote it: only this server may get it back (reasoning_origins.py)
            reasoning_origins.note(self.profile.base_url, done.reasoning)
        yield done

    def _request_kwargs(self, request: ChatRequest, text_mode: bool) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.profile.model, "stream": True}
        base_url = self.profile.base_url
        echo = self.echo_reasoning and not text_mode
        messages = with_reasoning_echo(request.messages, echo,
                                       produced_here=lambda reasoning: reasoning_origins.produced_by(base_url, reasoning))
        if (echo or self._earlier_as_text) and not text_mode:
            messages = tool_exchanges_as_text(messages, earlier=self._earlier_as_text)
        if text_mode:
            kwargs["messages"] = to_text_protocol(messages, request.tools)
        else:
            kwargs["messages"] = messages
            if request.tools:
                kwargs["tools"] = request.tools
        if self._send_stream_options:
            kwargs["stream_options"] = {"include_usage": True}
        if self.profile.temperature is not None:
            kwargs["temperature"] = self.profile.temperature
        if self.profile.max_output_tokens:
            kwargs["max_tokens"] = self.profile.max_output_tokens
        if self.profile.reasoning_effort:
            kwargs["reasoning_effort"] = self.profile.reasoning_effort
        kwargs.update({k: v for k, v in request.overrides.items() if k in OVERRIDABLE and v is not None})
        if request.max_tokens:
            kwargs["max_tokens"] = min(request.max_tokens, kwargs.get("max_tokens") or request.max_tokens)
        if self.profile.extra_params:
            # The user's own fields go last in the body, so they win over ours (e.g. a different max_tokens),
            # except the ones Hermes sets itself and credential-like ones (core/extra_params.py).
            extra, dropped = usable_extra_params(self.profile.extra_params)
            if dropped and not self._warned_extra:
                self._warned_extra = True
                log.warning("extra request parameters not sent (reserved or credential-like): %s", ", ".join(dropped))
            if extra:
                kwargs["extra_body"] = extra
        return kwargs

    def _report_usage(self, request: ChatRequest, kwargs: dict[str, Any], reply: "_Reply") -> None:
        sink = self.usage_sink
        if sink is None:
            return
        try:
            from hermes_desktop.core.usage.counts import RequestUsage, from_server
            from hermes_desktop.core.usage.scope import current_session

            counts = from_server(reply.usage, estimate_input=lambda: _estimate_request(kwargs),
                                 estimate_output=reply.estimate_output_tokens)
            sink(RequestUsage(time.time(), self.profile.id, str(kwargs.get("model") or self.profile.model),
                              request.purpose, request.session_id or current_session(), counts))
        except Exception:  # an account of what was spent never breaks the reply
            log.exception("could not report a request's usage")

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


def _estimate_request(kwargs: dict[str, Any]) -> int:
    """Input tokens of a request as sent, when the server did not count them (core/tokens.py's estimate)."""
    from hermes_desktop.core.tokens import estimate_message_tokens, estimate_tools_tokens

    messages = kwargs.get("messages") or []
    return sum(estimate_message_tokens(m) for m in messages if isinstance(m, dict)) + \
        estimate_tools_tokens(kwargs.get("tools") or [])

def _server_words(error: ModelError) -> str:
    said = error.message.partition("The server said: ")[2].strip()
    return said or error.message


def _history_refused(error: ModelError, model: str) -> ModelError:
    """Refused again with every earlier tool exchange as text: what the user can do (module docstring)."""
    said = _server_words(error)
    return ModelError(ErrorKind.BAD_REQUEST,
                      f"{model} refused this conversation's earlier replies even with their tool calls sent as text. "
                      "Switch this conversation back to the model that wrote them, start a new conversation, or turn "
                      f"off thinking mode for this provider; then press Retry. The server said: {said}",
                      ErrorAction.RETRY, error.detail, status=error.status, code="reasoning_history_refused",
                      params={"model": model, "server": said, "status": error.status})


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) else None


def _reasoning_tokens(usage: dict[str, Any]) -> int | None:
    details = usage.get("completion_tokens_details")
    return _int_or_none(details.get("reasoning_tokens")) if isinstance(details, dict) else None


class _SurrogateJoiner:
    """Text as UTF-8 can carry it. JSON may escape half a surrogate pair ("\\ud83d"), and a server that cuts its
    text into UTF-16 units sends an emoji's two halves in two chunks: Python keeps them as two lone surrogates,
    which SQLite and every later request refuse to encode (the reply was lost as "internal error"). A high half at
    a chunk's end waits for the next chunk; halves that meet are joined; a lone half becomes U+FFFD."""

    def __init__(self) -> None:
        self._held = ""

    def feed(self, text: str) -> str:
        text = self._held + text
        self._held = ""
        if text and "\ud800" <= text[-1] <= "\udbff":
            text, self._held = text[:-1], text[-1]
        return _utf8_safe(text)

    def finish(self) -> str:
        held, self._held = self._held, ""
        return _utf8_safe(held)


def _utf8_safe(text: str) -> str:
    if not any("\ud800" <= ch <= "\udfff" for ch in text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


class _Reply:
    """One reply as it streams: its text, tool calls, finish reason and size; decides how it ended."""

    def __init__(self, parser: TextToolCallParser | None, max_chars: int | None) -> None:
        self._parser = parser
        self._max_chars = max_chars
        self._assembler = ToolCallAssembler()
        self._think = ThinkSplitter()
        self._text_parts: list[str] = []
        self._reasoning_parts: list[str] = []
        self._content_joiner, self._reasoning_joiner = _SurrogateJoiner(), _SurrogateJoiner()
        self._reasoning_chars = 0
        self._content_chars = 0  # everything in `content`, shown or not (hidden <tool_call> blocks count)
        self._usage: dict[str, Any] = {}
        self.finish_reason: str | None = None
        self.delivered = False  # text was shown or a tool-call fragment arrived
        self.over_limit = False
        # The server said the reply is over without a finish reason: `data: [DONE]`, or a usage chunk after
        # the last fragment (module docstring).
        self.ended_by_marker = False

    @property
    def usage(self) -> dict[str, Any]:
        """The server's `usage` object (the last one sent), or {} when none came."""
        return self._usage

    def estimate_output_tokens(self) -> int:
        """What arrived, counted by our estimate: text, reasoning and tool-call arguments."""
        from hermes_desktop.core.tokens import estimate_text_tokens

        written = "".join(self._text_parts) + "".join(self._reasoning_parts)
        return estimate_text_tokens(written) + -(-self._assembler.argument_chars // 4)

    @property
    def has_calls(self) -> bool:
        """A tool call had started (even one without a name yet, or a text block still open)."""
        return self._assembler.has_calls or (self._parser is not None and self._parser.has_calls)

    def take(self, data: dict[str, Any]) -> list[TextPiece | ReasoningPiece]:
        """Apply one chunk; returns the text and reasoning pieces to show."""
        if isinstance(data.get("usage"), dict):
            self._usage = data["usage"]
            if not data.get("choices"):
                self.ended_by_marker = True
        visible: list[TextPiece | ReasoningPiece] = []
        for choice in data.get("choices") or ():
            if choice.get("index", 0) not in (0, None):
                continue
            delta = choice.get("delta") or {}
            content, part_thought = content_parts(delta.get("content"))
            if content:
                content = self._content_joiner.feed(content)
            fragments = delta.get("tool_calls")
            thought = delta_reasoning(delta) + part_thought
            if thought:
                thought = self._reasoning_joiner.feed(thought)
            if thought:
                self._take_reasoning(thought, visible)
            if isinstance(content, str) and content:
                self._take_content(content, visible)
            if fragments:
                self.delivered = True
                self._assembler.add(fragments)
            if content or fragments or thought:
                # A finish reason (or an end marker) counts only when it comes with or after the reply's last
                # fragment.
                self.finish_reason = None
                self.ended_by_marker = False
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
        limit = self._max_chars
        text_chars = self._content_chars + self._reasoning_chars
        self.over_limit = limit is not None and max(text_chars, self._assembler.argument_chars) > limit
        return visible

    def _take_reasoning(self, thought: str, visible: list[TextPiece | ReasoningPiece]) -> None:
        self._reasoning_chars += len(thought)
        self.delivered = True
        self._reasoning_parts.append(thought)
        visible.append(ReasoningPiece(thought))

    def _take_content(self, content: str, visible: list[TextPiece | ReasoningPiece]) -> None:
        """Content through the <think> splitter; its thinking counts as reasoning, the rest as text."""
        self._content_chars += len(content)
        for kind, piece in self._think.feed(content):
            if kind == "thinking":
                self.delivered = True
                self._reasoning_parts.append(piece)
                visible.append(ReasoningPiece(piece))
            else:
                self._take_text(piece, visible)

    def _take_text(self, text: str, visible: list[TextPiece | ReasoningPiece]) -> None:
        shown = self._parser.feed(text) if self._parser is not None else text
        if shown:
            self.delivered = True
            self._text_parts.append(shown)
            visible.append(TextPiece(shown))

    def finish_text(self) -> list[TextPiece | ReasoningPiece]:
        """What the <think> splitter and the text-protocol parser held back until the end (a partial tag
        that was not one)."""
        pieces: list[TextPiece | ReasoningPiece] = []
        if held := self._reasoning_joiner.finish():
            self._take_reasoning(held, pieces)
        if held := self._content_joiner.finish():
            self._take_content(held, pieces)
        for kind, piece in self._think.finish():
            if kind == "thinking":
                self._reasoning_parts.append(piece)
                pieces.append(ReasoningPiece(piece))
            else:
                self._take_text(piece, pieces)
        tail = self._parser.finish() if self._parser is not None else ""
        if tail:
            self._text_parts.append(tail)
            pieces.append(TextPiece(tail))
        return pieces

    def done(self, failure: ModelError | None) -> StreamDone:
        """The reply as it ended. Raises ModelError for a text-only reply that never said it was finished."""
        calls = self._parser.calls if self._parser is not None else self._assembler.finish()
        end, error = self._end(calls, failure)
        return StreamDone(
            text="".join(self._text_parts),
            tool_calls=calls,
            finish_reason=self.finish_reason,
            prompt_tokens=_int_or_none(self._usage.get("prompt_tokens")),
            completion_tokens=_int_or_none(self._usage.get("completion_tokens")),
            end=end,
            error=error,
            reasoning="".join(self._reasoning_parts),
            reasoning_tokens=_reasoning_tokens(self._usage),
        )

    def _end(self, calls: list[RawToolCall], failure: ModelError | None) -> tuple[ReplyEnd, ModelError | None]:
        if self.over_limit:
            return ReplyEnd.OUTPUT_LIMIT, None
        if failure is not None:
            return ReplyEnd.CUT_OFF, _with_calls_not_run(failure)
        if not calls:
            if self.finish_reason is None and not self.ended_by_marker:
                # The body ended cleanly but the reply never said it was finished.
                raise ModelError(ErrorKind.STREAM_DROPPED, "The reply ended before the model finished it. "
                                 "What arrived is kept.", None, "stream ended without finish_reason", retryable=True)
            return ReplyEnd.FINISHED, None
        if self._calls_finished(calls):
            return ReplyEnd.FINISHED, None
        return ReplyEnd.CUT_OFF, _cut_off_error(self.finish_reason)

    def _calls_finished(self, calls: list[RawToolCall]) -> bool:
        reason = self.finish_reason
        if self._parser is not None:
            return (reason == TOOL_CALLS_FINISH or reason in MISLABELLED_FINISHES) and not self._parser.cut_off
        if reason == TOOL_CALLS_FINISH:
            return True
        ended = reason in MISLABELLED_FINISHES or (reason is None and self.ended_by_marker)
        return ended and all(_whole_object(call.arguments) for call in calls)


def content_parts(content: Any) -> tuple[str, str]:
    """(answer text, thinking) of a delta's `content`: a string, or Mistral's list of typed parts."""
    if isinstance(content, str):
        return content, ""
    if not isinstance(content, list):
        return "", ""
    text: list[str] = []
    thinking: list[str] = []
    for part in content:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind == "text" and isinstance(part.get("text"), str):
            text.append(part["text"])
        elif kind == "thinking":
            inner = part.get("thinking")
            if isinstance(inner, str):
                thinking.append(inner)
            elif isinstance(inner, list):
                thinking.extend(p["text"] for p in inner if isinstance(p, dict) and isinstance(p.get("text"), str))
    return "".join(text), "".join(thinking)


@cache
def _end_marker_watch() -> Any:
    """`_EndMarkerWatch`, defined on first use: it subclasses httpx's byte stream (httpx checks the type), and
    httpx is imported with the SDK, when the first request is made."""
    import httpx2

    class _EndMarkerWatch(httpx2.AsyncByteStream):
        """Wraps an httpx response's byte stream and notes whether a `data: [DONE]` line went by (module docstring).

        Only the last few bytes of each piece are kept, to find a marker cut between two pieces."""

        _MARKERS = (b"\ndata: [DONE]", b"\ndata:[DONE]")

        def __init__(self, inner: Any) -> None:
            self._inner = inner
            self._tail = b"\n"  # the body's start counts as a line start
            self.seen = False

        @classmethod
        def install(cls, response: Any) -> "_EndMarkerWatch":
            watch = cls(response.stream)
            response.stream = watch
            return watch

        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for piece in self._inner:
                if not self.seen:
                    window = self._tail + piece.replace(b"\r", b"\n")
                    self.seen = any(marker in window for marker in self._MARKERS)
                    self._tail = window[-16:]
                yield piece

        async def aclose(self) -> None:
            await self._inner.aclose()

    return _EndMarkerWatch


def _whole_object(arguments: str) -> bool:
    """Strict JSON for one object: nothing repaired, nothing that could be the start of something longer."""
    try:
        return isinstance(json.loads(arguments), dict)
    except ValueError:
        return False


def _cut_off_error(finish_reason: str | None) -> ModelError:
    if finish_reason is None:
        message = "The reply was cut off while the model was writing a tool call, so the call was not run."
    elif finish_reason == "length":
        message = ("The reply reached the model's maximum output length while it was writing a tool call, "
                   "so the call was not run.")
    elif finish_reason in MISLABELLED_FINISHES:
        message = "The reply ended with a tool call whose arguments were not complete, so it was not run."
    else:
        message = (f"The reply ended with the unexpected finish reason “{finish_reason[:40]}”, so its tool calls "
                   "were not run.")
    return ModelError(ErrorKind.STREAM_DROPPED, f"{message} What arrived is kept.", ErrorAction.RETRY,
                      f"tool-call reply ended with finish_reason={finish_reason!r}")


def _with_calls_not_run(failure: ModelError) -> ModelError:
    return ModelError(failure.kind, f"{failure.message} The tool call it was writing was not run.", ErrorAction.RETRY,
                      failure.detail, status=failure.status)

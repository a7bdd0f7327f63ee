"""A scripted OpenAI-compatible model server over real HTTP on 127.0.0.1.

Tests queue replies (`enqueue`) and talk to it with the real `openai.AsyncOpenAI`
client. It streams Server-Sent Events with HTTP/1.1 chunked encoding, so it can
also misbehave the way real servers do: split tool-call arguments at any byte,
omit `index`/`id`, answer with any status and headers, hang, drop the
connection half-way, or send a malformed chunk. It records every request and
notices when a client goes away mid-stream.

Reasoning: `reasoning_reply` streams a reply's thinking in any of the three forms servers use
(`reasoning_content` or `reasoning` deltas, or `<think>…</think>` in the content cut at chosen places),
optionally followed by tool calls, with `completion_tokens_details.reasoning_tokens` in its usage.
`enforce_reasoning_echo` makes the server behave as DeepSeek's thinking mode does: a request with an
assistant `tool_calls` message that lacks `reasoning_content` gets DeepSeek's 400. `deepseek_thinking` applies the
rule as DeepSeek's guide words it (per stretch between user messages, "" counting as missing, the "Missing
`reasoning_content` field … at message index N" refusal); `refuse_earlier_tool_calls` is a stricter server that
refuses any tool exchange before the last user message.

Cut streams: `cut_tool_call_reply` stops inside a call's arguments with no finish
reason and no `[DONE]`, ending the body by closing the connection (`close`: no
chunked encoding, so the client sees a clean end of body), by a clean last chunk
(`eof`) or mid-body (`drop`). `endless_text_reply` streams text until the client
hangs up.

It runs in its own thread, so it serves asyncio tests, Qt tests and subprocesses
(the CLI) alike. `python -m tests.support.model_server --port 8765` starts it
standalone with the demo responder, for trying the app by hand.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Literal

Ending = Literal["done", "drop", "hang", "eof", "close"]


@dataclass
class ScriptedReply:
    """One HTTP response. Either `json_body` (plain) or `events` (an SSE stream)."""

    status: int = 200
    json_body: Any = None
    events: list[str] = field(default_factory=list)  # SSE `data:` payloads, already serialised
    headers: dict[str, str] = field(default_factory=dict)
    # done: [DONE]; drop: abrupt close mid-body; hang: wait forever; eof: clean last chunk, no [DONE];
    # close: the body is not chunked and ends when the server closes the connection (no [DONE])
    ending: Ending = "done"
    delay_s: float = 0.0  # pause before each event
    hang_before_headers: bool = False
    forever: str | None = None  # after `events`, send this payload again and again until the client goes away
    # Sent only once this event is set (or the server stops): a test holds a reply until it has seen what it waits for.
    gate: threading.Event | None = None
    # With `resume`: the first `pause_after` events are sent, then the stream waits for `resume` to be set (a test
    # looks at what a reply shows mid-stream, e.g. half a formula, without timing).
    pause_after: int = 0
    resume: threading.Event | None = None


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("messages") or [])

    @property
    def tool_names(self) -> list[str]:
        return [t["function"]["name"] for t in (self.body or {}).get("tools") or []]

    @property
    def system_prompt(self) -> str:
        return "\n".join(str(m.get("content") or "") for m in self.messages if m.get("role") == "system")


# ---------------------------------------------------------------- reply builders

def _chunk(delta: dict[str, Any], finish_reason: str | None = None, *, model: str = "scripted-model") -> str:
    return json.dumps(
        {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": 1_700_000_000,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        },
        ensure_ascii=False,
    )


def _usage_chunk(prompt_tokens: int, completion_tokens: int, reasoning_tokens: int | None = None) -> str:
    usage: dict[str, Any] = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    if reasoning_tokens is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning_tokens}
    return json.dumps(
        {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": 1_700_000_000,
            "model": "scripted-model",
            "choices": [],
            "usage": usage,
        }
    )


def usage_event(usage: dict[str, Any]) -> str:
    """A final usage chunk carrying exactly this `usage` object (cached tokens in any provider's field)."""
    return json.dumps({"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 1_700_000_000,
                       "model": "scripted-model", "choices": [], "usage": usage})


def with_usage(reply: "ScriptedReply", usage: dict[str, Any] | None) -> "ScriptedReply":
    """The reply with its usage chunk replaced by one carrying `usage` (None: no usage chunk at all)."""
    events = [e for e in reply.events if '"choices": []' not in e or '"usage"' not in e]
    if usage is not None:
        events.append(usage_event(usage))
    return ScriptedReply(status=reply.status, events=events, headers=reply.headers, ending=reply.ending,
                         delay_s=reply.delay_s)


# DeepSeek's refusal, word for word, of a thinking-mode request whose tool-call turn lacks its reasoning.
DEEPSEEK_ECHO_MESSAGE = "The `reasoning_content` in the thinking mode must be passed back to the API."
ReasoningForm = Literal["reasoning_content", "reasoning", "think"]


def reasoning_events(reasoning: str, text: str, *, form: ReasoningForm = "reasoning_content", chunk_size: int = 4,
                     cuts: list[int] | None = None) -> list[str]:
    """A reply's thinking then its text. `think`: both go in `content` as `<think>…</think>text`, cut at
    the character offsets `cuts` (when given) instead of every `chunk_size` characters."""
    events = [_chunk({"role": "assistant", "content": ""})]
    if form == "think":
        whole = f"<think>{reasoning}</think>{text}"
        bounds = sorted({0, len(whole), *(c for c in (cuts or []) if 0 < c < len(whole))}) if cuts is not None \
            else list(range(0, len(whole), chunk_size)) + [len(whole)]
        pieces = [whole[a:b] for a, b in zip(bounds, bounds[1:]) if b > a]
        return events + [_chunk({"content": piece}) for piece in pieces]
    events += [_chunk({form: piece}) for piece in split_text(reasoning, chunk_size) if piece]
    return events + [_chunk({"content": piece}) for piece in split_text(text, chunk_size) if piece]


def reasoning_reply(
    reasoning: str,
    text: str = "",
    *calls: "CallScript",
    form: ReasoningForm = "reasoning_content",
    chunk_size: int = 4,
    cuts: list[int] | None = None,
    usage: tuple[int, int] | None = (20, 30),
    reasoning_tokens: int | None = None,
    delay_s: float = 0.0,
) -> ScriptedReply:
    """A reasoning model's reply: thinking (in `form`), then text, then any tool calls."""
    events = reasoning_events(reasoning, text, form=form, chunk_size=chunk_size, cuts=cuts)
    for n, call in enumerate(calls):
        fragment = {"index": n, "id": call.id or f"call_{n}_{call.name}", "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments_text}}
        events.append(_chunk({"tool_calls": [fragment]}))
    events.append(_chunk({}, "tool_calls" if calls else "stop"))
    if usage:
        events.append(_usage_chunk(*usage, reasoning_tokens=reasoning_tokens))
    return ScriptedReply(events=events, delay_s=delay_s)


def lacks_reasoning_echo(body: Any) -> bool:
    """DeepSeek's rule: an assistant message with tool calls must carry its `reasoning_content`."""
    messages = body.get("messages") if isinstance(body, dict) else None
    return any(m.get("role") == "assistant" and m.get("tool_calls") and not m.get("reasoning_content")
               for m in messages or () if isinstance(m, dict))


# DeepSeek's other wording of the same refusal, naming the message (recorded in public issue threads, e.g.
# continuedev/continue#9831 and HKUDS/nanobot#946, the latter for a `reasoning_content` of "").
DEEPSEEK_MISSING_FIELD = ("Missing `reasoning_content` field in the assistant message at message index {index}. For "
                          "more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls")


def deepseek_thinking_refusal(body: Any) -> str | None:
    """DeepSeek's thinking-mode rule as its guide states it (api-docs.deepseek.com/guides/thinking_mode): between two
    user messages where the model made tool calls, every assistant message carries its `reasoning_content` (an empty
    one counts as missing); stretches without tool calls need none. The refusal's text, or None when accepted."""
    messages = [m for m in (body.get("messages") if isinstance(body, dict) else None) or () if isinstance(m, dict)]
    stretch: list[int] = []

    def check() -> str | None:
        if any(messages[i].get("tool_calls") for i in stretch):
            for i in stretch:
                if not messages[i].get("reasoning_content"):
                    return DEEPSEEK_MISSING_FIELD.format(index=i)
        return None

    for index, message in enumerate(messages):
        if message.get("role") == "user":
            if (refusal := check()) is not None:
                return refusal
            stretch = []
        elif message.get("role") == "assistant":
            stretch.append(index)
    return check()


def earlier_tool_calls(body: Any) -> bool:
    """A stricter server than DeepSeek documents: any tool call before the last user message is refused."""
    messages = [m for m in (body.get("messages") if isinstance(body, dict) else None) or () if isinstance(m, dict)]
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    return any(m.get("tool_calls") or m.get("role") == "tool" for m in messages[:last_user])


def split_text(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def text_events(text: str, chunk_size: int = 4) -> list[str]:
    events = [_chunk({"role": "assistant", "content": ""})]
    events += [_chunk({"content": piece}) for piece in split_text(text, chunk_size) if piece]
    return events


def text_reply(
    text: str,
    *,
    chunk_size: int = 4,
    finish_reason: str = "stop",
    usage: tuple[int, int] | None = (20, 10),
    delay_s: float = 0.0,
) -> ScriptedReply:
    events = text_events(text, chunk_size) + [_chunk({}, finish_reason)]
    if usage:
        events.append(_usage_chunk(*usage))
    return ScriptedReply(events=events, delay_s=delay_s)


@dataclass(frozen=True)
class CallScript:
    name: str
    arguments: str | dict[str, Any]
    id: str | None = None

    @property
    def arguments_text(self) -> str:
        return self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments, ensure_ascii=False)


def tool_call_reply(
    *calls: CallScript,
    text: str = "",
    pieces: int = 3,
    omit_index: bool = False,
    omit_id: bool = False,
    index_base: int = 0,
    usage: tuple[int, int] | None = (30, 15),
    delay_s: float = 0.0,
    finish_reason: str = "tool_calls",
) -> ScriptedReply:
    """Tool calls streamed the OpenAI way, each call's arguments cut into `pieces` parts.

    `finish_reason="stop"` imitates servers that mislabel a tool-call reply."""
    events = text_events(text) if text else [_chunk({"role": "assistant", "content": None})]
    for n, call in enumerate(calls):
        args = call.arguments_text
        size = max(1, -(-len(args) // pieces))
        parts = split_text(args, size)
        for p, part in enumerate(parts):
            fragment: dict[str, Any] = {"function": {"arguments": part}}
            if p == 0:
                fragment["type"] = "function"
                fragment["function"]["name"] = call.name
                if not omit_id:
                    fragment["id"] = call.id or f"call_{n}_{call.name}"
            if not omit_index:
                fragment["index"] = n + index_base
            events.append(_chunk({"tool_calls": [fragment]}))
    events.append(_chunk({}, finish_reason))
    if usage:
        events.append(_usage_chunk(*usage))
    return ScriptedReply(events=events, delay_s=delay_s)


def cut_tool_call_reply(*calls: CallScript, text: str = "", pieces: int = 3, ending: Ending = "close") -> ScriptedReply:
    """Tool calls as `tool_call_reply` streams them, but the stream stops after the last call's arguments as
    given (write them cut: `'{"path": "data'`) with no finish reason, no usage and no `[DONE]`."""
    reply = tool_call_reply(*calls, text=text, pieces=pieces, usage=None)
    return ScriptedReply(events=reply.events[:-1], ending=ending)


def endless_tool_call_reply(name: str, *, start: str = '{"content": "', piece: str = "more ") -> ScriptedReply:
    """A tool call whose arguments never end: `start`, then `piece` again and again until the client hangs up."""
    first = {"index": 0, "id": "call_endless", "type": "function", "function": {"name": name, "arguments": start}}
    events = [_chunk({"role": "assistant", "content": None}), _chunk({"tool_calls": [first]})]
    return ScriptedReply(events=events, forever=_chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}))


def endless_text_reply(piece: str = "and on ", *, text: str = "This goes on ") -> ScriptedReply:
    """A text stream that never ends: `text`, then `piece` again and again until the client hangs up."""
    return ScriptedReply(events=text_events(text), forever=_chunk({"content": piece}))


def error_reply(
    status: int,
    message: str,
    *,
    code: str | None = None,
    err_type: str = "invalid_request_error",
    headers: dict[str, str] | None = None,
) -> ScriptedReply:
    return ScriptedReply(
        status=status,
        json_body={"error": {"message": message, "type": err_type, "code": code, "param": None}},
        headers=headers or {},
    )


def hang_reply(after_text: str | None = None) -> ScriptedReply:
    """Hang before any header, or (with `after_text`) after streaming some text."""
    if after_text is None:
        return ScriptedReply(hang_before_headers=True)
    return ScriptedReply(events=text_events(after_text), ending="hang")


def slow_text_reply(text: str, *, chunk_size: int = 2, delay_s: float = 0.05) -> ScriptedReply:
    """Streams slowly and then hangs: for cancelling mid-stream."""
    return ScriptedReply(events=text_events(text, chunk_size), ending="hang", delay_s=delay_s)


def drop_reply(text: str, *, chunk_size: int = 4) -> ScriptedReply:
    """Streams `text` and then cuts the connection without finishing the chunked body."""
    return ScriptedReply(events=text_events(text, chunk_size), ending="drop")


def eof_reply(text: str) -> ScriptedReply:
    """Streams `text` and ends the body cleanly, but the reply never says it is finished."""
    return ScriptedReply(events=text_events(text), ending="eof")


def malformed_reply(text_before: str = "") -> ScriptedReply:
    events = text_events(text_before) if text_before else []
    return ScriptedReply(events=events + ['{"id": "broken", "choices": [{"delta": {"content": "x"'])


# The opening of the app's conversation-summary prompt (hermes_desktop/core/conversation_summary.py).
SUMMARY_PROMPT_OPENING = "You keep the running summary of a long conversation"


def goal_echo_summary(request: RecordedRequest) -> ScriptedReply:
    """A summary made from the request itself: every line that mentions a goal (from the old summary or the new
    messages), then how many new messages it merged. So a test can follow the user's first goal through summaries."""
    text = "\n".join(str(m.get("content") or "") for m in request.messages if m.get("role") == "user")
    goals: list[str] = []
    for line in text.splitlines():
        line = line.strip().lstrip("-• ").strip()
        if "goal" in line.lower() and line not in goals:
            goals.append(line)
    merged = sum(1 for line in text.splitlines() if line.startswith(("User:", "Assistant:", "Tool result")))
    return text_reply("\n".join(f"- {g}" for g in goals) + f"\n- merged {merged} new lines")


# The opening of the app's memory-extraction prompt (hermes_desktop/core/memory/extract.py).
MEMORY_PROMPT_OPENING = "You extract memories"


def memory_reply(*memories: dict[str, Any]) -> Responder:
    """A memory responder answering every extraction request with these memories (statement, quote, subject,
    kind, date), as JSON."""
    return lambda request: text_reply(json.dumps({"memories": list(memories)}, ensure_ascii=False))


def echo_memories(request: RecordedRequest) -> ScriptedReply:
    """The default answer to an extraction request: each candidate sentence the rules listed, kept as it is
    (statement = quote = the sentence; kind from the rules' tag)."""
    text = "\n".join(str(m.get("content") or "") for m in request.messages if m.get("role") == "user")
    memories = []
    listed = text.split("Candidate sentences:", 1)[1] if "Candidate sentences:" in text else ""
    for line in listed.splitlines():
        line = line.strip()
        if line.startswith("- ") and line.endswith("]") and " [" in line:
            sentence, kind = line[2:].rsplit(" [", 1)
            memories.append({"statement": sentence, "quote": sentence, "subject": "", "kind": kind[:-1], "date": None})
    return text_reply(json.dumps({"memories": memories}, ensure_ascii=False))


def scripted_title(request: RecordedRequest) -> ScriptedReply:
    """The test server's answer to every title request."""
    return text_reply("Scripted title")


# ---------------------------------------------------------------- the server

class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients hang up mid-stream on purpose (Stop, timeouts): not worth a traceback.
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


Responder = Callable[[RecordedRequest], ScriptedReply]


class ScriptedModelServer:
    def __init__(self, *, models: list[str] | None = None, responder: Responder | None = None, port: int = 0) -> None:
        self.models = models or ["scripted-model"]
        self.responder = responder
        self.reject_tools = False  # answer 400 to any request that carries `tools`
        self.reject_stream_options = False
        self.enforce_reasoning_echo = False  # DeepSeek's thinking-mode rule (lacks_reasoning_echo): 400
        self.deepseek_thinking = False  # DeepSeek's rule as its guide states it (deepseek_thinking_refusal): 400
        self.refuse_earlier_tool_calls = False  # stricter still (earlier_tool_calls): 400 naming reasoning_content
        self.required_key: str | None = None  # answer 401 unless `Authorization: Bearer <key>`
        # The app asks for a session title after a first exchange; answer that here so it never takes a
        # reply a test queued for its next turn. Tests of titles turn this off.
        self.auto_titles = True
        # What answers them: the constant "Scripted title", unless the responder brings its own (the demo model's
        # `title_responder` makes a title from the first message, so each demo session gets its own).
        self.title_responder: Responder = getattr(responder, "title_responder", None) or scripted_title
        # Likewise a conversation summary (a side request of long sessions): answered by `summary_responder`
        # (a goal-echoing summary by default; tests of failures put an error, a hang or garbage there).
        self.auto_summaries = True
        self.summary_responder: Responder = goal_echo_summary
        # And the memory extraction after a turn (core/memory/extract.py): answered by `memory_responder` (each
        # candidate kept as written by default; `memory_reply(...)` scripts the JSON, error_reply a failure).
        self.auto_memory = True
        # POST /v1/embeddings: None answers 404 (no such endpoint); a function of the input texts returns their
        # vectors, or an HTTP status to fail with.
        self.embeddings: Callable[[list[str]], list[list[float]] | int] | None = None
        self.memory_responder: Responder = echo_memories
        self.requests: list[RecordedRequest] = []
        self.client_disconnected = threading.Event()
        self.disconnects = 0
        self._queue: deque[ScriptedReply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = _QuietServer(("127.0.0.1", port), self._handler_class())
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="scripted-model-server", daemon=True)

    # lifecycle
    def start(self) -> "ScriptedModelServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "ScriptedModelServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # scripting
    def enqueue(self, *replies: ScriptedReply) -> None:
        with self._lock:
            self._queue.extend(replies)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def _next_reply(self, request: RecordedRequest) -> ScriptedReply:
        if self.auto_titles and not request.tool_names and request.system_prompt.startswith("Write a title"):
            return self.title_responder(request)
        if self.auto_summaries and not request.tool_names and request.system_prompt.startswith(SUMMARY_PROMPT_OPENING):
            return self.summary_responder(request)
        if self.auto_memory and not request.tool_names and request.system_prompt.startswith(MEMORY_PROMPT_OPENING):
            return self.memory_responder(request)
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            return self.responder(request)
        return error_reply(500, "the scripted server has no reply queued for this request", err_type="server_error")

    def _note_disconnect(self) -> None:
        with self._lock:
            self.disconnects += 1
        self.client_disconnected.set()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_GET(self) -> None:
                recorded = self._record(None)
                if not self._authorised(recorded):
                    return
                if self.path.split("?")[0].rstrip("/") == "/v1/models":
                    self._send_json(200, {"object": "list", "data": [
                        {"id": m, "object": "model", "created": 0, "owned_by": "scripted"} for m in server.models
                    ]})
                else:
                    self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                recorded = self._record(body)
                if not self._authorised(recorded):
                    return
                if self.path.split("?")[0].rstrip("/") == "/v1/embeddings" and server.embeddings is not None:
                    texts = body.get("input") if isinstance(body, dict) else None
                    texts = [texts] if isinstance(texts, str) else list(texts or [])
                    answer = server.embeddings(texts)
                    if isinstance(answer, int):  # an HTTP status: the endpoint fails
                        self._send_json(answer, {"error": {"message": "embeddings failed", "type": "server_error"}})
                    else:
                        counted = sum(len(t.split()) for t in texts)  # OpenAI's answer has its usage too
                        self._send_json(200, {"object": "list", "model": body.get("model"), "data": [
                            {"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(answer)],
                            "usage": {"prompt_tokens": counted, "total_tokens": counted}})
                    return
                if self.path.split("?")[0].rstrip("/") != "/v1/chat/completions":
                    self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                if isinstance(body, dict) and server.reject_tools and body.get("tools"):
                    self._send_json(400, {"error": {"message": "tools is not supported for this model",
                                                    "type": "invalid_request_error"}})
                    return
                if isinstance(body, dict) and server.reject_stream_options and "stream_options" in body:
                    self._send_json(400, {"error": {"message": "Unrecognized request argument supplied: stream_options",
                                                    "type": "invalid_request_error"}})
                    return
                refusal = deepseek_thinking_refusal(body) if server.deepseek_thinking else None
                if refusal is None and server.refuse_earlier_tool_calls and earlier_tool_calls(body):
                    refusal = DEEPSEEK_ECHO_MESSAGE
                if refusal is not None:
                    self._send_json(400, {"error": {"message": refusal, "type": "invalid_request_error",
                                                    "param": None, "code": "invalid_request_error"}})
                    return
                if server.enforce_reasoning_echo and lacks_reasoning_echo(body):
                    self._send_json(400, {"error": {"message": DEEPSEEK_ECHO_MESSAGE, "type": "invalid_request_error",
                                                    "param": None, "code": "invalid_request_error"}})
                    return
                self._serve(server._next_reply(recorded))

            def _record(self, body: Any) -> RecordedRequest:
                recorded = RecordedRequest(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with server._lock:
                    server.requests.append(recorded)
                return recorded

            def _authorised(self, recorded: RecordedRequest) -> bool:
                if server.required_key is None:
                    return True
                if recorded.headers.get("authorization") == f"Bearer {server.required_key}":
                    return True
                self._send_json(401, {"error": {"message": "Incorrect API key provided: sk-wr***ng.",
                                                "type": "invalid_request_error", "code": "invalid_api_key"}})
                return False

            def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def _serve(self, reply: ScriptedReply) -> None:
                while reply.gate is not None and not reply.gate.is_set():
                    if server._stopping.wait(0.05):
                        return
                if reply.hang_before_headers:
                    self._hang()
                    return
                if reply.json_body is not None or not reply.events:
                    self._send_json(reply.status, reply.json_body or {}, reply.headers)
                    return
                chunked = reply.ending != "close"
                self.send_response(reply.status)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                if chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                else:
                    self.send_header("Connection", "close")
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                try:
                    for index, payload in enumerate(reply.events):
                        if reply.resume is not None and index == reply.pause_after:
                            while not reply.resume.is_set():
                                if server._stopping.wait(0.05):
                                    return
                        if reply.delay_s:
                            if server._stopping.wait(reply.delay_s):
                                return
                        if self._client_gone():
                            server._note_disconnect()
                            return
                        self._write_event(payload, chunked)
                    if reply.forever is not None:
                        self._send_forever(reply.forever)
                        return
                    if reply.ending == "close":
                        self._drop()
                    elif reply.ending == "done":
                        self._write_chunk(b"data: [DONE]\n\n")
                        self.wfile.write(b"0\r\n\r\n")
                    elif reply.ending == "eof":
                        self.wfile.write(b"0\r\n\r\n")
                    elif reply.ending == "drop":
                        self._drop()
                    elif reply.ending == "hang":
                        self._hang()
                except (BrokenPipeError, ConnectionResetError):
                    server._note_disconnect()
                    self.close_connection = True

            def _write_event(self, payload: str, chunked: bool) -> None:
                data = f"data: {payload}\n\n".encode()
                if chunked:
                    self._write_chunk(data)
                else:
                    self.wfile.write(data)
                    self.wfile.flush()

            def _send_forever(self, payload: str) -> None:
                while not server._stopping.is_set():
                    if self._client_gone():
                        server._note_disconnect()
                        return
                    self._write_chunk(f"data: {payload}\n\n".encode())

            def _write_chunk(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _client_gone(self) -> bool:
                readable, _, _ = select.select([self.connection], [], [], 0)
                if not readable:
                    return False
                try:
                    return self.connection.recv(1, socket.MSG_PEEK) == b""
                except OSError:
                    return True

            def _hang(self) -> None:
                self.close_connection = True
                while not server._stopping.is_set():
                    if self._client_gone():
                        server._note_disconnect()
                        return
                    time.sleep(0.02)

            def _drop(self) -> None:
                # Close mid-body (no terminating chunk), as a crashed proxy would. A FIN rather than
                # a reset, so the client still reads what was sent before the cut.
                self.close_connection = True
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                self.connection.close()

        return Handler


def main() -> None:  # pragma: no cover - manual use
    import argparse

    from tests.support.demo_model import demo_responder

    parser = argparse.ArgumentParser(description="Scripted OpenAI-compatible server with the demo responder")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    server = ScriptedModelServer(responder=demo_responder, port=args.port)
    print(f"demo model server on {server.base_url} (model: scripted-model)", flush=True)
    server._httpd.serve_forever()


if __name__ == "__main__":  # pragma: no cover
    main()

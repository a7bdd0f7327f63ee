"""A reply's reasoning ("thinking"): reading it from a stream, and deciding where it is sent back.

Three forms arrive on the wire, all read by `_Reply` in client.py through this module:
- `reasoning_content` deltas (DeepSeek, Qwen/DashScope, Kimi, vLLM, LM Studio);
- `reasoning` deltas (OpenRouter, Ollama), and OpenRouter's `reasoning_details` list, whose `text` /
  `summary` entries are read only when no plain `reasoning` string came in the same delta (OpenRouter
  sends both with the same text);
- `<think>…</think>` inside `content` (many local models). `ThinkSplitter` takes the content pieces as
  they stream and splits them into thinking and answer, with a tag cut anywhere between two chunks: a
  piece's tail that could still be the start of a tag is held back until the next piece shows what it is.
  Only a `<think>` at the very start of the reply (after whitespace) opens thinking: the same text later
  in an answer is the model talking about the tag, not thinking. A reply whose server stripped the
  opening tag (it starts thinking and only `</think>` shows up) is NOT recognised: telling it apart from an
  answer would mean holding the whole answer back until the reply ends, so it shows as text.

Sending it back (`with_reasoning_echo`): DeepSeek's thinking mode documents that between two user
messages, when the model made tool calls, the `reasoning_content` of that stretch's assistant messages must
be passed back in all later requests (a 400 otherwise); between two user messages without tool calls it is
not needed (and ignored). We follow that contract exactly: with the echo on, an assistant message carries
`reasoning_content` when it has reasoning and its exchange (the messages since the last user message) made
a tool call; every other message is sent without the field. With the echo off no message carries it.
Messages in the engine's history keep their reasoning under `reasoning_content` always; the client decides
per request (the echo can be learned half-way through a turn, after the history was built). Whatever the echo
setting, a reasoning goes back only to the server that produced it (core/llm/reasoning_origins.py): a session that
switched providers, or was imported, never hands one provider's thinking to another.

Tool exchanges whose reasoning cannot go back (`tool_exchanges_as_text`): a server that wants the echo refuses an
assistant tool-call message without its `reasoning_content` (DeepSeek: "The `reasoning_content` in the thinking mode
must be passed back to the API.", or "Missing `reasoning_content` field in the assistant message at message index
N"). A call another model made (the session switched providers in the picker), or one whose reasoning is in no notes
(an imported session, a build before the notes), has nothing that may be sent. Inventing an empty reasoning is no
answer (servers refuse "" as missing, and it would claim a thought that never was), so with the echo on such a call
and its results go as plain text inside the assistant message: the model still reads what was done and what came
back, and the exchange no longer holds a tool call the rule applies to. The server's own calls keep their native
form and their reasoning. When the server still refuses (a stricter server, or one whose rule is not what its
documentation says), the client's second and last step (`earlier=True`) sends every tool exchange before the current
user message as text and keeps native calls only in the turn being answered; when that is refused too, the turn
ends with an error that says what the user can do (core/llm/client.py).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Mapping

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"
ECHO_FIELD = "reasoning_content"


def delta_reasoning(delta: Mapping[str, Any]) -> str:
    """The reasoning text in one streamed delta, whichever field the server uses ("" when none)."""
    for key in ("reasoning_content", "reasoning"):
        value = delta.get(key)
        if isinstance(value, str) and value:
            return value
    details = delta.get("reasoning_details")
    if isinstance(details, list):
        parts = []
        for item in details:
            if isinstance(item, Mapping):
                text = item.get("text") if isinstance(item.get("text"), str) else item.get("summary")
                if isinstance(text, str):
                    parts.append(text)
        return "".join(parts)
    return ""


def _partial_tag_suffix(text: str, tag: str) -> int:
    """Length of the longest end of `text` that is a proper start of `tag` (to hold back for the next piece)."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0


class ThinkSplitter:
    """Splits streamed `content` into (thinking, answer) pieces at `<think>`/`</think>`, tags cut anywhere."""

    def __init__(self) -> None:
        self._state = "start"  # start: nothing but whitespace yet | thinking | after_think (whitespace) | answer
        self._held = ""
        self.used_tags = False

    def feed(self, piece: str) -> list[tuple[str, str]]:
        """Pieces as ("thinking" | "answer", text), in order; text that could still be a tag is held back."""
        self._held += piece
        out: list[tuple[str, str]] = []
        while self._held:
            if self._state == "start":
                stripped = self._held.lstrip()
                if stripped.startswith(OPEN_TAG):
                    self._held = stripped[len(OPEN_TAG):]
                    self._state, self.used_tags = "thinking", True
                    continue
                if not stripped or OPEN_TAG.startswith(stripped):
                    break  # whitespace or the start of "<think>": wait for more
                self._state = "answer"
                continue
            if self._state == "after_think":
                # The blank line models put between `</think>` and the answer is no part of the answer.
                self._held = self._held.lstrip()
                if self._held:
                    self._state = "answer"
                continue
            if self._state == "answer":
                out.append(("answer", self._held))
                self._held = ""
                break
            # thinking
            end = self._held.find(CLOSE_TAG)
            if end >= 0:
                if end:
                    out.append(("thinking", self._held[:end]))
                self._held = self._held[end + len(CLOSE_TAG):]
                self._state = "after_think"
                continue
            keep = _partial_tag_suffix(self._held, CLOSE_TAG)
            shown = self._held[: len(self._held) - keep]
            if shown:
                out.append(("thinking", shown))
            self._held = self._held[len(shown):]
            break
        return _merged(out)

    def finish(self) -> list[tuple[str, str]]:
        """What was held back at the end of the reply (a partial tag that never completed is text)."""
        held, self._held = self._held, ""
        if not held:
            return []
        kind = "thinking" if self._state == "thinking" else "answer"
        if self._state in ("start", "after_think") and not held.strip():
            return []
        return [(kind, held)]


def _merged(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for kind, text in pieces:
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + text)
        elif text:
            out.append((kind, text))
    return out


def echo_carriers(messages: list[Mapping[str, Any]]) -> set[int]:
    """Indexes of the assistant messages that carry their reasoning when the echo is on (module docstring)."""
    carriers: set[int] = set()
    exchange: list[int] = []
    made_calls = False

    def close() -> None:
        if made_calls:
            carriers.update(i for i in exchange if messages[i].get(ECHO_FIELD))

    for index, message in enumerate(messages):
        role = message.get("role")
        if role == "user":
            close()
            exchange, made_calls = [], False
        elif role == "assistant":
            exchange.append(index)
            made_calls = made_calls or bool(message.get("tool_calls"))
    close()
    return carriers


def with_reasoning_echo(messages: Iterable[Mapping[str, Any]], echo: bool, *,
                        produced_here: Callable[[str], bool]) -> list[dict[str, Any]]:
    """The messages as a request sends them: `reasoning_content` kept only where the echo puts it, and only on
    reasoning this server produced (`produced_here`, core/llm/reasoning_origins.py): another provider's thinking
    is never sent to it."""
    listed = [dict(m) for m in messages]
    keep = {i for i in echo_carriers(listed) if produced_here(str(listed[i].get(ECHO_FIELD)))} if echo else set()
    for index, message in enumerate(listed):
        if index not in keep:
            message.pop(ECHO_FIELD, None)
    return listed



TEXT_RESULT_CHARS = 4_000  # a tool result written into text keeps at most this much (the context budget holds it)


def tool_exchanges_as_text(messages: Iterable[Mapping[str, Any]], *, earlier: bool = False) -> list[dict[str, Any]]:
    """The messages (as `with_reasoning_echo` left them) with each assistant tool-call message that carries no
    `reasoning_content`, and its tool results, written as plain text in one assistant message (module docstring).
    `earlier`: also every tool exchange before the last user message, with or without reasoning. Consecutive
    assistant texts that come of it are joined (some servers refuse two assistant messages in a row)."""
    listed = [dict(m) for m in messages]
    last_user = max((i for i, m in enumerate(listed) if m.get("role") == "user"), default=-1)
    out: list[dict[str, Any]] = []
    as_text: dict[str, int] = {}  # call id -> index in `out` of the text that holds its call
    names: dict[str, str] = {}
    for index, message in enumerate(listed):
        role = message.get("role")
        if role == "tool" and str(message.get("tool_call_id") or "") in as_text:
            call_id = str(message.get("tool_call_id"))
            holder = out[as_text[call_id]]
            holder["content"] = _joined(holder.get("content"), _result_text(names.get(call_id, ""),
                                                                            message.get("content")))
            continue
        if role == "assistant" and message.get("tool_calls") and (
                not message.get(ECHO_FIELD) or (earlier and index < last_user)):
            holder = _append_text(out, _joined(message.get("content"),
                                               "\n".join(_call_text(c) for c in message["tool_calls"])))
            for call in message["tool_calls"]:
                call_id = str(call.get("id") or "")
                as_text[call_id] = holder
                names[call_id] = str((call.get("function") or {}).get("name") or "")
            continue
        if role == "assistant" and not message.get("tool_calls") and out and _plain_assistant(out[-1]) \
                and out[-1].get("_as_text") and (not message.get(ECHO_FIELD) or (earlier and index < last_user)):
            out[-1]["content"] = _joined(out[-1].get("content"), message.get("content"))
            continue
        out.append(message)
    for message in out:
        message.pop("_as_text", None)
    return out


def _append_text(out: list[dict[str, Any]], text: str) -> int:
    """Add `text` to the assistant text just written as text, or as a new assistant message; its index."""
    if out and _plain_assistant(out[-1]) and out[-1].get("_as_text"):
        if text:
            out[-1]["content"] = _joined(out[-1].get("content"), text)
        return len(out) - 1
    out.append({"role": "assistant", "content": text, "_as_text": True})
    return len(out) - 1


def _plain_assistant(message: Mapping[str, Any]) -> bool:
    return message.get("role") == "assistant" and not message.get("tool_calls") and not message.get(ECHO_FIELD)


def _joined(first: Any, second: Any) -> str:
    parts = [p for p in (_text_of(first), _text_of(second)) if p.strip()]
    return "\n\n".join(parts)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: their text
        return "".join(str(p.get("text") or "") for p in content if isinstance(p, Mapping))
    return ""


def _call_text(call: Mapping[str, Any]) -> str:
    function = call.get("function") or {}
    arguments = function.get("arguments") or "{}"
    try:
        arguments = json.dumps(json.loads(arguments), ensure_ascii=False)
    except (TypeError, ValueError):
        arguments = str(arguments)
    return f"[Tool call, shown as text: {function.get('name') or '?'} {arguments}]"


def _result_text(name: str, content: Any) -> str:
    text = _text_of(content)
    if len(text) > TEXT_RESULT_CHARS:
        text = text[:TEXT_RESULT_CHARS] + " …"
    return f"[Result of {name or 'the call'}: {text}]"

"""Tool calling for models without native support: the Hermes function-calling format.

The tools are described in the system prompt inside `<tools>` and the model answers
with `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` blocks in its text.
`to_text_protocol()` rewrites a canonical (OpenAI-format) conversation into that
shape; `TextToolCallParser` pulls the blocks out of the streamed text while it
streams, so the user never sees them, even when a tag is split across chunks.

A block is read with the same tolerant-but-never-completing parser as native
arguments (core/tools/arguments.py). A block the stream ended inside (no closing
tag) becomes a call only when its body is one whole, strict JSON object (some
models stop right after the object); otherwise it is kept as a call with its raw
text and `cut_off` is set, so the client treats the reply as cut off and none of
its calls run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from hermes_desktop.core.llm.assembly import RawToolCall, new_call_id
from hermes_desktop.core.tools.arguments import ArgumentProblem, load_tolerant

OPEN_TAG = "<tool_call>"
CLOSE_TAG = "</tool_call>"

_TOOLS_PREAMBLE = (
    "You can call functions to help with the user's request. The available functions are "
    "described inside <tools></tools> as JSON schemas:\n<tools>\n{tools}\n</tools>\n"
    "To call a function, write a JSON object with its name and arguments inside <tool_call></tool_call> tags:\n"
    '<tool_call>\n{{"name": "function_name", "arguments": {{"arg": "value"}}}}\n</tool_call>\n'
    "You may make several calls in one reply. After the calls, stop and wait: the results come back "
    "inside <tool_response></tool_response> tags. Do not invent results."
)


def tools_system_section(tools: list[dict[str, Any]]) -> str:
    signatures = "\n".join(json.dumps(t.get("function", t), ensure_ascii=False) for t in tools)
    return _TOOLS_PREAMBLE.format(tools=signatures)


def to_text_protocol(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rewrite tool calls and results as text; put the tool descriptions in the system prompt."""
    out: list[dict[str, Any]] = []
    pending_results: list[str] = []

    def flush_results() -> None:
        if pending_results:
            out.append({"role": "user", "content": "\n".join(pending_results)})
            pending_results.clear()

    for message in messages:
        role = message.get("role")
        if role == "tool":
            payload = {"name": message.get("name", ""), "content": message.get("content", "")}
            pending_results.append(f"<tool_response>\n{json.dumps(payload, ensure_ascii=False)}\n</tool_response>")
            continue
        flush_results()
        if role == "assistant" and message.get("tool_calls"):
            blocks = [message.get("content") or ""]
            for call in message["tool_calls"]:
                function = call.get("function", {})
                try:
                    arguments: Any = json.loads(function.get("arguments") or "{}")
                except ValueError:
                    arguments = function.get("arguments", "")
                blocks.append(f"{OPEN_TAG}\n{json.dumps({'name': function.get('name'), 'arguments': arguments}, ensure_ascii=False)}\n{CLOSE_TAG}")
            out.append({"role": "assistant", "content": "\n".join(b for b in blocks if b)})
            continue
        out.append({k: v for k, v in message.items() if k in ("role", "content", "name")})
    flush_results()

    if tools:
        section = tools_system_section(tools)
        if out and out[0].get("role") == "system":
            out[0] = {**out[0], "content": f"{out[0].get('content', '')}\n\n{section}"}
        else:
            out.insert(0, {"role": "system", "content": section})
    return out


@dataclass(slots=True)
class TextToolCallParser:
    """Feed streamed text in; get back only what the user should see, and the calls found."""

    calls: list[RawToolCall] = field(default_factory=list)
    cut_off: bool = False  # the text ended inside a block that is not a whole call (see the module docstring)
    _pending: str = ""  # text that may be the start of an opening tag
    _block: list[str] | None = None  # inside a <tool_call> block

    @property
    def has_calls(self) -> bool:
        """A call was found, or a block has started and not yet closed."""
        return bool(self.calls) or self._block is not None

    def feed(self, text: str) -> str:
        visible: list[str] = []
        data = self._pending + text
        self._pending = ""
        while data:
            if self._block is not None:
                end = data.find(CLOSE_TAG)
                if end < 0:
                    keep = _partial_suffix(data, CLOSE_TAG)
                    self._block.append(data[: len(data) - keep])
                    self._pending = data[len(data) - keep:]
                    return "".join(visible)
                self._block.append(data[:end])
                self._close_block()
                data = data[end + len(CLOSE_TAG):]
                continue
            start = data.find(OPEN_TAG)
            if start < 0:
                keep = _partial_suffix(data, OPEN_TAG)
                visible.append(data[: len(data) - keep])
                self._pending = data[len(data) - keep:]
                return "".join(visible)
            visible.append(data[:start])
            self._block = []
            data = data[start + len(OPEN_TAG):]
        return "".join(visible)

    def finish(self) -> str:
        """End of stream: returns any visible text held back. An unclosed block is a call only if it is whole."""
        leftover = self._pending
        self._pending = ""
        if self._block is not None:
            body = "".join(self._block) + leftover
            self._block = None
            if self._parse_block(body, strict=True):
                return ""
            if "{" not in body:  # the tag named in prose, not the start of a call
                return OPEN_TAG + body
            self.calls.append(RawToolCall(id=new_call_id(), name=_guess_name(body), arguments=body.strip()))
            self.cut_off = True
            return ""
        return leftover

    def _close_block(self) -> None:
        assert self._block is not None
        body = "".join(self._block)
        self._block = None
        if not self._parse_block(body):
            # Not a call we can read: keep it as a call with the raw text so the model is
            # told its arguments were malformed instead of the text silently vanishing.
            self.calls.append(RawToolCall(id=new_call_id(), name=_guess_name(body), arguments=body.strip()))

    def _parse_block(self, body: str, *, strict: bool = False) -> bool:
        text = body.strip()
        try:
            data = json.loads(text) if strict else load_tolerant(text)[0]
        except (ValueError, ArgumentProblem):
            return False
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            return False
        arguments = data.get("arguments", data.get("parameters", {}))
        arguments_text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        self.calls.append(RawToolCall(id=new_call_id(), name=data["name"], arguments=arguments_text))
        return True


def _partial_suffix(text: str, tag: str) -> int:
    """Length of the longest suffix of `text` that is a proper prefix of `tag`."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:size]):
            return size
    return 0


def _guess_name(body: str) -> str:
    match = re.search(r'"name"\s*:\s*"([^"]+)"', body)
    return match.group(1) if match else "unparsed_tool_call"

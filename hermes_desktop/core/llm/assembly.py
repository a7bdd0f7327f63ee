"""Assemble streamed tool-call deltas into whole calls.

The OpenAI wire format sends each call's `id` and `name` once and its `arguments`
in pieces, keyed by `index`. Real servers deviate: some omit `index` or `id`,
some start at 1, some split `arguments` anywhere (even inside a multi-byte
character's escape), some resend the id on every fragment. The rules here:

- a fragment with an `index` belongs to the call first seen with that index,
  unless it carries a *different* id than that call already has (then it starts a
  new call: some servers reuse index 0 for every call);
- a fragment without an `index` starts a new call when it carries a new id, or a
  name after the last call's arguments already form a whole JSON value; otherwise
  it continues the last call;
- calls come out in the order they were first seen; a missing id is synthesised.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping


@dataclass(frozen=True, slots=True)
class RawToolCall:
    """A call as the model wrote it: arguments are still text, not yet parsed or validated."""

    id: str
    name: str
    arguments: str

    def to_openai(self) -> dict[str, Any]:
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


def new_call_id() -> str:
    return f"call_{uuid.uuid4().hex[:24]}"


@dataclass(slots=True)
class _PartialCall:
    index: int | None
    id: str = ""
    name: str = ""
    argument_parts: list[str] = field(default_factory=list)


class ToolCallAssembler:
    def __init__(self) -> None:
        self._calls: list[_PartialCall] = []
        self._by_index: dict[int, _PartialCall] = {}
        self.argument_chars = 0  # all calls' argument text so far (the reply's output limit applies to it)

    def add(self, fragments: Iterable[Mapping[str, Any]]) -> None:
        for fragment in fragments:
            self._add_one(fragment)

    def _add_one(self, fragment: Mapping[str, Any]) -> None:
        function = fragment.get("function") or {}
        call_id = fragment.get("id") or ""
        name = function.get("name") or ""
        arguments = function.get("arguments")
        index = fragment.get("index")
        target = self._target_for(index if isinstance(index, int) else None, call_id, name)
        if call_id and not target.id:
            target.id = call_id
        if name and name != target.name:
            # Most servers send the name once; some repeat it on every fragment (ignored above),
            # a few stream it in pieces before the arguments start.
            if not target.name:
                target.name = name
            elif not target.argument_parts:
                target.name += name
        if isinstance(arguments, Mapping):  # a few servers send an object, not a string
            arguments = json.dumps(arguments, ensure_ascii=False)
        if isinstance(arguments, str) and arguments:
            target.argument_parts.append(arguments)
            self.argument_chars += len(arguments)

    def _target_for(self, index: int | None, call_id: str, name: str) -> _PartialCall:
        if index is not None:
            existing = self._by_index.get(index)
            if existing is not None and not (call_id and existing.id and call_id != existing.id):
                return existing
            return self._start(index)
        last = self._calls[-1] if self._calls else None
        if last is None:
            return self._start(None)
        if call_id and last.id and call_id != last.id:
            return self._start(None)
        if name and last.name and _arguments_complete(last.argument_parts):
            # A new name after a finished JSON object is the next call; a repeated name in
            # the middle of unfinished arguments is a server echoing it on every fragment.
            return self._start(None)
        return last

    def _start(self, index: int | None) -> _PartialCall:
        call = _PartialCall(index=index)
        self._calls.append(call)
        if index is not None:
            self._by_index[index] = call
        return call

    @property
    def has_calls(self) -> bool:
        return bool(self._calls)

    def finish(self) -> list[RawToolCall]:
        """The completed calls; fragments that never got a name are dropped (nothing to call)."""
        return [
            RawToolCall(id=c.id or new_call_id(), name=c.name.strip(), arguments="".join(c.argument_parts))
            for c in self._calls
            if c.name.strip()
        ]


def _arguments_complete(parts: list[str]) -> bool:
    if not parts:
        return False
    try:
        json.loads("".join(parts))
    except ValueError:
        return False
    return True

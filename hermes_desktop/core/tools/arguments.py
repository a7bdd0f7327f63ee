"""Tool arguments as the model wrote them -> a validated dict, or an exact reason why not.

Parsing is tolerant where the repair is unambiguous (code fences, trailing
commas, single quotes, Python literals, unquoted keys, a missing closing brace or
bracket after complete values: `json_repair`), then validation is strict: the JSON
Schema decides, with no coercion ("5" is not 5), so the model learns what to fix
instead of us guessing what it meant.

Repair never completes a value the model did not finish writing. `{"path": "data`
must not become `{"path": "data"}`: that is a different folder, and a call cut off
in the middle of its arguments must never run (see core/llm/client.py for the
stream-level rule). Before `json_repair` sees the text, `truncation()` scans it
like a JSON tokenizer (double- or single-quoted strings with escapes, numbers,
words, punctuation) and refuses it when the text ends:
- inside a string (`{"path": "da`), including after a lone backslash;
- with a number (`{"n": 12` could have been 123) or a word that is not a whole literal
  (`{"a": tru`); `true`, `false`, `null`, `True`, `False`, `None` are whole;
- after a key, a colon, a comma or an opening brace or bracket (`{"a": 1, "b":`,
  `{"a": 1, "b"`, `{"a": 1,`): something was still to come.
What is left (the text ends after a complete string, literal, or closing brace or
bracket, with closers missing) is a slip json_repair may close.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.S)
_WHOLE_LITERALS = frozenset({"true", "false", "null", "True", "False", "None"})
_NUMBER_START = frozenset("-+0123456789.")
_PUNCTUATION = frozenset("{}[]:,")


@dataclass(frozen=True, slots=True)
class ArgumentProblem(Exception):
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class ParsedArguments:
    value: dict[str, Any]
    repaired: bool


def parse_arguments(raw: str) -> ParsedArguments:
    text = (raw or "").strip()
    if not text:
        return ParsedArguments({}, repaired=False)
    value, repaired = load_tolerant(text)
    if not isinstance(value, dict):
        raise ArgumentProblem(f"arguments must be a JSON object, got {type(value).__name__}: {text[:200]}")
    return ParsedArguments(value, repaired)


def load_tolerant(text: str) -> tuple[Any, bool]:
    """The JSON value in `text` and whether it needed repair; ArgumentProblem when it cannot be read safely."""
    try:
        return json.loads(text), False
    except ValueError:
        pass
    fenced = _FENCE.match(text)
    candidate = fenced.group(1).strip() if fenced else text
    try:
        return json.loads(candidate), True
    except ValueError:
        return _repair(candidate), True


def _repair(text: str) -> Any:
    if not any(c in text for c in "{["):
        raise ArgumentProblem(f"arguments are not JSON: {text[:200]}")
    cut = truncation(text)
    if cut is not None:
        raise ArgumentProblem(f"arguments are incomplete ({cut}), so they were not completed by guessing: {text[:200]}")
    from json_repair import repair_json  # only for arguments that are not JSON already: not held by an idle window

    try:
        repaired = repair_json(text, return_objects=True)
    except Exception as exc:  # the repair library can fail in many ways on garbage
        raise ArgumentProblem(f"arguments are not valid JSON ({exc}): {text[:200]}") from exc
    # An empty result from non-empty input means the repair guessed: not unambiguous.
    if repaired in ("", None) or (repaired == {} and re.sub(r"[\s{}]", "", text)):
        raise ArgumentProblem(f"arguments are not valid JSON and could not be repaired: {text[:200]}")
    return repaired


def truncation(text: str) -> str | None:
    """Why `text` looks cut off at its end, in a few words, or None when its last value is complete."""
    stack: list[str] = []  # open containers: "{" or "["
    previous = ""  # the last punctuation seen, or "value" after a string, number or word
    last_kind = ""  # what the text ends with: punct | string | number | word
    last_text = ""
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char.isspace():
            index += 1
            continue
        if char in "\"'":
            end = _string_end(text, index)
            if end < 0:
                return "it ends inside a string"
            is_key = bool(stack) and stack[-1] == "{" and previous in ("{", ",")
            last_kind, last_text = ("key" if is_key else "string"), text[index:end]
            previous = "key" if is_key else "value"
            index = end
            continue
        if char in _PUNCTUATION:
            if char in "{[":
                stack.append(char)
            elif char in "}]" and stack:
                stack.pop()
            last_kind, last_text, previous = "punct", char, char
            index += 1
            continue
        end = index
        while end < length and not text[end].isspace() and text[end] not in _PUNCTUATION and text[end] not in "\"'":
            end += 1
        word = text[index:end]
        is_key = bool(stack) and stack[-1] == "{" and previous in ("{", ",")
        if is_key:
            last_kind = "key"
        else:
            last_kind = "number" if word[0] in _NUMBER_START else "word"
        last_text, previous = word, ("key" if is_key else "value")
        index = end
    return _ending_problem(last_kind, last_text)


def _ending_problem(kind: str, token: str) -> str | None:
    if kind == "key":
        return "it ends after a key"
    if kind == "number":
        return "it ends with a number that may be cut short"
    if kind == "word" and token not in _WHOLE_LITERALS:
        return f"it ends with an unfinished word “{token[:20]}”"
    if kind == "punct" and token in ":,{[":
        return {":": "it ends after a colon", ",": "it ends after a comma"}.get(token, "it ends after an opening bracket")
    return None


def _string_end(text: str, start: int) -> int:
    """The index just past the string that opens at `start`, or -1 when it never closes."""
    quote = text[start]
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == quote:
            return index + 1
        index += 1
    return -1


def validate_arguments(value: dict[str, Any], schema: dict[str, Any]) -> None:
    """Raise ArgumentProblem naming every violation (path and reason)."""
    import jsonschema  # on the first tool call, not at start (~30 ms of `ask` for a reply without tools)

    validator_cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    validator = validator_cls(schema)
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    reasons = []
    for error in errors[:5]:
        where = "/".join(str(p) for p in error.absolute_path) or "(arguments)"
        reasons.append(f"{where}: {error.message}")
    raise ArgumentProblem("invalid arguments: " + "; ".join(reasons))

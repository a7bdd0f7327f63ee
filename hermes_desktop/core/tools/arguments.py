"""Tool arguments as the model wrote them -> a validated dict, or an exact reason why not.

Parsing is tolerant where the repair is unambiguous (code fences, trailing
commas, single quotes, Python literals, unquoted keys: `json_repair`), then
validation is strict: the JSON Schema decides, with no coercion ("5" is not 5),
so the model learns what to fix instead of us guessing what it meant.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import jsonschema
from json_repair import repair_json

_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.S)


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
    try:
        value = json.loads(text)
        repaired = False
    except ValueError:
        fenced = _FENCE.match(text)
        candidate = fenced.group(1).strip() if fenced else text
        try:
            value = json.loads(candidate)
        except ValueError:
            value = _repair(candidate)
        repaired = True
    if not isinstance(value, dict):
        raise ArgumentProblem(f"arguments must be a JSON object, got {type(value).__name__}: {text[:200]}")
    return ParsedArguments(value, repaired)


def _repair(text: str) -> Any:
    if not any(c in text for c in "{["):
        raise ArgumentProblem(f"arguments are not JSON: {text[:200]}")
    try:
        repaired = repair_json(text, return_objects=True)
    except Exception as exc:  # the repair library can fail in many ways on garbage
        raise ArgumentProblem(f"arguments are not valid JSON ({exc}): {text[:200]}") from exc
    # An empty result from non-empty input means the repair guessed: not unambiguous.
    if repaired in ("", None) or (repaired == {} and re.sub(r"[\s{}]", "", text)):
        raise ArgumentProblem(f"arguments are not valid JSON and could not be repaired: {text[:200]}")
    return repaired


def validate_arguments(value: dict[str, Any], schema: dict[str, Any]) -> None:
    """Raise ArgumentProblem naming every violation (path and reason)."""
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

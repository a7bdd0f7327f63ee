"""settings.json checked field by field: one bad value costs that value, never the rest of the file.

A hand-edited (or older, or newer) settings.json can hold a typo in an enum (`"approval_mode": "ask_rsky"`), a
string where a number belongs, a negative limit. Before, one unknown enum value made the whole file unreadable:
it was set aside and every provider profile vanished, while wrong types loaded silently. Now each field of
`Settings`, `AgentLimits` and each `ProviderProfile` is validated on its own with pydantic against the type the
dataclass declares (strict, as JSON: `"12"` is not a number, `1` is not a boolean), plus the few range rules
below; a value that fails is reported by its dotted name (`limits.max_round_trips`, `profiles[main].tool_mode`)
and left out, so `Settings.from_json` gives that field its default. Everything else, every other profile
included, is kept. A profile that lacks a field it cannot do without (id, name, base URL, model) is left out
with a problem naming it. Keys this version does not know are kept as they are (a newer version's fields).

A value that is plainly of its type (a string for a str, a known enum value, a list of strings...) passes a
dict-and-isinstance check without pydantic being imported, so a good file costs about a millisecond at every start
(`ask` included); anything else goes to pydantic for the verdict and the words of the problem.

The schema is read from the dataclasses themselves, so a field someone adds to core/settings.py is validated by
its declared type without touching this module. The file on disk is not rewritten: the user's text stays as it
was until they change that setting (core/settings_merge.py writes only changed keys).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import logging
import math
import types
import typing
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

if typing.TYPE_CHECKING:
    from pydantic import TypeAdapter

    from hermes_desktop.core.settings import Settings

log = logging.getLogger(__name__)

# Fields whose own reader in core/settings.py accepts more than their type says (a hand-written string of hosts):
# validated there, not here.
OWN_READER = frozenset({"fetch_allowed_private_hosts"})
# Numbers that must be above zero (0 would stop every turn or make no sense); every other number must not be
# negative. Names are dataclass field names, whichever dataclass holds them.
POSITIVE = frozenset({
    "max_round_trips", "max_identical_calls", "max_consecutive_failures", "tool_result_char_budget",
    "default_tool_timeout_s", "max_parallel_tools", "max_reply_chars", "summary_timeout_s", "context_window",
    "request_timeout_s", "max_output_tokens", "import_max_mb", "memory_half_life_days", "memory_budget_tokens",
})


@dataclass(frozen=True, slots=True)
class FieldProblem:
    """One value that was not used: its dotted name, the value as written (shortened) and why."""

    name: str
    value: str
    reason: str

    def __str__(self) -> str:
        return f"{self.name} ({self.value}: {self.reason})"


@lru_cache(maxsize=None)
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


@lru_cache(maxsize=None)
def _adapter(annotation: Any) -> "TypeAdapter[Any]":
    from pydantic import TypeAdapter  # only for a value the plain check did not accept: a good file never needs it

    return TypeAdapter(annotation)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "…"


def _field_problem(name: str, annotation: Any, value: Any) -> tuple[str | None, Any]:
    """(why `value` cannot be the field `name` of type `annotation` or None when it can, the value to use)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "not a finite number", value
    candidate = value
    if isinstance(value, float) and value.is_integer() and _wants_int(annotation):
        candidate = int(value)  # 100.0 for an int: what the user meant
    if _plainly(annotation, candidate):  # the usual case, a good value: no pydantic schema is built (~1 ms a type)
        return _range_problem(name, candidate), candidate
    try:
        adapter = _adapter(annotation)
    except Exception:  # a type pydantic cannot check (a field added with its own class): its reader decides
        log.debug("settings: no check for a field of type %r", annotation)
        return None, value
    from pydantic import ValidationError

    try:
        checked = adapter.validate_json(json.dumps(candidate), strict=True)
    except ValidationError as exc:
        return "; ".join(error["msg"] for error in exc.errors()[:2]), value
    except (TypeError, ValueError) as exc:
        return str(exc), value
    problem = _range_problem(name, checked)
    return (problem, value) if problem else (None, candidate)


def _range_problem(name: str, checked: Any) -> str | None:
    if isinstance(checked, (int, float)) and not isinstance(checked, bool):
        if name in POSITIVE and checked <= 0:
            return "must be above 0"
        if checked < 0:
            return "must not be negative"
    return None


def _plainly(annotation: Any, value: Any) -> bool:
    """True when `value` is exactly what a strict check of `annotation` accepts, for the simple types settings use
    (str, int, float, bool, StrEnum, optionals, tuple[str, ...], dict[str, str | Any]). False means "ask pydantic",
    which then says precisely what is wrong (or accepts a form this shortcut does not know)."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is bool:
        return type(value) is bool
    if annotation is int:
        return type(value) is int
    if annotation is float:
        return type(value) in (int, float)
    if annotation is str:
        return type(value) is str
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return any(value == member.value for member in annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_plainly(arg, value) for arg in args)
    if annotation is type(None):
        return value is None
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return isinstance(value, list) and all(_plainly(args[0], item) for item in value)
    if origin is dict and len(args) == 2 and args[0] is str:
        return isinstance(value, dict) and all(type(k) is str for k in value) and (
            args[1] is Any or all(_plainly(args[1], item) for item in value.values()))
    return False


def _wants_int(annotation: Any) -> bool:
    return annotation is int or int in typing.get_args(annotation)


def _check_dataclass(kind: type, data: Mapping[str, Any], prefix: str, problems: list[FieldProblem]) -> dict[str, Any]:
    """`data` without the fields of `kind` whose values fail; nested dataclasses checked field by field."""
    hints = _hints(kind)
    kept: dict[str, Any] = {}
    for key, value in data.items():
        annotation = hints.get(key)
        if annotation is None or key in OWN_READER:  # unknown (kept for a newer version) or read elsewhere
            kept[key] = value
            continue
        name = f"{prefix}{key}"
        if dataclasses.is_dataclass(annotation):
            if isinstance(value, Mapping):
                kept[key] = _check_dataclass(annotation, value, f"{name}.", problems)
            else:
                problems.append(FieldProblem(name, _shown(value), "not an object"))
            continue
        if _is_records(annotation):
            kept[key] = _check_records(typing.get_args(annotation)[0], value, name, problems)
            continue
        reason, usable = _field_problem(key, annotation, value)
        if reason is None:
            kept[key] = usable
        else:
            problems.append(FieldProblem(name, _shown(value), reason))
    return kept


def _is_records(annotation: Any) -> bool:
    """`tuple[SomeDataclass, ...]`: a list of records (the provider profiles), checked one by one."""
    args = typing.get_args(annotation)
    return typing.get_origin(annotation) is tuple and len(args) == 2 and args[1] is Ellipsis \
        and dataclasses.is_dataclass(args[0])


def _check_records(kind: type, value: Any, name: str, problems: list[FieldProblem]) -> list[dict[str, Any]]:
    """Each record checked field by field; one that is not an object, or lacks a field it cannot do without (no
    default: a profile's id, name, base URL, model), is left out and named (by its `id` when it has one)."""
    if not isinstance(value, list):
        problems.append(FieldProblem(name, _shown(value), "not a list"))
        return []
    required = [f.name for f in dataclasses.fields(kind)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]  # type: ignore[misc]
    kept = []
    for index, entry in enumerate(value):
        if not isinstance(entry, Mapping):
            problems.append(FieldProblem(f"{name}[{index}]", _shown(entry), "not an object; this entry was left out"))
            continue
        label = entry.get("id") if isinstance(entry.get("id"), str) and entry.get("id") else str(index)
        checked = _check_dataclass(kind, entry, f"{name}[{label}].", problems)
        missing = [field for field in required if field not in checked]
        if missing:
            problems.append(FieldProblem(f"{name}[{label}]", _shown(entry.get("name", label)),
                                         f"has no valid {', '.join(missing)}; this entry was left out"))
            continue
        kept.append(checked)
    return kept


def validate_settings(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[FieldProblem]]:
    """(the file's fields that can be used, the ones that cannot): see the module docstring."""
    from hermes_desktop.core.settings import Settings

    problems: list[FieldProblem] = []
    return _check_dataclass(Settings, data, "", problems), problems


def problems_text(problems: list[FieldProblem]) -> str:
    """The problems as one list for a sentence: `limits.max_round_trips (-3: must be above 0); …`."""
    return "; ".join(str(p) for p in problems)


def read_valid(data: Mapping[str, Any], path: object = "settings.json") -> "tuple[Settings, str | None]":
    """The settings a file's top-level object gives, and a problem naming each value that was replaced by its
    default (None when all were good). Raises what `Settings.from_json` raises for a file it still cannot read."""
    from hermes_desktop.core.coded import coded
    from hermes_desktop.core.settings import Settings

    usable, problems = validate_settings(data)
    settings = Settings.from_json(usable)
    if not problems:
        return settings, None
    listed = problems_text(problems)
    log.warning("settings: values not used, their defaults are: %s", listed)
    return settings, coded(
        f"Some values in your settings file {path} are not valid, so their defaults are used: {listed}. Everything "
        "else in the file was loaded; the file was left as it is (fix or remove those values to stop this message).",
        "settings_fields_invalid", path=str(path), fields=listed, names=", ".join(p.name for p in problems))

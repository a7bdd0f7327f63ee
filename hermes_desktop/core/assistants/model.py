"""The Assistant value and its JSON form (our own export format), validated field by field.

An assistant's allow lists are what it may use, never more than the user allows: `tools` names built-in tools,
`skills` skill names, `mcp_servers` server names. `None` in a list means "everything the app offers" and only the
default assistant (Hermes) has it: a file never grants "everything" (`from_json` turns a missing list into an
empty one, so an imported assistant starts with no tools until the user ticks them).

`from_json` raises `AssistantFormatError` naming the place (`assistants[3].temperature`), never a bare KeyError.
Instructions may use the variables {date}, {language} and {workspace}; `render_instructions` replaces exactly
those three (no str.format: instructions often hold code with braces).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

DEFAULT_ID = "hermes"
FORMAT = "hermes-assistants"
FORMAT_VERSION = 1
EFFORTS = ("low", "medium", "high")
MAX_NAME = 80
MAX_INSTRUCTIONS = 40_000
MAX_STARTERS = 8
VARIABLES = ("date", "language", "workspace")
# Controls and bidirectional overrides are never part of a name, emoji, group or description: a file could
# otherwise show "Translator" while its name reads differently, or move the text after it (issue 16's rule).
_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def clean_label(text: str) -> str:
    """A one-line label as it is stored and shown: controls and bidi overrides removed, spaces trimmed."""
    return _UNSHOWN.sub("", text).strip()


class AssistantFormatError(ValueError):
    """A file or a field is not an assistant; `place` says where (`assistants[2].name`)."""

    def __init__(self, place: str, problem: str) -> None:
        super().__init__(f"{place}: {problem}" if place else problem)
        self.place = place
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Assistant:
    id: str
    name: str
    emoji: str = ""
    description: str = ""
    instructions: str = ""
    group: str = ""
    # The model it answers with by default (a session's own pick in the model picker wins); None: the default.
    profile_id: str | None = None
    model: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    max_output_tokens: int | None = None
    reasoning_effort: str | None = None
    # Titles, summaries and memory extraction (side tasks): None: the profile's side model, else the session's.
    side_profile_id: str | None = None
    side_model: str | None = None
    tools: tuple[str, ...] | None = ()
    skills: tuple[str, ...] | None = ()
    mcp_servers: tuple[str, ...] | None = ()
    knowledge: tuple[str, ...] = ()
    memory: bool = True
    starters: tuple[str, ...] = ()
    # Shown names in other languages: {"zh_CN": {"name": ..., "description": ..., "starters": [...]}}.
    translations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    origin: str = "user"  # builtin (the gallery) | user | imported

    @property
    def builtin(self) -> bool:
        return self.origin == "builtin"

    def shown_name(self, language: str = "en") -> str:
        return str(self._translated(language).get("name") or self.name)

    def shown_description(self, language: str = "en") -> str:
        return str(self._translated(language).get("description") or self.description)

    def shown_starters(self, language: str = "en") -> tuple[str, ...]:
        starters = self._translated(language).get("starters")
        return tuple(str(s) for s in starters) if isinstance(starters, list) and starters else self.starters

    def _translated(self, language: str) -> Mapping[str, Any]:
        for key in (language, language.split("_")[0]):
            found = self.translations.get(key)
            if isinstance(found, Mapping):
                return found
        if language.startswith("zh"):
            found = self.translations.get("zh_CN")
            if isinstance(found, Mapping):
                return found
        return {}

    def request_params(self) -> dict[str, Any]:
        """The parameters an assistant sets on its requests (ChatRequest.overrides); unset ones are left out."""
        params: dict[str, Any] = {}
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if self.top_p is not None:
            params["top_p"] = self.top_p
        if self.max_output_tokens:
            params["max_tokens"] = self.max_output_tokens
        if self.reasoning_effort:
            params["reasoning_effort"] = self.reasoning_effort
        return params

    def to_json(self) -> dict[str, Any]:
        """Our export format for one assistant (no origin: an imported file decides nothing about trust)."""
        data: dict[str, Any] = {
            "id": self.id, "name": self.name, "emoji": self.emoji, "description": self.description,
            "instructions": self.instructions, "group": self.group,
            "model": {"profile_id": self.profile_id, "model": self.model},
            "parameters": {"temperature": self.temperature, "top_p": self.top_p,
                           "max_output_tokens": self.max_output_tokens, "reasoning_effort": self.reasoning_effort},
            "side_model": {"profile_id": self.side_profile_id, "model": self.side_model},
            "tools": _listed(self.tools), "skills": _listed(self.skills), "mcp_servers": _listed(self.mcp_servers),
            "knowledge": list(self.knowledge), "memory": self.memory, "starters": list(self.starters),
        }
        if self.translations:
            data["translations"] = {k: dict(v) for k, v in self.translations.items()}
        return data

    def with_id(self, new_id: str, *, origin: str | None = None) -> "Assistant":
        return replace(self, id=new_id, origin=origin or self.origin)


def _listed(values: tuple[str, ...] | None) -> list[str] | str:
    return "all" if values is None else list(values)


def render_instructions(text: str, *, date: str, language: str, workspace: str) -> str:
    """The instructions with {date}, {language} and {workspace} filled in; any other brace is left as written."""
    for name, value in (("date", date), ("language", language), ("workspace", workspace)):
        text = text.replace("{" + name + "}", value)
    return text


# ---------------------------------------------------------------------------------------------- reading JSON
def _text(data: Mapping[str, Any], key: str, place: str, *, limit: int, required: bool = False) -> str:
    value = data.get(key)
    if value is None:
        if required:
            raise AssistantFormatError(f"{place}.{key}", "is missing")
        return ""
    if not isinstance(value, str):
        raise AssistantFormatError(f"{place}.{key}", f"must be text, not {type(value).__name__}")
    value = value.replace("\x00", "") if limit >= MAX_INSTRUCTIONS else clean_label(value)
    if required and not value.strip():
        raise AssistantFormatError(f"{place}.{key}", "is empty")
    if len(value) > limit:
        raise AssistantFormatError(f"{place}.{key}", f"is too long ({len(value)} characters; at most {limit})")
    return value.strip() if limit <= MAX_NAME * 4 else value


def _number(value: Any, place: str, low: float, high: float) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise AssistantFormatError(place, f"must be a number, not {value!r}"[:200])
    if not low <= value <= high:
        raise AssistantFormatError(place, f"must be between {low:g} and {high:g} (it is {value:g})")
    return float(value)


def _names(value: Any, place: str, *, allow_all: bool = False) -> tuple[str, ...] | None:
    if value is None:
        return ()
    if value == "all":
        if allow_all:
            return None
        raise AssistantFormatError(place, "\"all\" is not allowed in a file: list the tools by name")
    if not isinstance(value, list):
        raise AssistantFormatError(place, f"must be a list of names, not {type(value).__name__}")
    names = []
    for index, item in enumerate(value):
        if not isinstance(item, str) or not item.strip() or len(item) > 128:
            raise AssistantFormatError(f"{place}[{index}]", "must be a name (text of 1 to 128 characters)")
        if item.strip() not in names:
            names.append(item.strip())
    return tuple(names)


def _section(data: Mapping[str, Any], key: str, place: str) -> Mapping[str, Any]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise AssistantFormatError(f"{place}.{key}", f"must be an object, not {type(value).__name__}")
    return value


def _optional_text(value: Any, place: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 200:
        raise AssistantFormatError(place, "must be a name (text of at most 200 characters)")
    return value.strip() or None


def from_json(data: Any, place: str = "assistant", *, origin: str = "user", allow_all: bool = False) -> Assistant:
    """One assistant from our format. `allow_all` (the gallery only) accepts "all" in the allow lists."""
    if not isinstance(data, Mapping):
        raise AssistantFormatError(place, f"must be an object, not {type(data).__name__}")
    name = _text(data, "name", place, limit=MAX_NAME, required=True)
    assistant_id = data.get("id")
    if assistant_id is not None and (not isinstance(assistant_id, (str, int)) or isinstance(assistant_id, bool)):
        raise AssistantFormatError(f"{place}.id", "must be text")
    model = _section(data, "model", place)
    params = _section(data, "parameters", place)
    side = _section(data, "side_model", place)
    effort = params.get("reasoning_effort")
    if effort is not None and effort not in EFFORTS:
        raise AssistantFormatError(f"{place}.parameters.reasoning_effort", f"must be one of {', '.join(EFFORTS)}")
    max_out = params.get("max_output_tokens")
    if max_out is not None and (isinstance(max_out, bool) or not isinstance(max_out, int) or not 1 <= max_out <= 10_000_000):
        raise AssistantFormatError(f"{place}.parameters.max_output_tokens", "must be a whole number from 1")
    memory = data.get("memory", True)
    if not isinstance(memory, bool):
        raise AssistantFormatError(f"{place}.memory", "must be true or false")
    starters = _names(data.get("starters"), f"{place}.starters") if not isinstance(data.get("starters"), list) else \
        _starters(data["starters"], f"{place}.starters")
    translations = data.get("translations") or {}
    if not isinstance(translations, Mapping) or not all(isinstance(v, Mapping) for v in translations.values()):
        raise AssistantFormatError(f"{place}.translations", "must map a language to {name, description, starters}")
    return Assistant(
        id=str(assistant_id or "").strip()[:64], name=name, emoji=_text(data, "emoji", place, limit=16),
        description=_text(data, "description", place, limit=2000),
        instructions=_text(data, "instructions", place, limit=MAX_INSTRUCTIONS),
        group=_text(data, "group", place, limit=MAX_NAME),
        profile_id=_optional_text(model.get("profile_id"), f"{place}.model.profile_id"),
        model=_optional_text(model.get("model"), f"{place}.model.model"),
        temperature=_number(params.get("temperature"), f"{place}.parameters.temperature", 0, 2),
        top_p=_number(params.get("top_p"), f"{place}.parameters.top_p", 0, 1),
        max_output_tokens=max_out, reasoning_effort=effort,
        side_profile_id=_optional_text(side.get("profile_id"), f"{place}.side_model.profile_id"),
        side_model=_optional_text(side.get("model"), f"{place}.side_model.model"),
        tools=_names(data.get("tools"), f"{place}.tools", allow_all=allow_all),
        skills=_names(data.get("skills"), f"{place}.skills", allow_all=allow_all),
        mcp_servers=_names(data.get("mcp_servers"), f"{place}.mcp_servers", allow_all=allow_all),
        knowledge=_names(data.get("knowledge"), f"{place}.knowledge") or (),
        memory=memory, starters=starters or (),
        translations={str(k): dict(v) for k, v in translations.items()}, origin=origin,
    )


def _starters(values: list[Any], place: str) -> tuple[str, ...]:
    out = []
    for index, item in enumerate(values[:MAX_STARTERS]):
        if not isinstance(item, str) or not item.strip() or len(item) > 500:
            raise AssistantFormatError(f"{place}[{index}]", "must be text of 1 to 500 characters")
        out.append(item.strip())
    return tuple(out)


HERMES = Assistant(
    id=DEFAULT_ID, name="Hermes", emoji="🪽",
    description="The default assistant: every tool you have enabled, the app's own instructions.",
    tools=None, skills=None, mcp_servers=None, origin="builtin",
    translations={"zh_CN": {"name": "Hermes", "description": "默认助手：可用你启用的全部工具，使用应用自身的指令。"}},
)

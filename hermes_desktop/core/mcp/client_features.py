"""What an MCP server may ask of Hermes: elicitation (a form, or a web page to open), sampling (a reply from the
user's model), and roots (the folders it may work in). No Qt here: the questions go to injected protocols, like
tool approvals (core/tools/approval.py): the window's dialogs (ui/dialogs/mcp_elicitation.py, mcp_sampling.py), the
terminal for `ask` on a TTY (commands/mcp_terminal.py), and otherwise an answer that gives nothing away.

- **Elicitation.** The requested schema (flat, primitive properties: strings with formats and length limits,
  numbers and integers with ranges, booleans, single and multiple choice with or without titles) becomes a list of
  `FormField`s; `check_value` validates an answer, the same rules for the dialog and the terminal, and the answer is
  checked once more here before it goes back, so a UI bug cannot send content the server did not ask for. Nothing
  is ever answered automatically: without a UI the request is declined. A URL-mode request (spec 2025-11-25) is
  only ever http(s); the browser is opened here, and only after the Elicitor says the user accepted (it must have
  shown the full URL). A schema a form cannot show is answered with an error that names the field.
- **Sampling.** The Sampler sees the request (server, messages, system prompt, model hints and priorities, the
  requested and the capped max tokens) and decides; only if it calls `generate` is the active model asked, with
  exactly the server's system prompt and messages (never the user's conversation, never tools), at most
  `SAMPLING_MAX_TOKENS`. The Sampler then shows the reply and returns the text to send (possibly edited) or None.
  A refusal is the error the spec names (code -1, "User rejected sampling request"). Each request and its outcome
  is one audit line (`tool` "sampling/createMessage", source `mcp:<server>`), its texts redacted by the audit log.
  Tool use inside sampling is not offered (the `sampling.tools` capability is not declared).
- **Roots.** The workspace, and its notes folder when it exists, as file:// URIs, plus the folders the user
  gave that server in its own configuration (`server_folders`: a filesystem server started with ~/Documents keeps
  ~/Documents). `workspace_changed()` sends `notifications/roots/list_changed` to every connected server when the
  workspace's list changed.
- **Capabilities.** The SDK declares `elicitation` (form and url), `sampling` and `roots` (listChanged) exactly
  when the matching callback is given: `client_kwargs` gives all three, because all three are implemented. Only one
  question (form or sampling) is on screen at a time; others wait their turn, at most MAX_WAITING_QUESTIONS from
  one server (more at once are refused straight away, so a flood is not a queue of dialogs). A form's size and a
  server's texts are bounded (MAX_FIELDS, MAX_OPTIONS, MAX_*_CHARS) so a hostile schema cannot freeze the window.
- **Time.** While the user answers, the asking server's calls in progress do not time out (their deadlines are
  lifted and given back afterwards, core/tools/runner.py); a call the server cancels closes its question.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import webbrowser
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol, Sequence
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from hermes_desktop.core.audit import AuditLog
    from hermes_desktop.core.llm import ModelClient

log = logging.getLogger(__name__)

# What a form may ask for, and how much of a server's text is shown: a flood of fields or options froze the window
# for seconds while it built the form (10,000 fields: 3.4 s; a megabyte of title: 2 s) and printed as many lines in
# `ask`. Past MAX_FIELDS / MAX_OPTIONS the request is an error that says so; longer texts are shortened (marked "…").
MAX_FIELDS = 100
MAX_OPTIONS = 1_000
MAX_LABEL_CHARS = 200  # a field's title, an option's label
MAX_DESCRIPTION_CHARS = 1_000
MAX_MESSAGE_CHARS = 4_000  # the request's message
MAX_URL_CHARS = 8_192
# Questions from one server that may wait behind the one on screen; more at once (a server firing 20 sampling
# requests together) are refused straight away instead of becoming a queue of dialogs the user must click through.
MAX_WAITING_QUESTIONS = 3
# A sampling request is shown whole before anything is sent: 5 MB of text took 2 s to lay out in the dialog (and
# as long to print in `ask`). Text past MAX_SAMPLING_TEXT_CHARS (about 250,000 tokens, more than most windows),
# or images past MAX_SAMPLING_IMAGE_BYTES together (the largest image OpenAI's API takes), is refused with a reason.
MAX_SAMPLING_TEXT_CHARS = 1_000_000
MAX_SAMPLING_IMAGE_BYTES = 20 * 1024 * 1024
SAMPLING_MAX_TOKENS = 4096  # a server may ask for more; it gets at most this (and at most the profile's own limit)
SAMPLING_TIMEOUT_S = 180.0  # one generation
REJECTED = -1  # the spec's error code for "User rejected sampling request"
AUDIT_TEXT_CHARS = 2000  # each message's text in the audit line


# ====================================================================== elicitation: the form


class FieldKind(StrEnum):
    TEXT = "text"
    NUMBER = "number"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    CHOICE = "choice"  # one of the options
    MULTI = "multi"  # any of the options (a list of strings)


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class FormField:
    name: str
    kind: FieldKind
    title: str = ""
    description: str = ""
    required: bool = False
    default: Any = None  # already checked against the field; None when absent or invalid
    format: str = ""  # TEXT: email | uri | date | date-time
    minimum: float | None = None
    maximum: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    options: tuple[Option, ...] = ()
    min_items: int | None = None
    max_items: int | None = None

    @property
    def label(self) -> str:
        return self.title or shorten(self.name, MAX_LABEL_CHARS)


class SchemaError(ValueError):
    """The requested schema asks for something a flat form cannot show."""


class ProblemCode(StrEnum):
    REQUIRED = "required"
    NOT_TEXT = "not_text"
    NOT_NUMBER = "not_number"
    NOT_INTEGER = "not_integer"
    NOT_BOOLEAN = "not_boolean"
    BELOW_MINIMUM = "below_minimum"
    ABOVE_MAXIMUM = "above_maximum"
    TOO_SHORT = "too_short"
    TOO_LONG = "too_long"
    BAD_EMAIL = "bad_email"
    BAD_URI = "bad_uri"
    BAD_DATE = "bad_date"
    BAD_DATE_TIME = "bad_date_time"
    NOT_AN_OPTION = "not_an_option"
    TOO_FEW = "too_few"
    TOO_MANY = "too_many"


@dataclass(frozen=True, slots=True)
class Problem:
    code: ProblemCode
    limit: Any = None  # the bound that was crossed, when there is one

    def english(self) -> str:
        """For the terminal (the window words these itself, translated)."""
        limit = number_text(self.limit) if isinstance(self.limit, (int, float)) else self.limit
        return {
            ProblemCode.REQUIRED: "this field is required",
            ProblemCode.NOT_TEXT: "enter text",
            ProblemCode.NOT_NUMBER: "enter a number",
            ProblemCode.NOT_INTEGER: "enter a whole number",
            ProblemCode.NOT_BOOLEAN: "answer yes or no",
            ProblemCode.BELOW_MINIMUM: f"the smallest allowed value is {limit}",
            ProblemCode.ABOVE_MAXIMUM: f"the largest allowed value is {limit}",
            ProblemCode.TOO_SHORT: f"enter at least {limit} characters",
            ProblemCode.TOO_LONG: f"enter at most {limit} characters",
            ProblemCode.BAD_EMAIL: "enter an email address like name@example.com",
            ProblemCode.BAD_URI: "enter an address like https://example.com",
            ProblemCode.BAD_DATE: "enter a date as YYYY-MM-DD",
            ProblemCode.BAD_DATE_TIME: "enter a date and time as YYYY-MM-DDTHH:MM",
            ProblemCode.NOT_AN_OPTION: "choose one of the options",
            ProblemCode.TOO_FEW: f"choose at least {limit}",
            ProblemCode.TOO_MANY: f"choose at most {limit}",
        }[self.code]


def number_text(value: float) -> str:
    """A schema's number as a person writes it: 5 for 5.0, 2.5 as is. An integer stays exact however long (a
    server's `minimum` of 10**400 cannot become a float); the dialog and the terminal show numbers with this."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def shorten(text: str, limit: int) -> str:
    """`text` for showing, at most `limit` characters (cut ones end with "…")."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _too_many_options(where: str, count: int) -> SchemaError:
    return SchemaError(f"{where} has {count:,} options; a form shows at most {MAX_OPTIONS:,}")


def _options(items: Any, where: str) -> tuple[Option, ...]:
    """`enum` (with legacy `enumNames`) or `oneOf`/`anyOf` of {const, title}."""
    if isinstance(items, dict) and isinstance(items.get("enum"), list):
        values = items["enum"]
        if len(values) > MAX_OPTIONS:
            raise _too_many_options(where, len(values))
        names = items.get("enumNames") if isinstance(items.get("enumNames"), list) else None
        if not all(isinstance(v, str) for v in values):
            raise SchemaError(f"{where}: the options must be strings")
        labels = names if names is not None and len(names) == len(values) else values
        return tuple(Option(v, shorten(str(label), MAX_LABEL_CHARS)) for v, label in zip(values, labels))
    choices = (items.get("oneOf") or items.get("anyOf")) if isinstance(items, dict) else None
    if isinstance(choices, list) and choices:
        if len(choices) > MAX_OPTIONS:
            raise _too_many_options(where, len(choices))
        found = []
        for choice in choices:
            if not isinstance(choice, dict) or not isinstance(choice.get("const"), str):
                raise SchemaError(f"{where}: each option needs a string `const`")
            found.append(Option(choice["const"], shorten(str(choice.get("title") or choice["const"]), MAX_LABEL_CHARS)))
        return tuple(found)
    return ()


def _bound(value: Any) -> float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def form_fields(schema: Any) -> tuple[FormField, ...]:
    """The fields of a requested schema, in its order. SchemaError names the first property that cannot be shown."""
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        raise SchemaError("the requested schema is not an object with properties")
    properties = schema.get("properties") or {}
    if not isinstance(properties, dict):
        raise SchemaError("the requested schema's properties are not an object")
    if len(properties) > MAX_FIELDS:
        raise SchemaError(f"the form has {len(properties):,} fields; a form shows at most {MAX_FIELDS}")
    required = {r for r in schema["required"] if isinstance(r, str)} \
        if isinstance(schema.get("required"), list) else set()
    fields = []
    for name, prop in properties.items():
        where = f"field “{shorten(str(name), 80)}”"
        if not isinstance(prop, dict):
            raise SchemaError(f"{where} has no schema")
        kind_name = prop.get("type")
        common = {"name": str(name), "title": shorten(str(prop.get("title") or ""), MAX_LABEL_CHARS),
                  "description": shorten(str(prop.get("description") or ""), MAX_DESCRIPTION_CHARS),
                  "required": name in required}
        if kind_name == "string":
            options = _options(prop, where)
            if options:
                made = FormField(kind=FieldKind.CHOICE, options=options, **common)
            else:
                fmt = prop.get("format") if prop.get("format") in ("email", "uri", "date", "date-time") else ""
                made = FormField(kind=FieldKind.TEXT, format=fmt, min_length=_count(prop.get("minLength")),
                                 max_length=_count(prop.get("maxLength")), **common)
        elif kind_name in ("number", "integer"):
            made = FormField(kind=FieldKind.NUMBER if kind_name == "number" else FieldKind.INTEGER,
                             minimum=_bound(prop.get("minimum")), maximum=_bound(prop.get("maximum")), **common)
        elif kind_name == "boolean":
            made = FormField(kind=FieldKind.BOOLEAN, **common)
        elif kind_name == "array":
            options = _options(prop.get("items"), where)
            if not options:
                raise SchemaError(f"{where} is a list without options to choose from")
            made = FormField(kind=FieldKind.MULTI, options=options, min_items=_count(prop.get("minItems")),
                             max_items=_count(prop.get("maxItems")), **common)
        else:
            raise SchemaError(f"{where} has type {kind_name!r}, which a form cannot ask for")
        default = prop.get("default")
        if default is not None and check_value(made, default) is None:
            made = _with_default(made, default)
        fields.append(made)
    return tuple(fields)


def _with_default(made: FormField, default: Any) -> FormField:
    from dataclasses import replace

    if made.kind is FieldKind.MULTI:
        default = list(default)
    return replace(made, default=default)


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _missing(value: Any) -> bool:
    return value is None or value == "" or value == []


def check_value(form_field: FormField, value: Any) -> Problem | None:
    """Whether `value` (already typed: str, int, float, bool or list of str) is a valid answer for the field."""
    if _missing(value):
        return Problem(ProblemCode.REQUIRED) if form_field.required else None
    kind = form_field.kind
    if kind is FieldKind.TEXT:
        if not isinstance(value, str):
            return Problem(ProblemCode.NOT_TEXT)
        if form_field.min_length is not None and len(value) < form_field.min_length:
            return Problem(ProblemCode.TOO_SHORT, form_field.min_length)
        if form_field.max_length is not None and len(value) > form_field.max_length:
            return Problem(ProblemCode.TOO_LONG, form_field.max_length)
        return _check_format(form_field.format, value)
    if kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (isinstance(value, float) and not math.isfinite(value)):
            # NaN passed every range check, and JSON has no NaN or Infinity; an int is always finite (math.isfinite
            # raises OverflowError on one too large for a float, e.g. 10**400)
            return Problem(ProblemCode.NOT_NUMBER)
        if kind is FieldKind.INTEGER and not (isinstance(value, int) or float(value).is_integer()):
            return Problem(ProblemCode.NOT_INTEGER)
        if form_field.minimum is not None and value < form_field.minimum:
            return Problem(ProblemCode.BELOW_MINIMUM, form_field.minimum)
        if form_field.maximum is not None and value > form_field.maximum:
            return Problem(ProblemCode.ABOVE_MAXIMUM, form_field.maximum)
        return None
    if kind is FieldKind.BOOLEAN:
        return None if isinstance(value, bool) else Problem(ProblemCode.NOT_BOOLEAN)
    allowed = {option.value for option in form_field.options}
    if kind is FieldKind.CHOICE:
        return None if isinstance(value, str) and value in allowed else Problem(ProblemCode.NOT_AN_OPTION)
    if not isinstance(value, list) or not all(isinstance(v, str) and v in allowed for v in value):
        return Problem(ProblemCode.NOT_AN_OPTION)
    if form_field.min_items is not None and len(value) < form_field.min_items:
        return Problem(ProblemCode.TOO_FEW, form_field.min_items)
    if form_field.max_items is not None and len(value) > form_field.max_items:
        return Problem(ProblemCode.TOO_MANY, form_field.max_items)
    return None


def _check_format(fmt: str, value: str) -> Problem | None:
    if fmt == "email" and not _EMAIL.match(value):
        return Problem(ProblemCode.BAD_EMAIL)
    if fmt == "uri":
        parts = urlsplit(value)
        if not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*$", parts.scheme or "") or not (parts.netloc or parts.path) \
                or any(c.isspace() for c in value):
            return Problem(ProblemCode.BAD_URI)
    if fmt == "date":
        try:
            if not _DATE.match(value):
                raise ValueError
            date.fromisoformat(value)
        except ValueError:
            return Problem(ProblemCode.BAD_DATE)
    if fmt == "date-time":
        try:
            if "T" not in value.upper() and " " not in value:
                raise ValueError
            datetime.fromisoformat(value)
        except ValueError:
            return Problem(ProblemCode.BAD_DATE_TIME)
    return None


def typed(form_field: FormField, value: Any) -> Any:
    """The value as it goes to the server: an integer field's 3.0 is 3."""
    if form_field.kind is FieldKind.INTEGER and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def check_content(fields: tuple[FormField, ...], content: dict[str, Any]) -> dict[str, Problem]:
    """Every field's problem with a whole answer (fields the schema does not name are a problem too)."""
    problems = {f.name: p for f in fields if (p := check_value(f, content.get(f.name))) is not None}
    for name in content:
        if name not in {f.name for f in fields}:
            problems[name] = Problem(ProblemCode.NOT_AN_OPTION)
    return problems


def parse_text(form_field: FormField, text: str) -> Any:
    """A typed answer from one line of text (the terminal). Raises ValueError (with a Problem) when it is not one;
    an empty line is None (left out, or the field's problem if it is required)."""
    text = text.strip()
    if not text:
        return None
    kind = form_field.kind
    if kind is FieldKind.TEXT:
        return text
    if kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        try:
            number = float(text) if kind is FieldKind.NUMBER else int(text)
        except ValueError:
            raise ValueError(Problem(ProblemCode.NOT_NUMBER if kind is FieldKind.NUMBER
                                     else ProblemCode.NOT_INTEGER)) from None
        return int(number) if isinstance(number, float) and number.is_integer() and "." not in text \
            and "e" not in text.lower() else number
    if kind is FieldKind.BOOLEAN:
        answer = text.lower()
        if answer in ("y", "yes", "true", "1"):
            return True
        if answer in ("n", "no", "false", "0"):
            return False
        raise ValueError(Problem(ProblemCode.NOT_BOOLEAN))
    if kind is FieldKind.CHOICE:
        return _option_value(form_field, text)
    return [_option_value(form_field, part.strip()) for part in text.split(",") if part.strip()]


def _option_value(form_field: FormField, text: str) -> str:
    if text.isdigit() and 1 <= int(text) <= len(form_field.options):
        return form_field.options[int(text) - 1].value
    for option in form_field.options:
        if text in (option.value, option.label):
            return option.value
    raise ValueError(Problem(ProblemCode.NOT_AN_OPTION))


# ====================================================================== elicitation: the question


class ElicitAction(StrEnum):
    ACCEPT = "accept"
    DECLINE = "decline"  # the user said no
    CANCEL = "cancel"  # the user dismissed it without choosing


@dataclass(frozen=True, slots=True)
class ElicitationRequest:
    server: str
    message: str
    mode: str = "form"  # form | url
    fields: tuple[FormField, ...] = ()
    url: str = ""
    elicitation_id: str = ""

    @property
    def domain(self) -> str:
        """The host the URL leads to (shown apart, so a look-alike path cannot hide it); a host with non-ASCII
        letters also shows its punycode form, so a look-alike letter (a Cyrillic “о”) cannot pass for a Latin one."""
        host = (urlsplit(self.url).hostname or "") if self.url else ""
        if host.isascii():
            return host
        try:
            return f"{host} ({host.encode('idna').decode('ascii')})"
        except UnicodeError:
            return host.encode("ascii", "backslashreplace").decode("ascii")


@dataclass(frozen=True, slots=True)
class ElicitationAnswer:
    action: ElicitAction
    content: dict[str, Any] | None = None  # ACCEPT in form mode: the typed values


class Elicitor(Protocol):
    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer: ...


class DecliningElicitor:
    """Nobody is there to ask (`ask` without a terminal): every request is declined, never answered."""

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        return ElicitationAnswer(ElicitAction.DECLINE)


# ====================================================================== sampling


@dataclass(frozen=True, slots=True)
class SamplingMessage:
    role: str  # user | assistant
    text: str  # its text parts joined
    images: int = 0  # image parts (sent to the model, not shown as text)
    parts: tuple[dict[str, Any], ...] = ()  # what goes to the model (OpenAI content parts)


@dataclass(frozen=True, slots=True)
class SamplingRequest:
    server: str
    messages: tuple[SamplingMessage, ...]
    system_prompt: str = ""
    model_hints: tuple[str, ...] = ()
    priorities: dict[str, float] = field(default_factory=dict)  # cost / speed / intelligence, 0..1
    requested_max_tokens: int = 0
    max_tokens: int = 0  # what the model will be allowed (capped)
    model: str = ""  # the model that would answer
    include_context: str = ""  # what the server asked to include ("thisServer" ...): never included


@dataclass(frozen=True, slots=True)
class SamplingDraft:
    """The model's reply, for the user to see before it goes back."""

    text: str
    model: str
    stop_reason: str = "endTurn"
    error: str = ""  # the model failed: nothing to send


class Sampler(Protocol):
    async def sample(self, request: SamplingRequest,
                     generate: Callable[[], Awaitable[SamplingDraft]]) -> str | None:
        """Show the request; if the user allows it, `await generate()` and show the reply. Return the text to send
        (the reply, or the user's edit of it), or None to refuse."""
        ...


class RefusingSampler:
    """Nobody is there to ask: every request is refused, and the model is never called."""

    async def sample(self, request: SamplingRequest, generate: Callable[[], Awaitable[SamplingDraft]]) -> str | None:
        return None


class UnsupportedSampling(ValueError):
    pass


def sampling_request(server: str, params: Any, model: str) -> SamplingRequest:
    """The SDK's CreateMessageRequestParams as the user sees it. UnsupportedSampling for tools or audio."""
    if getattr(params, "tools", None) or getattr(params, "tool_choice", None):
        raise UnsupportedSampling("tool use in sampling is not supported by this client")
    messages = []
    for message in params.messages:
        blocks = message.content if isinstance(message.content, list) else [message.content]
        texts: list[str] = []
        parts: list[dict[str, Any]] = []
        images = 0
        for block in blocks:
            kind = getattr(block, "type", "")
            if kind == "text":
                texts.append(block.text)
                parts.append({"type": "text", "text": block.text})
            elif kind == "image" and message.role == "user":
                images += 1
                parts.append({"type": "image_url", "image_url": {"url": f"data:{block.mime_type};base64,{block.data}"}})
            else:
                raise UnsupportedSampling(f"{kind or 'this'} content in sampling is not supported by this client")
        messages.append(SamplingMessage(message.role, "\n".join(texts), images, tuple(parts)))
    text_chars = len(params.system_prompt or "") + sum(len(m.text) for m in messages)
    if text_chars > MAX_SAMPLING_TEXT_CHARS:
        raise UnsupportedSampling(f"the request holds {text_chars:,} characters of text; at most "
                                  f"{MAX_SAMPLING_TEXT_CHARS:,} can be shown to the user")
    image_bytes = sum(len(part["image_url"]["url"]) * 3 // 4 for m in messages for part in m.parts
                      if part["type"] == "image_url")
    if image_bytes > MAX_SAMPLING_IMAGE_BYTES:
        raise UnsupportedSampling(f"the request's images take {image_bytes / 1048576:.0f} MB; at most "
                                  f"{MAX_SAMPLING_IMAGE_BYTES // 1048576} MB are sent")
    prefs = params.model_preferences
    hints = tuple(h.name for h in (prefs.hints or ()) if h.name) if prefs else ()
    priorities = {name: value for name, value in (
        ("cost", getattr(prefs, "cost_priority", None)), ("speed", getattr(prefs, "speed_priority", None)),
        ("intelligence", getattr(prefs, "intelligence_priority", None))) if value is not None} if prefs else {}
    requested = int(params.max_tokens)
    return SamplingRequest(server, tuple(messages), params.system_prompt or "", hints, priorities, requested,
                           max(1, min(requested, SAMPLING_MAX_TOKENS)), model,
                           str(params.include_context or "") if params.include_context not in (None, "none") else "")


def model_messages(request: SamplingRequest) -> list[dict[str, Any]]:
    """Exactly what the server sent, in OpenAI form: its system prompt and its messages, nothing of the user's."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": request.system_prompt}] \
        if request.system_prompt else []
    for message in request.messages:
        only_text = all(part["type"] == "text" for part in message.parts)
        messages.append({"role": message.role, "content": message.text if only_text else list(message.parts)})
    return messages


# ====================================================================== roots


@dataclass(frozen=True, slots=True)
class RootInfo:
    uri: str
    name: str


def workspace_roots(workspace: Path | None) -> list[RootInfo]:
    """The workspace, and its notes folder when there is one, as file:// roots."""
    if workspace is None:
        return []
    root = Path(workspace).expanduser().resolve()
    found = [RootInfo(root.as_uri(), "Workspace")]
    notes = root / "notes"
    if notes.is_dir():
        found.append(RootInfo(notes.as_uri(), "Notes"))
    return found


def server_folders(server: Any) -> list[RootInfo]:
    """The folders the user gave this server in its own configuration: each argument of a local (stdio) server
    that names an existing directory by an absolute or `~` path, as the filesystem server's README has users write
    (`npx @modelcontextprotocol/server-filesystem ~/Documents`). A server that honours roots replaces its folders
    with the roots it is sent, so offering only the workspace narrowed such a server to it (issue 24); these are
    offered beside the workspace. Never the root of the file system: a `/` argument is not read as a folder."""
    if getattr(server, "url", "") or not getattr(server, "command", ""):
        return []
    found: list[RootInfo] = []
    for arg in getattr(server, "args", ()):
        if not isinstance(arg, str) or not arg.startswith(("/", "~")) or len(arg) > 4096:
            continue
        try:
            folder = Path(arg).expanduser().resolve()
            if folder == Path(folder.anchor) or not folder.is_dir():
                continue
        except (OSError, RuntimeError, ValueError):
            continue
        root = RootInfo(folder.as_uri(), folder.name)
        if root not in found:
            found.append(root)
    return found


# ====================================================================== the SDK side


def _ambiguous_url(url: str, netloc: str, host: str) -> str:
    """Why the browser could open another host than the one shown ("" when it cannot). The dialog shows the host
    Python's urlsplit finds; a browser follows the WHATWG URL parser, which reads a backslash as a slash
    ("https://evil.example\\@good.example" is evil.example there, good.example here), drops tabs and newlines and
    decodes a %-encoded host. User info ("https://good.example@evil.example") is refused too: sign-in pages never
    need it, and it is the classic look-alike."""
    if any(ch == "\\" or ch.isspace() or ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F
           or "\u200b" <= ch <= "\u200f" or "\u202a" <= ch <= "\u202e" or "\u2066" <= ch <= "\u2069" for ch in url):
        return "the address holds a backslash, a space, a control or a direction character, which a browser reads " \
               "differently from what would be shown"
    if "@" in netloc:
        return "the address carries a user name or password before its host"
    if "%" in host:
        return "the address's host is %-encoded"
    if any(ch in host for ch in "ßς"):  # IDNA 2003 (Python) maps them to ss/σ; browsers (UTS 46) keep them:
        return "the address's host has a letter (ß or ς) that browsers read differently"  # another domain
    return ""


class ClientFeatures:
    """Built once by the runtime (`runtime.mcp.client_features`); each server's supervisor passes
    `client_kwargs(config)` to the SDK's Client. `servers` lists the supervisors, for `roots/list_changed`."""

    def __init__(self, *, roots: Callable[[], list[RootInfo]] = lambda: [], audit: "AuditLog | None" = None,
                 servers: Callable[[], Any] = lambda: (), open_url: Callable[[str], Any] = webbrowser.open) -> None:
        self.elicitor: Elicitor = DecliningElicitor()
        self.sampler: Sampler = RefusingSampler()
        self.model: Callable[[], "ModelClient | None"] = lambda: None  # the active model (the runtime sets it)
        self._roots = roots
        self._audit = audit
        self._open_url = open_url
        self._servers = servers
        self._announced: tuple[RootInfo, ...] | None = None
        self._asking: asyncio.Lock | None = None
        self._open_questions: dict[str, int] = {}  # by server: on screen or waiting for their turn
        self._pending: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ wiring
    def client_kwargs(self, server: Any) -> dict[str, Any]:
        """The callbacks for `mcp.Client(...)` for one server (its ServerConfig, or its name): with them the SDK
        declares elicitation, sampling and roots (core/mcp/supervisor.py's client_kwargs passes them on)."""
        name = str(getattr(server, "name", server))

        async def elicitation(context: Any, params: Any) -> Any:
            return await self.on_elicit(name, params)

        async def sampling(context: Any, params: Any) -> Any:
            return await self.on_sample(name, params)

        own = server_folders(server)  # what the user gave this server in mcp.json, beside the workspace

        async def roots(context: Any) -> Any:
            return self.on_list_roots(name, own)

        return {"elicitation_callback": elicitation, "sampling_callback": sampling, "list_roots_callback": roots}

    def _one_at_a_time(self) -> asyncio.Lock:
        if self._asking is None:
            self._asking = asyncio.Lock()
        return self._asking

    def _too_many_open(self, server: str) -> bool:
        return self._open_questions.get(server, 0) > MAX_WAITING_QUESTIONS

    @contextlib.contextmanager
    def _open_question(self, server: str) -> Any:
        self._open_questions[server] = self._open_questions.get(server, 0) + 1
        try:
            yield
        finally:
            self._open_questions[server] -= 1
            if not self._open_questions[server]:
                del self._open_questions[server]

    def _too_many_text(self, server: str) -> str:
        return (f"too many requests waiting: Hermes is already asking the user {self._open_questions.get(server, 0)} "
                "questions from this server")

    # ------------------------------------------------------------------ roots
    def roots(self) -> list[RootInfo]:
        try:
            return list(self._roots())
        except Exception:  # noqa: BLE001 - a broken provider gives no roots rather than a failed request
            log.exception("could not list MCP roots")
            return []

    def on_list_roots(self, server: str, own: Sequence[RootInfo] = ()) -> Any:
        """The roots for `server`: the workspace (and notes), then the folders of its own configuration."""
        from mcp import types

        current = self.roots()
        self._announced = tuple(current)
        listed = [*current, *(r for r in own if r not in current)]
        return types.ListRootsResult(roots=[types.Root(uri=r.uri, name=r.name) for r in listed])

    def workspace_changed(self) -> None:
        """Call after the workspace changed: connected servers hear `roots/list_changed` if the roots differ."""
        current = tuple(self.roots())
        if self._announced is not None and current == self._announced:
            return
        self._announced = current
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self.announce_roots_changed())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def announce_roots_changed(self) -> list[str]:
        """Send `notifications/roots/list_changed` to every connected server; the names that were told. Each goes
        through the server's owner task like any request (the supervisor's queue)."""
        told = []
        for supervisor in list(self._servers()):
            if getattr(supervisor.status.state, "value", "") != "connected":
                continue  # it asks for the roots when it (re)connects

            async def send(client: Any) -> None:
                with _quiet_deprecation():
                    await client.send_roots_list_changed()

            try:
                await asyncio.wait_for(supervisor._submit(send), 10)
                told.append(supervisor.config.name)
            except Exception as exc:  # noqa: BLE001 - a server that went away just misses the news
                log.info("MCP server %s: roots/list_changed not sent: %s", supervisor.config.name, exc)
        return told

    # ------------------------------------------------------------------ elicitation
    async def on_elicit(self, server: str, params: Any) -> Any:
        from mcp import types

        mode = getattr(params, "mode", "form") or "form"
        try:
            message = shorten(str(params.message or ""), MAX_MESSAGE_CHARS)
            if mode == "url":
                url = str(params.url)
                if len(url) > MAX_URL_CHARS:
                    raise SchemaError(f"the address is {len(url):,} characters long; at most {MAX_URL_CHARS:,} "
                                      "can be shown")
                try:
                    parts = urlsplit(url)
                    host = parts.hostname
                except ValueError as exc:  # "http://[oops": urlsplit raises
                    raise SchemaError(f"the address cannot be read ({exc})") from None
                if parts.scheme.lower() not in ("http", "https") or not host:
                    raise SchemaError("only http and https addresses can be opened")
                if problem := _ambiguous_url(url, parts.netloc, host):
                    raise SchemaError(problem)
                request = ElicitationRequest(server, message, "url", url=url,
                                             elicitation_id=str(getattr(params, "elicitation_id", "") or ""))
            else:
                request = ElicitationRequest(server, message, "form", form_fields(params.requested_schema))
        except SchemaError as exc:
            self._record("elicitation/create", server, decision="error", outcome=str(exc))
            return types.ErrorData(code=types.INVALID_PARAMS, message=f"Hermes cannot show this request: {exc}")
        if self._too_many_open(server):
            reason = self._too_many_text(server)
            self._record("elicitation/create", server, decision="error", outcome=reason)
            return types.ErrorData(code=types.INVALID_REQUEST, message=f"Hermes did not ask the user: {reason}")
        try:
            with self._open_question(server):
                async with _clock_stopped(server), self._one_at_a_time():
                    answer = await self.elicitor.elicit(request)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - asking failed: nothing was chosen
            log.exception("asking the user for MCP server %s failed", server)
            answer = ElicitationAnswer(ElicitAction.CANCEL)
        action = ElicitAction(answer.action)
        if action is ElicitAction.ACCEPT and request.mode == "url":
            self._record("elicitation/create", server, decision="accept", outcome="browser opened",
                         arguments={"mode": "url", "domain": request.domain})
            try:
                await asyncio.to_thread(self._open_url, request.url)
            except Exception as exc:  # noqa: BLE001 - the user agreed; the server still hears so
                log.warning("could not open %s: %s", request.domain, exc)
            return types.ElicitResult(action="accept")
        if action is ElicitAction.ACCEPT:
            content = {k: v for k, v in (answer.content or {}).items() if not _missing(v)}
            problems = check_content(request.fields, content)
            if problems:  # the UI let through something invalid: never send it
                log.error("elicitation answer for %s failed its own schema (%s); cancelled", server,
                          ", ".join(problems))
                action = ElicitAction.CANCEL
            else:
                by_name = {f.name: f for f in request.fields}
                self._record("elicitation/create", server, decision="accept",
                             arguments={"mode": "form", "fields": sorted(content)})
                return types.ElicitResult(action="accept",
                                          content={k: typed(by_name[k], v) for k, v in content.items()})
        self._record("elicitation/create", server, decision=action.value, arguments={"mode": request.mode})
        return types.ElicitResult(action=action.value)

    # ------------------------------------------------------------------ sampling
    async def on_sample(self, server: str, params: Any) -> Any:
        from mcp import types

        model = self.model()
        model_name = model.profile.model if model is not None else ""
        try:
            request = sampling_request(server, params, model_name)
        except UnsupportedSampling as exc:
            self._record("sampling/createMessage", server, decision="error", outcome=str(exc))
            return types.ErrorData(code=types.INVALID_PARAMS, message=str(exc))
        details = self._sampling_details(request)
        if model is None:
            self._record("sampling/createMessage", server, decision="refused", decided_by="no model set up",
                         arguments=details)
            return types.ErrorData(code=REJECTED, message="User rejected sampling request (no model is set up)")
        drafts: list[SamplingDraft] = []

        async def generate() -> SamplingDraft:
            draft = await self._generate(model, request)
            drafts.append(draft)
            return draft

        if self._too_many_open(server):
            reason = self._too_many_text(server)
            self._record("sampling/createMessage", server, decision="refused", decided_by=reason, arguments=details)
            return types.ErrorData(code=REJECTED, message=f"User rejected sampling request ({reason})")
        by = "you"
        try:
            with self._open_question(server):
                async with _clock_stopped(server), self._one_at_a_time():
                    text = await self.sampler.sample(request, generate)
        except asyncio.CancelledError:
            self._record("sampling/createMessage", server, decision="refused", decided_by="cancelled",
                         arguments=details)
            raise
        except Exception:  # noqa: BLE001 - asking failed: refused
            log.exception("asking the user about sampling for MCP server %s failed", server)
            text, by = None, "error while asking"
        if isinstance(self.sampler, RefusingSampler):
            by = "nobody to ask"
        usable = [d for d in drafts if not d.error]
        if text is None or not usable:
            self._record("sampling/createMessage", server, decision="refused", decided_by=by, arguments=details,
                         outcome=drafts[-1].error if drafts and drafts[-1].error else None)
            return types.ErrorData(code=REJECTED, message="User rejected sampling request")
        draft = usable[-1]
        edited = text != draft.text
        self._record("sampling/createMessage", server, decision="edited" if edited else "sent", decided_by=by,
                     arguments=details, model=draft.model, result_chars=len(text))
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=text),
                                         model=draft.model, stop_reason="endTurn" if edited else draft.stop_reason)

    async def _generate(self, model: "ModelClient", request: SamplingRequest) -> SamplingDraft:
        from hermes_desktop.core.llm import ChatRequest, ModelError, StreamDone

        chat = ChatRequest(model_messages(request), max_tokens=request.max_tokens,
                           max_reply_chars=request.max_tokens * 8, purpose="sampling")
        try:
            async with asyncio.timeout(SAMPLING_TIMEOUT_S):
                async with contextlib.aclosing(model.stream(chat)) as stream:
                    async for item in stream:
                        if isinstance(item, StreamDone):
                            if item.error is not None and not item.text:
                                return SamplingDraft("", model.profile.model, error=item.error.message)
                            stop = "maxTokens" if item.finish_reason == "length" or item.end.value == "output_limit" \
                                else "endTurn"
                            return SamplingDraft(item.text, model.profile.model, stop)
        except ModelError as exc:
            return SamplingDraft("", model.profile.model, error=exc.message)
        except TimeoutError:
            return SamplingDraft("", model.profile.model,
                                 error=f"the model did not answer within {SAMPLING_TIMEOUT_S:g} s")
        return SamplingDraft("", model.profile.model, error="the model's reply ended without text")

    @staticmethod
    def _sampling_details(request: SamplingRequest) -> dict[str, Any]:
        return {"system_prompt": request.system_prompt[:AUDIT_TEXT_CHARS],
                "messages": [{"role": m.role, "text": m.text[:AUDIT_TEXT_CHARS], **({"images": m.images}
                                                                                   if m.images else {})}
                             for m in request.messages],
                "model_hints": list(request.model_hints), "max_tokens_requested": request.requested_max_tokens,
                "max_tokens": request.max_tokens}

    def _record(self, tool: str, server: str, **fields: Any) -> None:
        if self._audit is not None:
            self._audit.record(tool=tool, source=f"mcp:{server}", **{k: v for k, v in fields.items() if v is not None})


@contextlib.asynccontextmanager
async def _clock_stopped(server: str) -> Any:
    """While the user answers a server's question, the server's calls in progress do not time out: their deadlines
    are lifted, and given back with the time they had left once the answer is in (core/tools/runner.py)."""
    from hermes_desktop.core.tools.runner import RUNNING_DEADLINES

    loop = asyncio.get_running_loop()
    started = loop.time()
    paused = [(deadline, when) for deadline in list(RUNNING_DEADLINES.get(f"mcp:{server}", ()))
              if (when := deadline.when()) is not None and not deadline.expired()]
    for deadline, _when in paused:
        deadline.reschedule(None)
    try:
        yield
    finally:
        now = loop.time()
        for deadline, when in paused:
            if not deadline.expired():
                deadline.reschedule(now + max(0.0, when - started))


@contextlib.contextmanager
def _quiet_deprecation() -> Any:
    """Roots are deprecated in the 2026-07-28 protocol; the servers this client speaks to (2025-11-25) use them."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            from mcp.shared.exceptions import MCPDeprecationWarning  # type: ignore[attr-defined]

            warnings.simplefilter("ignore", MCPDeprecationWarning)
        except ImportError:
            pass
        yield

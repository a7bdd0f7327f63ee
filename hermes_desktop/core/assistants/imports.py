"""Import assistants from a file or a URL, in three formats, as a plan the user sees before anything is saved.

Formats (detected from the JSON's shape):
- ours (`export_json`): {"format": "hermes-assistants", "version": 1, "assistants": [...]}, or one assistant object;
- Cherry Studio's assistant subscription list: a JSON array of {id, name, emoji, group, prompt, description}
  (`group` is a list of names or one name);
- NextChat masks: one mask or an array of them, {avatar, name, context: [{role, content}], modelConfig, lang}.

Nothing is granted silently: a plan lists each assistant's name, instructions and the tools, skills and MCP servers
it asks for (`requested`); `resolve(grant_tools=False)` (the default, what Cherry and NextChat files always get)
saves them with an empty allow list, so an imported assistant can only talk until the user ticks its tools.
A file never grants "all" (model.from_json refuses it). A bad file gets `AssistantFormatError` naming the place
(`[12].prompt`, `assistants[3].temperature`); nothing of a bad file is saved (one transaction, or none).

A URL is fetched with fetch_url's guard (core/tools/network.py: public http(s) only, checked after DNS and pinned;
a private host only when the user allowed it in Settings) within its size and time limits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Iterable

from hermes_desktop.core.assistants.model import FORMAT, FORMAT_VERSION, MAX_INSTRUCTIONS, MAX_NAME, Assistant, \
    AssistantFormatError, clean_label, from_json
from hermes_desktop.core.assistants.store import AssistantStore, new_id

MAX_IMPORT_BYTES = 8_000_000
MAX_ASSISTANTS = 5_000
CHERRY, NEXTCHAT, HERMES_FORMAT = "Cherry Studio", "NextChat", "Hermes"


@dataclass(frozen=True, slots=True)
class ImportItem:
    assistant: Assistant
    requested: tuple[str, ...]  # tools, skill:<name>, mcp:<server> the file asks for (granted only when confirmed)


@dataclass(frozen=True, slots=True)
class ImportPlan:
    format: str
    items: tuple[ImportItem, ...]
    source: str = ""

    @property
    def requests_tools(self) -> bool:
        return any(item.requested for item in self.items)

    def resolve(self, store: AssistantStore, *, grant_tools: bool = False) -> list[Assistant]:
        """The assistants to save: new ids, free names (`name (2)` on a clash, also within the file), and the
        requested tools only when `grant_tools`."""
        taken: set[str] = set()
        out = []
        for item in self.items:
            assistant = item.assistant
            if not grant_tools:
                assistant = replace(assistant, tools=(), skills=(), mcp_servers=())
            name = assistant.name
            number = 2
            while name.casefold() in taken or store.name_taken(name):
                name = f"{assistant.name} ({number})"
                number += 1
            taken.add(name.casefold())
            out.append(replace(assistant, id=new_id(), name=name, origin="imported"))
        return out

    def apply(self, store: AssistantStore, *, grant_tools: bool = False) -> list[Assistant]:
        """Save the plan in one transaction. Returns what was saved."""
        saved = self.resolve(store, grant_tools=grant_tools)
        store.save_many(saved, source=self.source[:500])
        return saved


def read_import(text: str | bytes, *, source: str = "") -> ImportPlan:
    """Parse and validate a whole file; raises AssistantFormatError with the place of the first problem."""
    if isinstance(text, bytes):
        if len(text) > MAX_IMPORT_BYTES:
            raise AssistantFormatError("", f"the file is too large ({len(text):,} bytes; at most {MAX_IMPORT_BYTES:,})")
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise AssistantFormatError(f"byte {exc.start}", "the file is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssistantFormatError(f"line {exc.lineno}, column {exc.colno}", f"not valid JSON ({exc.msg})") from None
    if isinstance(data, dict) and data.get("format") == FORMAT:
        listed = data.get("assistants")
        if not isinstance(listed, list):
            raise AssistantFormatError("assistants", "must be a list")
        return ImportPlan(HERMES_FORMAT, _ours(listed, "assistants"), source)
    if isinstance(data, dict) and _is_mask(data):
        return ImportPlan(NEXTCHAT, (_mask(data, "mask"),), source)
    if isinstance(data, dict) and "name" in data and "instructions" in data:
        return ImportPlan(HERMES_FORMAT, _ours([data], "assistant"), source)
    if isinstance(data, dict) and isinstance(data.get("masks"), list):
        data = data["masks"]
    if not isinstance(data, list):
        raise AssistantFormatError("", "this is not an assistants file (expected a Hermes export, a Cherry Studio "
                                       "assistant list or NextChat masks)")
    if not data:
        raise AssistantFormatError("", "the list is empty")
    if len(data) > MAX_ASSISTANTS:
        raise AssistantFormatError("", f"too many assistants ({len(data):,}; at most {MAX_ASSISTANTS:,})")
    first = data[0]
    if isinstance(first, dict) and _is_mask(first):
        return ImportPlan(NEXTCHAT, tuple(_mask(item, f"[{i}]") for i, item in enumerate(data)), source)
    if isinstance(first, dict) and "instructions" in first:
        return ImportPlan(HERMES_FORMAT, _ours(data, ""), source)
    return ImportPlan(CHERRY, tuple(_cherry(item, f"[{i}]") for i, item in enumerate(data)), source)


def _ours(listed: list[Any], place: str) -> tuple[ImportItem, ...]:
    items = []
    for index, data in enumerate(listed):
        assistant = from_json(data, f"{place}[{index}]" if place != "assistant" else place, origin="imported")
        requested = (*(assistant.tools or ()), *(f"skill:{s}" for s in assistant.skills or ()),
                     *(f"mcp:{m}" for m in assistant.mcp_servers or ()))
        items.append(ImportItem(assistant, requested))
    return tuple(items)


def _field(data: dict[str, Any], key: str, place: str, *, limit: int, required: bool = False) -> str:
    value = data.get(key)
    if value is None or value == "":
        if required:
            raise AssistantFormatError(f"{place}.{key}", "is missing")
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and key == "id":
        value = str(value)
    if not isinstance(value, str):
        raise AssistantFormatError(f"{place}.{key}", f"must be text, not {type(value).__name__}")
    if len(value) > limit:
        raise AssistantFormatError(f"{place}.{key}", f"is too long ({len(value):,} characters; at most {limit:,})")
    value = value.replace("\x00", "").strip() if limit >= MAX_INSTRUCTIONS else clean_label(value)
    if required and not value:
        raise AssistantFormatError(f"{place}.{key}", "is empty")
    return value


def _cherry(data: Any, place: str) -> ImportItem:
    if not isinstance(data, dict):
        raise AssistantFormatError(place, f"must be an object with name and prompt, not {type(data).__name__}")
    name = _field(data, "name", place, limit=MAX_NAME, required=True)
    prompt = _field(data, "prompt", place, limit=MAX_INSTRUCTIONS, required=True)
    group = data.get("group")
    if isinstance(group, list):
        if not all(isinstance(g, str) for g in group):
            raise AssistantFormatError(f"{place}.group", "must be a list of names")
        group = ", ".join(g.strip() for g in group if g.strip())
    elif group is not None and not isinstance(group, str):
        raise AssistantFormatError(f"{place}.group", "must be a name or a list of names")
    assistant = Assistant(id="", name=name, emoji=_field(data, "emoji", place, limit=16),
                          description=_field(data, "description", place, limit=2000), instructions=prompt,
                          group=(group or "")[:MAX_NAME], origin="imported")
    return ImportItem(assistant, ())


def _is_mask(data: dict[str, Any]) -> bool:
    return "context" in data and ("modelConfig" in data or "avatar" in data)


def _avatar(value: Any) -> str:
    """NextChat stores an emoji as its code points in hex ("1f916", "1f468-200d-1f4bb")."""
    if not isinstance(value, str):
        return ""
    try:
        return "".join(chr(int(part, 16)) for part in value.split("-"))[:8]
    except (ValueError, OverflowError):
        return value[:8] if len(value) <= 8 else ""


def _mask(data: Any, place: str) -> ImportItem:
    if not isinstance(data, dict):
        raise AssistantFormatError(place, f"must be a mask object, not {type(data).__name__}")
    name = _field(data, "name", place, limit=MAX_NAME, required=True)
    context = data.get("context")
    if not isinstance(context, list):
        raise AssistantFormatError(f"{place}.context", "must be a list of messages")
    system, examples = [], []
    for index, message in enumerate(context):
        where = f"{place}.context[{index}]"
        if not isinstance(message, dict) or not isinstance(message.get("content"), str):
            raise AssistantFormatError(where, "must be a message with a role and text content")
        role = message.get("role")
        if role == "system":
            system.append(message["content"].strip())
        elif role in ("user", "assistant"):
            examples.append(f"{'User' if role == 'user' else 'Assistant'}: {message['content'].strip()}")
        else:
            raise AssistantFormatError(f"{where}.role", f"must be system, user or assistant, not {role!r}"[:200])
    instructions = "\n\n".join(part for part in system if part)
    if examples:
        instructions += ("\n\n" if instructions else "") + "Example exchange:\n" + "\n".join(examples)
    if len(instructions) > MAX_INSTRUCTIONS:
        raise AssistantFormatError(f"{place}.context", f"is too long ({len(instructions):,} characters)")
    config = data.get("modelConfig") or {}
    if not isinstance(config, dict):
        raise AssistantFormatError(f"{place}.modelConfig", "must be an object")
    params = {"temperature": config.get("temperature"), "top_p": config.get("top_p"),
              "max_output_tokens": config.get("max_tokens")}
    parsed = from_json({"name": name, "parameters": {k: v for k, v in params.items() if v is not None}},
                       f"{place}.modelConfig", origin="imported")
    lang = data.get("lang")
    assistant = replace(parsed, emoji=_avatar(data.get("avatar")), instructions=instructions,
                        group=str(lang)[:MAX_NAME] if isinstance(lang, str) else "")
    return ImportItem(assistant, ())


def export_json(assistants: Iterable[Assistant]) -> str:
    """Our format: what `read_import` reads back (tools as listed; "all" of Hermes is never written)."""
    listed = []
    for assistant in assistants:
        data = assistant.to_json()
        for key in ("tools", "skills", "mcp_servers"):
            if data[key] == "all":
                data[key] = []
        listed.append(data)
    return json.dumps({"format": FORMAT, "version": FORMAT_VERSION, "assistants": listed}, ensure_ascii=False, indent=2)


def fetch_import(url: str, allowed_private_hosts: Iterable[str] = ()) -> ImportPlan:
    """Download a subscription list with fetch_url's guard (blocking: run in a worker thread)."""
    from hermes_desktop.core.tools.network import NetworkPolicy, fetch
    from hermes_desktop.core.tools.spec import ToolError

    policy = NetworkPolicy(allowed_private_hosts=frozenset(h.lower() for h in allowed_private_hosts),
                           max_bytes=MAX_IMPORT_BYTES, total_timeout_s=60.0)
    try:
        page = fetch(url, policy)
    except ToolError as exc:
        raise AssistantFormatError("", f"could not download {url}: {exc}") from None
    if page.status >= 400:
        raise AssistantFormatError("", f"{url} answered HTTP {page.status}")
    if page.truncated:
        raise AssistantFormatError("", f"{url} is larger than {MAX_IMPORT_BYTES:,} bytes or arrived cut off")
    return read_import(page.text, source=url)

"""Bring MCP servers over from other clients' files into mcp.json: find, read, convert, preview, merge.

Where each client keeps its servers (checked against each client's documentation):
- Claude Desktop: `claude_desktop_config.json` in `~/Library/Application Support/Claude/` (macOS),
  `%APPDATA%\\Claude\\` (Windows), `~/.config/Claude/` (Linux, unofficial builds);
- Cursor: `~/.cursor/mcp.json` (every OS);
- VS Code: `mcp.json` in the user folder (`~/Library/Application Support/Code/User/`, `%APPDATA%\\Code\\User\\`,
  `~/.config/Code/User/`; since VS Code 1.102), and the older `"mcp": {"servers": …}` in `settings.json` there
  (Insiders: `Code - Insiders`); both are JSON with comments;
- LM Studio: `~/.lmstudio/mcp.json` (`%USERPROFILE%\\.lmstudio\\mcp.json`), Cursor's notation;
- Windsurf: `~/.codeium/windsurf/mcp_config.json` (`%USERPROFILE%\\.codeium\\windsurf\\…`), `serverUrl` for URLs.

A file given by path may be any of those shapes: `mcpServers`, VS Code's `servers` (+ `inputs`), or a settings
file with `mcp.servers`.

Conversion: each entry keeps the fields Hermes understands (command, args, env, cwd, url, headers, type,
disabled, timeout); `serverUrl` becomes `url`; other fields are dropped and named in the preview. A name Hermes
cannot use (spaces, over 40 characters) is cleaned and the preview says so. VS Code `inputs` that the imported
servers use are copied into mcp.json's own `inputs`.

Merge policy (the preview shows each server as one of these):
- new name: added;
- same name, same entry (after conversion): identical, skipped;
- same name, different entry: a change, listed field by field, applied only when the user accepts it
  (`mcp import` asks on a terminal; `--yes` accepts; `--keep-existing` never replaces); otherwise the
  existing server is left as it is;
- an entry that is not a valid server: skipped with the reason; the others still import.

Secrets are never copied into mcp.json as plain text without being said: a literal value in `env` or `headers`
whose name says secret (TOKEN, KEY, SECRET, PASSWORD, Authorization…) or which looks like a key (`sk-…`,
`ghp_…`, `Bearer …`), and an argument that looks like a key, is flagged in the preview and moved to the keyring
(`mcp:<server>:<NAME>`), the entry getting `${secret:NAME}` in its place (an Authorization header keeps its
`Bearer ` prefix). So is a URL's query parameter that holds a key (`?api_key=…`, `token=…`, `key=…`, or a value
that looks like one), as `${secret:url_<name>}`: hosted servers are often given that way; and the value of a
command-line option named for a key (`--api-key VALUE`, `--github-token=VALUE`), as `${secret:arg<N>}`. Without a secure
keyring the value is not stored anywhere: the entry still gets the reference, and the preview says to set it
with “Set secret…” or `mcp set-secret`.

Everything a server will run or send is shown before it is imported (core/mcp/import_review.py): command,
arguments, env (sensitive values masked), cwd, URL and headers, with warnings for variables such as LD_PRELOAD,
NODE_OPTIONS or PATH; a remote server whose URL or headers use `${env:…}` (the app's environment sent out) is
imported only when the user confirmed it by name (`allowed_env`).

Safety: the source is only read. A source larger than 5 MB, not JSON (comments and trailing commas allowed),
or without a server section is refused with the reason, and nothing changes. mcp.json itself is written
atomically after the previous file is copied to `mcp.json.bak`; a broken mcp.json is refused (fix it first).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import shutil
import stat
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Collection, Mapping

from hermes_desktop.core.mcp.config import (
    MCPConfigError,
    _editable,
    parse_inputs,
    parse_server,
    secret_username,
    section_of,
    server_sections,
)
from hermes_desktop.core.redact import _KEY_LIKE, _SECRET_FIELD
from hermes_desktop.core.secrets import SecretStore
from hermes_desktop.core.settings import replace_atomically, write_atomically
from hermes_desktop.core.terminal_text import visible_controls

CLIENTS = ("claude", "cursor", "vscode", "lmstudio", "windsurf")
CLIENT_NAMES = {"claude": "Claude Desktop", "cursor": "Cursor", "vscode": "VS Code", "lmstudio": "LM Studio",
                "windsurf": "Windsurf"}
MAX_SOURCE_BYTES = 5 * 1024 * 1024
KEPT_FIELDS = ("type", "command", "args", "env", "cwd", "url", "headers", "disabled", "timeout", "startTimeout")
# A command-line option that takes a key: --api-key, --token, --github-token, --password=…, -k is not one.
_SECRET_OPTION = re.compile(r"--?((?:[A-Za-z0-9]+[-_])*(?:api[-_]?key|key|token|pat|secret|password|passwd|"
                            r"passphrase|credentials?|auth))(?:=(.+))?", re.I | re.S)
_VARIABLE_ONLY = re.compile(r"^\s*(Bearer\s+|Basic\s+|Token\s+)?\$\{[^{}]+\}\s*$", re.I)
_SCHEME = re.compile(r"^(Bearer|Basic|Token)\s+", re.I)


class ImportError_(MCPConfigError):
    """The source cannot be imported (missing, too large, not JSON, no servers): nothing was changed."""


class Change(StrEnum):
    ADD = "add"
    CHANGE = "change"
    SAME = "same"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class MovedSecret:
    """A literal secret found in the source: where it was and the `${secret:NAME}` it becomes."""

    where: str  # env.GITHUB_TOKEN, headers.Authorization, args[3]
    name: str  # the keyring name (username mcp:<server>:<name>)
    value: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class PlanItem:
    name: str
    change: Change
    entry: dict[str, Any] = field(default_factory=dict)  # what mcp.json gets (secrets replaced by references)
    current: dict[str, Any] | None = None  # what mcp.json has now under that name
    differences: tuple[str, ...] = ()  # for a change: the fields that differ
    secrets: tuple[MovedSecret, ...] = ()
    notes: tuple[str, ...] = ()  # renamed, dropped fields, why it is invalid
    source_name: str = ""


@dataclass(frozen=True, slots=True)
class ImportPlan:
    sources: tuple[Path, ...]
    items: tuple[PlanItem, ...]
    inputs: tuple[dict[str, Any], ...] = ()  # VS Code inputs the imported servers use
    problems: tuple[str, ...] = ()  # source-level notes (a second file unreadable, an input ignored)
    config_digest: str = ""  # mcp.json as it was when previewed: the merge refuses a file changed since

    def of(self, change: Change) -> list[PlanItem]:
        return [item for item in self.items if item.change is change]

    @property
    def secrets_moved(self) -> bool:
        return any(item.secrets for item in self.items if item.change in (Change.ADD, Change.CHANGE))

    @property
    def has_work(self) -> bool:
        return any(item.change in (Change.ADD, Change.CHANGE) for item in self.items)


@dataclass(frozen=True, slots=True)
class ImportResult:
    added: tuple[str, ...]
    replaced: tuple[str, ...]
    secrets_stored: tuple[str, ...]  # keyring usernames
    secrets_not_stored: tuple[str, ...]  # usernames that still need a value (no secure keyring, or it failed)
    backup: Path | None
    # Servers left out because they send the app's environment variables (`${env:…}` in a remote server's URL or
    # headers) and the user did not confirm them by name (core/mcp/import_review.py).
    held_back: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------- where

def client_paths(client: str, *, system: str | None = None, home: Path | None = None,
                 environ: Mapping[str, str] | None = None) -> list[Path]:
    """The files a client keeps its MCP servers in on this OS, most likely first (they may not exist)."""
    system = system or platform.system()
    home = home or Path.home()
    environ = os.environ if environ is None else environ
    appdata = Path(environ["APPDATA"]) if environ.get("APPDATA") else home / "AppData" / "Roaming"
    profile = Path(environ["USERPROFILE"]) if system == "Windows" and environ.get("USERPROFILE") else home
    if system == "Darwin":
        app_support = home / "Library" / "Application Support"
    elif system == "Windows":
        app_support = appdata
    else:
        app_support = Path(environ["XDG_CONFIG_HOME"]) if environ.get("XDG_CONFIG_HOME") else home / ".config"
    if client == "claude":
        return [app_support / "Claude" / "claude_desktop_config.json"]
    if client == "cursor":
        return [profile / ".cursor" / "mcp.json"]
    if client == "vscode":
        return [app_support / folder / "User" / name for folder in ("Code", "Code - Insiders")
                for name in ("mcp.json", "settings.json")]
    if client == "lmstudio":
        return [profile / ".lmstudio" / "mcp.json"]
    if client == "windsurf":
        return [profile / ".codeium" / "windsurf" / "mcp_config.json"]
    raise ImportError_(f"unknown client {client!r}; choose one of {', '.join(CLIENTS)}")


def find_client_files(client: str, **where: Any) -> list[Path]:
    return [path for path in client_paths(client, **where) if path.is_file()]


# ---------------------------------------------------------------------------------------------- read

def strip_jsonc(text: str) -> str:
    """JSON with comments (VS Code's settings and mcp.json): `//` and `/* */` comments and trailing commas
    removed outside strings, so the strict JSON parser can read it."""
    out: list[str] = []
    comma: int | None = None  # where in `out` the last comma is, while only blanks and comments follow it
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            comma = None
            i = j + 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            if c in "}]" and comma is not None:
                out[comma] = ""  # a trailing comma: only outside strings (`"a,]"` is an argument as written)
            if not c.isspace():
                comma = len(out) if c == "," else None
            out.append(c)
            i += 1
    return "".join(out)


def read_source(path: Path) -> dict[str, Any]:
    """A client's file as a JSON object. Raises ImportError_ with the reason; reads nothing else."""
    # What is checked is what is read: the file is opened first (without blocking, should it have become a FIFO
    # since it was chosen), then its type and size are those of the open file, and no more than the limit is read.
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ImportError_(f"{path} does not exist") from None
    except OSError as exc:
        raise ImportError_(f"{path} cannot be read: {exc.strerror or exc}") from exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ImportError_(f"{path} is not a file")
        too_large = ImportError_(f"{path} is {max(info.st_size, MAX_SOURCE_BYTES + 1) / 1024 / 1024:.1f} MB; an MCP "
                                 "configuration is never that large (the limit is "
                                 f"{MAX_SOURCE_BYTES // 1024 // 1024} MB), so it was not read")
        if info.st_size > MAX_SOURCE_BYTES:
            raise too_large
        try:
            raw = handle.read(MAX_SOURCE_BYTES + 1)
        except OSError as exc:
            raise ImportError_(f"{path} cannot be read: {exc.strerror or exc}") from exc
    if len(raw) > MAX_SOURCE_BYTES:  # it grew after it was looked at
        raise too_large
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportError_(f"{path} cannot be read as UTF-8 text: {exc}") from exc
    try:
        data = json.loads(strip_jsonc(text)) if text.strip() else {}
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno}: {exc.msg})" if isinstance(exc, json.JSONDecodeError) else ""
        raise ImportError_(f"{path} is not valid JSON{where}") from exc
    if not isinstance(data, dict):
        raise ImportError_(f"{path} does not hold a JSON object")
    return data


def servers_of(data: Mapping[str, Any], where: str) -> tuple[dict[str, Any], list[Any]]:
    """The servers and VS Code inputs in any known shape: mcpServers, servers, settings.json's mcp.servers."""
    nested = data.get("mcp") if isinstance(data.get("mcp"), dict) else {}
    candidates = [("mcpServers", data.get("mcpServers"), data.get("inputs")),
                  ("servers", data.get("servers"), data.get("inputs")),
                  ("mcp.servers", nested.get("servers"), nested.get("inputs")),
                  ("mcp.servers", data.get("mcp.servers"), data.get("mcp.inputs"))]
    found: dict[str, Any] = {}
    inputs: list[Any] = []
    seen_section = False
    for key, servers, section_inputs in candidates:
        if servers is None:
            continue
        if not isinstance(servers, dict):
            raise ImportError_(f"\"{key}\" in {where} is not an object of server names")
        seen_section = True
        for name, entry in servers.items():
            found.setdefault(str(name), entry)
        if isinstance(section_inputs, list):
            inputs.extend(section_inputs)
    if not seen_section:
        raise ImportError_(f"{where} has no MCP servers (no \"mcpServers\", \"servers\" or \"mcp.servers\")")
    return found, inputs


# ---------------------------------------------------------------------------------------------- convert

def clean_name(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_.-]+", "-", name.strip()).strip("-") or "server"
    return cleaned[:40]


def _secret_name(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", key)[:60] or "secret"


def _is_secret(key: str, value: str) -> bool:
    if not value.strip() or _VARIABLE_ONLY.match(value) or "${" in value:
        return False
    return bool(_SECRET_FIELD.search(key)) or bool(_KEY_LIKE.search(value))


def convert_entry(entry: Any) -> tuple[dict[str, Any], list[str], list[MovedSecret]]:
    """One source entry in Hermes' form: kept fields, notes on dropped ones, literal secrets moved out."""
    if not isinstance(entry, dict):
        raise MCPConfigError("is not an object")
    converted: dict[str, Any] = {}
    notes: list[str] = []
    if "serverUrl" in entry and "url" not in entry:
        converted["url"] = entry["serverUrl"]
    for key in KEPT_FIELDS:
        if key in entry and key not in converted:
            converted[key] = entry[key]
    dropped = sorted(k for k in entry if k not in KEPT_FIELDS and k != "serverUrl")
    if dropped:
        notes.append("fields Hermes does not use were left out: " + ", ".join(dropped))
    if isinstance(converted.get("disabled"), str):  # "false" would be true as a JSON string
        word = converted["disabled"].strip().lower()
        if word in ("true", "false", "yes", "no", "1", "0", ""):
            converted["disabled"] = word in ("true", "yes", "1")
        else:
            notes.append(f"disabled {converted.pop('disabled')[:40]!r} was left out (true or false); it is enabled")
    for key, most in (("timeout", 3600), ("startTimeout", 600)):  # other clients may mean milliseconds
        value = converted.get(key)
        if key in converted and (not isinstance(value, (int, float)) or isinstance(value, bool)
                                 or not 1 <= value <= most):
            notes.append(f"{key} {repr(value)[:40]} was left out (Hermes takes seconds, 1 to {most}; its default "
                         "applies)")
            del converted[key]
    if isinstance(converted.get("type"), str) and converted["type"].lower() in ("streamable-http", "streamablehttp",
                                                                                 "streamable_http"):
        converted["type"] = "http"
    moved: list[MovedSecret] = []
    used: set[str] = set()

    def unique(name: str) -> str:
        base, n = name, 2
        while name in used:
            name, n = f"{base}_{n}", n + 1
        used.add(name)
        return name

    for section in ("env", "headers"):
        values = converted.get(section)
        if not isinstance(values, dict):
            continue
        replaced = {}
        for key, value in values.items():
            text = str(value)
            if isinstance(value, (str, int, float)) and _is_secret(str(key), text):
                name = unique(_secret_name(str(key)))
                scheme = _SCHEME.match(text) if section == "headers" else None
                secret = text[scheme.end():] if scheme else text
                moved.append(MovedSecret(f"{section}.{key}", name, secret))
                replaced[key] = (scheme.group(0) if scheme else "") + f"${{secret:{name}}}"
            else:
                replaced[key] = value
        converted[section] = replaced
    url = converted.get("url")
    if isinstance(url, str) and "?" in url:
        converted["url"] = _url_without_keys(url, unique, moved)
    args = converted.get("args")
    if isinstance(args, list):
        new_args = []
        for index, arg in enumerate(args):
            text = str(arg)
            match = _KEY_LIKE.search(text) if isinstance(arg, str) and "${" not in text else None
            option = _SECRET_OPTION.match(text) if isinstance(arg, str) and "${" not in text else None
            after = index > 0 and isinstance(args[index - 1], str) and bool(_SECRET_OPTION.fullmatch(args[index - 1]))
            if match is None and option is not None and option.group(2):  # --token=VALUE
                match = re.compile(re.escape(option.group(2)) + "$").search(text)
            elif match is None and after and isinstance(arg, str) and text and "${" not in text \
                    and not text.startswith("-"):  # --api-key VALUE
                match = re.compile(".+", re.S).match(text)
            if match:
                name = unique(f"arg{index}")
                moved.append(MovedSecret(f"args[{index}]", name, match.group(0)))
                new_args.append(text[:match.start()] + f"${{secret:{name}}}" + text[match.end():])
            else:
                new_args.append(arg)
        converted["args"] = new_args
    return converted, notes, moved


_URL_KEY_PARAMETER = re.compile(r"^(key|auth|sig|signature|pass|pwd)$", re.I)


def _url_without_keys(url: str, unique: Any, moved: list[MovedSecret]) -> str:
    """A URL's query parameters that hold a key (`?api_key=…`, `token=…`, a value that looks like one) replaced
    by `${secret:url_<name>}`; the value is kept exactly as written (still URL-encoded), so the server gets the
    same URL once the reference is filled."""
    base, _, rest = url.partition("?")
    query, hash_mark, fragment = rest.partition("#")
    parts = []
    for part in query.split("&"):
        name, equals, value = part.partition("=")
        if equals and value and "${" not in value and (
                _SECRET_FIELD.search(name) or _URL_KEY_PARAMETER.match(name) or _KEY_LIKE.search(value)):
            secret = unique(_secret_name(f"url_{name}"))
            moved.append(MovedSecret(f"url ({name})", secret, value))
            part = f"{name}=${{secret:{secret}}}"
        parts.append(part)
    return f"{base}?{'&'.join(parts)}{hash_mark}{fragment}"


def _normal(entry: Mapping[str, Any] | None) -> dict[str, Any]:
    """An entry for comparison: only the fields that matter, empty ones and defaults away."""
    if not isinstance(entry, Mapping):
        return {}
    normal = {("url" if k == "serverUrl" else k): v for k, v in entry.items()
              if k in (*KEPT_FIELDS, "serverUrl") and v not in (None, "", [], {}, False)}
    if isinstance(normal.get("type"), str):
        kind = normal["type"].lower()
        normal["type"] = "http" if kind in ("streamable-http", "streamablehttp", "streamable_http") else kind
        if normal["type"] == ("stdio" if "command" in normal else "http"):
            normal.pop("type")  # the type its command or url implies anyway
    if normal.get("timeout") == 60:
        normal.pop("timeout")
    return normal


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[str, ...]:
    a, b = _normal(old), _normal(new)
    return tuple(sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k)))


# ---------------------------------------------------------------------------------------------- plan

def plan_import(config_path: Path, sources: list[Path], secrets: SecretStore | None = None) -> ImportPlan:
    """What importing these files would do to mcp.json. Reads only; raises ImportError_ when a source (or
    mcp.json) cannot be used."""
    if not sources:
        raise ImportError_("no file to import from")
    digest = _config_digest(config_path)
    try:
        current_doc = _editable(config_path)
    except MCPConfigError as exc:
        raise ImportError_(str(exc)) from exc
    current: dict[str, Any] = {}
    for _key, servers in server_sections(current_doc):
        for name, entry in servers.items():
            current.setdefault(name, entry)
    entries: dict[str, tuple[Any, Path]] = {}
    raw_inputs: list[Any] = []
    for path in sources:
        found, inputs = servers_of(read_source(path), str(path))
        for name, entry in found.items():
            entries.setdefault(name, (entry, path))
        raw_inputs.extend(inputs)
    inputs, input_problems = parse_inputs(raw_inputs or None)
    items: list[PlanItem] = []
    taken: set[str] = set()
    for source_name, (entry, _path) in entries.items():
        name = clean_name(source_name)
        quoted = source_name if len(source_name) <= 80 else source_name[:77] + "…"
        notes = [] if name == source_name else [f"renamed from “{quoted}” (Hermes names use letters, digits, "
                                                f"'.', '_' and '-', at most 40)"]
        if name in taken:
            items.append(PlanItem(name, Change.INVALID, notes=(*notes, "another imported server has this name"),
                                  source_name=source_name))
            continue
        taken.add(name)
        try:
            converted, more, moved = convert_entry(entry)
            parse_server(name, converted, inputs)
        except MCPConfigError as exc:
            items.append(PlanItem(name, Change.INVALID, notes=(*notes, str(exc)), source_name=source_name))
            continue
        notes += more
        existing = current.get(name)
        if existing is None:
            items.append(PlanItem(name, Change.ADD, converted, None, (), tuple(moved), tuple(notes), source_name))
            continue
        differences = list(_differences(existing, converted))
        for secret in moved:
            try:
                stored = secrets.get(secret_username(name, secret.name)) if secrets is not None else None
            except Exception:  # noqa: BLE001 - unreadable keyring: treat as different, the user decides
                stored = None
            if stored is not None and stored != secret.value:  # none stored (no keyring): cannot tell, not a change
                differences.append(f"secret {secret.name}")
        change = Change.CHANGE if differences else Change.SAME
        items.append(PlanItem(name, change, converted, existing if isinstance(existing, dict) else {},
                              tuple(differences), tuple(moved), tuple(notes), source_name))
    used = {i for item in items if item.change in (Change.ADD, Change.CHANGE)
            for i in parse_server(item.name, item.entry, inputs).input_ids}
    input_entries = tuple(_input_entry(spec) for key, spec in inputs.items() if key in used)
    return ImportPlan(tuple(sources), tuple(items), input_entries, tuple(input_problems), digest)


def _config_digest(path: Path) -> str:
    """What mcp.json holds now, as a hash ("absent" when there is none), to tell whether it changed."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return "absent"
    except OSError:
        return "unreadable"


def _input_entry(spec: Any) -> dict[str, Any]:
    return {"type": "promptString", "id": spec.id, **({"description": spec.description} if spec.description else {}),
            **({"password": True} if spec.password else {})}


def plan_from_client(config_path: Path, client: str, secrets: SecretStore | None = None, **where: Any) -> ImportPlan:
    files = find_client_files(client, **where)
    if not files:
        looked = ", ".join(str(p) for p in client_paths(client, **where))
        raise ImportError_(f"no {CLIENT_NAMES.get(client, client)} configuration found (looked in {looked})")
    usable: list[Path] = []
    problems: list[str] = []
    for path in files:  # VS Code: a settings.json without MCP servers is not an error when mcp.json has them
        try:
            servers_of(read_source(path), str(path))
            usable.append(path)
        except ImportError_ as exc:
            problems.append(str(exc))
    if not usable:
        raise ImportError_("; ".join(problems))
    plan = plan_import(config_path, usable, secrets)
    return ImportPlan(plan.sources, plan.items, plan.inputs, (*plan.problems, *problems), plan.config_digest)


# ---------------------------------------------------------------------------------------------- apply

def apply_import(config_path: Path, plan: ImportPlan, accepted_changes: set[str], secrets: SecretStore | None,
                 *, keyring_secure: bool, allowed_env: Collection[str] = ()) -> ImportResult:
    """Add the new servers and replace the accepted changed ones; move their secrets to the keyring; copy the
    previous mcp.json to mcp.json.bak and write the new one atomically. A server that would send the app's
    environment variables to a remote address is written only when its name is in `allowed_env` (the user saw
    which variables and confirmed). Raises ImportError_ (nothing written) when mcp.json cannot be read back as
    it was."""
    from hermes_desktop.core.mcp.import_review import review_entry

    def confirmed(item: PlanItem) -> bool:
        return item.name in allowed_env or not review_entry(item.entry).env_reads

    wanted = [*plan.of(Change.ADD), *(item for item in plan.of(Change.CHANGE) if item.name in accepted_changes)]
    held = tuple(item.name for item in wanted if not confirmed(item))
    adds = [item for item in plan.of(Change.ADD) if confirmed(item)]
    changes = [item for item in plan.of(Change.CHANGE) if item.name in accepted_changes and confirmed(item)]
    if not adds and not changes:
        return ImportResult((), (), (), (), None, held)
    before = _config_digest(config_path)
    if plan.config_digest and before != plan.config_digest:
        raise ImportError_(f"{config_path} changed since the preview (another import or an editor); nothing was "
                           "written: preview the import again")
    try:
        data = _editable(config_path)
    except MCPConfigError as exc:
        raise ImportError_(str(exc)) from exc
    # Secrets before the file: the window reloads mcp.json when it changes, and a server must find its secret.
    stored: list[str] = []
    missing: list[str] = []
    for item in [*adds, *changes]:
        for secret in item.secrets:
            username = secret_username(item.name, secret.name)
            if secrets is None or not keyring_secure:
                missing.append(username)
                continue
            try:
                secrets.set(username, secret.value)
                stored.append(username)
            except Exception:  # noqa: BLE001 - the keyring refused: the value is not kept anywhere, and it is said
                missing.append(username)
    target = section_of(data, None)
    for item in adds:
        data[target][item.name] = item.entry
    for item in changes:
        section = section_of(data, item.name)
        old = data[section].get(item.name)
        kept = {k: v for k, v in old.items() if k not in (*KEPT_FIELDS, "serverUrl")} if isinstance(old, dict) else {}
        data[section][item.name] = {**kept, **item.entry}
    if plan.inputs and isinstance(data.get("inputs", []), list):  # a hand-written non-list is the user's to fix
        existing = data.get("inputs") if isinstance(data.get("inputs"), list) else []
        ids = {i.get("id") for i in existing if isinstance(i, dict)}
        data["inputs"] = [*existing, *(i for i in plan.inputs if i["id"] not in ids)]
    backup = None
    config_path.parent.mkdir(parents=True, exist_ok=True)
    if before != "absent":
        backup = config_path.with_name(config_path.name + ".bak")
        _copy_atomically(config_path, backup)  # a full disk leaves the older backup whole, not half overwritten
    write_atomically(config_path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return ImportResult(tuple(i.name for i in adds), tuple(i.name for i in changes), tuple(stored), tuple(missing),
                        backup, held)


def _copy_atomically(source: Path, target: Path) -> None:
    """Copy a file (with its permissions and times) so that `target` is either its old self or the whole copy."""
    replace_atomically(target, lambda tmp: shutil.copy2(source, tmp))


def preview_text(text: str) -> str:
    """Text from the source file as the preview shows it: a line break, another control character or a bidi
    override is written as an escape (`\\n`, `\\u202e`), so a command cannot draw a fake line or read backwards."""
    return visible_controls(text)


def describe_plan(plan: ImportPlan) -> list[str]:
    """The preview as plain lines (for the terminal; the window shows the same items in a table). What comes from
    the source is passed through preview_text. In the command line's language (core/i18n.py)."""
    from hermes_desktop.core.i18n import _

    lines = [_("Importing from {0}").format(", ".join(preview_text(str(p)) for p in plan.sources))]
    marks = {Change.ADD: _("+ add"), Change.CHANGE: _("~ change"), Change.SAME: _("= identical, skipped"),
             Change.INVALID: _("! skipped")}
    for item in plan.items:
        target = item.entry.get("url") or " ".join(str(x) for x in [item.entry.get("command", ""),
                                                                     *item.entry.get("args", [])]).strip()
        lines.append(f"  {marks[item.change]}: {preview_text(item.name)}" + (f"  ({preview_text(target)})"
                                                                                 if target else ""))
        if item.change is Change.CHANGE:
            lines.append("      " + _("differs in: {0}").format(", ".join(item.differences)))
        if item.change in (Change.ADD, Change.CHANGE):
            lines += _review_lines(item)
        for secret in item.secrets:
            lines.append("      " + _("secret in {where}: moved to the keyring as {reference}").format(
                where=secret.where, reference=f"${{secret:{secret.name}}}"))
        for note in item.notes:
            lines.append(f"      {preview_text(note)}")
    for problem in plan.problems:
        lines.append("  " + _("note: {0}").format(preview_text(problem)))
    counts = {change: len(plan.of(change)) for change in Change}
    lines.append(_("{add} to add, {change} changed, {same} identical, {invalid} skipped").format(
        add=counts[Change.ADD], change=counts[Change.CHANGE], same=counts[Change.SAME], invalid=counts[Change.INVALID]))
    return lines


def _shown_what(what: str) -> str:
    """import_review.Shown.what ("command", "argument 2", "env NAME", "working folder", "url", "header NAME") in the
    command line's language; the names after it are data."""
    from hermes_desktop.core.i18n import _

    head, _sep, rest = what.partition(" ")
    if what in ("command", "url", "working folder"):
        return {"command": _("command"), "url": _("url"), "working folder": _("working folder")}[what]
    worded = {"argument": _("argument {0}"), "env": _("env {0}"), "header": _("header {0}")}.get(head)
    return worded.format(rest) if worded and rest else what


def _review_lines(item: PlanItem) -> list[str]:
    """Everything the server runs or sends, its warnings, and the environment variables it would send
    (core/mcp/import_review.py), for the terminal's preview."""
    from hermes_desktop.core.i18n import _
    from hermes_desktop.core.mcp.import_review import review_entry

    review = review_entry(item.entry, item.secrets)
    lines = [f"      {preview_text(_shown_what(shown.what))}: {preview_text(shown.value)}" for shown in review.shown]
    lines += ["      " + _("WARNING: {0}").format(preview_text(warning)) for warning in review.warnings]
    if review.env_reads:
        places = ", ".join(_("{variable} (in {where})").format(variable=read.variable, where=read.where)
                           for read in review.env_reads)
        lines.append("      " + _("SENDS YOUR ENVIRONMENT: {0}; imported only if you confirm it").format(
            preview_text(places)))
    return lines

"""`mcp.json`: which MCP servers to start, in the format other clients use.

    {"mcpServers": {
        "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]},
        "search": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${secret:token}"}},
        "time": {"command": "uvx", "args": ["mcp-server-time"], "disabled": true, "timeout": 30}
    }}

A server is a `command` (stdio subprocess, with optional `args`, `env`, `cwd`) or a `url` (Streamable HTTP,
with optional `headers`). `timeout` is each call's limit in seconds (default 60); `startTimeout` is how long
the server may take to start, answer `initialize` and list its tools (default 30) before it is marked
failed. `${secret:NAME}` in an env value or a header is read from the keyring
(`mcp:<server>:<NAME>`) when the server starts, so the file itself never holds a key. A broken entry is
reported with its reason and skipped; the others still start. A file that is not valid JSON is reported
and left untouched: nothing is written back to it.

VS Code's shape is read too: a top-level `servers` object whose entries carry `type` (`stdio`, `http` or
`sse`; `streamableHttp` and `streamable-http` mean `http`), and a top-level `inputs` list of
`{"type": "promptString", "id", "description", "password"}`. Both sections may appear in one file; a name in
both is a problem and the `servers` entry is skipped. `type` is kept on ServerConfig (the transport picks it).

Variables, in `command`, `args`, `env`, `cwd`, `url` and `headers` (Authorization included), resolved each
time the server starts, never written back:
- `${env:NAME}`: the app's environment variable NAME (set but empty is allowed; unset is an error);
- `${workspaceFolder}`: the workspace folder; `${userHome}`: the user's home folder;
- `${secret:NAME}`: the keyring, username `mcp:<server>:<NAME>`;
- `${input:ID}`: the keyring, username `mcp:<server>:input:<ID>`. When it is missing it is asked once (a
  dialog in the window, a hidden prompt on a terminal in `mcp list` and `ask`; described by the matching
  `inputs` entry) and stored there; without a window or terminal it is not asked and the server fails
  naming it. "Set secret…" (and `mcp set-secret SERVER input:ID`) changes a stored answer.
- `$${` is a literal `${`.
Any other `${…}` (an unknown name, an unset variable, no workspace) is an error that names the variable, where
it is and the server: the server is not started, so nothing half-resolved is ever sent. Resolved values of
`secret:`, of password `input:`s (the default), and of `env:`/`input:` under a secret-sounding name (TOKEN, KEY,
SECRET, PASSWORD, Authorization…) or looking like a key, join the redaction list, so they never reach a log, a
status line or the model; a plain value such as a region is not redacted everywhere it appears.

Circuit breaker (core/mcp/breaker.py), per server, optional:
`"breaker": {"failures": 5, "windowSeconds": 300, "cooldownSeconds": 60}` (the defaults; `failures: 0` turns
it off).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from hermes_desktop.core.coded import code_of, coded
from hermes_desktop.core.redact import _KEY_LIKE, _SECRET_FIELD
from hermes_desktop.core.secrets import SecretStore, SecretStoreError
from hermes_desktop.core.mcp.oauth_config import OAuthConfigError, OAuthSettings, parse_oauth
from hermes_desktop.core.settings import write_atomically

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_START_TIMEOUT_S = 30.0  # to start, answer `initialize` and list its tools; then the server has failed
_SECRET_REF = re.compile(r"(?<!\$)\$\{secret:([A-Za-z0-9_.-]+)\}")
_INPUT_REF = re.compile(r"(?<!\$)\$\{input:([A-Za-z0-9_.-]+)\}")
# `${name}` or `${kind:argument}`; `$${` is an escaped literal `${` (matched first, so it is left alone).
_VARIABLE = re.compile(r"\$\$\{|\$\{([^{}:]*)(?::([^{}]*))?\}")
TRANSPORT_TYPES = {"stdio": "stdio", "http": "http", "sse": "sse", "streamablehttp": "http",
                   "streamable-http": "http", "streamable_http": "http"}
DEFAULT_BREAKER = {"failures": 5, "windowSeconds": 300, "cooldownSeconds": 60}
# What a filled-in header value may not hold: CR, LF, NUL and the other controls except tab (header injection).
_HEADER_BREAKING = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


class MCPConfigError(Exception):
    pass


class UnresolvedVariable(MCPConfigError):
    """A `${…}` in a server's entry that has no value: names the variable, where it is and the server."""

    def __init__(self, server: str, variable: str, where: str, why: str) -> None:
        self.server, self.variable, self.where = server, variable, where
        super().__init__(f"{variable} in {where} of MCP server “{server}” cannot be resolved: {why}; "
                         "the server was not started")


@dataclass(frozen=True, slots=True)
class InputSpec:
    """A VS Code `inputs` entry: a value asked from the user once, then kept in the keyring."""

    id: str
    description: str = ""
    password: bool = True


@dataclass(frozen=True, slots=True)
class BreakerSettings:
    failures: int = DEFAULT_BREAKER["failures"]  # 0: never withhold
    window_s: float = DEFAULT_BREAKER["windowSeconds"]
    cooldown_s: float = DEFAULT_BREAKER["cooldownSeconds"]


@dataclass(frozen=True, slots=True)
class VariableContext:
    """What `${workspaceFolder}`, `${userHome}` and `${env:…}` stand for when a server starts."""

    workspace: Path | None = None
    home: Path | None = None  # None: the user's home folder
    environ: Mapping[str, str] | None = None  # None: this process's environment


@dataclass(frozen=True, slots=True)
class ServerConfig:
    name: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    disabled: bool = False
    timeout_s: float = DEFAULT_TIMEOUT_S
    start_timeout_s: float = DEFAULT_START_TIMEOUT_S
    type: str = ""  # as written (normalised): "stdio", "http", "sse", or "" (from command/url)
    inputs: tuple[InputSpec, ...] = ()  # the `${input:ID}` it refers to, with their descriptions
    breaker: BreakerSettings = BreakerSettings()
    oauth: OAuthSettings = OAuthSettings()  # HTTP and SSE servers: sign-in (core/mcp/oauth.py)

    @property
    def transport(self) -> str:
        return self.type or ("http" if self.url else "stdio")

    @property
    def identity(self) -> str:
        """What the server is, for approval rules: a changed command or URL asks again. Secrets are not part of it."""
        return self.url if self.url else " ".join((self.command, *self.args))

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.identity.encode("utf-8")).hexdigest()[:12]

    def describe(self) -> str:
        """What the server is, fit to show: its URL or command line, credentials in a URL redacted."""
        from hermes_desktop.core.redact import redact_urls

        return redact_urls(self.url or " ".join((self.command, *self.args)))

    def _values(self) -> list[str]:
        return [self.command, *self.args, *self.env.values(), self.cwd or "", self.url, *self.headers.values(),
                *self.oauth.variable_values()]

    @property
    def secret_names(self) -> tuple[str, ...]:
        """What it needs from the keyring, in order, once each: the `${secret:NAME}` names, then `input:ID` for
        each `${input:ID}` (its keyring username is then `mcp:<server>:input:ID`, the same rule)."""
        values = self._values()
        found = [m.group(1) for value in values for m in _SECRET_REF.finditer(value)]
        found += [f"input:{m.group(1)}" for value in values for m in _INPUT_REF.finditer(value)]
        return tuple(dict.fromkeys(found))

    @property
    def input_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m.group(1) for value in self._values() for m in _INPUT_REF.finditer(value)))

    def input_spec(self, input_id: str) -> InputSpec:
        return next((spec for spec in self.inputs if spec.id == input_id), InputSpec(input_id))


@dataclass(frozen=True, slots=True)
class MCPConfig:
    servers: tuple[ServerConfig, ...] = ()
    problems: tuple[str, ...] = ()
    readable: bool = True  # False: the file could not be read or parsed, so it says nothing about what should run


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
        raise MCPConfigError(f"`{what}` must be a list of strings")
    return tuple(str(v) for v in value)


def _mapping(value: Any, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise MCPConfigError(f"`{what}` must be an object of names to strings")
    return {str(k): str(v) for k, v in value.items()}


def _has_variable(value: str) -> bool:
    return any(m.group(0) != "$${" for m in _VARIABLE.finditer(value))


def _breaker(value: Any) -> BreakerSettings:
    if value is None:
        return BreakerSettings()
    if not isinstance(value, dict):
        raise MCPConfigError("`breaker` must be an object with `failures`, `windowSeconds`, `cooldownSeconds`")
    merged = {**DEFAULT_BREAKER, **value}
    failures, window, cooldown = merged["failures"], merged["windowSeconds"], merged["cooldownSeconds"]
    if not isinstance(failures, int) or isinstance(failures, bool) or not 0 <= failures <= 1000:
        raise MCPConfigError("`breaker.failures` must be a whole number from 0 (off) to 1000")
    for what, number in (("windowSeconds", window), ("cooldownSeconds", cooldown)):
        if not isinstance(number, (int, float)) or isinstance(number, bool) or not 1 <= number <= 86400:
            raise MCPConfigError(f"`breaker.{what}` must be a number of seconds between 1 and 86400")
    return BreakerSettings(failures, float(window), float(cooldown))


def parse_server(name: str, entry: Any, inputs: Mapping[str, InputSpec] | None = None) -> ServerConfig:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", name):
        raise MCPConfigError("the name must be 1-40 letters, digits, '.', '_' or '-'")
    if not isinstance(entry, dict):
        raise MCPConfigError("must be an object with `command` or `url`")
    command, url = entry.get("command"), entry.get("url") or entry.get("serverUrl")
    if bool(command) == bool(url):
        raise MCPConfigError("needs exactly one of `command` (a program to start) or `url` (a Streamable HTTP endpoint)")
    if url and not isinstance(url, str):
        raise MCPConfigError("`url` must be a string")
    if command and not isinstance(command, str):
        raise MCPConfigError("`command` must be a string")
    if url and not _has_variable(url) and not re.match(r"^https?://", url):
        raise MCPConfigError(f"`url` must start with http:// or https://, not {url!r}")
    kind = entry.get("type")
    if kind is not None:
        if not isinstance(kind, str) or kind.lower() not in TRANSPORT_TYPES:
            raise MCPConfigError(f"`type` must be \"stdio\", \"http\" or \"sse\", not {kind!r}")
        kind = TRANSPORT_TYPES[kind.lower()]
        if (kind == "stdio") != bool(command):
            raise MCPConfigError(f"`type` \"{kind}\" needs " + ("`command`" if kind == "stdio" else "`url`"))
    timeout = entry.get("timeout", DEFAULT_TIMEOUT_S)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 1 <= timeout <= 3600:
        raise MCPConfigError("`timeout` must be a number of seconds between 1 and 3600")
    start_timeout = entry.get("startTimeout", DEFAULT_START_TIMEOUT_S)
    if not isinstance(start_timeout, (int, float)) or isinstance(start_timeout, bool) or not 1 <= start_timeout <= 600:
        raise MCPConfigError("`startTimeout` must be a number of seconds between 1 and 600")
    cwd = entry.get("cwd")
    cwd_text = str(cwd) if cwd else None
    config = ServerConfig(
        name=name, command=str(command or ""), args=_strings(entry.get("args"), "args"),
        env=_mapping(entry.get("env"), "env"),
        cwd=(cwd_text if cwd_text.startswith("${") else str(Path(cwd_text).expanduser())) if cwd_text else None,
        url=str(url or ""), headers=_mapping(entry.get("headers"), "headers"),
        disabled=bool(entry.get("disabled", False)), timeout_s=float(timeout), start_timeout_s=float(start_timeout),
        type=kind or "", breaker=_breaker(entry.get("breaker")), oauth=_oauth(entry.get("oauth")))
    if config.input_ids:
        known = inputs or {}
        config = replace(config, inputs=tuple(known.get(i, InputSpec(i)) for i in config.input_ids))
    return config


def _oauth(value: Any) -> OAuthSettings:
    try:
        return parse_oauth(value)
    except OAuthConfigError as exc:
        raise MCPConfigError(str(exc)) from exc


def parse_inputs(value: Any) -> tuple[dict[str, InputSpec], list[str]]:
    """VS Code's top-level `inputs`: the promptString entries by id, and a problem line for each bad one."""
    found: dict[str, InputSpec] = {}
    problems: list[str] = []
    if value is None:
        return found, problems
    if not isinstance(value, list):
        return found, ["\"inputs\" must be a list; ignored"]
    for number, item in enumerate(value, 1):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item["id"]:
            problems.append(coded(f"input {number} has no \"id\"; ignored", "mcp_input_no_id", number=number))
            continue
        if item.get("type", "promptString") != "promptString":
            problems.append(coded(f"input “{item['id']}”: only \"promptString\" inputs are supported; it is asked as "
                                  "text", "mcp_input_as_text", id=str(item["id"])))
        found[item["id"]] = InputSpec(item["id"], str(item.get("description") or ""),
                                      bool(item.get("password", False)))
    return found, problems


def server_sections(data: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The server sections a document has: ("mcpServers", …) and/or ("servers", …), in that order."""
    return [(key, data[key]) for key in ("mcpServers", "servers") if isinstance(data.get(key), dict)]


def _read_document(path: Path) -> dict[str, Any]:
    """The whole file as a JSON object; {} for a missing or empty file. Raises MCPConfigError."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise MCPConfigError(coded(f"{path} cannot be read: {exc}", "unreadable", path=str(path),
                                   error=str(exc))) from exc
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MCPConfigError(coded(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
                                   "not_json", path=str(path), line=exc.lineno, column=exc.colno,
                                   error=exc.msg)) from exc
    if not isinstance(data, dict):
        raise MCPConfigError(coded(f"{path} does not hold a JSON object", "not_object", path=str(path)))
    return data


def load_config(path: Path) -> MCPConfig:
    try:
        data = _read_document(path)
    except MCPConfigError as exc:
        code, params = code_of(exc.args[0] if exc.args else "")
        return MCPConfig(problems=(coded(f"{exc}; no MCP server was started and the file was left as it is",
                                         f"mcp_config_{code or 'unreadable'}", **{"path": str(path), **params}),),
                         readable=False)
    if not data:
        return MCPConfig()
    return config_from_document(data, str(path))


def config_from_document(data: Mapping[str, Any], where: str) -> MCPConfig:
    """The servers of an mcp.json-shaped object (`mcpServers` and/or VS Code's `servers` with `inputs`)."""
    for key in ("mcpServers", "servers"):
        if key in data and not isinstance(data[key], dict):
            return MCPConfig(problems=(coded(f"\"{key}\" in {where} must be an object of server names",
                                             "mcp_config_section_not_object", key=key, path=where),))
    sections = server_sections(data)
    if not sections:
        return MCPConfig(problems=(coded(f"{where} has no \"mcpServers\" (or \"servers\") object",
                                         "mcp_config_no_servers", path=where),))
    inputs, problems = parse_inputs(data.get("inputs"))
    parsed: dict[str, ServerConfig] = {}
    for section, servers in sections:
        for name, entry in servers.items():
            if str(name) in parsed:
                problems.append(coded(f"MCP server “{name}” is in both \"mcpServers\" and \"servers\"; the one in "
                                      f"\"{section}\" was skipped", "mcp_server_twice", name=str(name),
                                      section=section))
                continue
            try:
                parsed[str(name)] = parse_server(str(name), entry, inputs)
            except MCPConfigError as exc:
                problems.append(coded(f"MCP server “{name}”: {exc}; skipped", "mcp_server_skipped", name=str(name),
                                      error=str(exc)))
    return MCPConfig(tuple(parsed.values()), tuple(problems))


def secret_username(server: str, name: str) -> str:
    return f"mcp:{server}:{name}"


def input_username(server: str, input_id: str) -> str:
    return secret_username(server, f"input:{input_id}")


def _keyring_value(secrets: SecretStore | None, username: str) -> str | None:
    try:
        return secrets.get(username) if secrets is not None else None
    except SecretStoreError as exc:
        raise MCPConfigError(f"the keyring could not be read for {username}: {exc}") from exc


def resolve_server(config: ServerConfig, secrets: SecretStore | None,
                   context: VariableContext | None = None) -> tuple[ServerConfig, list[str]]:
    """The entry with every variable filled (see the module docstring), and the values to redact. Raises
    UnresolvedVariable (or MCPConfigError for a keyring failure) naming the first variable that has no value.
    Reads the keyring: may block, so callers on an event loop run it in a thread."""
    context = context or VariableContext()
    environ = os.environ if context.environ is None else context.environ
    sensitive: list[str] = []

    def fill(value: str, where: str, secretive: bool) -> str:
        def one(match: re.Match[str]) -> str:
            if match.group(0) == "$${":
                return "${"
            kind, argument = match.group(1), match.group(2)
            shown = match.group(0)
            if kind == "env" and argument:
                if argument not in environ:
                    raise UnresolvedVariable(config.name, shown, where, f"the environment variable {argument} is "
                                             "not set in Hermes' environment")
                result = environ[argument]
                if secretive and len(result) >= 4 or _KEY_LIKE.search(result):
                    sensitive.append(result)
                return result
            if kind == "workspaceFolder" and argument is None:
                if context.workspace is None:
                    raise UnresolvedVariable(config.name, shown, where, "no workspace folder is set")
                return str(context.workspace)
            if kind == "userHome" and argument is None:
                return str(context.home or Path.home())
            if kind == "secret" and argument:
                username = secret_username(config.name, argument)
                secret = _keyring_value(secrets, username)
                if not secret:
                    raise UnresolvedVariable(config.name, shown, where, (
                        f"no secret {argument!r} in the keyring (username {username!r}): select the server in the "
                        f"MCP tab and press “Set secret…”, or run `hermes-desktop mcp set-secret {config.name} "
                        f"{argument}`"))
                sensitive.append(secret)
                return secret
            if kind == "input" and argument:
                username = input_username(config.name, argument)
                answer = _keyring_value(secrets, username)
                if answer is None:
                    raise UnresolvedVariable(config.name, shown, where, (
                        f"it has not been answered yet (keyring username {username!r}); it is asked when the server "
                        "starts in the window or on a terminal, or set it with `hermes-desktop mcp set-secret "
                        f"{config.name} input:{argument}`"))
                if answer and (secretive or config.input_spec(argument).password):
                    sensitive.append(answer)
                return answer
            raise UnresolvedVariable(config.name, shown, where, "Hermes knows ${env:NAME}, ${workspaceFolder}, "
                                     "${userHome}, ${secret:NAME} and ${input:ID} (write $${ for a literal ${)")
        return _VARIABLE.sub(one, value)

    resolved = replace(
        config,
        command=fill(config.command, "command", False),
        args=tuple(fill(arg, f"args[{i}]", False) for i, arg in enumerate(config.args)),
        env={k: fill(v, f"env.{k}", bool(_SECRET_FIELD.search(k))) for k, v in config.env.items()},
        cwd=str(Path(fill(config.cwd, "cwd", False)).expanduser()) if config.cwd else None,
        url=fill(config.url, "url", False),
        headers={k: fill(v, f"headers.{k}", bool(_SECRET_FIELD.search(k))) for k, v in config.headers.items()})
    for key, value in resolved.headers.items():
        if _HEADER_BREAKING.search(value) and not _HEADER_BREAKING.search(config.headers[key]):
            variables = ", ".join(m.group(0) for m in _VARIABLE.finditer(config.headers[key]) if m.group(0) != "$${")
            raise UnresolvedVariable(config.name, variables, f"headers.{key}", (
                "its value holds a line break or another control character (often a token read from a file with "
                "its newline), which a header cannot carry; the value is not shown"))
    if resolved.url and not re.match(r"^https?://", resolved.url):
        raise MCPConfigError(f"`url` of MCP server “{config.name}” must start with http:// or https:// once its "
                             "variables are filled")
    return resolved, sensitive


def resolve_secrets(config: ServerConfig, secrets: SecretStore | None) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """env and headers with their variables filled; also the values to redact. (resolve_server does all fields.)"""
    resolved, found = resolve_server(config, secrets)
    return dict(resolved.env), dict(resolved.headers), found


def missing_inputs(config: ServerConfig, secrets: SecretStore | None) -> list[InputSpec]:
    """The `${input:ID}` of a server that have no stored answer yet (keyring read: may block)."""
    return [config.input_spec(i) for i in config.input_ids if _keyring_value(secrets, input_username(config.name, i))
            is None]


def _editable(path: Path) -> dict[str, Any]:
    """The whole file as JSON, for changing one server; refuses a file it could not write back unchanged."""
    try:
        data = _read_document(path)
    except MCPConfigError as exc:
        raise MCPConfigError(f"{exc}; fix it in a text editor first, so nothing in it is lost") from exc
    for key in ("mcpServers", "servers"):
        if key in data and not isinstance(data[key], dict):
            raise MCPConfigError(f"\"{key}\" in {path} is not an object; fix it in a text editor first")
    if not server_sections(data):
        data["mcpServers"] = {}
    return data


def section_of(data: Mapping[str, Any], name: str | None) -> str:
    """Which section holds `name` (or, for a new server, where it goes: `mcpServers` unless the file only has
    VS Code's `servers`)."""
    sections = server_sections(data)
    for key, servers in sections:
        if name is not None and name in servers:
            return key
    return sections[0][0] if sections else "mcpServers"


def save_server(path: Path, name: str, entry: dict[str, Any], replacing: str | None = None) -> ServerConfig:
    """Add or change one server in mcp.json, keeping every other server and any field this app does not
    know. `replacing` is the server's old name when it is renamed. Raises MCPConfigError for a bad entry."""
    config = parse_server(name, entry)
    data = _editable(path)
    if name != replacing and any(name in servers for _key, servers in server_sections(data)):
        raise MCPConfigError(f"there is already a server named “{name}”")
    servers: dict[str, Any] = data[section_of(data, replacing)]
    previous = servers.pop(replacing, {}) if replacing else {}
    kept = {k: v for k, v in previous.items() if k not in _FIELDS} if isinstance(previous, dict) else {}
    kept_type = TRANSPORT_TYPES.get(str(kept.get("type", "")).lower())
    if "type" not in entry and kept_type and (kept_type == "stdio") != bool(entry.get("command")):
        kept.pop("type")  # the form switched between a command and a URL: the old type would contradict it
    servers[name] = {**kept, **{k: v for k, v in entry.items() if v not in (None, "", [], {})}}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return config


def remove_server(path: Path, name: str) -> None:
    data = _editable(path)
    for _key, servers in server_sections(data):
        if servers.pop(name, None) is not None:
            write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            return


_FIELDS = ("command", "args", "env", "cwd", "url", "serverUrl", "headers", "disabled", "timeout")

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
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from hermes_desktop.core.secrets import SecretStore, SecretStoreError
from hermes_desktop.core.settings import write_atomically

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_START_TIMEOUT_S = 30.0  # to start, answer `initialize` and list its tools; then the server has failed
_SECRET_REF = re.compile(r"\$\{secret:([A-Za-z0-9_.-]+)\}")


class MCPConfigError(Exception):
    pass


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

    @property
    def transport(self) -> str:
        return "http" if self.url else "stdio"

    @property
    def identity(self) -> str:
        """What the server is, for approval rules: a changed command or URL asks again. Secrets are not part of it."""
        return self.url if self.url else " ".join((self.command, *self.args))

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.identity.encode("utf-8")).hexdigest()[:12]

    def describe(self) -> str:
        return self.url or " ".join((self.command, *self.args))

    @property
    def secret_names(self) -> tuple[str, ...]:
        """The `${secret:NAME}` names its env and headers refer to, in order, once each."""
        found = [m.group(1) for value in (*self.env.values(), *self.headers.values()) for m in _SECRET_REF.finditer(value)]
        return tuple(dict.fromkeys(found))


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


def parse_server(name: str, entry: Any) -> ServerConfig:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", name):
        raise MCPConfigError("the name must be 1-40 letters, digits, '.', '_' or '-'")
    if not isinstance(entry, dict):
        raise MCPConfigError("must be an object with `command` or `url`")
    command, url = entry.get("command"), entry.get("url") or entry.get("serverUrl")
    if bool(command) == bool(url):
        raise MCPConfigError("needs exactly one of `command` (a program to start) or `url` (a Streamable HTTP endpoint)")
    if url and not re.match(r"^https?://", str(url)):
        raise MCPConfigError(f"`url` must start with http:// or https://, not {url!r}")
    timeout = entry.get("timeout", DEFAULT_TIMEOUT_S)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 1 <= timeout <= 3600:
        raise MCPConfigError("`timeout` must be a number of seconds between 1 and 3600")
    start_timeout = entry.get("startTimeout", DEFAULT_START_TIMEOUT_S)
    if not isinstance(start_timeout, (int, float)) or isinstance(start_timeout, bool) or not 1 <= start_timeout <= 600:
        raise MCPConfigError("`startTimeout` must be a number of seconds between 1 and 600")
    cwd = entry.get("cwd")
    return ServerConfig(
        name=name, command=str(command or ""), args=_strings(entry.get("args"), "args"),
        env=_mapping(entry.get("env"), "env"), cwd=str(Path(str(cwd)).expanduser()) if cwd else None,
        url=str(url or ""), headers=_mapping(entry.get("headers"), "headers"),
        disabled=bool(entry.get("disabled", False)), timeout_s=float(timeout), start_timeout_s=float(start_timeout))


def _read_document(path: Path) -> dict[str, Any]:
    """The whole file as a JSON object; {} for a missing or empty file. Raises MCPConfigError."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise MCPConfigError(f"{path} cannot be read: {exc}") from exc
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MCPConfigError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    if not isinstance(data, dict):
        raise MCPConfigError(f"{path} does not hold a JSON object")
    return data


def load_config(path: Path) -> MCPConfig:
    try:
        data = _read_document(path)
    except MCPConfigError as exc:
        return MCPConfig(problems=(f"{exc}; no MCP server was started and the file was left as it is",),
                         readable=False)
    if not data:
        return MCPConfig()
    servers = data.get("mcpServers")
    if servers is None:
        return MCPConfig(problems=(f"{path} has no \"mcpServers\" object",))
    if not isinstance(servers, dict):
        return MCPConfig(problems=(f"\"mcpServers\" in {path} must be an object of server names",))
    parsed: list[ServerConfig] = []
    problems: list[str] = []
    for name, entry in servers.items():
        try:
            parsed.append(parse_server(str(name), entry))
        except MCPConfigError as exc:
            problems.append(f"MCP server “{name}”: {exc}; skipped")
    return MCPConfig(tuple(parsed), tuple(problems))


def secret_username(server: str, name: str) -> str:
    return f"mcp:{server}:{name}"


def resolve_secrets(config: ServerConfig, secrets: SecretStore | None) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """env and headers with `${secret:NAME}` filled from the keyring; also the secret values, for redaction."""
    found: list[str] = []

    def fill(value: str) -> str:
        def one(match: re.Match[str]) -> str:
            username = secret_username(config.name, match.group(1))
            try:
                secret = secrets.get(username) if secrets is not None else None
            except SecretStoreError as exc:
                raise MCPConfigError(f"the keyring could not be read for {username}: {exc}") from exc
            if not secret:
                raise MCPConfigError(f"no secret {match.group(1)!r} in the keyring (username {username!r}): select "
                                     "the server in the MCP tab and press “Set secret…”, or run `hermes-desktop "
                                     f"mcp set-secret {config.name} {match.group(1)}`")
            found.append(secret)
            return secret
        return _SECRET_REF.sub(one, value)

    env = {k: fill(v) for k, v in config.env.items()}
    headers = {k: fill(v) for k, v in config.headers.items()}
    return env, headers, found


def _editable(path: Path) -> dict[str, Any]:
    """The whole file as JSON, for changing one server; refuses a file it could not write back unchanged."""
    try:
        data = _read_document(path)
    except MCPConfigError as exc:
        raise MCPConfigError(f"{exc}; fix it in a text editor first, so nothing in it is lost") from exc
    if not isinstance(data.setdefault("mcpServers", {}), dict):
        raise MCPConfigError(f"\"mcpServers\" in {path} is not an object; fix it in a text editor first")
    return data


def save_server(path: Path, name: str, entry: dict[str, Any], replacing: str | None = None) -> ServerConfig:
    """Add or change one server in mcp.json, keeping every other server and any field this app does not
    know. `replacing` is the server's old name when it is renamed. Raises MCPConfigError for a bad entry."""
    config = parse_server(name, entry)
    data = _editable(path)
    servers: dict[str, Any] = data["mcpServers"]
    if name != replacing and name in servers:
        raise MCPConfigError(f"there is already a server named “{name}”")
    previous = servers.pop(replacing, {}) if replacing else {}
    kept = {k: v for k, v in previous.items() if k not in _FIELDS} if isinstance(previous, dict) else {}
    servers[name] = {**kept, **{k: v for k, v in entry.items() if v not in (None, "", [], {})}}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return config


def remove_server(path: Path, name: str) -> None:
    data = _editable(path)
    if data["mcpServers"].pop(name, None) is not None:
        write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


_FIELDS = ("command", "args", "env", "cwd", "url", "serverUrl", "headers", "disabled", "timeout")

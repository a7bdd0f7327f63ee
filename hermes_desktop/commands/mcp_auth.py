"""`hermes-desktop mcp login NAME` and `mcp logout NAME`: OAuth sign-in to an HTTP/SSE server from mcp.json.

`login` prints the consent page's address, opens it in the system browser (the `BROWSER` environment variable
is honoured, as Python's webbrowser does), waits for the browser to come back to the loopback listener on
127.0.0.1 (up to 5 minutes; Ctrl+C cancels), stores the tokens in the keyring under `mcp:<NAME>:oauth` and says
so. Without a secure keyring it refuses before anything is opened. `logout` removes the tokens and the client
registration from the keyring. A running window picks the new state up when the server restarts (its Restart
button, or Sign in there). For an enterprise-managed server (`"grant": "identity_assertion"`) no browser opens:
both token exchanges run again (core/mcp/identity_assertion.py) and a refusal is printed with who refused.
Exit codes as in cli.py: 0 done, 1 failed, 2 bad usage (no such server, not an HTTP server).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_actions(actions: Any) -> None:
    """The `login` and `logout` actions of `mcp` (called by cli.build_parser)."""
    login = actions.add_parser("login", help=_("sign in to an HTTP MCP server (OAuth, in the browser)"))
    login.add_argument("server")
    logout = actions.add_parser("logout", help=_("forget an HTTP MCP server's sign-in (tokens in the keyring)"))
    logout.add_argument("server")


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_login(args.server) if args.action == "login" else _logout(args.server))
    except KeyboardInterrupt:
        print("\n" + _("sign-in cancelled; nothing was stored"), file=sys.stderr)
        return EXIT_FAILED


def _server(name: str) -> Any:
    from hermes_desktop.core.mcp.config import load_config
    from hermes_desktop.core.paths import app_paths

    path = app_paths().mcp_config_file
    config = load_config(path)
    found = next((server for server in config.servers if server.name == name), None)
    if found is None:
        problems = [p for p in config.problems if f"“{name}”" in p]
        print(_("error: {0}").format(_("no MCP server named “{name}” in {path}").format(name=name, path=path))
              + (f" ({problems[0]})" if problems else ""), file=sys.stderr)
    return found


async def _login(name: str) -> int:
    from hermes_desktop.core.mcp.oauth import SignInError, oauth_username, sign_in, uses_oauth
    from hermes_desktop.core.secrets import open_secret_store

    server = _server(name)
    if server is None:
        return EXIT_USAGE
    if not server.url:
        print(_("error: {0}").format(_("“{0}” is started as a command (stdio); only HTTP and SSE servers sign in")
                                     .format(name)), file=sys.stderr)
        return EXIT_USAGE
    if not uses_oauth(server):
        print(_("error: {0}").format(_("“{0}” does not use OAuth (\"oauth\": false, or its own Authorization header)")
                                     .format(name)), file=sys.stderr)
        return EXIT_USAGE
    store, report = open_secret_store()
    if not store.is_persistent:
        print(_("error: {0}").format(_("no secure keyring ({0}); sign-in needs one to keep its tokens, so nothing was "
                                       "opened or stored").format(report.reason)), file=sys.stderr)
        return EXIT_FAILED

    def show(url: str) -> None:
        print(_("Sign in to “{0}” in your browser. If it does not open, open this address:").format(name)
              + f"\n\n  {url}\n", flush=True)
        print(_("Waiting for the browser to come back (Ctrl+C cancels)…"), flush=True)

    try:
        result = await sign_in(server, store, on_url=show)
    except SignInError as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_FAILED
    if not result.challenged:
        print(_("“{name}” did not ask for sign-in: it works without it ({tools} tools). Nothing was stored.").format(
            name=name, tools=result.tools))
        return EXIT_OK
    print(_("Signed in to “{name}” ({tools} tools). Its tokens are in the keyring as {username}.").format(
        name=name, tools=result.tools, username=oauth_username(name)))
    return EXIT_OK


async def _logout(name: str) -> int:
    from hermes_desktop.core.mcp.oauth import SignInError, oauth_username, sign_out
    from hermes_desktop.core.secrets import open_secret_store

    if _server(name) is None:
        return EXIT_USAGE
    store, report = open_secret_store()
    if not store.is_persistent:
        print(_("error: {0}").format(_("no secure keyring ({0}); there is no stored sign-in to remove").format(
            report.reason)), file=sys.stderr)
        return EXIT_FAILED
    try:
        removed = await asyncio.to_thread(sign_out, store, name)
    except SignInError as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_FAILED
    print(_("Signed out of “{name}”: {username} removed from the keyring.").format(name=name, username=oauth_username(name))
          if removed else _("“{0}” was not signed in; nothing to remove.").format(name))
    return EXIT_OK

"""`mcp import [FILE | --from CLIENT] [--yes] [--keep-existing]`, and `${input:…}` questions on a terminal.

Import prints the preview (core/mcp/importing.py: what is added, changed, identical or skipped, and which secrets
move to the keyring), then:
- on a terminal, asks about each changed server (“Replace …? [y/N]”) and once more before writing;
- with `--yes`, accepts everything the preview shows (changed servers too, unless `--keep-existing`), except a
  remote server that sends the app's environment variables (`${env:…}` in its URL or headers): that one needs
  `--allow-env` too, and on a terminal it is asked about by name, its variables said;
- without a terminal and without `--yes`, only previews: nothing is written (exit 0).
Exit 1 when the source or mcp.json cannot be used (the reason is printed; nothing changed).

`${input:ID}` values in mcp.json are asked with a hidden prompt when `mcp list` or `ask` runs on a terminal
(TerminalInputAsker); never without one.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from pathlib import Path
from typing import Any, Callable, TextIO

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED = 0, 1


def add_parser(actions: Any) -> None:
    """The `mcp import` sub-command's arguments (cli.py calls this with the `mcp` sub-parsers)."""
    from hermes_desktop.core.mcp.importing import CLIENTS

    parser = actions.add_parser("import", help=_("bring MCP servers over from another client's file (preview first)"))
    parser.add_argument("file", nargs="?", type=Path, help=_("a file in the mcpServers or VS Code servers shape"))
    parser.add_argument("--from", dest="client", choices=CLIENTS, help=_("read that client's usual file on this OS"))
    parser.add_argument("--yes", action="store_true", help=_("accept the preview without asking (also changed servers)"))
    parser.add_argument("--keep-existing", action="store_true",
                        help=_("never replace a server mcp.json already has under the same name"))
    parser.add_argument("--allow-env", action="store_true",
                        help=_("with --yes: also import remote servers that send your environment variables "
                               "(${env:…} in their URL or headers; the preview names them)"))


def run_import(args: argparse.Namespace, *, stdin: TextIO | None = None, out: Callable[[str], None] = print) -> int:
    from hermes_desktop.core.mcp.importing import (
        Change,
        ImportError_,
        apply_import,
        describe_plan,
        plan_from_client,
        plan_import,
    )
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.secrets import open_secret_store
    from hermes_desktop.core.terminal_text import strip_controls

    stdin = stdin or sys.stdin
    if (args.file is None) == (args.client is None):
        print(_("error: {0}").format(_("give a FILE or --from CLIENT (one of them)")), file=sys.stderr)
        return 2
    config_path = app_paths().mcp_config_file
    store, report = open_secret_store()
    try:
        plan = plan_import(config_path, [args.file], store) if args.file else \
            plan_from_client(config_path, args.client, store)
    except ImportError_ as exc:
        print(_("error: {0}; nothing was changed").format(strip_controls(str(exc))), file=sys.stderr)
        return EXIT_FAILED
    for line in describe_plan(plan):
        out(strip_controls(line))  # names and paths come from another program's file: no escapes obeyed
    if plan.secrets_moved and not report.secure:
        out(_("note: no secure keyring ({0}): the secrets above are NOT stored anywhere; mcp.json gets "
              "${{secret:…}} references, set each value later with `hermes-desktop mcp set-secret SERVER NAME`").format(
            report.reason))
    if not plan.has_work:
        out(_("Nothing to import."))
        return EXIT_OK
    changed = plan.of(Change.CHANGE)
    interactive = stdin.isatty()
    if not args.yes and not interactive:
        out(_("Preview only (no terminal to ask on): run again with --yes to import."))
        return EXIT_OK
    accepted: set[str] = set()
    allowed_env: set[str] = set()
    sends_env = _sends_env(plan)
    if args.keep_existing:
        pass
    elif args.yes:
        accepted = {item.name for item in changed}
    else:
        for item in changed:
            if _confirm(_("Replace “{0}” in mcp.json with the imported one? [y/N] ").format(strip_controls(item.name)),
                        stdin):
                accepted.add(item.name)
    if args.yes and getattr(args, "allow_env", False):
        allowed_env = set(sends_env)
    elif not args.yes:  # each server that sends the app's environment out: asked by name, the variables said
        for name, question in sends_env.items():
            if (name in accepted or name in {i.name for i in plan.of(Change.ADD)}) and \
                    _confirm(f"{strip_controls(question)} [y/N] ", stdin):
                allowed_env.add(name)
    if not args.yes and not args.keep_existing:
        adds = len([i for i in plan.of(Change.ADD) if i.name not in sends_env or i.name in allowed_env])
        if not adds and not accepted:
            out(_("Nothing was changed."))
            return EXIT_OK
        if not _confirm(_("Write {new} new and {replaced} replaced server(s) to {path}? [y/N] ").format(
                new=adds, replaced=len(accepted), path=config_path), stdin):
            out(_("Nothing was changed."))
            return EXIT_OK
    try:
        result = apply_import(config_path, plan, accepted, store, keyring_secure=report.secure,
                              allowed_env=allowed_env)
    except (ImportError_, OSError) as exc:
        print(_("error: {0}; nothing was changed").format(strip_controls(str(exc))), file=sys.stderr)
        return EXIT_FAILED
    if result.added:
        out(_("Added: {0}").format(", ".join(result.added)))
    if result.replaced:
        out(_("Replaced: {0}").format(", ".join(result.replaced)))
    if changed and not result.replaced:
        out(_("Kept as they were: {0}").format(", ".join(item.name for item in changed)))
    for username in result.secrets_stored:
        out(_("Stored {0} in the keyring").format(username))
    for username in result.secrets_not_stored:
        server, _sep, name = username.removeprefix("mcp:").partition(":")
        out(_("Needs a value: {name} ({command})").format(name=username,
                                                          command=f"`hermes-desktop mcp set-secret {server} {name}`"))
    for name in result.held_back:
        variables = ", ".join(sends_env_variables(plan, name))
        out((_("Not imported: “{name}” would send your environment variables {variables} (not confirmed; add "
               "--allow-env to --yes)") if args.yes else
             _("Not imported: “{name}” would send your environment variables {variables} (not confirmed)")).format(
            name=strip_controls(name), variables=variables))
    if result.backup is not None:
        out(_("The previous mcp.json is in {0}").format(result.backup))
    return EXIT_OK


def _sends_env(plan: Any) -> dict[str, str]:
    """The planned servers that would send the app's environment variables to a remote address, each with the
    question to ask about it (core/mcp/import_review.py)."""
    from hermes_desktop.core.mcp.import_review import describe_env_reads, review_entry
    from hermes_desktop.core.mcp.importing import Change

    found = {}
    for item in plan.items:
        if item.change in (Change.ADD, Change.CHANGE):
            review = review_entry(item.entry, item.secrets)
            if review.env_reads:
                found[item.name] = describe_env_reads(item.name, str(item.entry.get("url", "")), review)
    return found


def sends_env_variables(plan: Any, name: str) -> list[str]:
    from hermes_desktop.core.mcp.import_review import review_entry

    item = next(i for i in plan.items if i.name == name)
    return list(review_entry(item.entry).variables)


def _confirm(prompt: str, stdin: TextIO) -> bool:
    sys.stderr.write(prompt)
    sys.stderr.flush()
    return stdin.readline().strip().lower() in ("y", "yes")


class TerminalInputAsker:
    """Asks for an mcp.json `${input:ID}` on the terminal, hidden when the input says password (the default)."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stderr

    async def ask_input(self, servers: list[str], spec: Any) -> str | None:
        from hermes_desktop.core.terminal_text import visible_controls as shown

        # The description is mcp.json's text, not Hermes speaking: it comes quoted, after whose words they are.
        what = shown(spec.description or spec.id)
        prompt = _("mcp.json asks for {input} of MCP server {servers} (its words, not Hermes'): “{what}” — kept in "
                   "the keyring; empty to skip: ").format(input=f"${{input:{shown(spec.id)}}}",
                                                          servers=", ".join(shown(s) for s in servers), what=what)
        if spec.password:
            answer = await asyncio.to_thread(getpass.getpass, prompt, self.out)
        else:
            self.out.write(prompt)
            self.out.flush()
            answer = await asyncio.to_thread(sys.stdin.readline)
        answer = answer.strip()
        return answer or None


def install_input_asker(runtime: Any, stdin: TextIO | None = None) -> bool:
    """Ask `${input:…}` on this terminal when stdin is one (never otherwise). True when installed."""
    if not (stdin or sys.stdin).isatty():
        return False
    runtime.mcp.input_asker = TerminalInputAsker()
    return True

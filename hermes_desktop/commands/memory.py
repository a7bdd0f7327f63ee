"""`hermes-desktop memory list [--json] | add TEXT | forget ID | export`: what Hermes remembers, from the terminal.

- `list` prints every memory the app keeps (all profiles and states: active, superseded, forgotten, expired), newest
  first, and says why the active profile does not recall a memory (only the HERMES_BASE_URL server's own memories
  are kept apart from the saved providers', which share the rest: core/memory/store.py, "Profiles");
  `--json` gives a JSON array of objects with id, layer, statement, quote, source_session, created, expires,
  state (and the rest of core/memory/model.Memory.to_json). Times are Unix seconds in JSON, local dates in text.
- `add TEXT` keeps TEXT as a long-term memory added by the user (no source message), made with the active provider
  profile (with HERMES_BASE_URL naming another server, that server's own: kept from the saved providers).
- `forget ID` marks a memory forgotten: never recalled again, kept so the Memory tab can undo it.
- `export` prints every memory as one JSON document ({"format": ..., "memories": [...]}). Session exports never
  include memories (core/storage/transfer.py writes sessions and messages only).
Memory text is printed with escape sequences and controls removed and bidirectional overrides written as `\\u202e`
(terminal_text.safe_name): a memory cannot retitle the terminal, clear it, or reorder what `list` shows.
Exit codes as in cli.py: 0 done, 1 failed (storage), 2 bad usage (unknown id, empty text).
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import Any, Callable

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
EXPORT_FORMAT = "hermes-desktop-memories/1"


def add_parser(commands: Any) -> None:
    """The `memory` subcommand and its actions (called by cli.build_parser)."""
    memory = commands.add_parser("memory", help=_("what Hermes remembers about you: list, add, forget, export"))
    actions = memory.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help=_("every memory with its quote, source, state and expiry"))
    listing.add_argument("--json", action="store_true")
    add = actions.add_parser("add", help=_("remember TEXT (a long-term memory of the active provider profile)"))
    add.add_argument("text")
    forget = actions.add_parser("forget", help=_("forget the memory with this id (never recalled again)"))
    forget.add_argument("id", type=int)
    actions.add_parser("export", help=_("print every memory as JSON"))


def _date(value: float | None) -> str:
    return "-" if value is None else f"{datetime.fromtimestamp(value):%Y-%m-%d %H:%M}"


def _held_secrets(paths: Any) -> Any:
    """Every secret the app holds (the keyring opened only when a memory is written: `add`), so `memory add` with a
    key in it stores "[redacted]" (core/held_secrets.py)."""
    from hermes_desktop.core.held_secrets import HeldSecrets
    from hermes_desktop.core.mcp.config import load_config
    from hermes_desktop.core.secrets import LazySecretStore
    from hermes_desktop.core.settings import SettingsStore

    return HeldSecrets(LazySecretStore(), lambda: SettingsStore(paths).load().settings.profiles,
                       lambda: load_config(paths.mcp_config_file).servers)


def run(args: argparse.Namespace) -> int:
    from hermes_desktop.core.memory.store import MemoryStore
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.storage.errors import StorageError
    from hermes_desktop.core.store import open_store
    from hermes_desktop.core.terminal_text import safe_name as shown, terminal_safe_json

    paths = app_paths()
    opened = open_store(paths)
    for message in opened.messages:
        print(_("note: {0}").format(message), file=sys.stderr)
    try:
        store = MemoryStore(opened.store, secrets=_held_secrets(paths), private=lambda: _local_only(paths))
        if args.action == "list":
            memories = store.list(states=None, limit=1_000_000)
            if args.json:
                print(terminal_safe_json([m.to_json() for m in memories], indent=2))
                return EXIT_OK
            if not memories:
                print(_("No memories yet."))
            active = _active_profile_id(paths)
            for m in memories:
                print(f"#{m.id}  {m.layer.value:<10} {m.state.value:<10} {shown(m.statement)}")  # values: data
                print("      " + _("quote: {0}").format(shown(m.quote) or "-"))
                print("      " + _("source: {source}  created: {created}  expires: {expires}").format(
                    source=m.session_id or "-", created=_date(m.created_at), expires=_date(m.expires_at))
                      + ("  " + _("pinned") if m.pinned else "")
                      + ("  " + _scope_note(m, store) if active and not store.visible(m, active) else ""))
            return EXIT_OK
        if args.action == "add":
            text = " ".join(args.text.split())
            if not text:
                print(_("error: nothing to remember (the text is empty)"), file=sys.stderr)
                return EXIT_USAGE
            memory = store.add(text, profile_id=_active_profile_id(paths), quote="", kind="explicit", origin="user")
            print(_("remembered #{id}: {statement}").format(id=memory.id, statement=shown(memory.statement)))
            return EXIT_OK
        if args.action == "forget":
            memory = store.get(args.id)
            if memory is None:
                print(_("error: no memory #{0}").format(args.id), file=sys.stderr)
                return EXIT_USAGE
            if not store.forget([args.id]):
                print(_("#{0} was already forgotten").format(args.id))
                return EXIT_OK
            print(_("forgot #{id}: {statement} (undo in the Memory tab)").format(id=args.id,
                                                                              statement=shown(memory.statement)))
            return EXIT_OK
        if args.action == "export":
            print(terminal_safe_json({"format": EXPORT_FORMAT, "exported": datetime.now().astimezone().isoformat(),
                                      "memories": store.export()}, indent=2))
            return EXIT_OK
    except StorageError as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_FAILED
    finally:
        opened.store.close()
    return EXIT_USAGE


def _scope_note(memory: Any, store: Any) -> str:
    """Why the active profile does not recall this memory: the HERMES_BASE_URL profile's (or its own kept from it),
    or a local-only provider's (core/local_only.py)."""
    from hermes_desktop.core.settings import ENV_PROFILE_ID

    if memory.profile_id == ENV_PROFILE_ID:
        return _("used only with the server in HERMES_BASE_URL")
    if memory.profile_id in store.private():
        return _("used only with local-only providers")
    return _("not used with the server in HERMES_BASE_URL")


def _local_only(paths: Any) -> frozenset[str]:
    from hermes_desktop.core.local_only import local_only_ids
    from hermes_desktop.core.settings import SettingsStore

    return local_only_ids(SettingsStore(paths).load().settings.profiles)


def _active_profile_id(paths: Any) -> str:
    """The active provider profile's id (as `ask` would use it), "" when none is set up."""
    import os

    from hermes_desktop.core.settings import SettingsStore, effective_profile

    profile = effective_profile(SettingsStore(paths).load().settings, os.environ)
    return profile.id if profile is not None else ""


MEMORY_WAIT_S = 35.0  # the extraction side request's own limit is 30 s


def print_remembered(runtime: Any, *, quiet: bool) -> Callable[[], None]:
    """`ask`: say on stderr what was remembered from the user's message; with `--json` (`quiet`) the event is one
    more JSON line on stdout, after turn_finished (`{"type": "memory_remembered", ...}`).

    Returns the function that prints the collected "[remembered: …]" lines: `ask` calls it after the reply's last
    newline, so a line never lands on the end of the reply (the `remember` tool's event comes mid-stream, the
    extraction's after the reply but before `ask` ends its line)."""
    from hermes_desktop.core.events import event_to_json
    from hermes_desktop.core.terminal_text import safe_name as shown, terminal_safe_json

    pending: list[str] = []

    def flush() -> None:
        for line in pending:
            print(line, file=sys.stderr)
        pending.clear()

    if runtime.memory is None:
        return flush
    if quiet:
        runtime.memory.subscribe(lambda event: print(terminal_safe_json(event_to_json(event)), flush=True))
        return flush
    runtime.memory.subscribe(lambda event: pending.append(
        _("[remembered: {0}]").format("; ".join(shown(s) for s in event.statements))))
    return flush


def report(runtime: Any, out: Any) -> None:
    """The Memory section of `doctor`: the switch, how many memories, the search index, embeddings."""
    memory = runtime.memory
    out(_("Memory"))
    if memory is None:
        out("  " + _("unavailable (the history could not be opened)"))
        return
    settings = runtime.settings
    active = memory.store.count()
    total = memory.store.count(states=None)
    out("  " + _("{switch}: {active:,} in use of {total:,} kept; half-life {days:g} days, up to {budget:,} tokens a "
                 "request").format(switch=_("on") if settings.memory_enabled else _("OFF (Settings › Memory)"),
                                   active=active, total=total, days=settings.memory_half_life_days,
                                   budget=settings.memory_budget_tokens))
    out("  " + _("search: {0}").format(_("FTS5 index") if memory.store.search_available
                                       else _("plain-text scan (no FTS5)")))
    model = getattr(runtime.profile, "embedding_model", None) if runtime.profile is not None else None
    out("  " + (_("embeddings: {0} via the provider's /embeddings").format(model) if model
                else _("embeddings: off (BM25 only)")))


async def finish(runtime: Any) -> None:
    """`ask`: wait for the turn's memory extraction (bounded), then stop it."""
    if runtime.memory is not None:
        await runtime.memory.wait_idle(MEMORY_WAIT_S)
        await runtime.memory.close()

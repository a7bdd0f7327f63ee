"""`hermes-desktop assistants list [--json] | show NAME | add FILE | import FILE_OR_URL [--yes] | export NAME` and
`hermes-desktop prompts list | show NAME`: assistants and saved prompts from the terminal (core/assistants).

- `list` prints Hermes, the gallery and the user's own (id, emoji, name, group, tools); `--json` an array of the
  assistants in our export format with `id` and `origin`.
- `show NAME` prints one assistant: its fields, tools and instructions.
- `add FILE` saves the assistant(s) of one file in our format, with the tools the file lists (it is the user's own
  file, named on the command line); names that are taken get " (2)".
- `import FILE_OR_URL` reads ours, a Cherry Studio subscription list or NextChat masks (a URL is fetched with
  fetch_url's guard), prints what will be added (names, the start of the instructions, requested tools), and asks
  before saving; `--yes` saves without asking. Requested tools are granted only when confirmed on a terminal
  (`--yes` alone saves the assistants without their tools: a script never grants tools). Without a terminal and
  without `--yes` nothing is saved.
- `export NAME` prints one assistant in our format (`all` for the user's whole set: `export all`).
Text from files is printed with controls removed (terminal_text.safe_name). Exit codes: 0 done, 1 failed,
2 bad usage or a bad file (the place is printed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
PREVIEW_CHARS = 160
PREVIEW_LIMIT = 40  # assistants listed one by one before "… and N more"


def add_parser(commands: Any) -> None:
    assistants = commands.add_parser("assistants", help=_("assistants: list, show, add, import, export"))
    actions = assistants.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help=_("Hermes, the gallery and your own assistants"))
    listing.add_argument("--json", action="store_true")
    show = actions.add_parser("show", help=_("one assistant's settings and instructions"))
    show.add_argument("name")
    add = actions.add_parser("add", help=_("add the assistant(s) of a Hermes JSON file, with the tools it lists"))
    add.add_argument("file", type=Path)
    importing = actions.add_parser("import", help=_("import from a file or URL (Hermes, Cherry Studio, NextChat)"))
    importing.add_argument("source", metavar="FILE_OR_URL")
    importing.add_argument("--yes", action="store_true", help=_("save without asking (requested tools not granted)"))
    export = actions.add_parser("export", help=_("print an assistant as JSON (`all`: every one of yours)"))
    export.add_argument("name")
    prompts = commands.add_parser("prompts", help=_("saved prompts: list, show"))
    prompt_actions = prompts.add_subparsers(dest="action", metavar="ACTION", required=True)
    prompt_actions.add_parser("list", help=_("the saved prompts and their {{variables}}"))
    prompt_show = prompt_actions.add_parser("show", help=_("one prompt's text"))
    prompt_show.add_argument("name")


def _open() -> tuple[Any, Any]:
    from hermes_desktop.core.assistants.store import AssistantStore
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.store import open_store

    opened = open_store(app_paths())
    for message in opened.messages:
        print(_("note: {0}").format(message), file=sys.stderr)
    return opened.store, AssistantStore(opened.store)


def run(args: argparse.Namespace) -> int:
    from hermes_desktop.core.assistants.model import AssistantFormatError
    from hermes_desktop.core.assistants.store import AssistantNotFound, NameTaken
    from hermes_desktop.core.storage.errors import StorageError

    sessions, store = _open()
    try:
        if args.command == "prompts":
            return _prompts(args, store)
        return _ACTIONS[args.action](args, store)
    except AssistantFormatError as exc:
        print(_("error: {0}").format(_safe(str(exc))), file=sys.stderr)
        return EXIT_USAGE
    except (AssistantNotFound, NameTaken) as exc:
        print(_("error: {0}").format(_safe(not_found_text(str(exc)))), file=sys.stderr)
        return EXIT_USAGE
    except StorageError as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_FAILED
    finally:
        sessions.close()


def not_found_text(text: str) -> str:
    """The assistant store's refusal (core/assistants/store.py) in the user's language, for the common ones."""
    from hermes_desktop.core.i18n import reworded

    return reworded(text, (
        (r"No assistant named (.+)\. See `hermes-desktop assistants list`\.",
         _("No assistant named {0}. See `hermes-desktop assistants list`.")),
        (r"No saved prompt named (.+)\. See `hermes-desktop prompts list`\.",
         _("No saved prompt named {0}. See `hermes-desktop prompts list`.")),
        (r"An assistant named (.+) already exists\.", _("An assistant named {0} already exists.")))) or text


def _safe(text: str) -> str:
    from hermes_desktop.core.terminal_text import safe_name

    return safe_name(text)


def _tools(assistant: Any) -> str:
    if assistant.tools is None:
        return _("all enabled tools")
    names = [*assistant.tools, *(f"skill:{s}" for s in assistant.skills or ()),
             *(f"mcp:{m}" for m in assistant.mcp_servers or ())]
    return ", ".join(names) if names else _("no tools")


def _list(args: argparse.Namespace, store: Any) -> int:
    from hermes_desktop.core.terminal_text import terminal_safe_json

    assistants = store.all()
    if args.json:
        print(terminal_safe_json([{**a.to_json(), "id": a.id, "origin": a.origin} for a in assistants], indent=2))
        return EXIT_OK
    for a in assistants:
        zh = a.shown_name("zh_CN")
        name = a.name if zh == a.name else f"{a.name} / {zh}"
        print(_safe(f"{a.emoji or '·'} {name}  [{a.origin}] {a.id}  — {_tools(a)}"))
    return EXIT_OK


def _show(args: argparse.Namespace, store: Any) -> int:
    a = store.get(args.name)
    lines = [f"{a.emoji} {a.name}".strip(), _("id: {id}  ({origin})").format(id=a.id, origin=a.origin)]
    if a.shown_name("zh_CN") != a.name:
        lines.append(f"中文: {a.shown_name('zh_CN')}")
    if a.description:
        lines.append(_("description: {0}").format(a.description))
    model = " / ".join(x for x in (a.profile_id, a.model) if x) or _("the default")
    lines.append(_("model: {0}").format(model))
    params = a.request_params()
    if params:
        lines.append(_("parameters: {0}").format(", ".join(f"{k}={v}" for k, v in params.items())))
    if a.side_model or a.side_profile_id:
        lines.append(_("side-task model: {0}").format(" / ".join(x for x in (a.side_profile_id, a.side_model) if x)))
    lines.append(_("tools: {0}").format(_tools(a)))
    if a.knowledge:
        lines.append(_("knowledge bases: {0}").format(", ".join(a.knowledge)))
    lines.append(_("memory: {0}").format(_("on") if a.memory else _("off")))
    for starter in a.starters:
        lines.append(_("starter: {0}").format(starter))
    print("\n".join(_safe(line) for line in lines))
    if a.instructions:
        print("\n" + _("instructions:") + "\n" + "\n".join(_safe(line) for line in a.instructions.splitlines()))
    return EXIT_OK


def _read(source: str) -> Any:
    from hermes_desktop.core.assistants import imports

    if source.startswith(("http://", "https://")):
        from hermes_desktop.core.paths import app_paths
        from hermes_desktop.core.settings import SettingsStore

        hosts = SettingsStore(app_paths()).load().settings.fetch_allowed_private_hosts
        return imports.fetch_import(source, hosts)
    path = Path(source).expanduser()
    try:
        if not path.is_file():
            raise OSError(f"{path} is not a file")
        with path.open("rb") as handle:
            data = handle.read(imports.MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        raise imports.AssistantFormatError("", f"could not read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    return imports.read_import(data, source=str(path))


def _preview(plan: Any) -> None:
    print(_safe(_("{count} assistant(s) from {format} ({source}):").format(count=len(plan.items), format=plan.format,
                                                                          source=plan.source)))
    for item in plan.items[:PREVIEW_LIMIT]:
        a = item.assistant
        text = " ".join(a.instructions.split())
        text = text[:PREVIEW_CHARS] + ("…" if len(text) > PREVIEW_CHARS else "")
        asks = "  " + _("requests tools: {0}").format(", ".join(item.requested)) if item.requested else ""
        print(_safe(f"  {a.emoji or '·'} {a.name}{asks}"))
        print(_safe(f"      {text}"))
    if len(plan.items) > PREVIEW_LIMIT:
        print("  " + _("… and {0} more").format(len(plan.items) - PREVIEW_LIMIT))


def _confirm(question: str) -> bool:
    if not sys.stdin.isatty():
        return False
    print(question, end=" ", flush=True)
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def _add(args: argparse.Namespace, store: Any) -> int:
    from hermes_desktop.core.assistants import imports

    plan = _read(str(args.file))
    if plan.format != imports.HERMES_FORMAT:
        print(_("error: {0}").format(_("{file} is a {format} file; use `assistants import` for it").format(
            file=args.file, format=plan.format)), file=sys.stderr)
        return EXIT_USAGE
    saved = plan.apply(store, grant_tools=True)
    for a in saved:
        print(_safe(_("added {assistant} ({id}) — {tools}").format(assistant=f"{a.emoji} {a.name}", id=a.id,
                                                                    tools=_tools(a))))
    return EXIT_OK


def _import(args: argparse.Namespace, store: Any) -> int:
    plan = _read(args.source)
    _preview(plan)
    grant = False
    if not args.yes:
        if not _confirm(_("Add these {0} assistant(s)? [y/N]").format(len(plan.items))):
            print(_("nothing was added") if sys.stdin.isatty() else _("nothing was added (no terminal to ask; use --yes)"),
                  file=sys.stderr)
            return EXIT_OK if sys.stdin.isatty() else EXIT_USAGE
    if plan.requests_tools and sys.stdin.isatty():
        grant = _confirm(_("Give them the tools they request? [y/N]"))
    saved = plan.apply(store, grant_tools=grant)
    print((_("added {0} assistant(s)") if grant or not plan.requests_tools else
           _("added {0} assistant(s) without the tools they request (give them in the Assistants tab)")).format(len(saved)))
    return EXIT_OK


def _export(args: argparse.Namespace, store: Any) -> int:
    from hermes_desktop.core.assistants.imports import export_json

    chosen = store.mine() if args.name == "all" else [store.get(args.name)]
    print(export_json(chosen))
    return EXIT_OK


def _prompts(args: argparse.Namespace, store: Any) -> int:
    if args.action == "list":
        for prompt in store.prompts():
            blanks = ", ".join(prompt.variables)
            print(_safe(f"{prompt.name}" + (f"  {{{{{blanks}}}}}" if blanks else "") +
                        (f"  — {prompt.description}" if prompt.description else "")))
        return EXIT_OK
    prompt = store.prompt(args.name)
    print(_safe(prompt.name))
    if prompt.variables:
        print(_safe(_("variables: {0}").format(", ".join(prompt.variables))))
    print()
    print("\n".join(_safe(line) for line in prompt.body.splitlines()))
    return EXIT_OK


_ACTIONS = {"list": _list, "show": _show, "add": _add, "import": _import, "export": _export}


def apply_to_session(runtime: Any, session_id: str, name: str) -> str | None:
    """`ask --assistant NAME`: give the session that assistant before the turn. Returns an error line or None."""
    from hermes_desktop.core.assistants.store import AssistantNotFound

    if runtime.assistants is None:
        return _("assistants need the session database, which is not available")
    try:
        assistant = runtime.assistants.store.get(name)
        runtime.assistants.store.set_session_assistant(session_id, assistant.id)
    except AssistantNotFound as exc:
        return not_found_text(str(exc))
    return None

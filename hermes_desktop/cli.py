"""Headless commands: `ask`, `doctor`, `sessions list | export | import`.

Nothing here imports Qt, so the commands start fast and work over SSH.
Exit codes: 0 done, 1 failed (the reason is printed), 2 bad usage, 3 the agent was
stopped by a guard (the reason is printed), 130 interrupted with Ctrl+C.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from hermes_desktop import __version__
from hermes_desktop.core.i18n import _, active_language

COMMANDS = ("ask", "doctor", "sessions", "mcp", "skills", "memory", "knowledge", "assistants", "prompts", "sync",
            "backup", "usage")
MCP_START_WAIT_S = 20.0
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_GUARD, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only="ask"` just the `ask` command (what `ask` parses: the other
    commands' parsers import their modules, ~7 ms of a short `ask`)."""
    parser = argparse.ArgumentParser(prog="hermes-desktop", description=_("Hermes Desktop: an AI agent that does real work."))
    parser.add_argument("--version", action="version", version=f"hermes-desktop {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    ask = commands.add_parser("ask", help=_("ask one question headless and print the reply"))
    ask.add_argument("text", help=_("what to ask"))
    ask.add_argument("--session", help=_("session id (created if new); continues its history"))
    ask.add_argument("--workspace", type=Path, help=_("folder the file tools may use (default: settings)"))
    ask.add_argument("--allow-broad-workspace", action="store_true",
                     help=_("accept / , your home folder itself or a system folder as the workspace"))
    ask.add_argument("--json", action="store_true", help=_("print every event as a JSON line instead of the reply"))
    ask.add_argument("--show-thinking", action="store_true",
                     help=_("print a reasoning model's thinking on stderr (dimmed on a terminal); stdout is the reply"))
    ask.add_argument("--model", metavar="PROFILE[/MODEL]",
                     help=_("the provider (its id or name) and model that answer this session from this message on, "
                            "as the model picker does; kept with the session"))
    ask.add_argument("--attach", action="append", type=Path, default=[], metavar="PATH",
                     help=_("attach a file (image, PDF, text, code, Markdown, CSV, JSON); repeatable"))
    ask.add_argument("--knowledge", action="append", default=[], metavar="NAME",
                     help=_("use this knowledge base in the session (repeatable; kept for the session)"))
    ask.add_argument("--assistant", metavar="NAME", help=_("the session's assistant from this message on "
                       "(see `assistants list`)"))
    if only == "ask":
        return parser

    commands.add_parser("doctor", help=_("check keyring, database, paths, provider and print what works"))

    sessions = commands.add_parser("sessions", help=_("list, export or import sessions"))
    actions = sessions.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help=_("list sessions, newest first"))
    listing.add_argument("--trash", action="store_true", help=_("list deleted sessions (kept 30 days)"))
    listing.add_argument("--json", action="store_true")
    export = actions.add_parser("export", help=_("a session as Markdown or JSON (printed), Word, or into an Obsidian vault"))
    export.add_argument("id")
    export.add_argument("--format", choices=("md", "json", "docx", "obsidian"), default="md")
    export.add_argument("--output", type=Path, metavar="PATH",
                        help=_("the file to write (md, json, docx), or the vault folder (obsidian)"))
    importing = actions.add_parser("import", help=_("import a session from a JSON file"))
    importing.add_argument("file", type=Path)

    mcp = commands.add_parser("mcp", help=_("MCP servers from mcp.json: status, and secrets in the keyring"))
    mcp_actions = mcp.add_subparsers(dest="action", metavar="ACTION", required=True)
    mcp_actions.add_parser("list", help=_("start each server, print its state and tools, stop it"))
    secret = mcp_actions.add_parser("set-secret", help=_("store a ${secret:NAME} value in the keyring (read from stdin)"))
    secret.add_argument("server")
    secret.add_argument("name")
    from hermes_desktop.commands import mcp_import

    mcp_import.add_parser(mcp_actions)
    from hermes_desktop.commands import mcp_auth

    mcp_auth.add_actions(mcp_actions)
    from hermes_desktop.commands import skills as skills_command

    skills_command.add_parser(commands)
    from hermes_desktop.commands import memory as memory_command

    memory_command.add_parser(commands)
    from hermes_desktop.commands import knowledge as knowledge_command

    knowledge_command.add_parser(commands)
    from hermes_desktop.commands import assistants as assistants_command

    assistants_command.add_parser(commands)
    from hermes_desktop.commands import sync as sync_command

    sync_command.add_parser(commands)
    from hermes_desktop.commands import usage as usage_command

    usage_command.add_parser(commands)
    return parser


def main(argv: Sequence[str]) -> int:
    _use_language()
    parser = build_parser(only="ask" if list(argv[:1]) == ["ask"] else None)
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:  # argparse exits on --help / errors
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    _setup_logging()
    if args.command == "ask":
        import gc

        # Start-up builds ~1,000 modules' worth of long-lived objects (openai's ~700 pydantic classes): the
        # collector's passes over them cost ~40 ms while they load. It is off until the agent is made (then
        # everything so far is frozen out of its passes and it runs again for the turn), and everything is frozen
        # again at the end so the interpreter's last collection does not walk it all once more (~100-200 ms).
        # Nothing waits on that collection: the store is closed and every task awaited before `_ask` returns.
        gc.disable()
        try:
            return _run_async(_ask(args))
        finally:
            gc.freeze()
            gc.enable()
    if args.command == "doctor":
        return _run_async(_doctor())
    if args.command == "mcp" and args.action in ("login", "logout"):
        from hermes_desktop.commands import mcp_auth

        return mcp_auth.run(args)
    if args.command == "mcp" and args.action == "import":
        from hermes_desktop.commands import mcp_import

        return mcp_import.run_import(args)
    if args.command == "mcp":
        return _run_async(_mcp_list()) if args.action == "list" else _mcp_set_secret(args)
    if args.command == "skills":
        from hermes_desktop.commands import skills as skills_command

        return skills_command.run(args)
    if args.command == "memory":
        from hermes_desktop.commands import memory as memory_command

        return memory_command.run(args)
    if args.command == "knowledge":
        from hermes_desktop.commands import knowledge as knowledge_command

        return knowledge_command.run(args)
    if args.command in ("assistants", "prompts"):
        from hermes_desktop.commands import assistants as assistants_command

        return assistants_command.run(args)
    if args.command in ("sync", "backup"):
        from hermes_desktop.commands import sync as sync_command

        return sync_command.run(args)
    if args.command == "usage":
        from hermes_desktop.commands import usage as usage_command

        return usage_command.run(args)
    return _sessions(args)


def _use_language() -> None:
    """The command line speaks the app's language setting (core/i18n.py), --help and argparse's errors too."""
    from hermes_desktop.core.appearance import peek_appearance
    from hermes_desktop.core.i18n import translate_argparse, use_language
    from hermes_desktop.core.paths import app_paths

    use_language(peek_appearance(app_paths().settings_file)[0])
    translate_argparse()


def _setup_logging() -> None:
    from hermes_desktop.core.logging_setup import setup_logging
    from hermes_desktop.core.paths import app_paths

    setup_logging(app_paths().app_log)


def _run_async(coroutine: Any) -> int:
    try:
        return asyncio.run(coroutine)
    except KeyboardInterrupt:
        print("\n" + _("interrupted"), file=sys.stderr)
        return EXIT_INTERRUPTED


# ---------------------------------------------------------------- ask

class TerminalApprover:
    """Asks on the terminal; anything but an explicit yes is a denial."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream = stream

    async def ask(self, request: Any) -> Any:
        from hermes_desktop.core.terminal_text import visible_controls as shown
        from hermes_desktop.core.tools.approval import Decision

        # Names, paths and arguments come from the model: their control characters are shown as escapes,
        # never obeyed (a `\r\x1b[2K` in a path would otherwise erase the "will delete …" line).
        out = self.stream
        out.write("\n" + _("Hermes wants to run {tool} ({risk}, {source})").format(
            tool=shown(request.tool_name), risk=_risk_word(request.risk.value), source=shown(request.source)) + "\n")
        if request.impact:
            out.write(f"  {shown(request.impact)}\n")
        before = request.asked_before
        if before is not None:  # the disk changed after it was allowed (core/tool_calls.py)
            out.write("  " + _("asked again: this changed on disk after it was allowed; before, it was: {0}").format(
                shown(before.impact or _("no impact measured"))) + "\n")
        arguments = json.dumps(request.arguments, ensure_ascii=False, indent=2)
        out.write("  " + _("arguments: ") + shown(arguments, keep_newlines=True).replace("\n", "\n  ") + "\n")
        out.write(_("Allow? [y] once, [s] for this session, [a] always, [N] no: "))
        out.flush()
        from hermes_desktop.commands.terminal_input import terminal_lines

        answer = (await terminal_lines().readline()).strip().lower()  # shared with MCP questions
        return {"y": Decision.ALLOW_ONCE, "yes": Decision.ALLOW_ONCE, "s": Decision.ALLOW_SESSION,
                "a": Decision.ALLOW_ALWAYS}.get(answer, Decision.DENY)


async def _side_title(runtime: Any, session_id: str) -> str | None:
    """The title of a new session, asked of its side-task model (core/assistants/service.py side_client)."""
    from hermes_desktop.core.titles import title_from_first_message

    return await title_from_first_message(runtime.store, await runtime.side_client(session_id), session_id)


async def _ask(args: argparse.Namespace) -> int:
    from hermes_desktop.core.llm import tls

    tls.prefetch()  # the CA bundle is read on another core while openai is imported (core/llm/tls.py)
    from hermes_desktop.core import events as ev
    from hermes_desktop.core.runtime import open_runtime
    from hermes_desktop.core.session_types import InvalidSessionId, validate_session_id
    from hermes_desktop.core.storage.errors import StorageError
    from hermes_desktop.core.terminal_text import TerminalTextFilter, strip_controls, terminal_safe_json
    from hermes_desktop.commands.ask_layout import AskLayout
    from hermes_desktop.core.titles import finish_title

    if not args.text.strip() and not args.attach:  # nothing to ask: never stored, never sent
        print(_("error: the message is empty (only spaces or newlines); nothing was sent"), file=sys.stderr)
        return EXIT_USAGE
    env = dict(os.environ)
    if args.workspace:
        env["HERMES_WORKSPACE"] = str(args.workspace)
    refusal = None if args.allow_broad_workspace else _broad_workspace_refusal(env)
    if refusal:
        print(_("error: {0}").format(refusal), file=sys.stderr)
        return EXIT_USAGE
    if args.session:
        try:
            validate_session_id(args.session)
        except InvalidSessionId as exc:
            print(_("error: {0}").format(exc), file=sys.stderr)
            return EXIT_USAGE
    try:
        attachments = await _read_attachments(args.attach, quiet=args.json)
    except ValueError as exc:  # a file that cannot be attached: nothing is stored or sent
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_USAGE
    try:
        from hermes_desktop.core.secrets import LazySecretStore

        runtime = open_runtime(env, secrets=LazySecretStore())  # the keyring is detected only if a key is read
    except StorageError as exc:  # the history cannot be opened at all: one line, never a traceback
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_FAILED
    unsaveable = getattr(runtime.store, "read_only_reason", None)
    if unsaveable:  # full disk, read-only media, newer schema...: the message could not be kept, so it is not sent
        print(_("error: {0}").format(unsaveable), file=sys.stderr)
        runtime.store.close()
        return EXIT_FAILED
    too_much = _attachments_refusal(attachments, runtime.profile)
    if too_much:  # more than the model's context window leaves room for: nothing is stored or sent
        print(_("error: {0}").format(too_much), file=sys.stderr)
        runtime.store.close()
        return EXIT_USAGE
    pick = None
    if args.model:
        from hermes_desktop.core.session_models import UnknownModelChoice, pick_from_spec

        try:
            pick = pick_from_spec(runtime.settings.profiles, args.model)
        except UnknownModelChoice as exc:  # before anything is stored, sent or started
            print(_("error: {0}").format(exc), file=sys.stderr)
            runtime.store.close()
            return EXIT_USAGE
    session_id = args.session or _new_session_id()
    if args.knowledge:  # the session uses these bases from now on (stored in the knowledge registry)
        problem = _use_knowledge(runtime, session_id, args.knowledge)
        if problem:
            print(_("error: {0}").format(problem), file=sys.stderr)
            runtime.store.close()
            return EXIT_USAGE
    if args.assistant:  # the session's assistant from this message on (core/assistants)
        from hermes_desktop.commands.assistants import apply_to_session

        wrong = await asyncio.to_thread(apply_to_session, runtime, session_id, args.assistant)
        if wrong:
            print(_("error: {0}").format(strip_controls(wrong)), file=sys.stderr)
            runtime.store.close()
            return EXIT_USAGE
    for problem in runtime.problems:
        print(_("note: {0}").format(problem), file=sys.stderr)
    approver = TerminalApprover() if sys.stdin.isatty() else None
    from hermes_desktop.commands.mcp_terminal import install_terminal_askers

    install_terminal_askers(runtime)  # MCP elicitation/sampling on the terminal; without one: declined / refused
    from hermes_desktop.commands.mcp_import import install_input_asker

    install_input_asker(runtime)  # mcp.json ${input:…} asked once on a terminal; never without one
    await _start_mcp(runtime, quiet=args.json)
    agent = runtime.make_agent(approver)
    import gc

    gc.freeze()  # what start-up made lives until the command exits: out of the collector's passes (see main)
    gc.enable()
    from hermes_desktop.commands import memory as memory_command

    print_remembered = memory_command.print_remembered(runtime, quiet=args.json)  # "[remembered: …]" on stderr
    if pick is not None:  # --model: kept with the session, as a choice in the model picker is
        from hermes_desktop.core.session_models import write_pick

        await asyncio.to_thread(write_pick, runtime.store, session_id, pick)
    turn = agent.start_turn(session_id, args.text, attachments)
    code = EXIT_OK
    wrote_text = False
    saved = False  # the user message was stored (TurnStarted); when it was not, the error line is all
    reply_text = TerminalTextFilter()  # the reply is model text: no escape sequence reaches the terminal
    layout = AskLayout()  # text around tool calls apart; stderr lines never glued to the reply's line
    thinking = _ThinkingPrinter() if args.show_thinking and not args.json else None
    titling: asyncio.Task[str | None] | None = None  # the title, asked while the reply streams (core/titles.py)
    reply_begun = (ev.TextDelta, ev.ReasoningDelta, ev.ToolCallProposed)
    try:
        async for event in turn:
            if titling is None and saved and isinstance(event, reply_begun):  # the server took the reply first
                titling = asyncio.ensure_future(_side_title(runtime, session_id))
            if args.json:
                print(terminal_safe_json(ev.event_to_json(event)), flush=True)
            elif isinstance(event, ev.ReasoningDelta):
                if thinking is not None:
                    thinking.feed(event.text)
            elif isinstance(event, ev.TextDelta):
                if thinking is not None:
                    thinking.end()
                sys.stdout.write(layout.text(reply_text.feed(event.text)))
                sys.stdout.flush()
                wrote_text = True
            elif isinstance(event, (ev.Notice, ev.RetryScheduled, ev.SummarisingStarted, ev.ToolCallFinished,
                                    ev.TurnError)):
                if thinking is not None:
                    thinking.end()  # a note after thinking starts on its own line
                print(layout.stderr_prefix() + _stderr_line(event), file=sys.stderr)
            elif isinstance(event, ev.ToolCallProposed):
                layout.tool_call()
            saved = saved or isinstance(event, ev.TurnStarted)
            if isinstance(event, ev.TurnFinished):
                if event.reason is ev.FinishReason.ERROR:
                    code = EXIT_FAILED
                elif event.reason in (ev.FinishReason.MAX_ROUND_TRIPS, ev.FinishReason.REPEATED_CALL,
                                      ev.FinishReason.REPEATED_FAILURE, ev.FinishReason.OUTPUT_LIMIT):
                    print(f"\n{strip_controls(event.message)}", file=sys.stderr)
                    code = EXIT_GUARD
                elif event.reason is ev.FinishReason.CANCELLED:
                    code = EXIT_INTERRUPTED
        if code == EXIT_OK:
            if titling is None:  # a turn with no text, thinking or tool call: asked now
                titling = asyncio.ensure_future(_side_title(runtime, session_id))
            try:
                await finish_title(runtime.store, session_id, titling)  # at most 20 s more, as it was after the reply
            except Exception:  # e.g. the store failed: the reply is kept, the first-line title stays
                logging.getLogger(__name__).exception("the session title could not be made")
    except asyncio.CancelledError:
        turn.cancel()
        await turn.wait()
        raise
    finally:
        if titling is not None:  # the turn failed or was stopped: no title is stored
            titling.cancel()
            await asyncio.gather(titling, return_exceptions=True)  # its outcome collected, whatever it was
        await memory_command.finish(runtime)  # the turn's memories are written before the command exits
        await agent.stop_background()  # a summary refresh would outlive the command
        if agent.model is not None:
            await agent.model.aclose()
        if runtime.session_models is not None:
            await runtime.session_models.aclose()  # the client of a model picked for the session
        await runtime.mcp.stop_all()
        runtime.drain_usage()  # the usage rows of this command's requests
        runtime.store.close()  # everything that writes to it has been awaited above
    if thinking is not None:
        thinking.end()
    if wrote_text and not args.json:
        sys.stdout.write(reply_text.flush() + "\n")
        sys.stdout.flush()
    print_remembered()
    if not args.json and saved:
        print(_("[session {0}]").format(session_id), file=sys.stderr)
    return code


def _stderr_line(event: object) -> str:
    """One `ask` note on stderr: a notice or retry, the summary starting, a tool's outcome, an error."""
    from hermes_desktop.core import events as ev
    from hermes_desktop.core.terminal_text import strip_controls

    if isinstance(event, ev.SummarisingStarted):
        return _("[summarising {0:,} earlier messages…]").format(event.messages)
    if isinstance(event, ev.ToolCallFinished):
        how = _("interrupted, not run") if event.outcome is ev.ToolOutcome.INTERRUPTED else \
            _("{outcome}, {seconds:.2f} s").format(outcome=_outcome_word(event.outcome.value), seconds=event.duration_s)
        return _("[tool {tool}: {how}]").format(tool=strip_controls(event.name), how=how)
    if isinstance(event, ev.TurnError):  # worded from its code in the user's language (core/error_words.py)
        from hermes_desktop.core.error_words import error_text

        return _("error: {0}").format(strip_controls(error_text(event.code, event.params, event.message)))
    return f"[{strip_controls(getattr(event, 'message', ''))}]"


class _ThinkingPrinter:
    """`ask --show-thinking`: the model's thinking on stderr, dimmed when stderr is a terminal, so stdout stays
    the reply alone. Model text: it goes through the terminal filter like the reply (no escape sequences)."""

    def __init__(self) -> None:
        from hermes_desktop.core.terminal_text import TerminalTextFilter  # light imports stay lazy in this module

        self._filter = TerminalTextFilter()
        self._dim = sys.stderr.isatty()
        self._open = False

    def feed(self, text: str) -> None:
        shown = self._filter.feed(text)
        if not shown:
            return
        if not self._open:
            sys.stderr.write("\033[2m" if self._dim else "")
            self._open = True
        sys.stderr.write(shown)
        sys.stderr.flush()

    def end(self) -> None:
        if self._open:
            sys.stderr.write(self._filter.flush() + ("\033[0m" if self._dim else "") + "\n")
            sys.stderr.flush()
            self._open = False


async def _read_attachments(paths: list[Path], *, quiet: bool) -> list[Any]:
    """Each `--attach` file read and prepared off the event loop (images downscaled with QImage, which needs no
    display). ValueError with one line when one cannot be attached; a partial one is said on stderr."""
    if not paths:
        return []
    from hermes_desktop.core.attachments import AttachmentError, count_refusal, message_budget_refusal, prepare_attachment
    from hermes_desktop.core.pdf_extract import cancel_all
    from hermes_desktop.core.terminal_text import safe_name
    from hermes_desktop.imaging import process_image

    too_many = count_refusal(len(paths))
    if too_many:  # refused before a single file is read
        raise ValueError(too_many)
    prepared = []
    notes = []
    for path in paths:
        try:
            attachment = await asyncio.to_thread(prepare_attachment, path, process_image=process_image)
        except AttachmentError as exc:  # the line names the file: no escape sequence or bidi control reaches the terminal
            raise ValueError(_("cannot attach {0}").format(safe_name(str(exc)))) from None
        except asyncio.CancelledError:  # Ctrl-C: a PDF still being read in its own process is killed, so we can exit
            cancel_all()
            raise
        if attachment.link_target is not None and not quiet:  # a link says where it points (issue 21)
            notes.append(_("note: {name} is a link to {target}").format(name=safe_name(attachment.name),
                                                                          target=safe_name(str(attachment.link_target))))
        if attachment.note and not quiet:
            hint = (" " + _("To let the agent read all of it, copy it into the workspace and ask it to read the file in pages.")
                    if attachment.truncated and "workspace" not in attachment.note else "")  # said once
            notes.append(_("note: {name}: {note}").format(name=safe_name(attachment.name), note=attachment.note) + hint)
        prepared.append(attachment)
    too_much = message_budget_refusal(prepared)  # before anything is stored or sent: then the one line is all
    if too_much:
        raise ValueError(too_much)
    for note in notes:
        print(note, file=sys.stderr)
    return prepared


def _use_knowledge(runtime: Any, session_id: str, names: list[str]) -> str | None:
    """`ask --knowledge NAME`: the session uses these bases (with those it used already); the reason when not."""
    from hermes_desktop.core.knowledge.registry import KnowledgeError
    from hermes_desktop.core.terminal_text import safe_name

    if runtime.knowledge is None:
        return _("knowledge bases are not available")
    registry = runtime.knowledge.registry
    try:
        registry.set_session_bases(session_id, registry.session_bases(session_id) + list(names))
    except KnowledgeError as exc:
        return safe_name(str(exc))
    return None


def _attachments_refusal(attachments: list[Any], profile: Any) -> str | None:
    """The total limit again, now that the profile (and so its context window) is known."""
    if not attachments:
        return None
    from hermes_desktop.core.attachments import message_budget_refusal

    return message_budget_refusal(attachments, context_window=getattr(profile, "context_window", None))


def _broad_workspace_refusal(env: dict[str, str]) -> str | None:
    """Why the workspace from --workspace / HERMES_WORKSPACE, or else the saved one, is too broad to use, or None.

    A saved workspace is checked too: settings.json may have been written by hand or by a version that never
    asked, and the window also asks again for a saved broad one at every start."""
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.settings import SettingsStore
    from hermes_desktop.core.tools.workspace import broad_workspace_reason

    chosen, where = env.get("HERMES_WORKSPACE", "").strip(), ""
    if not chosen:
        chosen, where = (SettingsStore(app_paths()).load().settings.workspace or "").strip(), _(" (from the settings)")
    reason = broad_workspace_reason(Path(chosen).expanduser()) if chosen else None
    if reason is None:
        return None
    return _("refusing the workspace {folder}{where}: {reason}. Pass --allow-broad-workspace to use it anyway.").format(
        folder=chosen, where=where, reason=reason)


def _risk_word(risk: str) -> str:
    return {"read": _("read"), "write": _("write"), "destructive": _("destructive")}.get(risk, risk)


def _outcome_word(outcome: str) -> str:
    return {"ok": _("ok"), "error": _("error"), "denied": _("denied"), "timeout": _("timed out"),
            "cancelled": _("cancelled"), "interrupted": _("interrupted"), "invalid": _("invalid"),
            "skipped": _("skipped"), "dry_run": _("dry run")}.get(outcome, outcome)


def _mcp_state_word(state: str) -> str:
    return {"connected": _("connected"), "disabled": _("disabled"), "starting": _("starting"), "failed": _("failed"),
            "restarting": _("restarting"), "stopped": _("stopped"),
            "needs sign-in": _("needs sign-in")}.get(state, state)


def _keyring_name(backend: str) -> str:
    """The keyring in words (core/secrets.py backend_kind), with the Python class after it: doctor is also read by
    whoever helps the user."""
    from hermes_desktop.core.secrets import backend_kind

    name = {"secret_service": _("Secret Service: GNOME Keyring or KeePassXC"), "kwallet": _("KDE Wallet"),
            "macos": _("macOS Keychain"), "windows": _("Windows Credential Manager"),
            "none": _("no keyring")}.get(backend_kind(backend))
    return f"{name} ({backend})" if name else backend


def _keyring_reason(code: str, reason: str) -> str:
    return {"no_keyring": _("no system keyring is available"),
            "insecure_backend": _("this backend does not store secrets securely"),
            "low_priority": _("the keyring backend cannot be used here")}.get(code, reason)


def _pad(text: str, width: int) -> str:
    """`text` padded to `width` terminal columns (a Chinese character takes two)."""
    import unicodedata

    used = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - used)


def _new_session_id() -> str:
    import uuid

    return uuid.uuid4().hex


# ---------------------------------------------------------------- doctor

async def _doctor() -> int:
    import platform
    import sqlite3
    import time

    from hermes_desktop.core.llm import ModelClient, ModelError
    from hermes_desktop.core.runtime import open_runtime

    ok = True
    runtime = open_runtime()
    from hermes_desktop.core.redact import redact_urls

    def out(line: str) -> None:  # a URL's password and ?key= values never reach the report (issue 21)
        print(redact_urls(line))

    out(f"Hermes Desktop {__version__} · Python {platform.python_version()} · {platform.system()} {platform.release()}")
    out("\n" + _("Paths"))
    for label, path in ((_("data"), runtime.paths.data_dir), (_("config"), runtime.paths.config_dir),
                        (_("logs"), runtime.paths.log_dir), (_("database"), runtime.paths.database),
                        (_("workspace"), runtime.workspace.root)):
        state = _("ok") if path.exists() and os.access(path, os.W_OK) else _("missing or not writable")
        out(f"  {_pad(label, 10)} {path}  [{state}]")
    out("\n" + _("Session database"))
    store = runtime.store
    fts = getattr(store, "search_available", False)
    out("  " + _("SQLite {version}; full-text search (FTS5): {answer}").format(
        version=sqlite3.sqlite_version, answer=_("yes") if fts else _("NO - using slower LIKE search")))
    if hasattr(store, "count_sessions"):
        out("  " + _("{0} sessions ({1} in the trash)").format(store.count_sessions(), store.count_sessions(trash=True)))
    for problem in runtime.problems:
        out("  " + _("note: {0}").format(problem))
    out("\n" + _("Keyring"))
    report = runtime.secrets_report
    if report.secure:
        out("  " + _("{0}: ok").format(_keyring_name(report.name)))
    else:
        out("  " + _("{name}: NOT SECURE ({reason}).").format(name=_keyring_name(report.name),
                                                           reason=_keyring_reason(report.code, report.reason)))
        out("  " + _("API keys are kept in memory for this run only; set HERMES_API_KEY to supply one on every start."))
    out("\n" + _("Provider"))
    env_overrides = [name for name in ("HERMES_BASE_URL", "HERMES_MODEL", "HERMES_API_KEY", "HERMES_WORKSPACE")
                     if os.environ.get(name)]
    if env_overrides:
        out("  " + _("environment overrides in effect: {0}").format(", ".join(env_overrides)))
    profile = runtime.profile
    if profile is None:
        out("  " + _("no provider configured: open the app to set one up, or set HERMES_BASE_URL and HERMES_MODEL"))
        ok = False
    else:
        out("  " + _("{name}: {url}  model {model}  tool calling {mode}").format(
            name=profile.name, url=profile.base_url, model=profile.model, mode=profile.tool_mode.value))
        from hermes_desktop.commands.provider_key import key_status

        out(f"  {await asyncio.to_thread(key_status, runtime)}")  # where the key comes from, never the key
        from hermes_desktop.commands.provider_key import learned_status

        for line in learned_status(profile):
            out(f"  {line}")
        client = ModelClient(profile, runtime.api_key())
        started = time.monotonic()
        try:
            models = await asyncio.wait_for(client.list_models(), timeout=15)
            latency = (time.monotonic() - started) * 1000
            listed = _("listed") if profile.model in models else _("NOT in the server's list")
            out("  " + _("reachable in {ms:.0f} ms; {count} models; {model} {listed}").format(
                ms=latency, count=len(models), model=profile.model, listed=listed))
        except ModelError as exc:
            out("  " + _("NOT reachable: {0}").format(exc.message))
            ok = False
        except asyncio.TimeoutError:
            out("  " + _("NOT reachable: no answer within 15 s"))
            ok = False
        finally:
            await client.aclose()
    _report_skills(runtime, out)
    from hermes_desktop.commands import memory as memory_command

    memory_command.report(runtime, out)
    from hermes_desktop.commands import knowledge as knowledge_command

    ok = knowledge_command.report(out) and ok
    ok = await _report_mcp(runtime, out) and ok
    return EXIT_OK if ok else EXIT_FAILED


async def _start_mcp(runtime: Any, *, quiet: bool) -> None:
    """Start the configured MCP servers and wait (briefly) until each is connected or has failed."""
    await runtime.mcp.reload()
    try:
        await runtime.mcp.wait_until_settled(MCP_START_WAIT_S)
    except asyncio.CancelledError:  # Ctrl+C while they start: stop them here, not by asyncio.run cancelling tasks
        await runtime.mcp.stop_all()
        raise
    if quiet:
        return
    from hermes_desktop.core.mcp.detail_words import detail_text  # the detail in the user's language
    from hermes_desktop.core.terminal_text import strip_controls

    for problem in runtime.mcp.problems:
        print(_("note: {0}").format(strip_controls(str(problem))), file=sys.stderr)
    for status in runtime.mcp.statuses():
        if status.state.value not in ("connected", "disabled"):
            print(_("note: MCP server {name} is {state}: {detail}").format(
                name=status.name, state=_mcp_state_word(status.state.value), detail=strip_controls(detail_text(status))),
                file=sys.stderr)


async def _report_mcp(runtime: Any, out: Callable[[str], None]) -> bool:
    """Start every server in mcp.json, print its state and tools, stop it. False when one failed."""
    from hermes_desktop.core.mcp.detail_words import detail_text  # the detail in the user's language
    from hermes_desktop.core.terminal_text import strip_controls, visible_controls

    out("\n" + _("MCP servers"))
    config = runtime.paths.mcp_config_file
    out("  " + (_("config {config}; logs in {logs}") if config.exists() else _("config {config} (none yet); logs in {logs}"))
        .format(config=config, logs=runtime.paths.mcp_log_dir))
    await runtime.mcp.reload()
    await runtime.mcp.wait_until_settled(MCP_START_WAIT_S)
    ok = not runtime.mcp.problems
    for problem in runtime.mcp.problems:
        out("  " + _("PROBLEM {0}").format(problem))
    for status in runtime.mcp.statuses():
        out(f"  {status.name} ({status.transport}: {status.target}): {_mcp_state_word(status.state.value)}"
            + (f" — {strip_controls(detail_text(status))}" if status.detail else ""))  # a server's words: no escapes
        if status.tools:
            out("    " + _("tools: {0}").format(", ".join(status.tools)))
            out("    " + _("their schemas add about {0:,} tokens to every request").format(status.schema_tokens))
        if status.skipped_tools:  # the server's names: shown with their controls as escapes
            out("    " + _("NOT offered, their names clash with another tool's after sanitising: {0}").format(", ".join(
                _("{remote} (as {name})").format(remote=visible_controls(remote), name=name)
                for remote, name in status.skipped_tools)))
        ok = ok and status.state.value in ("connected", "disabled")
    await runtime.mcp.stop_all()
    return ok


async def _mcp_list() -> int:
    from hermes_desktop.core.runtime import open_runtime

    runtime = open_runtime()
    from hermes_desktop.commands.mcp_import import install_input_asker

    install_input_asker(runtime)  # mcp.json ${input:…} asked once on a terminal; never without one
    try:
        return EXIT_OK if await _report_mcp(runtime, print) else EXIT_FAILED
    finally:
        runtime.store.close()


def _mcp_set_secret(args: argparse.Namespace) -> int:
    import getpass

    from hermes_desktop.core.mcp.config import secret_username
    from hermes_desktop.core.secrets import SecretStoreError, open_secret_store

    value = getpass.getpass(_("{name} for MCP server {server}: ").format(name=args.name, server=args.server)) if sys.stdin.isatty() \
        else sys.stdin.readline().strip()
    if not value:
        print(_("error: an empty value was not stored"), file=sys.stderr)
        return EXIT_USAGE
    store, report = open_secret_store()
    if not store.is_persistent:
        print(_("error: no secure keyring ({0}); the secret was not stored").format(report.reason), file=sys.stderr)
        return EXIT_FAILED
    try:
        store.set(secret_username(args.server, args.name), value)
    except SecretStoreError as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_FAILED
    print(_("stored {0} in the keyring").format(secret_username(args.server, args.name)))
    return EXIT_OK


def _report_skills(runtime: Any, out: Callable[[str], None]) -> None:
    """Every skill with its origin, problems and requirements, every skipped folder with the reason, and how many
    skills the catalog lists and how many are searchable (hermes_desktop/commands/skills.py)."""
    from hermes_desktop.commands import skills as skills_command

    skills_command.report(runtime, out)


# ---------------------------------------------------------------- sessions

def _sessions(args: argparse.Namespace) -> int:
    from datetime import datetime

    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.secrets import open_secret_store
    from hermes_desktop.core.storage import transfer
    from hermes_desktop.core.storage.errors import StorageError
    from hermes_desktop.core.store import open_store
    from hermes_desktop.core.terminal_text import strip_controls, terminal_safe_json, visible_controls

    opened = open_store(app_paths())
    store = opened.store
    for message in opened.messages:
        print(_("note: {0}").format(message), file=sys.stderr)
    try:
        if args.action == "list":
            sessions = store.list_sessions(limit=10_000, trash=args.trash)
            if args.json:
                print(terminal_safe_json([{"id": s.id, "title": s.title, "updated_at": s.updated_at, "pinned": s.pinned,
                                           "model": s.model, "messages": store.message_count(s.id)} for s in sessions],
                                         indent=2))
                return EXIT_OK
            if not sessions:
                print(_("no sessions in the trash") if args.trash else _("no sessions"))
            for s in sessions:
                when = datetime.fromtimestamp(s.updated_at).strftime("%Y-%m-%d %H:%M")
                pin = "*" if s.pinned else " "
                # One line per session: escape sequences go (stored titles may predate the filter), a newline or bidi
                # control (an imported title) is shown as its escape, never obeyed.
                title = visible_controls(strip_controls(s.title)) or _("(untitled)")
                print(f"{pin} {s.id:<34} {when}  " + _("{0:>5} msgs").format(store.message_count(s.id)) + f"  {title}")
            return EXIT_OK
        if args.action == "export":
            secrets = _known_secrets(open_secret_store()[0])
            if args.format in ("docx", "obsidian") or args.output is not None:
                from hermes_desktop.commands import session_export

                if args.format in ("md", "json"):
                    text = transfer.export_markdown(store, args.id, known_secrets=secrets, language=active_language()) \
                        if args.format == "md" else transfer.export_json(store, args.id, known_secrets=secrets) + "\n"
                    try:
                        session_export.write_file_atomic(args.output, text.encode("utf-8"))
                    except OSError as exc:
                        print(_("error: cannot write {path}: {reason}").format(path=args.output, reason=exc.strerror or exc), file=sys.stderr)
                        return EXIT_FAILED
                    print(args.output)
                    return EXIT_OK
                return session_export.run(store, args, secrets, app_paths().settings_file)
            # Markdown's headings in the language the command line speaks (the setting, or the locale: core/i18n.py)
            exported = transfer.export_markdown(store, args.id, known_secrets=secrets, language=active_language()) \
                if args.format == "md" else transfer.export_json(store, args.id, known_secrets=secrets)
            if args.format == "md" and sys.stdout.isatty():
                exported = strip_controls(exported)  # a terminal obeys escapes in a message; a file keeps them as written
            sys.stdout.write(exported)
            if args.format == "json":
                sys.stdout.write("\n")
            return EXIT_OK
        if args.action == "import":
            return _import_session(store, args.file)
    except StorageError as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_FAILED
    finally:
        store.close()
    return EXIT_USAGE


def _import_session(store: Any, file: Path) -> int:
    """Stream `file` into the store; a refused file is one line naming the place and the reason."""
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.settings import SettingsStore
    from hermes_desktop.core.storage import transfer
    from hermes_desktop.core.terminal_text import strip_controls

    from hermes_desktop.imaging import process_image  # embedded images are checked and downscaled as attached ones

    limit = SettingsStore(app_paths()).load().settings.import_max_mb * 1_000_000
    try:
        result = transfer.import_path(store, file, max_bytes=limit, process_image=process_image)
    except transfer.ImportProblem as exc:
        print(_("error: {file} was not imported: {reason}").format(file=strip_controls(str(file)), reason=strip_controls(str(exc))),
              file=sys.stderr)
        return EXIT_FAILED
    renamed = _(" (id {0!r} was taken)").format(result.renamed_from) if result.renamed_from else ""
    notes = _("; {0} kept as notes that are shown but never sent to the model").format(result.notes) if result.notes else ""
    print(_("imported session {id} with {count} messages").format(id=result.session_id, count=result.messages)
          + renamed + notes)
    if result.model_choice_not_applied:
        print(_("note: the file chose the model {0} for this session; that was not applied: it uses your default model "
                "(pick another one in the window's model picker)").format(strip_controls(result.model_choice_not_applied)),
              file=sys.stderr)
    if result.assistant_not_applied:
        print(_("note: the file's assistant {0} is not on this computer; the session uses Hermes (choose an assistant "
                "for it in the window)").format(repr(strip_controls(result.assistant_not_applied))), file=sys.stderr)
    return EXIT_OK


def _known_secrets(secrets: Any) -> list[str]:
    """Keys of the configured profiles, so an export can scrub them even if a user pasted one into a chat."""
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.secrets import SecretStoreError
    from hermes_desktop.core.settings import SettingsStore

    found = [os.environ.get("HERMES_API_KEY", "")]
    for profile in SettingsStore(app_paths()).load().settings.profiles:
        try:
            found.append(secrets.get(profile.keyring_username) or "")
        except SecretStoreError:
            pass
    return [s for s in found if s]

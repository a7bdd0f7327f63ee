"""`hermes-desktop knowledge create | list | sync | search | remove`: knowledge bases from the terminal.

- `create NAME PATH... [--embedding-model MODEL] [--embedding-url URL]` defines a base over folders and files (it is
  empty until synced). Without `--embedding-url` the vectors come from the active provider's endpoint.
- `list [--json]`: each base with its folders, documents, chunks, vectors, problems, last sync; `--json` also lists
  each file that could not be read (`problems`: document, code, reason).
- `sync NAME`: incremental (only new and changed files are read); progress on stderr (files done of total, the
  current file); the per-file problems at the end. Ctrl-C stops between files (what was indexed is kept).
- `search NAME QUERY [--top K] [--json]`: each hit has document, page, heading, text, score.
- `remove NAME`: deletes the base's file (the folders are untouched).
Names and text from documents are printed without escape sequences or bidi overrides (terminal_text.safe_name).
Exit codes as in cli.py: 0 done, 1 failed, 2 bad usage (unknown base, bad path), 130 interrupted.
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def add_parser(commands: Any) -> None:
    knowledge = commands.add_parser("knowledge", help=_("knowledge bases: your documents, indexed on this machine"))
    actions = knowledge.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = actions.add_parser("create", help=_("define a knowledge base over folders and files"))
    create.add_argument("name")
    create.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    create.add_argument("--embedding-model", default="", metavar="MODEL",
                        help=_("also search by meaning with vectors from this embedding model"))
    create.add_argument("--embedding-url", default="", metavar="URL",
                        help=_("an OpenAI-compatible endpoint for the vectors (default: the active provider's)"))
    listing = actions.add_parser("list", help=_("every knowledge base and its state"))
    listing.add_argument("--json", action="store_true")
    sync = actions.add_parser("sync", help=_("index new and changed files (progress on stderr)"))
    sync.add_argument("name")
    search = actions.add_parser("search", help=_("search a knowledge base"))
    search.add_argument("name")
    search.add_argument("query")
    search.add_argument("--top", type=int, default=5, metavar="K")
    search.add_argument("--json", action="store_true")
    remove = actions.add_parser("remove", help=_("delete a knowledge base (its folders are untouched)"))
    remove.add_argument("name")


def _date(value: float | None) -> str:
    return _("never") if not value else f"{datetime.fromtimestamp(value):%Y-%m-%d %H:%M}"


def _registry():  # type: ignore[no-untyped-def]
    from hermes_desktop.core.knowledge.registry import KnowledgeRegistry
    from hermes_desktop.core.paths import app_paths

    return KnowledgeRegistry(app_paths().knowledge_dir)


def endpoint_for_cli() -> Callable[[str, str], Any]:
    """The embeddings endpoint as the app would use it (the active profile's, or the base's own URL)."""
    def endpoint(model: str, url: str) -> Any:
        from hermes_desktop.core.knowledge.embeddings import Endpoint

        if url:
            return Endpoint(url, None, model)
        from hermes_desktop.core.runtime import open_runtime
        from hermes_desktop.core.secrets import LazySecretStore

        runtime = open_runtime(secrets=LazySecretStore())
        try:
            return runtime.embedding_endpoint(model, url)
        finally:
            runtime.store.close()

    cache: dict[tuple[str, str], Any] = {}
    return lambda model, url: cache.setdefault((model, url), endpoint(model, url))


def run(args: argparse.Namespace) -> int:
    from hermes_desktop.core.knowledge.index import IndexError_
    from hermes_desktop.core.knowledge.registry import KnowledgeError
    from hermes_desktop.core.knowledge.sync import SyncBusy

    try:
        return _run(args)
    except (KnowledgeError, SyncBusy) as exc:
        print(_("error: {0}").format(_shown(_knowledge_error(exc))), file=sys.stderr)
        return EXIT_USAGE if isinstance(exc, KnowledgeError) else EXIT_FAILED
    except IndexError_ as exc:
        print(_("error: {0}").format(_shown(str(exc))), file=sys.stderr)
        return EXIT_FAILED


def _knowledge_error(exc: Exception) -> str:
    """The registry's refusal in the user's language when it is one of the common ones; else its own words."""
    text = str(exc)
    from hermes_desktop.core.i18n import reworded

    found = reworded(text, ((r"there is no knowledge base called (.+)", _("there is no knowledge base called {0}")),
                            (r"a knowledge base called (.+) exists already",
                             _("a knowledge base called {0} exists already")),
                            (r"(.+): no such folder or file", _("{0}: no such folder or file"))))
    if found is not None:
        return found
    if text == "give at least one folder or file for the knowledge base":
        return _("give at least one folder or file for the knowledge base")
    if text == "a knowledge base needs a name":
        return _("a knowledge base needs a name")
    return text


def _summary(result: Any) -> str:
    """What a sync did (core/knowledge/sync.SyncResult.summary) in the user's language."""
    parts = [_("{0} new").format(result.added), _("{0} changed").format(result.updated),
             _("{0} removed").format(result.removed), _("{0} unchanged").format(result.unchanged)]
    if result.problems:
        parts.append(_("{0} could not be read").format(result.problems))
    if result.vectors:
        parts.append(_("{0} vectors").format(result.vectors))
    text = _(", ").join(parts)
    if not result.stopped:
        return text
    why = _("cancelled") if result.stopped == "cancelled" else result.stopped
    return _("stopped: {why} ({what})").format(why=why, what=text)


_SUMMARY = re.compile(r"(?:stopped: (?P<stopped>.*) \()?(?P<added>\d+) new, (?P<updated>\d+) changed, "
                      r"(?P<removed>\d+) removed, (?P<unchanged>\d+) unchanged(?:, (?P<problems>\d+) could not be "
                      r"read)?(?:, (?P<vectors>\d+) vectors)?(?(stopped)\))", re.S)


def _sync_summary(text: str) -> str:
    """A base's stored last result (the English summary its last sync wrote) in the user's language."""
    from types import SimpleNamespace

    if text == "never synced":
        return _("never synced")
    if text.startswith("cannot be read: "):
        return _("cannot be read: {0}").format(text.removeprefix("cannot be read: "))
    found = _SUMMARY.fullmatch(text)
    if found is None:
        return text
    counts = {k: int(v or 0) for k, v in found.groupdict().items() if k != "stopped"}
    return _summary(SimpleNamespace(**counts, stopped=found["stopped"] or ""))


def _shown(text: str) -> str:
    from hermes_desktop.core.terminal_text import safe_name

    return safe_name(text)


def _run(args: argparse.Namespace) -> int:
    from hermes_desktop.core.terminal_text import terminal_safe_json

    registry = _registry()
    if args.action == "create":
        info = registry.create(args.name, list(args.paths), embedding_model=args.embedding_model,
                               embedding_url=args.embedding_url)
        print(_("created knowledge base {name} over {paths}").format(name=_shown(info.name),
                                                                      paths=", ".join(map(_shown, info.paths))))
        print(_("run: {0}").format(f"hermes-desktop knowledge sync {_quote(info.name)}"), file=sys.stderr)
        return EXIT_OK
    if args.action == "list":
        bases = registry.list()
        if args.json:
            out = []
            for base in bases:
                item = base.to_json()
                item["problems_list"] = _problems(registry, base.name)
                out.append(item)
            print(terminal_safe_json(out, indent=2))
            return EXIT_OK
        if not bases:
            print(_("No knowledge bases yet. Make one: {0}").format("hermes-desktop knowledge create NAME FOLDER"))
        for base in bases:
            vectors = _(", {count} vectors ({model})").format(count=base.vectors, model=_shown(base.embedding_model)) \
                if base.embedding_model else ""
            print(_("{name}: {documents} documents, {chunks} chunks{vectors}, {problems} could not be read; "
                    "last sync {when}").format(name=_shown(base.name), documents=base.documents, chunks=base.chunks,
                                               vectors=vectors, problems=base.problems, when=_date(base.last_sync))
                  + (f" ({_shown(_sync_summary(base.last_result))})" if base.last_result else ""))
            for path in base.paths:
                print(f"    {_shown(path)}")
        return EXIT_OK
    if args.action == "sync":
        return _sync(registry, args.name)
    if args.action == "search":
        return _search(registry, args)
    if args.action == "remove":
        info = registry.remove(args.name)
        print(_("removed knowledge base {name} ({documents} documents); its folders are untouched").format(
            name=_shown(info.name), documents=info.documents))
        return EXIT_OK
    return EXIT_USAGE


def _quote(name: str) -> str:
    import shlex

    return shlex.quote(name)


def _problems(registry: Any, name: str) -> list[dict[str, Any]]:
    try:
        with registry.open(name) as index:
            return [{"document": d.path, "code": d.code, "reason": d.problem} for d in index.problems()]
    except Exception:
        return []


def _sync(registry: Any, name: str) -> int:
    from hermes_desktop.core.knowledge.index import IndexFull
    from hermes_desktop.core.knowledge.sync import SyncControl, SyncProgress, sync_base

    control = SyncControl()
    tty = sys.stderr.isatty()

    def progress(step: SyncProgress) -> None:
        left = _(", about {0:.0f} s left").format(step.remaining_s) if step.remaining_s else ""
        line = f"[{step.done}/{step.total}] {_shown(step.current)}{left}" if step.current else \
            f"[{step.done}/{step.total}] " + _("done")
        if tty:
            sys.stderr.write("\r\033[2K" + line[:200])
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    with registry.open(name) as index:
        try:
            result = sync_base(index, progress=progress, control=control, endpoint_for=endpoint_for_cli())
        except KeyboardInterrupt:
            print("\n" + _("interrupted: what was indexed is kept; sync again to go on"), file=sys.stderr)
            return EXIT_INTERRUPTED
        except IndexFull as exc:
            print("\n" + _("error: {0}").format(_shown(str(exc))), file=sys.stderr)
            return EXIT_FAILED
        if tty:
            sys.stderr.write("\n")
        for notice in result.notices:
            print(_("note: {0}").format(_shown(notice)), file=sys.stderr)
        for problem in index.problems():
            reason = (problem.problem or "").split(": ", 1)[-1]  # the reason names the file; the path says where
            print("  " + _("could not read {path}: {reason}").format(path=_shown(problem.path), reason=_shown(reason))
                  + f" [{problem.code}]", file=sys.stderr)
        info = index.info()
    print(_("{name}: {summary}; {documents} documents, {chunks} chunks").format(
        name=_shown(info.name), summary=_summary(result), documents=info.documents, chunks=info.chunks))
    return EXIT_OK


def _search(registry: Any, args: argparse.Namespace) -> int:
    from hermes_desktop.core.knowledge.search import search
    from hermes_desktop.core.terminal_text import terminal_safe_json

    if registry.find(args.name) is None:
        print(_("error: {0}").format(_("there is no knowledge base called {0}").format(_shown(args.name))),
              file=sys.stderr)
        return EXIT_USAGE
    if args.top < 1:
        print(_("error: {0}").format(_("{option} must be at least 1").format(option="--top")), file=sys.stderr)
        return EXIT_USAGE
    outcome = search(registry, [args.name], args.query, top_k=args.top, endpoint_for=endpoint_for_cli())
    if outcome.notice:
        print(_("note: {0}").format(_shown(outcome.notice)), file=sys.stderr)
    for problem in outcome.problems:
        print(_("error: {0}").format(_shown(problem)), file=sys.stderr)
    if args.json:
        print(terminal_safe_json([{k: v for k, v in hit.to_json().items() if k != "knowledge_base"}
                                  for hit in outcome.hits], indent=2))
        return EXIT_FAILED if outcome.problems else EXIT_OK
    if not outcome.hits:
        print(_("No passage matches."))
    for number, hit in enumerate(outcome.hits, start=1):
        where = _shown(hit.document) + (_(", page {0}").format(hit.page) if hit.page is not None else "")
        heading = f" — {_shown(' / '.join(hit.heading))}" if hit.heading else ""
        print(f"[{number}] {where}{heading}  " + _("(score {0:.3f})").format(hit.score))
        text = " ".join(hit.text.split())
        print("    " + _shown(text[:400] + ("…" if len(text) > 400 else "")))
    return EXIT_FAILED if outcome.problems else EXIT_OK


def report(out: Callable[[str], None]) -> bool:
    """`doctor`: each knowledge base's health (file integrity, files that could not be read, vectors). False when
    a base's file is damaged."""
    from hermes_desktop.core.knowledge.index import IndexError_

    registry = _registry()
    out("\n" + _("Knowledge bases"))
    out("  " + _("folder {0}").format(registry.root))
    ok = True
    bases = registry.list()
    if not bases:
        out("  " + _("none yet ({0})").format("hermes-desktop knowledge create NAME FOLDER"))
    for base in bases:
        try:
            with registry.open(base.name) as index:
                health = index.integrity()
        except Exception as exc:
            health = _("cannot be opened ({0})").format(exc)
            ok = False
        else:
            if health == "ok":
                health = _("ok")
            else:  # SQLite's own words about the damage
                ok = False
        missing = [p for p in base.paths if not Path(p).exists()]
        vectors = ""
        if base.embedding_model:
            vectors = _("; vectors {done}/{chunks} ({model})").format(done=base.vectors, chunks=base.chunks,
                                                                     model=_shown(base.embedding_model))
        out("  " + _("{name}: {health}; {documents} documents, {chunks} chunks, {problems} could not be read{vectors}; "
                     "last sync {when}").format(name=_shown(base.name), health=health, documents=base.documents,
                                                chunks=base.chunks, problems=base.problems, vectors=vectors,
                                                when=_date(base.last_sync)))
        for path in missing:
            out("    " + _("PROBLEM folder {0} is gone").format(_shown(path)))
    del IndexError_
    return ok

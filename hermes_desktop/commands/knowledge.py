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
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def add_parser(commands: Any) -> None:
    knowledge = commands.add_parser("knowledge", help="knowledge bases: your documents, indexed on this machine")
    actions = knowledge.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = actions.add_parser("create", help="define a knowledge base over folders and files")
    create.add_argument("name")
    create.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    create.add_argument("--embedding-model", default="", metavar="MODEL",
                        help="also search by meaning with vectors from this embedding model")
    create.add_argument("--embedding-url", default="", metavar="URL",
                        help="an OpenAI-compatible endpoint for the vectors (default: the active provider's)")
    listing = actions.add_parser("list", help="every knowledge base and its state")
    listing.add_argument("--json", action="store_true")
    sync = actions.add_parser("sync", help="index new and changed files (progress on stderr)")
    sync.add_argument("name")
    search = actions.add_parser("search", help="search a knowledge base")
    search.add_argument("name")
    search.add_argument("query")
    search.add_argument("--top", type=int, default=5, metavar="K")
    search.add_argument("--json", action="store_true")
    remove = actions.add_parser("remove", help="delete a knowledge base (its folders are untouched)")
    remove.add_argument("name")


def _date(value: float | None) -> str:
    return "never" if not value else f"{datetime.fromtimestamp(value):%Y-%m-%d %H:%M}"


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
        print(f"error: {_shown(str(exc))}", file=sys.stderr)
        return EXIT_USAGE if isinstance(exc, KnowledgeError) else EXIT_FAILED
    except IndexError_ as exc:
        print(f"error: {_shown(str(exc))}", file=sys.stderr)
        return EXIT_FAILED


def _shown(text: str) -> str:
    from hermes_desktop.core.terminal_text import safe_name

    return safe_name(text)


def _run(args: argparse.Namespace) -> int:
    from hermes_desktop.core.terminal_text import terminal_safe_json

    registry = _registry()
    if args.action == "create":
        info = registry.create(args.name, list(args.paths), embedding_model=args.embedding_model,
                               embedding_url=args.embedding_url)
        print(f"created knowledge base {_shown(info.name)} over {', '.join(map(_shown, info.paths))}")
        print(f"run: hermes-desktop knowledge sync {_quote(info.name)}", file=sys.stderr)
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
            print("No knowledge bases yet. Make one: hermes-desktop knowledge create NAME FOLDER")
        for base in bases:
            vectors = f", {base.vectors} vectors ({_shown(base.embedding_model)})" if base.embedding_model else ""
            print(f"{_shown(base.name)}: {base.documents} documents, {base.chunks} chunks{vectors}, "
                  f"{base.problems} could not be read; last sync {_date(base.last_sync)}"
                  + (f" ({_shown(base.last_result)})" if base.last_result else ""))
            for path in base.paths:
                print(f"    {_shown(path)}")
        return EXIT_OK
    if args.action == "sync":
        return _sync(registry, args.name)
    if args.action == "search":
        return _search(registry, args)
    if args.action == "remove":
        info = registry.remove(args.name)
        print(f"removed knowledge base {_shown(info.name)} ({info.documents} documents); its folders are untouched")
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
        left = f", about {step.remaining_s:.0f} s left" if step.remaining_s else ""
        line = f"[{step.done}/{step.total}] {_shown(step.current)}{left}" if step.current else \
            f"[{step.done}/{step.total}] done"
        if tty:
            sys.stderr.write("\r\033[2K" + line[:200])
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    with registry.open(name) as index:
        try:
            result = sync_base(index, progress=progress, control=control, endpoint_for=endpoint_for_cli())
        except KeyboardInterrupt:
            print("\ninterrupted: what was indexed is kept; sync again to go on", file=sys.stderr)
            return EXIT_INTERRUPTED
        except IndexFull as exc:
            print(f"\nerror: {_shown(str(exc))}", file=sys.stderr)
            return EXIT_FAILED
        if tty:
            sys.stderr.write("\n")
        for notice in result.notices:
            print(f"note: {_shown(notice)}", file=sys.stderr)
        for problem in index.problems():
            reason = (problem.problem or "").split(": ", 1)[-1]  # the reason names the file; the path says where
            print(f"  could not read {_shown(problem.path)}: {_shown(reason)} [{problem.code}]", file=sys.stderr)
        info = index.info()
    print(f"{_shown(info.name)}: {result.summary()}; {info.documents} documents, {info.chunks} chunks")
    return EXIT_OK


def _search(registry: Any, args: argparse.Namespace) -> int:
    from hermes_desktop.core.knowledge.search import search
    from hermes_desktop.core.terminal_text import terminal_safe_json

    if registry.find(args.name) is None:
        print(f"error: there is no knowledge base called {_shown(args.name)}", file=sys.stderr)
        return EXIT_USAGE
    if args.top < 1:
        print("error: --top must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    outcome = search(registry, [args.name], args.query, top_k=args.top, endpoint_for=endpoint_for_cli())
    if outcome.notice:
        print(f"note: {_shown(outcome.notice)}", file=sys.stderr)
    for problem in outcome.problems:
        print(f"error: {_shown(problem)}", file=sys.stderr)
    if args.json:
        print(terminal_safe_json([{k: v for k, v in hit.to_json().items() if k != "knowledge_base"}
                                  for hit in outcome.hits], indent=2))
        return EXIT_FAILED if outcome.problems else EXIT_OK
    if not outcome.hits:
        print("No passage matches.")
    for number, hit in enumerate(outcome.hits, start=1):
        where = _shown(hit.document) + (f", page {hit.page}" if hit.page is not None else "")
        heading = f" — {_shown(' / '.join(hit.heading))}" if hit.heading else ""
        print(f"[{number}] {where}{heading}  (score {hit.score:.3f})")
        text = " ".join(hit.text.split())
        print("    " + _shown(text[:400] + ("…" if len(text) > 400 else "")))
    return EXIT_FAILED if outcome.problems else EXIT_OK


def report(out: Callable[[str], None]) -> bool:
    """`doctor`: each knowledge base's health (file integrity, files that could not be read, vectors). False when
    a base's file is damaged."""
    from hermes_desktop.core.knowledge.index import IndexError_

    registry = _registry()
    out("\nKnowledge bases")
    out(f"  folder {registry.root}")
    ok = True
    bases = registry.list()
    if not bases:
        out("  none yet (hermes-desktop knowledge create NAME FOLDER)")
    for base in bases:
        try:
            with registry.open(base.name) as index:
                health = index.integrity()
        except Exception as exc:
            health = f"cannot be opened ({exc})"
        if health != "ok":
            ok = False
        missing = [p for p in base.paths if not Path(p).exists()]
        vectors = ""
        if base.embedding_model:
            vectors = f"; vectors {base.vectors}/{base.chunks} ({_shown(base.embedding_model)})"
        out(f"  {_shown(base.name)}: {health}; {base.documents} documents, {base.chunks} chunks, {base.problems} "
            f"could not be read{vectors}; last sync {_date(base.last_sync)}")
        for path in missing:
            out(f"    PROBLEM folder {_shown(path)} is gone")
    _ = IndexError_
    return ok

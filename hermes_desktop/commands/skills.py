"""`hermes-desktop skills list [--json] | show NAME | trust NAME [--yes] | untrust NAME | install PATH|ZIP [--force]`
(install, update and remove of git and URL sources: commands/skill_sources.py),
and the Skills section of `doctor`.

- `trust` shows what will be trusted (the skill's folder, its code files and the SHA-256 of each, and the hash of
  the whole folder that trust is tied to) and asks on the terminal; without a terminal it refuses unless `--yes`.
- `install` copies a skill folder or a .zip into the user's skills folder, then validates it with the same loader
  the app uses and reports what it found. It refuses: an existing skill folder of that name (unless `--force`), a
  zip entry that would land outside the target (absolute, `..`, a drive letter: "zip slip"), symlinks (in a zip or
  a folder), more than MAX_FILES files (or folders) or MAX_INSTALL_BYTES bytes (counted while copying, so a zip
  that lies about its sizes is still stopped), a damaged or password-protected zip, a FIFO or device, the skills
  folder itself, a skill whose name starts with '.', and a source that is no skill. The copy is made in a hidden temporary folder beside
  the target and renamed into place, so a failed install leaves nothing behind.
Exit codes as in cli.py: 0 done, 1 failed, 2 bad usage (unknown skill, refused input).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Callable

from hermes_desktop.core.skills.install_files import (  # noqa: F401 - InstallRefused, limits: used by callers
    MAX_FILES, MAX_INSTALL_BYTES, InstallRefused, copy_folder, extract_zip, skill_root,
)

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_parser(commands: Any) -> None:
    """The `skills` subcommand and its actions (called by cli.build_parser)."""
    skills = commands.add_parser("skills", help=_("installed skills: list, show, trust their code, install"))
    actions = skills.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help=_("every skill and every skipped folder with its reason"))
    listing.add_argument("--json", action="store_true")
    show = actions.add_parser("show", help=_("one skill: folder, requirements, resources, code and trust"))
    show.add_argument("name")
    trust = actions.add_parser("trust", help=_("let a skill's code (tools.py, scripts/) run; asks on the terminal"))
    trust.add_argument("name")
    trust.add_argument("--yes", action="store_true", help=_("trust without asking (needed without a terminal)"))
    untrust = actions.add_parser("untrust", help=_("withdraw trust: its code no longer runs"))
    untrust.add_argument("name")
    install = actions.add_parser("install", help=_("install a skill folder or .zip, a git repository or a zip URL"))
    install.add_argument("path", help=_("a folder, a .zip, a git URL (…/owner/repo[/tree/REF/DIR], URL#REF:DIR) or "
                                        "an https URL of a .zip"))
    install.add_argument("--force", action="store_true", help=_("replace an installed skill folder of the same name"))
    install.add_argument("--yes", action="store_true", help=_("install without asking (needed without a terminal)"))
    install.add_argument("--ref", default="", help=_("git: the branch, tag or commit to install"))
    install.add_argument("--subdir", default="", help=_("git: the folder inside the repository"))
    update = actions.add_parser("update", help=_("fetch an installed source again; shows what changed and asks"))
    update.add_argument("name")
    update.add_argument("--yes", action="store_true", help=_("update without asking (needed without a terminal)"))
    remove = actions.add_parser("remove", help=_("remove an installed skill (or installed collection) from your folder"))
    remove.add_argument("name")
    learn = actions.add_parser("learn", help=_("draft a skill from a session's turn that ended well; asks to save"))
    learn.add_argument("session")
    learn.add_argument("--turn", type=int, default=None, help=_("the Nth user message of the session (default: "
                                                                 "last turn that ended well)"))
    learn.add_argument("--yes", action="store_true", help=_("save without asking (needed without a terminal)"))


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except KeyboardInterrupt:  # Ctrl+C at the trust question (or during a long scan): nothing was trusted
        print("\n" + _("interrupted"), file=sys.stderr)
        return 130
    except OSError as exc:  # a skill file that cannot be read while hashing or listing: one line, not a traceback
        from hermes_desktop.core.terminal_text import strip_controls

        print(strip_controls(_("error: {0}").format(exc)), file=sys.stderr)
        return EXIT_FAILED


def _run(args: argparse.Namespace) -> int:
    from hermes_desktop.core.terminal_text import strip_controls

    if args.action == "learn":
        from hermes_desktop.commands.skill_learn import learn

        return learn(args.session, turn=args.turn, yes=args.yes)
    if args.action in ("install", "update", "remove"):
        from hermes_desktop.commands import skill_sources

        if args.action == "install":
            return skill_sources.install(args.path, yes=args.yes, ref=args.ref, subdir=args.subdir, force=args.force)
        if args.action == "update":
            return skill_sources.update(args.name, yes=args.yes)
        return skill_sources.remove(args.name)
    from hermes_desktop.core.runtime import open_runtime

    runtime = open_runtime()
    try:
        if args.action == "list":
            return list_skills(runtime, as_json=args.json)
        skill = runtime.skills.resolve(args.name)  # /Meeting-Notes finds meeting-notes in chat; so here
        if skill is None:
            close = runtime.skills.closest_names(args.name)
            print((_("error: no skill named {name!r}; did you mean {close}?") if close else
                   _("error: no skill named {name!r}")).format(name=strip_controls(args.name), close=", ".join(close)),
                  file=sys.stderr)
            return EXIT_USAGE
        if args.action == "show":
            return show(runtime, skill)
        if args.action == "trust":
            return trust(runtime, skill, yes=args.yes)
        if args.action == "untrust":
            return untrust(runtime, skill)
    finally:
        runtime.store.close()
    return EXIT_USAGE


# ---------------------------------------------------------------- facts shared by list, show and doctor

def _requirements(runtime: Any, skill: Any) -> list[Any]:
    from hermes_desktop.core.skills.requirements import check, configured_mcp_servers

    if not skill.requires:
        return []
    return check(skill, configured_mcp_servers(runtime.paths.mcp_config_file))


def _skill_facts(runtime: Any, skill: Any) -> dict[str, Any]:
    manager = runtime.skills
    return {
        "name": skill.name, "description": skill.description, "origin": skill.origin.value,
        "format": skill.format.value, "folder": str(skill.folder), "definition": skill.definition,
        "shadows": str(skill.overrides_folder) if skill.overrides_folder else None,
        "needs_trust": manager.needs_trust(skill), "has_code": skill.has_code,
        "requirements": [{"kind": s.requirement.kind, "name": s.requirement.name, "present": s.present,
                          "from": s.requirement.source} for s in _requirements(runtime, skill)],
        "problems": [{"level": p.level, "file": p.file, "reason": p.reason} for p in manager.problems(skill)],
    }


def _terminal_safe_json(value: Any) -> str:
    from hermes_desktop.core.terminal_text import terminal_safe_json

    return terminal_safe_json(value, indent=2)


def list_skills(runtime: Any, *, as_json: bool) -> int:
    from hermes_desktop.core.terminal_text import safe_name, strip_controls

    manager = runtime.skills
    skipped = [{"folder": folder, "reasons": [f"{p.file}: {p.reason}" for p in problems]}
               for folder, problems in manager.discovery.rejected]
    if as_json:
        print(_terminal_safe_json({"skills": [_skill_facts(runtime, s) for s in manager.skills], "skipped": skipped}))
        return EXIT_OK
    from hermes_desktop.core.skills.bundled_words import origin_word, shown_description

    for skill in manager.skills:
        flags = [origin_word(skill.origin.value)] + ([_("code not trusted")] if manager.needs_trust(skill) else [])
        missing = [s.requirement.name for s in _requirements(runtime, skill) if not s.present]
        if missing:
            flags.append(_("missing: {0}").format(", ".join(missing)))
        description = shown_description(skill.name, skill.origin.value, skill.description)
        description = _cut_to_columns(description, 90)
        # bidi controls shown as escapes: a name or description with U+202E cannot reverse the flags beside it
        print(safe_name(f"{skill.name}  [{'; '.join(flags)}]  {description}"))
    for entry in skipped:
        print(strip_controls(_("SKIPPED {folder}: {reasons}").format(folder=entry["folder"],
                                                                     reasons="; ".join(entry["reasons"]))))
    print(_("{0} skills, {1} skipped folders").format(len(manager.skills), len(skipped)))
    return EXIT_OK


def _cut_to_columns(text: str, columns: int) -> str:
    """`text` cut to about `columns` terminal columns with "…" (a Chinese character takes two)."""
    import unicodedata

    used = 0
    for index, char in enumerate(text):
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used > columns - 1:
            return text[:index] + "…"
    return text


def show(runtime: Any, skill: Any) -> int:
    from hermes_desktop.core.skills.scripts import list_scripts
    from hermes_desktop.core.terminal_text import safe_name

    facts = _skill_facts(runtime, skill)
    lines = [skill.name, f"  {skill.description}", f"  folder: {skill.folder} ({skill.origin.value}, "
             f"{skill.definition or skill.format.value})"]
    if skill.overrides_folder:
        lines.append(f"  hides the skill of the same name in {skill.overrides_folder}")
    if skill.license:
        lines.append(f"  license: {skill.license}")
    if skill.compatibility:
        lines.append(f"  compatibility: {skill.compatibility}")
    for state in _requirements(runtime, skill):
        lines.append(f"  requires {state.words()}")
    if skill.resources:
        lines.append(f"  resources ({len(skill.resources)}): " + ", ".join(skill.resources))
    if skill.has_code:
        code = (["tools.py"] if skill.has_tools_py else []) + [f"scripts/{s}" for s in list_scripts(skill)]
        lines.append("  code: " + ", ".join(code) + ("  (NOT trusted: it does not run)" if facts["needs_trust"]
                                                     else "  (trusted)"))
    for problem in facts["problems"]:
        lines.append(f"  {problem['level']}: {problem['file']}: {problem['reason']}")
    from hermes_desktop.commands.skill_sources import source_lines

    lines += source_lines(skill)
    print("\n".join(safe_name(line) for line in lines))  # names and text come from the skill's files (bidi shown)
    return EXIT_OK


# ---------------------------------------------------------------- trust

def code_files(skill: Any) -> list[Path]:
    """The files whose content trust covers and that can run: tools.py and everything under scripts/."""
    files = [skill.folder / "tools.py"] if skill.has_tools_py else []
    scripts = skill.folder / "scripts"
    if scripts.is_dir() and not scripts.is_symlink():
        files += sorted(p for p in scripts.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return files


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def trust(runtime: Any, skill: Any, *, yes: bool, stdin: Any = None, out: Any = None) -> int:
    from hermes_desktop.core.skills.trust import content_hash
    from hermes_desktop.core.terminal_text import safe_name, strip_controls

    stdin, out = stdin or sys.stdin, out or sys.stdout
    if not skill.has_code:
        print(_("{0} has no code (tools.py or scripts/); there is nothing to trust").format(skill.name), file=out)
        return EXIT_OK
    if not runtime.skills.needs_trust(skill):
        print((_("{0} is already trusted (bundled with the app)") if skill.origin.value == "bundled"
               else _("{0} is already trusted")).format(skill.name), file=out)
        return EXIT_OK
    print(safe_name(_("Trusting skill {name} ({folder}) lets this code run when the skill is active (each run still "
                      "asks for your approval):").format(name=skill.name, folder=skill.folder)), file=out)
    # The folder's hash is taken before the files are shown and again after: a file changed while its hash was
    # being shown is caught, and what is recorded is the content hashed before the listing, never a later one.
    folder_hash = content_hash(skill.folder)
    for path in code_files(skill):  # a file name is shown with its bidi controls visible (cannot pose as another)
        print(f"  {safe_name(path.relative_to(skill.folder).as_posix())}  sha256 {_sha256(path)}", file=out)
    print(_("Trust is for this exact content (all files of the folder: sha256 {0}); any change asks again.").format(
        folder_hash), file=out)
    if not yes:
        if not stdin.isatty():
            print(_("error: not trusted: no terminal to ask on; run it in a terminal, or add --yes"), file=sys.stderr)
            return EXIT_USAGE
        out.write(_("Trust this code? [y/N] "))
        out.flush()
        if stdin.readline().strip().lower() not in ("y", "yes"):
            print(_("not trusted"), file=out)
            return EXIT_FAILED
    if content_hash(skill.folder) != folder_hash:  # changed while the user read the list
        print(_("error: the skill's files changed while you were asked; nothing was trusted. Run it again."),
              file=sys.stderr)
        return EXIT_FAILED
    runtime.skills.trust.trust(skill, folder_hash)
    print(strip_controls(_("trusted {0}: its code can run now").format(skill.name)), file=out)
    return EXIT_OK


def untrust(runtime: Any, skill: Any) -> int:
    """Withdraw trust, and say what is true: a bundled skill's code is always trusted, a skill without code has
    nothing to trust, and one that was not trusted stays so."""
    from hermes_desktop.core.terminal_text import safe_name

    name = safe_name(skill.name)
    if skill.origin.value == "bundled" and skill.has_code:
        print(_("error: {0} is bundled with the app and its code is always trusted; to stop using it, disable its "
                "tools in the Tools tab").format(name), file=sys.stderr)
        return EXIT_USAGE
    was_trusted = skill.has_code and not runtime.skills.needs_trust(skill)
    runtime.skills.trust.revoke(skill)  # also a stale record of earlier content
    if not skill.has_code:
        print(_("{0} has no code (tools.py or scripts/); there is nothing to untrust").format(name))
    elif was_trusted:
        print(_("{0}: trust withdrawn; its code will not run until you trust it again").format(name))
    else:
        print(_("{0} was not trusted; its code does not run").format(name))
    return EXIT_OK


# ---------------------------------------------------------------- install

def install_into(source: Path, skills_dir: Path, *, force: bool) -> tuple[Any, Path, int]:
    """Install `source` (folder or .zip) into `skills_dir`. Returns (skill, its folder, files). Raises InstallRefused."""
    from hermes_desktop.core.skills.loader import load_skill
    from hermes_desktop.core.skills.model import Origin

    if not source.exists():
        raise InstallRefused(f"{source} does not exist")
    if not source.is_dir() and not source.is_file():  # a FIFO or device would block (or never end) when read
        raise InstallRefused(f"{source} is neither a folder nor a regular file")
    inside = skills_dir.resolve()
    if source.is_dir() and (source.resolve() == inside or source.resolve() in inside.parents):
        # the copy would be made inside the source and copy itself until the path is too long
        raise InstallRefused(f"{source} holds your skills folder; give the folder of one skill")
    skills_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".installing-", dir=skills_dir))
    try:
        # Named as the source (folder, or zip without .zip): a skill without a `name` takes its folder's name, and
        # that must be the user's name for it, not a word of ours ("unpacked")
        given = (source.resolve().name if source.is_dir() else source.stem).strip().lstrip(".")
        unpacked = staging / (given or "skill")
        unpacked.mkdir()
        if source.is_dir():
            files = copy_folder(source, unpacked)
        elif zipfile.is_zipfile(source):
            files = extract_zip(source, unpacked)
        else:
            raise InstallRefused(f"{source.name} is neither a folder nor a zip file")
        root = skill_root(unpacked)
        skill, problems = load_skill(root, Origin.USER)
        if skill is None:
            reasons = "; ".join(f"{p.file}: {p.reason}" for p in problems) or "not a skill"
            raise InstallRefused(f"it does not load as a skill: {reasons}")
        folder_name = skill.name if all(c not in skill.name for c in "/\\\0") and skill.name not in (".", "..") \
            else source.stem
        if folder_name.startswith("."):  # discovery does not enter hidden folders at the top of a root
            raise InstallRefused(f"its name {folder_name!r} starts with '.', and a hidden folder in the skills folder "
                                 "is never loaded; rename the skill")
        target = skills_dir / folder_name
        if target.exists() or target.is_symlink():
            if not force:
                raise InstallRefused(f"{target} already exists; add --force to replace it")
            shutil.rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
        root.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    installed, _problems = load_skill(target, Origin.USER)
    return installed, target, files


def install(source: Path, *, force: bool) -> int:
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.terminal_text import strip_controls

    try:
        skill, target, files = install_into(source.expanduser(), app_paths().user_skills_dir, force=force)
    except InstallRefused as exc:
        print(strip_controls(f"error: {source} was not installed: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(strip_controls(f"error: {source} was not installed: {exc}"), file=sys.stderr)
        return EXIT_FAILED
    print(strip_controls(f"installed {skill.name} into {target} ({files} files, {len(skill.resources)} resources)"))
    for problem in skill.problems:
        print(strip_controls(f"  {problem.level}: {problem.file}: {problem.reason}"))
    for requirement in skill.requires:
        print(strip_controls(f"  requires {requirement.kind} {requirement.name}"))
    if skill.has_code:
        print(f"  it has code ({skill.code_files}) that runs only after `hermes-desktop skills trust {skill.name}`")
    return EXIT_OK


# ---------------------------------------------------------------- doctor

def report(runtime: Any, out: Callable[[str], None]) -> None:
    """The Skills section of `doctor`: folders (optional ones with their setting), every skill with its origin,
    problems, requirements and what it hides, every skipped folder with its reason, and the catalog's size."""
    from hermes_desktop.core.paths import agents_skills_dir, claude_skills_dir
    from hermes_desktop.core.terminal_text import strip_controls
    from hermes_desktop.core.tokens import estimate_text_tokens

    manager = runtime.skills
    out("\nSkills")
    used = {str(root) for root, _ in runtime.skill_roots()}
    for root, origin in runtime.skill_roots():
        out(f"  folder ({origin.value}) {root}  [{'present' if root.is_dir() else 'none'}]")
    for setting, root in (("claude_skills", claude_skills_dir()), ("agents_skills", agents_skills_dir())):
        if str(root) not in used:
            out(f"  folder {root}  [off: set \"{setting}\": true in settings.json to load it"
                + ("; it exists" if root.is_dir() else "") + "]")
    for skill in manager.skills:
        notes = [f"{skill.origin.value}, {skill.definition or skill.format.value}"]
        if skill.overrides_folder is not None:
            notes.append(f"hides the {skill.overrides.value if skill.overrides else ''} skill of the same name in "
                         f"{skill.overrides_folder}")
        out(strip_controls(f"  {skill.name}  ({'; '.join(notes)})  {skill.folder}"))
        for state in _requirements(runtime, skill):
            out(strip_controls(f"      requires {state.words()}"))
        for problem in manager.problems(skill):
            out(strip_controls(f"      {problem.level}: {problem.file}: {problem.reason}"))
    for folder, problems in manager.discovery.rejected:
        out(strip_controls(f"  SKIPPED {folder}"))
        for problem in problems:
            out(strip_controls(f"      {problem.level}: {problem.file}: {problem.reason}"))
    from hermes_desktop.core.prompts import system_prompt, tool_rules
    from hermes_desktop.core.tokens import estimate_tools_tokens

    from hermes_desktop.core.tools.pager import PAGER

    offered = PAGER.offered("doctor", manager.offered("", runtime.registry.specs()))  # as a first request sees it
    tools = [spec.to_openai() for spec in offered]
    others = estimate_text_tokens(system_prompt()) + estimate_text_tokens(tool_rules(runtime.workspace.root)) + \
        estimate_tools_tokens(tools)  # as the agent measures them for a request
    catalog = manager.catalog_for("", "", others)
    listed = (f"the catalog lists {catalog.listed} in full ({estimate_text_tokens(catalog.text):,} tokens at most "
              f"on every request)")
    searchable = f" and {catalog.searchable} more are searchable with find_skills" if catalog.searchable else ""
    out(f"  {len(manager.skills)} loaded, {len(manager.discovery.rejected)} skipped; {listed}{searchable}")
    catalog_tokens = estimate_text_tokens(catalog.text)
    out(f"  the fixed part of a request (system prompt, tool rules, skill catalog, {len(tools)} tool schemas) is "
        f"about {others + catalog_tokens:,} tokens (catalog {catalog_tokens:,}, tool schemas "
        f"{estimate_tools_tokens(tools):,}); MCP servers' tools are counted under MCP servers below")

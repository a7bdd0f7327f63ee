"""`hermes-desktop skills install GIT_URL|ZIP_URL [--ref REF] [--subdir DIR] [--yes]`, `skills update NAME [--yes]`,
`skills remove NAME` and the source lines of `skills show` (issue 27). The work is in core/skills/remote.py; this
module shows what a source holds and asks: y/N on a terminal, refused without one unless --yes (as `skills trust`).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any, TextIO

from hermes_desktop.core.i18n import _
from hermes_desktop.core.skills.install_files import InstallRefused

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _context() -> tuple[Path, Any, Any, Any]:
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.settings import SettingsStore
    from hermes_desktop.core.skills.remote import SOURCES_FILE, SourceRecords
    from hermes_desktop.core.skills.trust import TrustStore
    from hermes_desktop.core.tools.network import NetworkPolicy

    paths = app_paths()
    settings = SettingsStore(paths).load().settings
    policy = NetworkPolicy(allowed_private_hosts=frozenset(settings.fetch_allowed_private_hosts))
    return paths.user_skills_dir, SourceRecords(paths.data_dir / SOURCES_FILE), TrustStore(
        paths.trusted_skills_file), policy


def _say(lines: list[str], out: TextIO) -> None:
    from hermes_desktop.core.terminal_text import safe_name

    for line in lines:  # names, descriptions and diffs come from the source: controls and bidi shown, not obeyed
        print(safe_name(line), file=out)


def _ask(question: str, *, yes: bool, stdin: TextIO, out: TextIO, refused: str) -> bool | None:
    """True to go on; False when the user said no; None when there is no terminal to ask on (and no --yes)."""
    if yes:
        return True
    if not stdin.isatty():
        print(_("error: {0}").format(_("{0}: no terminal to ask on; run it in a terminal, or add --yes").format(refused)),
              file=sys.stderr)
        return None
    out.write(f"{question} [y/N] ")
    out.flush()
    return stdin.readline().strip().lower() in ("y", "yes")


def install(text: str, *, yes: bool, ref: str = "", subdir: str = "", force: bool = False,
            stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    from hermes_desktop.core.skills import remote
    from hermes_desktop.core.terminal_text import strip_controls

    stdin, out = stdin or sys.stdin, out or sys.stdout
    try:
        source = remote.parse_source(text, ref=ref, subdir=subdir)
    except InstallRefused as exc:
        print(strip_controls(_("error: {source} was not installed: {reason}").format(source=text, reason=exc)),
              file=sys.stderr)
        return EXIT_USAGE
    if source.kind == "path":
        from hermes_desktop.commands.skills import install as install_path

        return install_path(Path(text), force=force)
    skills_dir, records, _trust, policy = _context()
    try:
        staged = remote.stage(source, skills_dir, policy)
    except InstallRefused as exc:
        print(strip_controls(_("error: {source} was not installed: {reason}").format(source=text, reason=exc)),
              file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(strip_controls(_("error: {source} was not installed: {reason}").format(source=text, reason=exc)),
              file=sys.stderr)
        return EXIT_FAILED
    try:
        _say(staged.inventory(), out)
        answer = _ask(_("Install it?"), yes=yes, stdin=stdin, out=out, refused=_("not installed"))
        if answer is None:
            return EXIT_USAGE
        if not answer:
            print(_("not installed"), file=out)
            return EXIT_FAILED
        target = remote.commit(staged, skills_dir, records, replace=force)
    except InstallRefused as exc:
        print(strip_controls(_("error: {source} was not installed: {reason}").format(source=text, reason=exc)),
              file=sys.stderr)
        return EXIT_USAGE
    finally:
        staged.discard()
    _say([_("installed {skills} into {target} ({pin})").format(skills=", ".join(s.name for s in staged.skills),
                                                               target=target, pin=staged.pin)], out)
    return EXIT_OK


def _find(name: str, records: Any, skills_dir: Path) -> tuple[str, dict[str, Any]] | None:
    every = records.load()
    if name in every:
        return name, every[name]
    holding = [(key, rec) for key, rec in every.items() if name in (rec.get("skills") or [])]
    return holding[0] if len(holding) == 1 else None


def update(name: str, *, yes: bool, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    from hermes_desktop.core.skills import remote
    from hermes_desktop.core.terminal_text import strip_controls

    stdin, out = stdin or sys.stdin, out or sys.stdout
    skills_dir, records, trust, policy = _context()
    found = _find(name, records, skills_dir)
    if found is None:
        print(strip_controls(_("error: {0}").format(_("{0} was not installed from a URL or git repository (see `skills "
                                                      "list`)").format(repr(name)))), file=sys.stderr)
        return EXIT_USAGE
    key, record = found
    source = remote.Source(record.get("kind", "git"), record.get("location", ""), record.get("ref", ""),
                           record.get("subdir", ""))
    installed = skills_dir / key
    try:
        staged = remote.stage(source, skills_dir, policy)
    except (InstallRefused, OSError) as exc:
        print(strip_controls(_("error: {name} was not updated: {reason}").format(name=key, reason=exc)), file=sys.stderr)
        return EXIT_USAGE if isinstance(exc, InstallRefused) else EXIT_FAILED
    try:
        staged.name = key  # updated in place, whatever the new copy would be called on a first install
        if staged.pin == record.get("pin"):
            print(_("{name} is up to date ({pin})").format(name=key, pin=staged.pin), file=out)
            return EXIT_OK
        diff, code = remote.changes(installed, staged)
        lines = [f"{key}: {record.get('pin')} -> {staged.pin}"] + (diff or [_("(the SKILL.md files are unchanged)")])
        lines += [_("code {0}").format(entry) for entry in code] or [_("no code file changed")]
        if code:
            lines.append(_("Changed code loses its trust until you trust it again."))
        _say(lines, out)
        answer = _ask(_("Update it?"), yes=yes, stdin=stdin, out=out, refused=_("not updated"))
        if answer is None:
            return EXIT_USAGE
        if not answer:
            print(_("not updated"), file=out)
            return EXIT_FAILED
        was_trusted = {s.name for s in remote._load_all(installed) if s.has_code and trust.trusted(s)} \
            if installed.is_dir() else set()
        changed_paths = {entry.split(" ", 1)[1] for entry in code}
        target = remote.commit(staged, skills_dir, records, replace=True)
    except InstallRefused as exc:
        print(strip_controls(_("error: {name} was not updated: {reason}").format(name=key, reason=exc)), file=sys.stderr)
        return EXIT_USAGE
    finally:
        staged.discard()
    for skill in remote._load_all(target):
        prefix = skill.folder.relative_to(target).as_posix()
        touched = any(prefix == "." or path.startswith(prefix + "/") for path in changed_paths)
        if skill.name in was_trusted and not touched:
            trust.trust(skill)  # only its instructions changed: its code is the code the user trusted
        else:
            trust.revoke(skill)
            if skill.name in was_trusted:
                _say([_("{name}: its code changed; it runs again after {command}").format(
                    name=skill.name, command=f"`hermes-desktop skills trust {skill.name}`")], out)
    _say([_("updated {name} to {pin}").format(name=key, pin=staged.pin)], out)
    return EXIT_OK


def remove(name: str, *, out: TextIO | None = None) -> int:
    from hermes_desktop.core.skills import remote
    from hermes_desktop.core.terminal_text import strip_controls

    out = out or sys.stdout
    skills_dir, records, trust, _policy = _context()
    found = _find(name, records, skills_dir)
    key = found[0] if found else name
    folder = skills_dir / key
    if any(c in key for c in "/\\\0") or key in ("", ".", "..") or not folder.is_dir() or folder.is_symlink():
        print(strip_controls(_("error: {0}").format(_("no skill folder {name} in your skills folder {folder}").format(
            name=repr(name), folder=skills_dir))), file=sys.stderr)
        return EXIT_USAGE
    try:
        for skill in remote._load_all(folder):
            trust.revoke(skill)
    except InstallRefused:
        pass  # a broken folder has nothing loadable to untrust; it is removed all the same
    shutil.rmtree(folder)
    every = records.load()
    if every.pop(key, None) is not None:
        records.save(every)
    print(strip_controls(_("removed {0}").format(folder)), file=out)
    return EXIT_OK


def source_lines(skill: Any) -> list[str]:
    """For `skills show`: where an installed skill came from and what it is pinned to ([] for a local one)."""
    skills_dir, records, _trust, _policy = _context()
    found = records.for_skill(skill, skills_dir)
    if found is None:
        return []
    key, record = found
    where = record.get("location", "") + (" " + _("(ref {0})").format(record["ref"]) if record.get("ref") else "") + \
        (_(", folder {0}").format(record["subdir"]) if record.get("subdir") else "")
    return ["  " + _("source: {kind} {where}").format(kind=record.get("kind"), where=where),
            "  " + _("pinned to {pin} (installed {when} as {folder})").format(
                pin=record.get("pin"), when=record.get("installed", "?"), folder=f"{key}/")]

"""`sessions export ID --format docx|obsidian [--output PATH]`: Word files and Obsidian vaults (core/exports/).

docx: written to --output, or to standard output when that is not a terminal (a Word file is bytes: a terminal
would show noise and could be sent escapes). obsidian: --output is the vault's folder, which must exist. Words
in the file follow the app's language setting (Settings › General), as the window's do.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Iterable

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def run(store: Any, args: argparse.Namespace, known_secrets: Iterable[str], settings_file: Path) -> int:
    from hermes_desktop.core.appearance import peek_appearance
    from hermes_desktop.core.exports.document import read_session

    language = peek_appearance(settings_file)[0]
    output: Path | None = args.output
    if args.format == "obsidian" and output is None:
        print(_("error: --format obsidian needs --output VAULT_FOLDER (the folder of your Obsidian vault)"),
              file=sys.stderr)
        return EXIT_USAGE
    if args.format == "docx" and output is None and sys.stdout.isatty():
        print(_("error: a Word file is not for the terminal: give --output FILE.docx (or redirect to a file)"),
              file=sys.stderr)
        return EXIT_USAGE
    document = read_session(store, args.id, known_secrets=known_secrets)
    if args.format == "obsidian":
        from hermes_desktop.core.exports.obsidian import VaultError, export_to_vault

        try:
            note = export_to_vault(document, output, language=language)
        except (VaultError, OSError) as exc:
            print(_("error: {0}").format(exc), file=sys.stderr)
            return EXIT_FAILED
        print(note)
        return EXIT_OK
    from hermes_desktop.core.exports.docx_export import session_docx

    data = session_docx(document, language=language)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return EXIT_OK
    try:
        write_file_atomic(output, data)
    except OSError as exc:
        print(_("error: cannot write {path}: {reason}").format(path=output, reason=exc.strerror or exc), file=sys.stderr)
        return EXIT_FAILED
    print(output)
    return EXIT_OK


def write_file_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file beside it (a full disk leaves the old file, or none)."""
    from hermes_desktop.core.settings import replace_atomically

    replace_atomically(Path(path).expanduser().absolute(), lambda tmp: tmp.write_bytes(data))

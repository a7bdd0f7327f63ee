"""Entry point: `hermes-desktop` and `python -m hermes_desktop`.

With a command (`ask`, `doctor`, `sessions`) it runs headless and never imports Qt.
With no arguments it opens the window on the Qt event loop through qasync. An
existing QApplication (a test's, or a host application's) is reused, never
duplicated.
"""

from __future__ import annotations

import sys
from typing import Sequence

from hermes_desktop import __version__


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("--version", "-V"):
        print(f"hermes-desktop {__version__}")
        return 0
    if args and args[0] == "--read-pdf-text":  # the PDF reader's child process in a bundle (core/pdf_extract.py)
        from hermes_desktop.core.pdf_extract import CHILD_COMMAND, _child_main

        assert args[0] == CHILD_COMMAND
        return _child_main(args[1:])
    from hermes_desktop import cli

    if args and (args[0] in cli.COMMANDS or args[0] in ("-h", "--help")):
        return cli.main(args)
    if args:
        print(f"hermes-desktop: unknown argument {args[0]!r} (try --help)", file=sys.stderr)
        return cli.EXIT_USAGE
    from hermes_desktop.ui.launch import run_window

    return run_window()

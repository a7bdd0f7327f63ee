"""Entry point: `hermes-desktop` and `python -m hermes_desktop`.

With a command (`ask`, `doctor`, `sessions`) it runs headless and never imports Qt.
With no arguments it opens the window on the Qt event loop through qasync. An
existing QApplication (a test's, or a host application's) is reused, never
duplicated.

The window's path (no arguments: what a double-click runs) imports neither `cli` nor asyncio before the
window's first paint (issue 28): `cli` imports asyncio, argparse and the commands' modules (~25 ms and ~9 MB
before anything is on screen). So no arguments goes straight to `ui.launch`, and only a command line with
arguments imports `cli`, which knows the commands and words the errors. `ui.launch` brings asyncio and qasync
up after the paint. tests/ui/test_startup.py starts the window through `main` and checks what it imported.
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
    if not args:
        from hermes_desktop.ui.launch import run_window

        return run_window()
    from hermes_desktop import cli

    if args[0] in cli.COMMANDS or args[0] in ("-h", "--help"):
        return cli.main(args)
    print(f"hermes-desktop: unknown argument {args[0]!r} (try --help)", file=sys.stderr)
    return cli.EXIT_USAGE

"""A FIFO swapped in for a file between the check and the open (issue 21's weak tests): read_file and attaching the
file must never hang on the pipe. A thread swaps `report.txt` between a regular file and a FIFO as fast as it can
while the real tools read it; every call ends at once, with the file's text or a refusal, and no reader blocks
(a blocking open of a FIFO with no writer would hang the call, and the test's bounded join would fail)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from hermes_desktop.core.tools.spec import ToolError
from hermes_desktop.core.tools.workspace import WorkspaceError
from tests.core.test_builtin_tools import ctx, run  # noqa: F401 - the fixture and the tool runner

ROUNDS = 300


class _FifoSwapper:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.swaps = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "_FifoSwapper":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(30)
        assert not self._thread.is_alive()

    def _run(self) -> None:
        fifo = self.path.with_name(".fifo")
        while not self._stop.is_set():
            try:
                os.mkfifo(fifo)
                os.replace(fifo, self.path)  # the checked regular file becomes a pipe
                self.path.with_name(".file").write_text("quarterly figures", encoding="utf-8")
                os.replace(self.path.with_name(".file"), self.path)
                self.swaps += 1
            except OSError:
                pass


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_read_file_never_hangs_on_a_fifo_swapped_in_after_the_check(ctx) -> None:  # noqa: F811
    target = ctx.workspace.root / "report.txt"
    target.write_text("quarterly figures", encoding="utf-8")
    outcomes = {"read": 0, "refused": 0}
    finished = threading.Event()

    def reader() -> None:
        for _ in range(ROUNDS):
            try:
                result = run(ctx, "read_file", path="report.txt")
                assert "quarterly figures" in str(result)
                outcomes["read"] += 1
            except (ToolError, WorkspaceError, OSError):
                outcomes["refused"] += 1
        finished.set()

    with _FifoSwapper(target) as swapper:
        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        thread.join(120)
        assert finished.is_set(), "a read blocked on the FIFO (it must be refused, not waited on)"
    assert swapper.swaps > 0 and outcomes["read"] + outcomes["refused"] == ROUNDS

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


def _swap_after_first_check(monkeypatch, module, name: str, path: Path) -> list[int]:
    """Wrap `module.name` (the check that runs before the open, then again on the opened descriptor) so that right
    after its first call the checked regular file at `path` is replaced by a FIFO: the swap lands exactly between
    the check and the open, every time, instead of when a racing thread happens to hit it."""
    original = getattr(module, name)
    calls: list[int] = []

    def checked(*args, **kwargs):
        result = original(*args, **kwargs)
        calls.append(1)
        if len(calls) == 1:
            fifo = path.with_name(".swap-fifo")
            os.mkfifo(fifo)
            os.replace(fifo, path)
        return result

    monkeypatch.setattr(module, name, checked)
    return calls


def _bounded(call) -> object:
    """Run `call` in a thread; a blocking open of the FIFO would never return (the bounded join detects a hang)."""
    outcome: list[object] = []

    def target() -> None:
        try:
            outcome.append(call())
        except Exception as exc:  # the refusal is the expected outcome
            outcome.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(60)
    assert outcome, "the call blocked on the FIFO swapped in after its check"
    return outcome[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_read_file_refuses_a_fifo_swapped_in_exactly_between_the_check_and_the_open(ctx, monkeypatch) -> None:  # noqa: F811
    from hermes_desktop.core.tools import workspace

    target = ctx.workspace.root / "report.txt"
    target.write_text("quarterly figures", encoding="utf-8")
    calls = _swap_after_first_check(monkeypatch, workspace, "_refuse_special", target)
    outcome = _bounded(lambda: run(ctx, "read_file", path="report.txt"))
    assert len(calls) >= 1 and os.path.exists(target) and not target.is_file(), "the swap happened"
    assert isinstance(outcome, (ToolError, WorkspaceError)), outcome
    assert "named pipe (FIFO)" in str(outcome)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_attaching_refuses_a_fifo_swapped_in_exactly_between_the_check_and_the_open(tmp_path, monkeypatch) -> None:
    from hermes_desktop.core import attachments

    target = tmp_path / "notes.txt"
    target.write_text("meeting notes", encoding="utf-8")
    _swap_after_first_check(monkeypatch, attachments, "_check_regular", target)
    outcome = _bounded(lambda: attachments.prepare_attachment(target, process_image=None))
    assert not target.is_file(), "the swap happened"
    assert isinstance(outcome, attachments.AttachmentError), outcome
    assert "not a regular file (a pipe, socket or device)" in str(outcome)

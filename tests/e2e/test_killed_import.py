"""An import killed after it wrote some attachment files: the next start removes those files (nothing refers to
them), keeps every file a message refers to, and never touches what a running import or a fresh turn wrote.
A real child process runs the real import and is killed with SIGKILL while it decodes an image."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hermes_desktop.core.file_lock import FileLock
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.storage import import_journal
from hermes_desktop.core.storage.transfer import import_file
from tests.e2e.test_cli_attachment_transfer import attachment_entry, b64, session_file
from tests.support.attachment_files import png_bytes
from tests.support.cli import GUARD_S, ROOT
from tests.support.stores import open_test_store

CHILD = """
import sys, time
from pathlib import Path
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.store import open_store
from hermes_desktop.core.storage import transfer
store = open_store(app_paths()).store
def stuck(data, *args, **kwargs):  # the image decoder never returns: the test kills us here
    Path(sys.argv[2]).write_text("decoding")
    time.sleep(3600)
transfer.import_path(store, Path(sys.argv[1]), max_bytes=10**8, process_image=stuck)
"""


def _files() -> set[str]:
    root = app_paths().data_dir / "attachments"
    return {p.name for p in root.glob("??/*")} if root.exists() else set()


def _markers() -> list[Path]:
    return sorted((app_paths().data_dir / "attachments" / import_journal.FOLDER).glob("*.lock"))


def _killed_import(tmp_path: Path) -> tuple[str, str]:
    """Run an import of two text files and an image, kill it while it decodes the image; the two text hashes."""
    first, second = b"first file\n", b"second file\n"
    image = png_bytes(8, 8)
    source = session_file(tmp_path / "export.json", "imported", [
        attachment_entry("a.txt", first), attachment_entry("b.txt", second),
        {**attachment_entry("c.png", image), "kind": "image", "mime": "image/png", "data": b64(image)}])
    ready = tmp_path / "ready"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(source), str(ready)], cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + GUARD_S
    while not ready.exists():  # waiting for the child (a guard against a hang, not a timed assertion)
        assert child.poll() is None and time.monotonic() < deadline, "the import never reached the image"
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait(GUARD_S)
    return hashlib.sha256(first).hexdigest(), hashlib.sha256(second).hexdigest()


def test_the_files_of_a_killed_import_are_removed_at_the_next_start_and_referenced_ones_stay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = b"a file a message refers to\n"
    opened = open_test_store()
    import_file(opened.store, json.dumps(json.loads(session_file(tmp_path / "earlier.json", "earlier", [
        attachment_entry("kept.txt", kept)]).read_text())))
    opened.store.close()
    first, second = _killed_import(tmp_path)
    assert {first, second} <= _files() and _markers(), "the kill left the files and the import's marker"

    # The files were written a moment ago; a start within FRESH_S of a write leaves them (a turn in another
    # process may be about to refer to its file). The test ages that bound away instead of waiting a minute.
    open_test_store().store.close()
    assert {first, second} <= _files() and _markers(), "fresh files are left for a later start"
    monkeypatch.setattr(import_journal, "FRESH_S", 0.0)
    store = open_test_store().store
    try:
        assert _files() == {hashlib.sha256(kept).hexdigest()}
        assert not _markers()
        assert store.get_session("imported") is None
        assert [a.name for m in store.all_messages("earlier") for a in m.attachments] == ["kept.txt"]
    finally:
        store.close()


def test_nothing_is_swept_while_another_import_is_running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = _killed_import(tmp_path)
    monkeypatch.setattr(import_journal, "FRESH_S", 0.0)
    running = FileLock(app_paths().data_dir / "attachments" / import_journal.FOLDER / f"{time.time_ns()}-live.lock")
    assert running.try_acquire()  # another import, still running, whose rows are not committed yet
    try:
        open_test_store().store.close()
        assert {first, second} <= _files()
    finally:
        running.release()
        running.path.unlink()
    open_test_store().store.close()
    assert not ({first, second} & _files())

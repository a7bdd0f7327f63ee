"""An attachment on a full disk: a real tmpfs filled to ENOSPC under the data folder."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.attachments import prepare_attachment
from hermes_desktop.imaging import process_image
from tests.support.attachment_files import png_bytes
from tests.support.engine import make_engine, of_type
from tests.support.model_server import text_reply
from tests.support.small_disk import SmallDisk, small_disk
from tests.support.stores import open_test_store


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SmallDisk]:
    with small_disk(tmp_path / "disk") as mounted:
        monkeypatch.setenv("XDG_DATA_HOME", str(mounted.root))
        yield mounted


async def test_a_full_disk_refuses_the_attachment_with_the_storage_error_and_nothing_is_sent(
        disk, profile, workspace_dir, model_server, tmp_path) -> None:
    store = open_test_store().store
    engine = make_engine(profile, workspace_dir, store=store)
    picture = tmp_path / "photo.png"
    picture.write_bytes(png_bytes(1200, 900, "#884400"))
    attachment = prepare_attachment(picture, process_image=process_image)
    store.create_session("s1")  # the session exists: the attachment is the first thing that needs space
    try:
        disk.fill()
        events = await engine.agent.start_turn("s1", "what is this?", [attachment]).wait()
        error = of_type(events, ev.TurnError)[0]
        assert error.kind is ev.ErrorKind.STORAGE
        assert "is full: your message and its attachments were not saved" in error.message
        assert model_server.chat_requests == []
        assert not of_type(events, ev.TurnStarted)  # the message was not stored either
        leftovers = [p for p in store.attachments_dir.rglob("*") if p.is_file()] if store.attachments_dir.exists() else []
        assert leftovers == []  # no half-written file (tmp + rename, removed on failure)

        disk.free()
        model_server.enqueue(text_reply("A brown picture."))
        again = await engine.agent.start_turn("s1", "what is this?", [attachment]).wait()
        assert of_type(again, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED
        assert [a.name for a in store.messages("s1")[0].attachments] == ["photo.png"]
    finally:
        await engine.close()

"""Hermes installations as data folders on one machine, for the sync tests: each is a real AppPaths with its own
hermes.db (opened through open_store, so migrations run), attachments folder and config folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hermes_desktop.core.attachments import AttachmentFiles
from hermes_desktop.core.memory.store import MemoryStore
from hermes_desktop.core.paths import AppPaths
from hermes_desktop.core.session_types import AttachmentRef, NewMessage
from hermes_desktop.core.store import SQLiteSessionStore, open_store
from hermes_desktop.core.sync.engine import SyncEngine, SyncReport
from hermes_desktop.core.sync.hlc import wall_ms
from hermes_desktop.core.sync.target import Target

TEST_KEY = bytes(range(32))


class Device:
    def __init__(self, root: Path, name: str, *, now_ms: Callable[[], int] = wall_ms) -> None:
        self.name = name
        self.paths = AppPaths(data_dir=root / name / "data", config_dir=root / name / "config",
                              log_dir=root / name / "log", documents_dir=root / name / "docs")
        self.now_ms = now_ms
        self.store: SQLiteSessionStore = open_store(self.paths).store
        self.memories = MemoryStore(self.store)

    def sync(self, target: Target, key: bytes = TEST_KEY) -> SyncReport:
        return SyncEngine(self.store, target, key, now_ms=self.now_ms).run()

    def chat(self, session_id: str, *texts: str, attachment: bytes | None = None) -> None:
        if self.store.get_session(session_id) is None:
            self.store.create_session(session_id, title=f"chat {session_id}")
        for text in texts:
            refs: tuple[AttachmentRef, ...] = ()
            if attachment is not None:
                digest = AttachmentFiles(self.store.attachments_dir).put(attachment)
                refs = (AttachmentRef(digest, "photo.bin", "text", "text/plain", len(attachment), None, None,
                                      "text of it", ""),)
            self.store.append_message(session_id, NewMessage("user", text, attachments=refs))
            self.store.append_message(session_id, NewMessage("assistant", f"reply to {text}", finish_reason="stop"))

    def tree(self, session_id: str) -> set[tuple[str | None, str | None]]:
        """(parent content, content) of every message in the session: the shape of its tree."""
        by_id = {m.id: m for m in self.store.all_messages(session_id)}
        return {(by_id[m.parent_id].content if m.parent_id else None, m.content) for m in by_id.values()}

    def titles(self) -> dict[str, str]:
        return {s.id: s.title for s in self.store.list_sessions(limit=10_000)}

    def close(self) -> None:
        self.store.close()


def memory_states(device: Device) -> dict[str, str]:
    return {m.statement: m.state.value for m in device.memories.list(states=None, limit=10_000)}


__all__ = ["Device", "TEST_KEY", "memory_states", "Any"]

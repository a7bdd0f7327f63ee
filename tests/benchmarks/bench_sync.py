"""Sync: the first sync of a large history to a real WebDAV server (wsgidav on 127.0.0.1), against the raw upload
of the same bytes in the same run, then an incremental sync after one new message: bytes sent and time.

Scale from the environment (the issue's target by default; smaller for a quick look):
HERMES_BENCH_SYNC_MESSAGES (default 100,000) and HERMES_BENCH_SYNC_MB of attachments (default 1,024, in 4 MiB
random files). `python -m tests.benchmarks bench_sync`. The loaded history is dated a day back, as a real one is:
the incremental scan looks again at messages updated in the two minutes before the last scan (and compares every
message once a day).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from hermes_desktop.core.attachments import AttachmentFiles
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.session_types import AttachmentRef, NewMessage
from hermes_desktop.core.store import open_store
from hermes_desktop.core.sync.engine import SyncEngine
from hermes_desktop.core.sync.webdav import WebDAVTarget
from tests.benchmarks.timing import ok, table, temporary_home
from tests.support.sync_servers import PASSWORD, USER, WebDAVServer

FILE_BYTES = 4 * 1024 * 1024


def _fill(store, messages: int, attachment_mb: int) -> int:  # type: ignore[no-untyped-def]
    files = AttachmentFiles(store.attachments_dir)
    refs = []
    for _ in range(max(0, attachment_mb * 1024 * 1024 // FILE_BYTES)):
        data = os.urandom(FILE_BYTES)
        refs.append(AttachmentRef(files.put(data), "photo.jpg", "image", "image/jpeg", len(data), 100, 100))
    sessions = max(1, messages // 1000)
    now = time.time() - 86_400  # a history written before today (not all in the last minutes)
    for s in range(sessions):
        sid = f"session-{s}"
        store.create_session(sid, title=f"Session {s}")

        def work(db, sid=sid, s=s):  # type: ignore[no-untyped-def]
            parent = None
            for m in range(messages // sessions):
                role = "user" if m % 2 == 0 else "assistant"
                attached = (refs.pop(),) if role == "user" and refs and m % 10 == 0 else ()
                message = NewMessage(role, f"message {s}.{m}: " + "some words of the conversation " * 6,
                                     finish_reason=None if role == "user" else "stop", attachments=attached)
                parent = store._insert_message(db, sid, message, parent, now)

        store._write(work)
    return sum(p.stat().st_size for p in store.attachments_dir.rglob("*") if p.is_file())


def run() -> None:
    messages = int(os.environ.get("HERMES_BENCH_SYNC_MESSAGES", "100000"))
    megabytes = int(os.environ.get("HERMES_BENCH_SYNC_MB", "1024"))
    with temporary_home(), tempfile.TemporaryDirectory() as dav_root:
        server = WebDAVServer(Path(dav_root) / "dav")
        try:
            store = open_store(app_paths()).store
            print(f"loading {messages:,} messages and {megabytes:,} MB of attachments ...", flush=True)
            attachment_bytes = _fill(store, messages, megabytes)
            db_bytes = store.path.stat().st_size + store.path.with_name("hermes.db-wal").stat().st_size
            target = WebDAVTarget(server.url, USER, PASSWORD)
            key = os.urandom(32)
            engine = SyncEngine(store, target, key)
            started = time.perf_counter()
            first = engine.run()
            first_s = time.perf_counter() - started

            raw = os.urandom(FILE_BYTES)
            total = first.uploaded_bytes
            started = time.perf_counter()
            sent = 0
            while sent < total:
                target.put(f"raw/{sent // FILE_BYTES:06d}", raw[: min(FILE_BYTES, total - sent)])
                sent += FILE_BYTES
            raw_s = time.perf_counter() - started

            store.append_message("session-0", NewMessage("user", "one new message"))
            started = time.perf_counter()
            incremental = engine.run()
            incremental_s = time.perf_counter() - started
            started = time.perf_counter()
            idle = engine.run()
            idle_s = time.perf_counter() - started
            store.close()
        finally:
            server.stop()
    ratio = first_s / raw_s if raw_s else 0.0
    table([
        ("history", f"{messages:,} messages, {attachment_bytes / 2**20:,.0f} MiB attachments, "
                    f"database {db_bytes / 2**20:,.1f} MiB", "", ""),
        ("first sync", f"{first_s:.1f} s, {first.uploaded_bytes / 2**20:,.1f} MiB in {first.uploaded_batches} "
                       "batches", "", ""),
        ("raw upload of the same bytes", f"{raw_s:.1f} s", "", ""),
        ("first sync / raw upload", f"{ratio:.2f}x", "<= 2x", ok(ratio <= 2)),
        ("incremental (one new message)", f"{incremental_s:.2f} s, {incremental.uploaded_bytes:,} bytes",
         "< 20 KB", ok(incremental.uploaded_bytes < 20_000)),
        ("nothing new", f"{idle_s:.2f} s, {idle.uploaded_bytes:,} bytes", "0 bytes", ok(idle.uploaded_bytes == 0)),
    ])

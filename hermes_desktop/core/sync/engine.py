"""One sync run: this device's changes go up as a new batch of its own append-only log, the other devices' new
batches come down and are merged.

Remote layout (every object sealed, see crypto.py):
- `log/<device>/<seq>.batch`: one device's change records, numbered 1, 2, 3 … Only that device writes there, and
  it never rewrites a published batch (a resumed upload of the same number carries the same records).
- `blobs/<keyed hash>`: attachment bytes the records refer to, uploaded before the batch that needs them.

A run, in order, each step safe to interrupt anywhere (kill -9, a cut connection, a full server):
1. list and download the other devices' batches after this device's cursor for each, and move the hybrid clock
   past their stamps (so a change made here after seeing theirs is stamped later, whatever the wall clocks say);
2. scan this database for changes and store them as numbered batches in `sync_outbox`, in one transaction with
   the new field states (so a change is either queued or still to be found);
3. merge the downloaded batches, each in one transaction together with its cursor (a batch is applied whole or
   not at all, and never twice); a tampered batch is skipped with a message and its cursor moves on;
4. retry records that waited for their parent (`sync_deferred`);
5. upload the outbox: blobs first, then each batch (published whole by the target), deleting it from the outbox
   only once published. Nothing is lost if this stops half-way: the next run sends the rest.
A second run with nothing new changes nothing and uploads nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from hermes_desktop.core.attachments import AttachmentFiles
from hermes_desktop.core.sync import crypto
from hermes_desktop.core.sync.backup import Progress, _noop, device_id
from hermes_desktop.core.sync.hlc import HybridClock, wall_ms
from hermes_desktop.core.sync.records import Deferred, Merger, Record, scan
from hermes_desktop.core.sync.target import ObjectMissing, Target, TargetError

log = logging.getLogger(__name__)
BATCH_RECORDS = 500
RESCAN_MARGIN_S = 120.0  # messages updated this long before the last scan are looked at again (a tool record
# written just after its message, a wall clock stepped back)
FULL_SCAN_EVERY_S = 86_400.0  # and once a day every message is compared, whatever its time says
BATCH_FORMAT = "hermes-sync-batch/1"


MAX_CONFLICTS = 200


@dataclass(slots=True)
class SyncReport:
    uploaded_batches: int = 0
    uploaded_bytes: int = 0
    downloaded_batches: int = 0
    applied: int = 0
    deferred: int = 0
    problems: list[str] = field(default_factory=list)
    branched: list[str] = field(default_factory=list)
    """Sessions (local ids) continued on two devices: both continuations are kept as branches."""
    conflicts: int = 0
    """Fields changed on two devices from the same value (the newer kept): the last MAX_CONFLICTS are kept in
    sync_meta `conflicts` (kind, field, label, which value was kept, from which device) for Settings to list."""
    finished_at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"uploaded_batches": self.uploaded_batches, "uploaded_bytes": self.uploaded_bytes,
                "downloaded_batches": self.downloaded_batches, "applied": self.applied, "deferred": self.deferred,
                "problems": self.problems, "branched": self.branched, "conflicts": self.conflicts,
                "finished_at": self.finished_at}


def _attachments_of(record: Any) -> list[dict[str, Any]]:
    """The attachment entries of a message record; [] for anything of another shape (a hostile record)."""
    if not isinstance(record, dict) or record.get("k") != "message" or not isinstance(record.get("f"), dict):
        return []
    body = record["f"].get("body")
    items = body.get("attachments") if isinstance(body, dict) else None
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _batch_key(device: str, seq: int) -> str:
    return f"log/{device}/{seq:010d}.batch"


class SyncEngine:
    """Syncs one open store (core/store.SQLiteSessionStore, migrated to v10) with one target."""

    def __init__(self, store: Any, target: Target, key: bytes, *, now_ms: Callable[[], int] = wall_ms) -> None:
        self.store, self.target, self.key = store, target, key
        self.device = device_id(Path(store.path).parent)
        self.files = AttachmentFiles(store.attachments_dir)
        self._now_ms = now_ms
        from hermes_desktop.core.memory.store import MemoryStore

        self._memories = MemoryStore(store)

    # ------------------------------------------------------------------ local state
    def _meta(self, name: str) -> str | None:
        rows = self.store._read("SELECT value FROM sync_meta WHERE key = ?", (name,))
        return rows[0][0] if rows else None

    @staticmethod
    def _set_meta(db: sqlite3.Connection, name: str, value: str) -> None:
        db.execute("INSERT INTO sync_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = "
                   "excluded.value", (name, value))

    def status(self) -> dict[str, Any]:
        pending = self.store._read("SELECT COUNT(*) FROM sync_outbox")[0][0]
        last = self._meta("last_sync")
        return {"device": self.device, "pending_batches": int(pending),
                "last_sync": float(last) if last else None, "last_error": self._meta("last_error") or "",
                "deferred": int(self.store._read("SELECT COUNT(*) FROM sync_deferred")[0][0])}

    def record_error(self, text: str) -> None:
        self.store._write(lambda db: self._set_meta(db, "last_error", text), "the sync status was not saved")

    # ------------------------------------------------------------------ the run
    def run(self, progress: Progress = _noop) -> SyncReport:
        report = SyncReport()
        clock = HybridClock.restore(self.device, self._meta("hlc"), now=self._now_ms)
        progress("download", 0, 1)
        incoming = self._download(report, clock, progress)
        self._queue_local_changes(clock)
        for number, (device, seq, records) in enumerate(incoming, 1):
            self._apply_batch(device, seq, records, clock, report)
            progress("merge", number, len(incoming))
        self._retry_deferred(clock, report)
        self._upload(report, progress)
        report.finished_at = time.time()
        report.deferred = int(self.store._read("SELECT COUNT(*) FROM sync_deferred")[0][0])

        def finish(db: sqlite3.Connection) -> None:
            self._set_meta(db, "hlc", clock.state())
            self._set_meta(db, "last_sync", str(report.finished_at))
            self._set_meta(db, "last_error", "; ".join(report.problems))

        self.store._write(finish, "the sync status was not saved")
        return report

    def _cursors(self) -> dict[str, int]:
        return {r[0]: int(r[1]) for r in self.store._read("SELECT device, seq FROM sync_cursors")}

    def _download(self, report: SyncReport, clock: HybridClock,
                  progress: Progress) -> list[tuple[str, int, list[Record] | None]]:
        cursors = self._cursors()
        wanted: list[tuple[str, int, str]] = []
        for key in self.target.list("log/"):
            parts = key.split("/")
            if len(parts) != 3 or parts[1] == self.device or not parts[2].endswith(".batch"):
                continue
            try:
                seq = int(parts[2][:-6])
            except ValueError:
                continue
            if seq > cursors.get(parts[1], 0):
                wanted.append((parts[1], seq, key))
        wanted.sort()
        got: list[tuple[str, int, list[Record] | None]] = []
        for number, (device, seq, key) in enumerate(wanted, 1):
            try:
                payload = json.loads(crypto.open_sealed(self.key, key, self.target.get(key)))
                if payload.get("format") != BATCH_FORMAT or payload.get("device") != device or payload.get(
                        "seq") != seq:
                    raise crypto.TamperedObject(f"{key}: its content does not belong at this name")
                records = [r for r in payload.get("records", []) if isinstance(r, dict)]
                for record in records:
                    clock.receive(str(record.get("h", "")))
                self._fetch_blobs(records, report)
                got.append((device, seq, records))
            except (crypto.SyncCryptoError, ValueError) as exc:
                report.problems.append(str(exc))
                log.warning("sync: skipped %s: %s", key, exc)
                got.append((device, seq, None))  # skipped, but the cursor moves past it
            except ObjectMissing:
                break  # listed but gone (pruned meanwhile): the next run lists again
            report.downloaded_batches += 1
            progress("download", number, len(wanted))
        return got

    def _fetch_blobs(self, records: list[Record], report: SyncReport) -> None:
        for record in records:
            for item in _attachments_of(record):
                digest = str(item.get("hash", ""))
                try:
                    if self.files.exists(digest):
                        continue
                    name = f"blobs/{crypto.blob_name(self.key, digest)}"
                    data = crypto.open_sealed(self.key, name, self.target.get(name))
                except ValueError:
                    report.problems.append(f"a message names an attachment that is not a content hash: {digest!r}")
                    continue
                except (crypto.SyncCryptoError, ObjectMissing) as exc:
                    report.problems.append(f"attachment {digest[:12]}: {exc}")
                    continue
                if hashlib.sha256(data).hexdigest() != digest:
                    report.problems.append(f"attachment {digest[:12]}: its content does not match its hash; skipped")
                    continue
                self.files.put(data, digest)

    def _queue_local_changes(self, clock: HybridClock) -> None:
        started = time.time()
        last_scan, last_full = float(self._meta("scanned_at") or 0), float(self._meta("full_scan_at") or 0)
        full = not last_scan or started - last_full >= FULL_SCAN_EVERY_S or started < last_scan
        since = None if full else last_scan - RESCAN_MARGIN_S

        def work(db: sqlite3.Connection) -> int:
            self._set_meta(db, "scanned_at", str(started))
            if full:
                self._set_meta(db, "full_scan_at", str(started))
            records = list(scan(db, clock.tick, messages_since=since))
            if not records:
                return 0
            row = db.execute("SELECT value FROM sync_meta WHERE key = 'next_seq'").fetchone()
            seq = int(row[0]) if row else 1
            now = time.time()
            for start in range(0, len(records), BATCH_RECORDS):
                chunk = records[start:start + BATCH_RECORDS]
                payload = {"format": BATCH_FORMAT, "device": self.device, "seq": seq, "records": chunk}
                db.execute("INSERT INTO sync_outbox (seq, payload, created_at) VALUES (?, ?, ?)",
                           (seq, json.dumps(payload, ensure_ascii=False).encode(), now))
                seq += 1
            self._set_meta(db, "next_seq", str(seq))
            self._set_meta(db, "hlc", clock.state())
            return len(records)

        self.store._write(work, "the list of changes to sync was not saved")

    def _merge(self, db: sqlite3.Connection, records: list[Record], report: SyncReport) -> Merger:
        merger = Merger(db, reindex_memory=self._memories._reindex)
        for record in records:
            try:
                merger.apply(record)
            except Deferred:
                key = f"{record.get('g')}@{record.get('h')}"
                db.execute("INSERT OR REPLACE INTO sync_deferred (gid, record, since) VALUES (?, ?, ?)",
                           (key, json.dumps(record, ensure_ascii=False), time.time()))
                report.deferred += 1
            except (KeyError, TypeError, IndexError, ValueError, AttributeError, sqlite3.IntegrityError) as exc:
                report.problems.append(f"a {record.get('k')} record from another device could not be merged "
                                       f"({exc.__class__.__name__}: {exc}); skipped")
        if merger.conflicts:  # kept in the same transaction as the merge that made them
            row = db.execute("SELECT value FROM sync_meta WHERE key = 'conflicts'").fetchone()
            kept = (json.loads(row[0]) if row else []) + merger.conflicts
            self._set_meta(db, "conflicts", json.dumps(kept[-MAX_CONFLICTS:], ensure_ascii=False))
            report.conflicts += len(merger.conflicts)
        return merger

    def _apply_batch(self, device: str, seq: int, records: list[Record] | None, clock: HybridClock,
                     report: SyncReport) -> None:
        def work(db: sqlite3.Connection) -> Merger | None:
            merger = self._merge(db, records, report) if records else None
            db.execute("INSERT INTO sync_cursors (device, seq) VALUES (?, ?) ON CONFLICT(device) DO UPDATE SET "
                       "seq = MAX(seq, excluded.seq)", (device, seq))
            return merger

        merger = self.store._write(work, "changes from another device were not merged")
        if merger is not None:
            report.applied += merger.changed
            report.branched.extend(sorted(merger.branched - set(report.branched)))
            self.files.delete(merger.purged_attachments)

    def _retry_deferred(self, clock: HybridClock, report: SyncReport) -> None:
        for _ in range(8):
            rows = self.store._read("SELECT gid, record FROM sync_deferred ORDER BY since, gid")
            if not rows:
                return
            records = [json.loads(r[1]) for r in rows]
            keys = [r[0] for r in rows]

            def work(db: sqlite3.Connection) -> Merger:
                db.execute(f"DELETE FROM sync_deferred WHERE gid IN ({','.join('?' * len(keys))})", keys)
                records.sort(key=lambda r: (r.get("k") != "session", (r.get("c") or {}).get("depth") or 0))
                return self._merge(db, records, report)

            merger = self.store._write(work, "changes from another device were not merged")
            report.applied += merger.changed
            report.branched.extend(sorted(merger.branched - set(report.branched)))
            if merger.changed == 0:
                return

    def _upload(self, report: SyncReport, progress: Progress) -> None:
        rows = self.store._read("SELECT seq, payload FROM sync_outbox ORDER BY seq")
        if not rows:
            return
        remote_blobs = set(self.target.list("blobs/"))
        for number, row in enumerate(rows, 1):
            seq, payload = int(row[0]), bytes(row[1])
            for record in json.loads(payload)["records"]:
                for item in _attachments_of(record):
                    name = f"blobs/{crypto.blob_name(self.key, item['hash'])}"
                    if name in remote_blobs:
                        continue
                    data = self.files.read(item["hash"])
                    if data is None:
                        report.problems.append(f"attachment {item['hash'][:12]} is missing here; not uploaded")
                        continue
                    sealed = crypto.seal(self.key, name, data)
                    self.target.put(name, sealed)
                    remote_blobs.add(name)
                    report.uploaded_bytes += len(sealed)
            key = _batch_key(self.device, seq)
            sealed = crypto.seal(self.key, key, payload)
            self.target.put(key, sealed)
            self.store._write(lambda db: db.execute("DELETE FROM sync_outbox WHERE seq = ?", (seq,)),
                              "the sync outbox was not updated")
            report.uploaded_batches += 1
            report.uploaded_bytes += len(sealed)
            progress("upload", number, len(rows))


__all__ = ["SyncEngine", "SyncReport", "TargetError"]

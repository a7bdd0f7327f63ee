"""Backups: a sealed snapshot of everything that is the user's, the list of them, preview, restore, retention.

A backup is a manifest (`backups/<device>/<id>.manifest`) naming sealed blobs in the same device's folder
(`backups/<device>/blobs/<keyed hash>`): the database, taken with SQLite's online backup API from a connection of
its own (a consistent copy while the window writes; never a copy of the live file and its WAL), each attachment
file once per content (a second backup uploads only what is new), settings.json and mcp.json with secret-looking
values blanked. Keys and tokens are never in a backup: they stay in the keyring, and a restore on a new machine
asks for them. Each device writes and prunes only its own folder, so two devices never touch each other's files.

A restore first takes a backup of what is here now into `<data>/sync-safety/` (same format, same key), then
copies the backup's database in through the backup API (so an open window's connection sees a whole database),
adds the attachment files, and writes settings.json and mcp.json. It never runs without the caller's yes, which
the command line and the window ask for after showing `preview`.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import sqlite3
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from hermes_desktop import __version__
from hermes_desktop.core.attachments import AttachmentFiles
from hermes_desktop.core.paths import AppPaths
from hermes_desktop.core.sync import crypto
from hermes_desktop.core.sync.target import FolderTarget, ObjectMissing, Target, TargetError

MANIFEST_FORMAT = "hermes-backup/1"
SAFETY_FOLDER = "sync-safety"
Progress = Callable[[str, int, int], None]
"""(what, done, total): bytes or items, for a progress bar."""

_SECRET_NAME = re.compile(r"(key|token|secret|password|passwd|auth|cookie|credential)", re.IGNORECASE)
_ID = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{6}")


class BackupError(Exception):
    """A backup or restore that could not be done; nothing here was changed."""


@dataclass(frozen=True, slots=True)
class BackupInfo:
    id: str
    device_id: str
    device: str
    created: float
    contents: dict[str, Any]
    key: str  # the manifest's object key
    problem: str = ""  # set when the manifest could not be opened (tampered, another key)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "device": self.device, "device_id": self.device_id, "created": self.created,
                "contents": self.contents, **({"problem": self.problem} if self.problem else {})}


@dataclass(slots=True)
class RestoreReport:
    safety_backup: str
    sessions: int = 0
    attachments_written: int = 0
    skipped: list[str] = field(default_factory=list)


def _noop(what: str, done: int, total: int) -> None:
    return None


def device_id(data_dir: Path) -> str:
    """This installation's id for backups (6 hex characters, kept in `<data>/device-id`)."""
    path = data_dir / "device-id"
    try:
        value = path.read_text().strip()
        if re.fullmatch(r"[0-9a-f]{6}", value):
            return value
    except OSError:
        pass
    value = uuid.uuid4().hex[:6]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value + "\n")
    return value


def snapshot_database(database: Path, destination: Path) -> None:
    """A consistent copy of `database` through SQLite's online backup API (WAL content included)."""
    source = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        target = sqlite3.connect(destination)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def scrub_secrets(value: Any, name: str = "") -> Any:
    """settings.json / mcp.json with every value under a secret-looking name blanked, except `${secret:…}`
    references (which point into the keyring and carry no secret)."""
    if isinstance(value, dict):
        return {k: scrub_secrets(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_secrets(v, name) for v in value]
    if isinstance(value, str) and _SECRET_NAME.search(name) and value and "${secret:" not in value:
        return ""
    return value


def _counts(database: Path) -> dict[str, Any]:
    db = sqlite3.connect(database)
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        counts: dict[str, Any] = {}
        if "sessions" in tables:
            counts["sessions"] = db.execute("SELECT COUNT(*) FROM sessions WHERE deleted_at IS NULL").fetchone()[0]
            counts["trashed_sessions"] = db.execute(
                "SELECT COUNT(*) FROM sessions WHERE deleted_at IS NOT NULL").fetchone()[0]
            counts["messages"] = db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
        if "memories" in tables:
            counts["memories"] = dict(db.execute("SELECT state, COUNT(*) FROM memories GROUP BY state").fetchall())
        counts["schema"] = db.execute("PRAGMA user_version").fetchone()[0]
        return counts
    finally:
        db.close()


class Backups:
    """Backups of one installation (`paths`) on one target, sealed with `key`."""

    def __init__(self, paths: AppPaths, target: Target, key: bytes, *, device_name: str | None = None) -> None:
        self.paths, self.target, self.key = paths, target, key
        self.device_id = device_id(paths.data_dir)
        self.device_name = device_name or socket.gethostname()

    def _folder(self, device: str | None = None) -> str:
        return f"backups/{device or self.device_id}"

    def _put_blob(self, folder: str, data: bytes, existing: set[str]) -> tuple[str, bool]:
        digest = hashlib.sha256(data).hexdigest()
        name = f"{folder}/blobs/{crypto.blob_name(self.key, digest)}"
        if name in existing:
            return name, False
        self.target.put(name, crypto.seal(self.key, name, data))
        existing.add(name)
        return name, True

    # ------------------------------------------------------------------------------------------ making one
    def make(self, progress: Progress = _noop, *, now: float | None = None) -> BackupInfo:
        created = time.time() if now is None else now
        stamp = datetime.fromtimestamp(created, timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        backup_id = f"{stamp}-{self.device_id}"
        folder = self._folder()
        existing = set(self.target.list(f"{folder}/blobs/"))
        with tempfile.TemporaryDirectory(prefix="hermes-backup-", dir=self.paths.data_dir) as work:
            copy = Path(work) / "hermes.db"
            progress("database", 0, 1)
            if self.paths.database.is_file():
                snapshot_database(self.paths.database, copy)
            else:
                sqlite3.connect(copy).close()
            contents = _counts(copy)
            data = copy.read_bytes()
            db_blob, _ = self._put_blob(folder, data, existing)
            progress("database", 1, 1)
            manifest: dict[str, Any] = {
                "format": MANIFEST_FORMAT, "id": backup_id, "created": created, "device": self.device_name,
                "device_id": self.device_id, "app_version": __version__,
                "db": {"blob": db_blob, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)},
                "files": {}, "attachments": []}
            del data
            files = AttachmentFiles(self.paths.data_dir / "attachments")
            hashes = self._attachment_hashes(copy)
            total = len(hashes)
            sent = 0
            for number, digest in enumerate(hashes, 1):
                body = files.read(digest)
                if body is None:  # missing or damaged here: the backup says so instead of failing
                    manifest.setdefault("missing_attachments", []).append(digest)
                    continue
                blob, uploaded = self._put_blob(folder, body, existing)
                sent += len(body) if uploaded else 0
                manifest["attachments"].append({"sha256": digest, "size": len(body), "blob": blob})
                progress("attachments", number, total)
        for name, path in (("settings.json", self.paths.settings_file), ("mcp.json", self.paths.mcp_config_file)):
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            try:
                body = json.dumps(scrub_secrets(json.loads(text)), indent=2, ensure_ascii=False).encode()
            except ValueError:
                continue  # a hand-broken file is not carried to the next machine
            blob, _ = self._put_blob(folder, body, existing)
            manifest["files"][name] = {"blob": blob, "sha256": hashlib.sha256(body).hexdigest()}
        contents["attachments"] = len(manifest["attachments"])
        contents["attachment_bytes"] = sum(a["size"] for a in manifest["attachments"])
        contents["files"] = sorted(manifest["files"])
        manifest["contents"] = contents
        key = f"{folder}/{backup_id}.manifest"
        self.target.put(key, crypto.seal(self.key, key, json.dumps(manifest).encode()))  # published last
        return BackupInfo(backup_id, self.device_id, self.device_name, created, contents, key)

    @staticmethod
    def _attachment_hashes(database: Path) -> list[str]:
        db = sqlite3.connect(database)
        try:
            if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'attachments'").fetchone():
                return []
            return [r[0] for r in db.execute("SELECT hash FROM attachments ORDER BY hash")]
        finally:
            db.close()

    # ------------------------------------------------------------------------------------------ reading
    def _manifest(self, key: str) -> dict[str, Any]:
        manifest = json.loads(crypto.open_sealed(self.key, key, self.target.get(key)))
        if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
            raise crypto.TamperedObject(f"{key}: not a Hermes backup manifest")
        return manifest

    def list(self) -> list[BackupInfo]:
        """Every device's backups on the target, newest first; one that does not open is listed with its problem."""
        found = []
        for key in self.target.list("backups/"):
            parts = key.split("/")
            if len(parts) != 3 or not parts[2].endswith(".manifest") or not _ID.fullmatch(parts[2][:-9]):
                continue
            backup_id = parts[2][:-9]
            created = datetime.strptime(backup_id[:16], "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc).timestamp()
            try:
                manifest = self._manifest(key)
                found.append(BackupInfo(backup_id, parts[1], str(manifest.get("device", "")), created,
                                        dict(manifest.get("contents", {})), key))
            except (crypto.SyncCryptoError, ValueError, ObjectMissing) as exc:
                found.append(BackupInfo(backup_id, parts[1], "", created, {}, key, problem=str(exc)))
        return sorted(found, key=lambda b: (b.created, b.id), reverse=True)

    def find(self, backup_id: str) -> BackupInfo:
        for info in self.list():
            if info.id == backup_id:
                return info
        raise BackupError(f"no backup {backup_id!r} on {self.target.describe()} (see `hermes-desktop backup list`)")

    def preview(self, backup_id: str) -> dict[str, Any]:
        """What the backup holds (counts, files, when, which device), for the user to read before a restore."""
        info = self.find(backup_id)
        if info.problem:
            raise BackupError(f"backup {backup_id} cannot be opened: {info.problem}")
        return info.to_json()

    # ------------------------------------------------------------------------------------------ restoring
    def restore(self, backup_id: str, progress: Progress = _noop) -> RestoreReport:
        """Replace this installation's history, attachments, settings.json and mcp.json with the backup's,
        after a safety backup of what is here now (see the module docstring). The caller has asked the user."""
        from hermes_desktop.core.storage.migrations import LATEST_VERSION

        info = self.find(backup_id)
        if info.problem:
            raise BackupError(f"backup {backup_id} cannot be opened: {info.problem}")
        manifest = self._manifest(info.key)
        self.paths.data_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="hermes-restore-", dir=self.paths.data_dir) as work:
            incoming = Path(work) / "hermes.db"
            progress("database", 0, 1)
            data = self._blob(manifest["db"]["blob"], manifest["db"]["sha256"])
            incoming.write_bytes(data)
            del data
            db = sqlite3.connect(incoming)
            try:
                ok = db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                version = db.execute("PRAGMA user_version").fetchone()[0]
            finally:
                db.close()
            if not ok:
                raise BackupError(f"backup {backup_id}'s database fails SQLite's integrity check; nothing restored")
            if version > LATEST_VERSION:
                raise BackupError(f"backup {backup_id} was made by a newer Hermes Desktop (schema {version}, this "
                                  f"one knows {LATEST_VERSION}); update first. Nothing restored")
            # Fetch every attachment before anything here changes: a tampered or missing one is reported, the rest
            # go in.
            skipped: list[str] = []
            bodies: list[tuple[str, bytes]] = []
            files = AttachmentFiles(self.paths.data_dir / "attachments")
            wanted = [a for a in manifest.get("attachments", []) if not files.exists(a["sha256"])]
            for number, item in enumerate(wanted, 1):
                try:
                    bodies.append((item["sha256"], self._blob(item["blob"], item["sha256"])))
                except (crypto.SyncCryptoError, TargetError, BackupError) as exc:
                    skipped.append(f"attachment {item['sha256'][:12]}: {exc}")
                progress("attachments", number, len(wanted))
            config_files = {}
            for name, item in manifest.get("files", {}).items():
                if name in ("settings.json", "mcp.json"):
                    try:
                        config_files[name] = self._blob(item["blob"], item["sha256"])
                    except (crypto.SyncCryptoError, TargetError, BackupError) as exc:
                        skipped.append(f"{name}: {exc}")
            (self.paths.data_dir / SAFETY_FOLDER).mkdir(exist_ok=True)
            safety = Backups(self.paths, FolderTarget(self.paths.data_dir / SAFETY_FOLDER), self.key,
                             device_name=self.device_name).make()
            for digest, body in bodies:
                files.put(body, digest)
            _copy_database_in(incoming, self.paths.database)
            progress("database", 1, 1)
        for name, body in config_files.items():
            path = self.paths.config_dir / name
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{name}.restoring")
            tmp.write_bytes(body)
            tmp.replace(path)
        return RestoreReport(safety.id, int(manifest.get("contents", {}).get("sessions", 0)), len(bodies), skipped)

    def _blob(self, name: str, sha256: str) -> bytes:
        if not name.startswith("backups/") or "/blobs/" not in name:
            raise crypto.TamperedObject(f"the manifest names an object outside the backups: {name}")
        data = crypto.open_sealed(self.key, name, self.target.get(name))
        if hashlib.sha256(data).hexdigest() != sha256:
            raise crypto.TamperedObject(f"{name}: its content does not match the manifest")
        return data

    # ------------------------------------------------------------------------------------------ retention
    def prune(self, keep_daily: int, keep_weekly: int) -> list[str]:
        """Delete this device's backups beyond the newest of each of the last `keep_daily` days and of each of the
        last `keep_weekly` ISO weeks (always keeping the newest), then the blobs no kept manifest names. Returns the
        ids deleted. Other devices' backups are never touched."""
        mine = [b for b in self.list() if b.device_id == self.device_id and not b.problem]
        keep = {b.id for b in retained(mine, keep_daily, keep_weekly)}
        deleted = []
        for info in mine:
            if info.id not in keep:
                self.target.delete(info.key)
                deleted.append(info.id)
        if deleted:
            referenced: set[str] = set()
            for info in mine:
                if info.id in keep:
                    manifest = self._manifest(info.key)
                    referenced.add(manifest["db"]["blob"])
                    referenced.update(a["blob"] for a in manifest.get("attachments", []))
                    referenced.update(f["blob"] for f in manifest.get("files", {}).values())
            for blob in self.target.list(f"{self._folder()}/blobs/"):
                if blob not in referenced:
                    self.target.delete(blob)
        return deleted


def retained(backups: list[BackupInfo], keep_daily: int, keep_weekly: int) -> list[BackupInfo]:
    """The backups retention keeps: the newest of each of the newest `keep_daily` days, of each of the newest
    `keep_weekly` ISO weeks, and the newest of all."""
    ordered = sorted(backups, key=lambda b: b.created, reverse=True)
    kept: dict[str, BackupInfo] = {}
    days: dict[str, BackupInfo] = {}
    weeks: dict[tuple[int, int], BackupInfo] = {}
    for b in ordered:
        moment = datetime.fromtimestamp(b.created, timezone.utc)
        days.setdefault(moment.date().isoformat(), b)
        weeks.setdefault(tuple(moment.isocalendar())[:2], b)  # type: ignore[arg-type]
    for b in list(days.values())[:keep_daily]:
        kept[b.id] = b
    for b in list(weeks.values())[:keep_weekly]:
        kept[b.id] = b
    if ordered:
        kept[ordered[0].id] = ordered[0]
    return sorted(kept.values(), key=lambda b: b.created, reverse=True)


def _copy_database_in(incoming: Path, database: Path) -> None:
    """Put `incoming` in place of `database` through the backup API (a window's open connection sees the whole
    new database on its next read), starting its sync state afresh: the restored rows are sent again once
    (merging by global id makes that harmless). The sync device id is the data folder's `device-id` file, not in
    the database, so a backup made on another device never makes this one write to that device's log."""
    source = sqlite3.connect(incoming)
    target = sqlite3.connect(database, timeout=30)
    try:
        source.backup(target)
        if target.execute("SELECT 1 FROM sqlite_master WHERE name = 'sync_meta'").fetchone():
            with target:
                for table in ("sync_meta", "sync_fields", "sync_cursors", "sync_outbox", "sync_deferred"):
                    target.execute(f"DELETE FROM {table}")
    finally:
        target.close()
        source.close()

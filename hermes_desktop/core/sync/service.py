"""What the command line and the window call: set up a target, sync now, back up, list, preview, restore.

Secrets come in as arguments (the caller asked the terminal or a dialog, or read HERMES_SYNC_PASSWORD /
HERMES_SYNC_PASSPHRASE) and go to the keyring under `sync:<target>:…`; they are never written to sync.json, a log
or a backup. A keyring that is not persistent is refused (fail-closed): the key would be lost at exit and the
next sync could not open the backups. Everything here blocks: the window calls it from an executor.
"""

from __future__ import annotations

import json

from dataclasses import replace
from typing import Any

from hermes_desktop.core.paths import AppPaths
from hermes_desktop.core.secrets import SecretStore
from hermes_desktop.core.sync import keys
from hermes_desktop.core.sync.backup import BackupInfo, Backups, Progress, RestoreReport, _noop
from hermes_desktop.core.sync.config import (
    SyncConfig, key_name, load_config, open_target, password_name, save_config,
)
from hermes_desktop.core.sync.engine import SyncEngine, SyncReport
from hermes_desktop.core.sync.target import Target, TargetError
from hermes_desktop.core.i18n import _


class SyncSetupError(Exception):
    """Setup refused; nothing was saved."""


class SyncService:
    def __init__(self, paths: AppPaths, secrets: SecretStore) -> None:
        self.paths, self.secrets = paths, secrets

    @property
    def config(self) -> SyncConfig:
        return load_config(self.paths.config_dir)

    def save_config(self, config: SyncConfig) -> None:
        save_config(self.paths.config_dir, config)

    # ------------------------------------------------------------------ setup
    def test_connection(self, config: SyncConfig, password: str | None) -> str:
        """Reach the target and read its keyinfo.json (one request); returns a one-line description, raises
        TargetError with the reason. A folder target's own folder is made, but never its parent: an external disk
        that is not plugged in is an error, not a new folder on the system disk where its mount point would be."""
        if config.kind == "folder":
            from pathlib import Path

            folder = Path(config.url).expanduser()
            if not folder.parent.is_dir():
                raise TargetError(f"the folder {folder.parent} is not there (is the disk connected?)")
            try:
                folder.mkdir(exist_ok=True)
            except OSError as exc:
                raise TargetError(f"cannot make the folder {folder}: {exc.strerror or exc}") from exc
        target = open_target(config, password)
        try:
            has = keys.read_keyinfo(target) is not None
            return f"{target.describe()}: reachable; " + ("it holds Hermes backups" if has else "empty (new)")
        finally:
            target.close()

    def setup(self, config: SyncConfig, password: str | None, passphrase: str | None, *,
              scrypt_n: int | None = None) -> str:
        """Check the target, make or open its key, then save everything. Returns the recovery code."""
        if not self.secrets.is_persistent:
            raise SyncSetupError(_("no system keyring is available, so the sync key could not be kept; set up a "
                                   "keyring (see `hermes-desktop doctor`) and try again"))
        self.test_connection(config, password)
        target = open_target(config, password)
        try:
            extra = {} if scrypt_n is None else {"scrypt_n": scrypt_n}
            key, code = keys.setup_key(target, passphrase, **extra)
        finally:
            target.close()
        if password:
            self.secrets.set(password_name(config.kind), password)
        self.secrets.set(key_name(config.kind), keys.encode_key(key))
        self.save_config(config)
        return code

    def update_schedule(self, **changes: Any) -> SyncConfig:
        config = replace(self.config, **changes)
        self.save_config(config)
        return config

    # ------------------------------------------------------------------ using it
    def open(self) -> tuple[Target, bytes]:
        config = self.config
        if not config.configured:
            raise TargetError(_("sync is not set up: run `hermes-desktop sync setup …` or use Settings › Backup & "
                                "sync"))
        target = open_target(config, self.secrets.get(password_name(config.kind)))
        try:
            return target, keys.stored_key(target, self.secrets.get(key_name(config.kind)))
        except BaseException:
            target.close()
            raise

    def sync_now(self, store: Any, progress: Progress = _noop) -> SyncReport:
        target, key = self.open()
        engine = SyncEngine(store, target, key)
        try:
            return engine.run(progress)
        except (TargetError, OSError) as exc:
            engine.record_error(str(exc))
            raise
        finally:
            target.close()

    def status(self, store: Any | None) -> dict[str, Any]:
        config = self.config
        result: dict[str, Any] = {"configured": config.configured, "target": config.describe(),
                                  "kind": config.kind, "schedule_hours": config.schedule_hours,
                                  "keep_daily": config.keep_daily, "keep_weekly": config.keep_weekly}
        if store is not None and config.configured:
            from hermes_desktop.core.sync.backup import device_id

            rows = store._read("SELECT key, value FROM sync_meta")
            meta = {r[0]: r[1] for r in rows}
            result.update({"device": device_id(self.paths.data_dir),
                           "last_sync": float(meta["last_sync"]) if meta.get("last_sync") else None,
                           "last_error": meta.get("last_error", ""),
                           "pending_batches": int(store._read("SELECT COUNT(*) FROM sync_outbox")[0][0]),
                           "deferred": int(store._read("SELECT COUNT(*) FROM sync_deferred")[0][0]),
                           "conflicts": json.loads(meta.get("conflicts") or "[]")})
        return result

    def clear_conflicts(self, store: Any) -> None:
        """The user has read the conflicts list (Settings › Backup & sync › Clear)."""
        store._write(lambda db: db.execute("DELETE FROM sync_meta WHERE key = 'conflicts'"),
                     "the list of conflicts was not cleared")

    def _backups(self) -> tuple[Backups, Target]:
        target, key = self.open()
        return Backups(self.paths, target, key, device_name=self.config.device_name), target

    def backup_now(self, progress: Progress = _noop) -> tuple[BackupInfo, list[str]]:
        """A new backup, then retention on this device's backups. Returns it and the ids pruned."""
        backups, target = self._backups()
        try:
            made = backups.make(progress)
            config = self.config
            return made, backups.prune(config.keep_daily, config.keep_weekly)
        finally:
            target.close()

    def list_backups(self) -> list[BackupInfo]:
        backups, target = self._backups()
        try:
            return backups.list()
        finally:
            target.close()

    def preview(self, backup_id: str) -> dict[str, Any]:
        backups, target = self._backups()
        try:
            return backups.preview(backup_id)
        finally:
            target.close()

    def restore(self, backup_id: str, progress: Progress = _noop) -> RestoreReport:
        backups, target = self._backups()
        try:
            return backups.restore(backup_id, progress)
        finally:
            target.close()

"""The sync settings (`sync.json` beside settings.json: never a secret) and the keyring names for the rest.

sync.json holds which target (its kind and address, the S3 access key id, which AWS does not treat as secret),
this device's display name, the schedule and the retention. The WebDAV password, the S3 secret key and the
encryption key live in the keyring as `sync:<target>:password`, `sync:<target>:secret_key`, `sync:<target>:key`
(`<target>` is the kind: folder, webdav, s3). A restore on a new machine asks for them again.
"""

from __future__ import annotations

import json
import socket
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hermes_desktop.core.settings import replace_atomically
from hermes_desktop.core.sync.target import FolderTarget, Target, TargetError
from hermes_desktop.core.i18n import _

CONFIG_NAME = "sync.json"
KINDS = ("folder", "webdav", "s3")


def key_name(kind: str) -> str:
    return f"sync:{kind}:key"


def password_name(kind: str) -> str:
    return f"sync:{kind}:secret_key" if kind == "s3" else f"sync:{kind}:password"


@dataclass(slots=True)
class SyncConfig:
    kind: str = ""  # "" = not set up
    url: str = ""  # WebDAV URL, S3 endpoint, or the folder's path
    user: str = ""  # WebDAV user, or S3 access key id
    bucket: str = ""
    region: str = "us-east-1"
    addressing: str = "auto"
    device_name: str = field(default_factory=socket.gethostname)
    schedule_hours: int = 24  # 0 = only by hand
    keep_daily: int = 7
    keep_weekly: int = 4
    backup_at_quit: bool = False  # a backup when the window closes (bounded: ui/sync_actions.backup_at_quit)

    @property
    def configured(self) -> bool:
        return self.kind in KINDS and bool(self.url)

    def describe(self) -> str:
        if self.kind == "s3":
            return f"S3 {self.url} bucket {self.bucket}"
        return {"webdav": "WebDAV", "folder": "folder"}.get(self.kind, "not set up") + (f" {self.url}" if self.url
                                                                                      else "")


def _clamp(value: Any, default: int, low: int, high: int) -> int:
    return min(max(value, low), high) if isinstance(value, int) and not isinstance(value, bool) else default


def load_config(config_dir: Path) -> SyncConfig:
    """sync.json as a SyncConfig; a missing or hand-broken file reads as not set up (never raises)."""
    try:
        raw = json.loads((config_dir / CONFIG_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return SyncConfig()
    if not isinstance(raw, dict):
        return SyncConfig()
    made = SyncConfig()
    for name in ("kind", "url", "user", "bucket", "region", "addressing", "device_name"):
        if isinstance(raw.get(name), str):
            setattr(made, name, raw[name])
    made.schedule_hours = _clamp(raw.get("schedule_hours"), 24, 0, 24 * 30)
    made.keep_daily = _clamp(raw.get("keep_daily"), 7, 1, 365)
    made.keep_weekly = _clamp(raw.get("keep_weekly"), 4, 0, 520)
    made.backup_at_quit = raw.get("backup_at_quit") is True
    if made.kind not in KINDS:
        made.kind = ""
    return made


def save_config(config_dir: Path, config: SyncConfig) -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    text = json.dumps(asdict(config), indent=2, ensure_ascii=False)
    replace_atomically(config_dir / CONFIG_NAME, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def open_target(config: SyncConfig, password: str | None) -> Target:
    """The target sync.json names, with its password or secret key (from the keyring or the environment)."""
    if config.kind == "folder":
        return FolderTarget(Path(config.url).expanduser())
    if config.kind == "webdav":
        from hermes_desktop.core.sync.webdav import WebDAVTarget

        return WebDAVTarget(config.url, config.user or None, password)
    if config.kind == "s3":
        from hermes_desktop.core.sync.s3 import S3Target

        if not password or not config.user:
            raise TargetError("the S3 target needs its access key id and secret key: run `hermes-desktop sync "
                              "setup s3` again")
        return S3Target(config.url, config.bucket, config.user, password, region=config.region,
                        addressing=config.addressing)
    raise TargetError(_("sync is not set up: run `hermes-desktop sync setup folder|webdav|s3 ...` or use "
                        "Settings › Backup & sync"))

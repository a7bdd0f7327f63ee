"""`hermes-desktop sync …` and `hermes-desktop backup …`: encrypted backup and two-way sync from the terminal.

- `sync setup webdav URL [--user NAME]`, `sync setup s3 --endpoint URL --bucket NAME [--region R]
  [--access-key ID] [--addressing auto|path|virtual]`, and (an addition to the contract) `sync setup folder PATH`
  for an external disk. The WebDAV password / S3 secret key and the passphrase are asked on the terminal, or read
  from HERMES_SYNC_PASSWORD and HERMES_SYNC_PASSPHRASE for scripts; they go to the keyring (`sync:<target>:…`).
  An empty passphrase makes a random key. The recovery code is printed once on stdout: keep it on paper.
- `sync now` syncs this device with the target; `sync status [--json]` says when it last did and what is pending.
- `backup now` makes a backup (then applies retention), `backup list [--json]` lists every device's backups,
  `backup restore ID [--yes]` shows what the backup holds and restores it after a yes (typed, or `--yes`); without
  a terminal and without --yes it refuses (exit 2): a restore never overwrites silently.
Progress goes to stderr, results to stdout. Exit codes as in cli.py: 0 done, 1 failed (the reason is printed),
2 bad usage or refused, 130 interrupted.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from datetime import datetime
from typing import Any, Callable

from hermes_desktop.core.i18n import _

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def add_parser(commands: Any) -> None:
    sync = commands.add_parser("sync", help=_("two-way sync of your history through WebDAV, S3 or a folder"))
    actions = sync.add_subparsers(dest="action", metavar="ACTION", required=True)
    setup = actions.add_parser("setup", help=_("choose where to sync and back up (asks for the passphrase)"))
    kinds = setup.add_subparsers(dest="kind", metavar="TARGET", required=True)
    webdav = kinds.add_parser("webdav", help=_("a WebDAV folder (Nextcloud, 坚果云, Synology…)"))
    webdav.add_argument("url")
    webdav.add_argument("--user")
    s3 = kinds.add_parser("s3", help=_("an S3-compatible bucket (AWS, R2, MinIO, OSS, COS)"))
    s3.add_argument("--endpoint", required=True)
    s3.add_argument("--bucket", required=True)
    s3.add_argument("--region", default="us-east-1")
    s3.add_argument("--access-key", help=_("access key id (asked when missing)"))
    s3.add_argument("--addressing", choices=("auto", "path", "virtual"), default="auto")
    folder = kinds.add_parser("folder", help=_("a folder, e.g. on an external disk"))
    folder.add_argument("path")
    actions.add_parser("now", help=_("sync this device now"))
    status = actions.add_parser("status", help=_("last sync, pending changes, last error"))
    status.add_argument("--json", action="store_true")

    backup = commands.add_parser("backup", help=_("encrypted backups: make, list, restore"))
    backup_actions = backup.add_subparsers(dest="action", metavar="ACTION", required=True)
    backup_actions.add_parser("now", help=_("back up now (then keep the last daily and weekly ones)"))
    listing = backup_actions.add_parser("list", help=_("every device's backups, newest first"))
    listing.add_argument("--json", action="store_true")
    restore = backup_actions.add_parser("restore", help=_("restore a backup (asks first)"))
    restore.add_argument("id")
    restore.add_argument("--yes", action="store_true", help=_("do not ask"))


def _progress(stream: Any = sys.stderr) -> Callable[[str, int, int], None]:
    def show(what: str, done: int, total: int) -> None:
        what = {"database": _("database"), "attachments": _("attachments"), "download": _("download"),
                "merge": _("merge"), "upload": _("upload")}.get(what, what)  # core/sync's stages
        stream.write("\r" + _("{what}: {done}/{total}").format(what=what, done=done, total=total) + (" " * 8) + ("\n" if done >= total else ""))
        stream.flush()

    return show


def _secret(env_name: str, prompt: str, *, confirm: bool = False) -> str | None:
    value = os.environ.get(env_name)
    if value is not None:
        return value
    if not sys.stdin.isatty():
        return None
    first = getpass.getpass(prompt)
    if confirm and first:
        if getpass.getpass(_("Type it again: ")) != first:
            raise ValueError(_("the two passphrases differ; nothing was saved"))
    return first


def _service() -> Any:
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.secrets import open_secret_store
    from hermes_desktop.core.sync.service import SyncService

    return SyncService(app_paths(), open_secret_store()[0])


def run(args: argparse.Namespace) -> int:
    from hermes_desktop.core.secrets import SecretStoreError
    from hermes_desktop.core.storage.errors import StorageError
    from hermes_desktop.core.sync.backup import BackupError
    from hermes_desktop.core.sync.crypto import SyncCryptoError
    from hermes_desktop.core.sync.service import SyncSetupError
    from hermes_desktop.core.sync.target import TargetError

    try:
        service = _service()
        if args.command == "sync":
            if args.action == "setup":
                return _setup(service, args)
            if args.action == "now":
                return _now(service)
            return _status(service, args.json)
        if args.action == "now":
            made, pruned = service.backup_now(_progress())
            print(_("backed up {id}: {contents}").format(id=made.id, contents=_contents(made.contents)))
            if pruned:
                print(_("removed {0} older backup(s) by retention").format(len(pruned)), file=sys.stderr)
            return EXIT_OK
        if args.action == "list":
            return _list(service, args.json)
        return _restore(service, args.id, args.yes)
    except KeyboardInterrupt:
        print("\n" + _("interrupted"), file=sys.stderr)
        return EXIT_INTERRUPTED
    except ValueError as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_USAGE
    except (TargetError, SyncCryptoError, SyncSetupError, BackupError, StorageError, SecretStoreError,
            OSError) as exc:
        print(_("error: {0}").format(exc), file=sys.stderr)
        return EXIT_FAILED


def _setup(service: Any, args: argparse.Namespace) -> int:
    from hermes_desktop.core.sync.config import SyncConfig

    current = service.config
    config = SyncConfig(kind=args.kind, device_name=current.device_name, schedule_hours=current.schedule_hours,
                        keep_daily=current.keep_daily, keep_weekly=current.keep_weekly,
                        backup_at_quit=current.backup_at_quit)
    password = None
    if args.kind == "webdav":
        config.url, config.user = args.url, args.user or ""
        if config.user:
            password = _secret("HERMES_SYNC_PASSWORD", _("WebDAV password (app password) for {0}: ").format(config.user))
            if password is None:
                print(_("error: {0}").format(_("no password: type it on a terminal or set {0}").format(
                    "HERMES_SYNC_PASSWORD")), file=sys.stderr)
                return EXIT_USAGE
    elif args.kind == "s3":
        config.url, config.bucket, config.region, config.addressing = (args.endpoint, args.bucket, args.region,
                                                                      args.addressing)
        config.user = args.access_key or os.environ.get("HERMES_SYNC_ACCESS_KEY", "")
        if not config.user and sys.stdin.isatty():
            config.user = input(_("Access key id: ")).strip()
        password = _secret("HERMES_SYNC_PASSWORD", _("Secret access key: "))
        if not config.user or not password:
            print(_("error: {0}").format(_("an S3 target needs {option} and its secret key (typed, or {variable})").format(
                option="--access-key ID", variable="HERMES_SYNC_PASSWORD")), file=sys.stderr)
            return EXIT_USAGE
    else:
        config.url = os.path.abspath(os.path.expanduser(args.path))
    passphrase = _secret("HERMES_SYNC_PASSPHRASE", _("Passphrase for the backups (empty: a random key with a "
                                                     "recovery code): "), confirm=True)
    print(_("checking the target…"), file=sys.stderr)
    code = service.setup(config, password, passphrase or None)
    print(_("sync is set up: {0}").format(_target(config.describe())))
    print(_("recovery code (write it down; with it or the passphrase a new machine can restore): {0}").format(code))
    return EXIT_OK


def _open_store() -> Any:
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.store import open_store

    opened = open_store(app_paths())
    for message in opened.messages:
        print(_("note: {0}").format(message), file=sys.stderr)
    return opened.store


def _now(service: Any) -> int:
    store = _open_store()
    try:
        if store.read_only:
            print(_("error: {0}").format(store.read_only_reason), file=sys.stderr)
            return EXIT_FAILED
        report = service.sync_now(store, _progress())
    finally:
        store.close()
    for problem in report.problems:
        print(_("warning: {0}").format(problem), file=sys.stderr)
    from hermes_desktop.core.terminal_text import safe_name

    for session_id in report.branched:
        print(_("note: session {0} was continued on two devices; both continuations are kept as branches (switch with "
                "‹ › under the message)").format(safe_name(session_id)), file=sys.stderr)
    print(_("synced: {up} batch(es) up ({bytes:,} bytes), {down} down, {applied} change(s) merged").format(
        up=report.uploaded_batches, bytes=report.uploaded_bytes, down=report.downloaded_batches, applied=report.applied)
          + (_(", {0} waiting for their parent").format(report.deferred) if report.deferred else ""))
    return EXIT_OK


def _when(value: float | None) -> str:
    return _("never") if not value else f"{datetime.fromtimestamp(value):%Y-%m-%d %H:%M}"


def _status(service: Any, as_json: bool) -> int:
    store = _open_store() if service.config.configured else None
    try:
        status = service.status(store)
    finally:
        if store is not None:
            store.close()
    if as_json:
        print(json.dumps(status, indent=2, ensure_ascii=False))
        return EXIT_OK
    if not status["configured"]:
        print(_("sync is not set up ({0})").format("hermes-desktop sync setup webdav|s3|folder …"))
        return EXIT_OK
    print(_("target: {0}").format(_target(status["target"])))
    print(_("last sync: {when}; pending batches: {count}").format(when=_when(status.get("last_sync")),
                                                                   count=status.get("pending_batches", 0)))
    if status.get("last_error"):
        print(_("last error: {0}").format(status["last_error"]))
    return EXIT_OK


def _target(described: str) -> str:
    """core/sync/config.SyncConfig.describe() with its own words ("S3 … bucket …", "folder …") in the user's language."""
    import re

    found = re.fullmatch(r"S3 (.*) bucket (.*)", described, re.S)
    if found:
        return _("S3 {url} bucket {bucket}").format(url=found[1], bucket=found[2])
    if described == "not set up":
        return _("not set up")
    if described == "folder" or described.startswith("folder "):
        return _("folder {0}").format(described[len("folder "):]).rstrip()
    return described


def _contents(contents: dict[str, Any]) -> str:
    memories = contents.get("memories") or {}
    return (_("{sessions} sessions, {messages} messages, {memories} memories, {attachments} attachments "
              "({bytes:,} bytes)").format(
        sessions=contents.get("sessions", 0), messages=contents.get("messages", 0),
        memories=sum(memories.values()) if isinstance(memories, dict) else 0,
        attachments=contents.get("attachments", 0), bytes=contents.get("attachment_bytes", 0))
            + (f", {', '.join(contents.get('files', []))}" if contents.get("files") else ""))


def _list(service: Any, as_json: bool) -> int:
    backups = service.list_backups()
    if as_json:
        print(json.dumps([b.to_json() for b in backups], indent=2, ensure_ascii=False))
        return EXIT_OK
    if not backups:
        print(_("no backups yet ({0})").format("hermes-desktop backup now"))
    from hermes_desktop.core.terminal_text import safe_name

    for b in backups:
        what = _("cannot be opened: {0}").format(b.problem) if b.problem else _contents(b.contents)
        print(f"{b.id}  {_when(b.created)}  {safe_name(b.device) or b.device_id}  {what}")
    return EXIT_OK


def _restore(service: Any, backup_id: str, yes: bool) -> int:
    preview = service.preview(backup_id)
    print(_("backup {id} from {device}, {when}:").format(id=preview["id"], device=preview["device"] or preview["device_id"],
                                                         when=_when(preview["created"])), file=sys.stderr)
    print(f"  {_contents(preview['contents'])}", file=sys.stderr)
    print(_("Restoring replaces this machine's history, settings.json and mcp.json with the backup's (a backup "
            "of what is here now is taken first, into the data folder's sync-safety/)."), file=sys.stderr)
    if not yes:
        if not sys.stdin.isatty():
            print(_("error: {0}").format(_("not restored: confirm with --yes (no terminal to ask on)")), file=sys.stderr)
            return EXIT_USAGE
        if input(_("Type yes to restore: ")).strip().lower() != "yes":
            print(_("not restored"), file=sys.stderr)
            return EXIT_USAGE
    report = service.restore(backup_id, _progress())
    for problem in report.skipped:
        print(_("warning: skipped {0}").format(problem), file=sys.stderr)
    print(_("restored {id} ({sessions} sessions, {files} attachment file(s) written); what was here before is backup "
            "{safety} in sync-safety/. Restart the window if it is open; API keys are not in backups: add them again "
            "in Settings › Providers.").format(id=backup_id, sessions=report.sessions, files=report.attachments_written,
                                               safety=report.safety_backup))
    return EXIT_OK

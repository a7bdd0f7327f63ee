"""What Settings › Backup & sync and the status bar's sync label do (core/sync, issue 26).

Every network or store call runs in a worker thread (`asyncio.to_thread`): a slow WebDAV server, a 1 GB backup or
a busy disk never freezes the window. Progress from the worker reaches the window through a Qt signal (queued to
the GUI thread). One operation at a time: a second Sync now while one runs is refused with a message, not queued
twice. The schedule is a timer that checks every ten minutes whether the last sync is older than the chosen
interval; after a sync that merged changes the session list is reloaded. The window only wires this up.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel

from hermes_desktop.ui.tasks import spawn

if TYPE_CHECKING:
    from hermes_desktop.core.sync.service import SyncService

log = logging.getLogger(__name__)
CHECK_EVERY_MS = 10 * 60 * 1000


def sync_error_text(exc: BaseException) -> str:
    """The user's sentence for a sync failure: the exception's class is its code (the English detail follows)."""
    from hermes_desktop.core.sync import crypto, target
    from hermes_desktop.core.sync.service import SyncSetupError

    detail = str(exc)
    if isinstance(exc, crypto.WrongPassphrase):
        return QCoreApplication.translate("SyncActions", "Wrong passphrase or recovery code: it does not open this target's backups. "
                                 "Nothing was changed.")
    if isinstance(exc, crypto.TamperedObject):
        return QCoreApplication.translate("SyncActions", "An object on the storage failed its check (changed or damaged) and was skipped: "
                                 "{0}").format(detail)
    if isinstance(exc, target.InsufficientStorage):
        return QCoreApplication.translate("SyncActions", "The storage is full: nothing was lost; free space there, then sync again. ({0})"
                  ).format(detail)
    if isinstance(exc, target.AuthFailed):
        return QCoreApplication.translate("SyncActions", "The server refused the user name or password (use an app password for "
                                 "Nextcloud and 坚果云).")
    if isinstance(exc, SyncSetupError):
        return QCoreApplication.translate("SyncActions", "No system keyring is available, so the sync key cannot be kept. Nothing was "
                                 "saved.")
    return QCoreApplication.translate("SyncActions", "Sync or backup failed: {0}").format(detail)


async def _in_thread(work: Callable[..., Any], *args: Any) -> Any:
    """asyncio.to_thread, with asyncio imported only when the first operation runs (the window paints before the
    loop's modules are imported: tests/ui/test_startup.py)."""
    import asyncio

    return await asyncio.to_thread(work, *args)


class SyncActions(QObject):
    sig_progress = Signal(str, int, int)
    """(what, done, total) while a backup, restore or sync runs; emitted from the worker, delivered queued."""
    sig_status = Signal(str)
    """The status bar's sync text changed (last sync, pending, or the error)."""
    sig_finished = Signal(str, bool)
    """An operation ended: (sentence for the user, succeeded)."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.busy = False
        self.label = QLabel("")
        self.label.setObjectName("syncStatusLabel")
        self.label.setAccessibleName(self.tr("Sync status"))
        self.sig_status.connect(self.label.setText)
        self.timer = QTimer(self)
        self.timer.setInterval(CHECK_EVERY_MS)
        self.timer.timeout.connect(lambda: spawn(self.scheduled()))
        self.controller.sig_ready.connect(self._ready)

    def _ready(self) -> None:
        self.timer.start()
        spawn(self.refresh_status())
        spawn(self.scheduled())

    def service(self) -> "SyncService":
        from hermes_desktop.core.sync.service import SyncService

        runtime = self.controller.runtime
        return SyncService(runtime.paths, runtime.secrets)

    @property
    def store(self) -> Any:
        return self.controller.runtime.store

    # ------------------------------------------------------------------ status
    async def refresh_status(self) -> dict[str, Any]:
        service = self.service()
        status = await _in_thread(service.status, self.store)
        self.sig_status.emit(self.status_text(status))
        return status

    def status_text(self, status: dict[str, Any]) -> str:
        if not status.get("configured"):
            return ""
        if status.get("last_error"):
            return self.tr("Sync: problem (see Settings › Backup & sync)")
        last = status.get("last_sync")
        if not last:
            return self.tr("Not synced yet")
        when = f"{datetime.fromtimestamp(last):%H:%M}"
        pending = int(status.get("pending_batches") or 0)
        if pending:
            return self.tr("Synced {0} · {1} pending").format(when, pending)
        return self.tr("Synced {0}").format(when)

    def _emit_progress(self, what: str, done: int, total: int) -> None:
        self.sig_progress.emit(what, done, total)

    async def _run(self, work: Callable[[], Any], done_text: Callable[[Any], str] | None) -> Any:
        """`work` in a worker thread; its failure is shown as a sentence, its success as `done_text` (None: the
        caller shows the result itself)."""
        if self.busy:
            self.sig_finished.emit(self.tr("A backup or sync is already running."), False)
            return None
        self.busy = True
        self.sig_status.emit(self.tr("Syncing…"))
        try:
            result = await _in_thread(work)
        except Exception as exc:  # every failure is shown, never lost
            log.warning("sync: %s", exc)
            self.sig_finished.emit(sync_error_text(exc), False)
            await self.refresh_status()
            self.label.setText(self.tr("Sync: problem (see Settings › Backup & sync)"))
            self.label.setToolTip(sync_error_text(exc))
            return None
        finally:
            self.busy = False
        self.label.setToolTip("")
        if done_text is not None:
            self.sig_finished.emit(done_text(result), True)
        await self.refresh_status()
        return result

    # ------------------------------------------------------------------ operations
    async def sync_now(self) -> Any:
        service = self.service()
        report = await self._run(lambda: service.sync_now(self.store, self._emit_progress),
                                 lambda r: self.tr("Synced: {0} change(s) merged, {1} batch(es) sent.").format(
                                     r.applied, r.uploaded_batches)
                                 + ("" if not r.branched else " " + self.tr(
                                     "{0} conversation(s) were continued on two devices: both continuations are "
                                     "kept as branches.").format(len(r.branched)))
                                 + ("" if not r.problems else " " + self.tr("Skipped: {0}").format(
                                     "; ".join(r.problems))))
        if report is not None and report.applied:
            self.controller.sig_sessions_changed.emit()
        return report

    async def backup_now(self) -> Any:
        service = self.service()
        made = await self._run(lambda: service.backup_now(self._emit_progress),
                               lambda r: self.tr("Backed up: {0} sessions, {1} attachments.").format(
                                   r[0].contents.get("sessions", 0), r[0].contents.get("attachments", 0)))
        return made

    async def list_backups(self) -> list[Any]:
        service = self.service()
        return await self._run(service.list_backups, None) or []

    async def restore(self, backup_id: str) -> Any:
        service = self.service()
        report = await self._run(lambda: service.restore(backup_id, self._emit_progress),
                                 lambda r: self.tr("Restored {0} sessions; what was here before is kept in "
                                                   "sync-safety. Restart Hermes to reload everything.").format(
                                     r.sessions))
        if report is not None:
            self.controller.sig_sessions_changed.emit()
        return report

    async def scheduled(self) -> None:
        """Sync and back up when the schedule says it is time (nothing when not set up or set to by hand)."""
        if self.busy or self.controller.runtime is None:
            return
        config = self.service().config
        if not config.configured or config.schedule_hours <= 0:
            return
        status = await _in_thread(self.service().status, self.store)
        last = status.get("last_sync") or 0
        if time.time() - last >= config.schedule_hours * 3600:
            await self.sync_now()
            await self.backup_now()

"""Settings › Backup & sync: where backups and sync go (a folder, WebDAV, S3), Test connection, the passphrase or
recovery code, the schedule and retention, Back up now with progress, the list of backups with Preview and
Restore, Sync now. The work is done by ui/sync_actions.py (in worker threads); this page only collects and shows.

Secrets typed here (password, secret key, passphrase) go straight to the keyring through core/sync/service.py and
the fields are cleared after setup; the recovery code is shown once, selectable, for the user to write down.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.ui.async_dialog import Confirmation
from hermes_desktop.ui.tasks import spawn

if TYPE_CHECKING:
    from hermes_desktop.ui.sync_actions import SyncActions

ID_ROLE = Qt.ItemDataRole.UserRole + 1


class SyncSettingsPage(QWidget):
    def __init__(self, actions: "SyncActions", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncSettingsPage")
        self.actions = actions
        config = actions.service().config
        outer = QVBoxLayout(self)

        where = QGroupBox(self.tr("Where"))
        form = self.where_form = QFormLayout(where)
        self.kind = QComboBox()
        self.kind.setObjectName("syncKindCombo")
        for value, label in (("folder", self.tr("A folder (external disk)")), ("webdav", self.tr("WebDAV")),
                             ("s3", self.tr("S3-compatible storage"))):
            self.kind.addItem(label, value)
        self.kind.setCurrentIndex(max(0, self.kind.findData(config.kind or "webdav")))
        form.addRow(self.tr("Target"), self.kind)
        self.url = QLineEdit(config.url)
        self.url.setObjectName("syncUrlEdit")
        form.addRow(self.tr("Address"), self.url)
        self.user = QLineEdit(config.user)
        self.user.setObjectName("syncUserEdit")
        form.addRow(self.tr("User / access key"), self.user)
        self.bucket = QLineEdit(config.bucket)
        self.bucket.setObjectName("syncBucketEdit")
        self.region = QLineEdit(config.region)
        self.region.setObjectName("syncRegionEdit")
        bucket_row = QHBoxLayout()
        bucket_row.addWidget(self.bucket, 2)
        self.region_label = QLabel(self.tr("Region"))
        bucket_row.addWidget(self.region_label)
        bucket_row.addWidget(self.region, 1)
        self.bucket_label = QLabel(self.tr("Bucket"))
        form.addRow(self.bucket_label, bucket_row)
        self.password = QLineEdit()
        self.password.setObjectName("syncPasswordEdit")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        form.addRow(self.tr("Password / secret key"), self.password)
        self.passphrase = QLineEdit()
        self.passphrase.setObjectName("syncPassphraseEdit")
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setPlaceholderText(self.tr("Empty: a random key with a recovery code"))
        form.addRow(self.tr("Passphrase or recovery code"), self.passphrase)
        buttons = QHBoxLayout()
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.setObjectName("syncTestButton")
        self.test_button.clicked.connect(lambda: spawn(self.test_connection()))
        self.setup_button = QPushButton(self.tr("Save and set up"))
        self.setup_button.setObjectName("syncSetupButton")
        self.setup_button.clicked.connect(lambda: spawn(self.set_up()))
        buttons.addWidget(self.test_button)
        buttons.addWidget(self.setup_button)
        buttons.addStretch(1)
        form.addRow(buttons)
        outer.addWidget(where)

        when = QGroupBox(self.tr("When and how many"))
        schedule = QHBoxLayout(when)
        self.schedule = QComboBox()
        self.schedule.setObjectName("syncScheduleCombo")
        for hours, label in ((0, self.tr("Only when I click")), (1, self.tr("Every hour")), (24, self.tr("Every day"))):
            self.schedule.addItem(label, hours)
        self.schedule.setCurrentIndex(max(0, self.schedule.findData(config.schedule_hours)))
        self.keep_daily = QSpinBox()
        self.keep_daily.setObjectName("syncKeepDailySpin")
        self.keep_daily.setRange(1, 365)
        self.keep_daily.setValue(config.keep_daily)
        self.keep_weekly = QSpinBox()
        self.keep_weekly.setObjectName("syncKeepWeeklySpin")
        self.keep_weekly.setRange(0, 520)
        self.keep_weekly.setValue(config.keep_weekly)
        schedule.addWidget(self.schedule)
        schedule.addWidget(QLabel(self.tr("Keep daily")))
        schedule.addWidget(self.keep_daily)
        schedule.addWidget(QLabel(self.tr("weekly")))
        schedule.addWidget(self.keep_weekly)
        schedule.addStretch(1)
        self.at_quit = QCheckBox(self.tr("Also back up when Hermes quits"))
        self.at_quit.setObjectName("syncBackupAtQuitCheck")
        self.at_quit.setToolTip(self.tr("At most two minutes; Skip, or a failure, never keeps Hermes from quitting."))
        self.at_quit.setChecked(config.backup_at_quit)
        self.at_quit.toggled.connect(self._save_schedule)
        schedule.addWidget(self.at_quit)
        for widget in (self.schedule,):
            widget.currentIndexChanged.connect(self._save_schedule)
        self.keep_daily.valueChanged.connect(self._save_schedule)
        self.keep_weekly.valueChanged.connect(self._save_schedule)
        outer.addWidget(when)

        backups = QGroupBox(self.tr("Backups"))
        column = QVBoxLayout(backups)
        self.backup_list = QListWidget()
        self.backup_list.setObjectName("backupList")
        self.backup_list.setAccessibleName(self.tr("Backups"))
        column.addWidget(self.backup_list, 1)
        row = QHBoxLayout()
        self.backup_button = QPushButton(self.tr("Back up now"))
        self.backup_button.setObjectName("backupNowButton")
        self.backup_button.clicked.connect(lambda: spawn(self.back_up()))
        self.refresh_button = QPushButton(self.tr("Refresh list"))
        self.refresh_button.setObjectName("backupRefreshButton")
        self.refresh_button.clicked.connect(lambda: spawn(self.fill_backups()))
        self.restore_button = QPushButton(self.tr("Restore…"))
        self.restore_button.setObjectName("restoreButton")
        self.restore_button.clicked.connect(lambda: spawn(self.restore()))
        self.sync_button = QPushButton(self.tr("Sync now"))
        self.sync_button.setObjectName("syncNowButton")
        self.sync_button.clicked.connect(lambda: spawn(self.actions.sync_now()))
        for button in (self.backup_button, self.refresh_button, self.restore_button):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(self.sync_button)
        column.addLayout(row)
        self.progress = QProgressBar()
        self.progress.setObjectName("syncProgress")
        self.progress.setVisible(False)
        column.addWidget(self.progress)
        outer.addWidget(backups, 1)
        conflicts = QHBoxLayout()
        self.conflicts_note = QLabel()
        self.conflicts_note.setObjectName("syncConflictsNote")
        self.conflicts_note.setWordWrap(True)
        self.conflicts_button = QPushButton(self.tr("Show…"))
        self.conflicts_button.setObjectName("syncConflictsButton")
        self.conflicts_button.clicked.connect(lambda: spawn(self.show_conflicts()))
        conflicts.addWidget(self.conflicts_note, 1)
        conflicts.addWidget(self.conflicts_button)
        self.conflicts_note.setVisible(False)
        self.conflicts_button.setVisible(False)
        column.addLayout(conflicts)
        self.message = QLabel()
        self.message.setObjectName("syncMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.message)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self._kind_changed()
        actions.sig_progress.connect(self._progress)
        actions.sig_finished.connect(self._finished)
        actions.sig_finished.connect(lambda _text, _ok: spawn(self.fill_conflicts()))
        self._set_enabled(config.configured)
        self.conflicts: list[dict[str, Any]] = []

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        spawn(self.fill_conflicts())  # each time the page is shown: a sync may have run since

    # ------------------------------------------------------------------ the form
    def _kind_changed(self) -> None:
        kind = self.kind.currentData()
        s3, folder = kind == "s3", kind == "folder"
        self.where_form.setRowVisible(self.bucket_label, s3)
        self.user.setEnabled(not folder)
        self.password.setEnabled(not folder)
        self.url.setPlaceholderText({"folder": "/media/me/Backup/hermes",  # examples: data, not words
                                     "webdav": "https://dav.jianguoyun.com/dav/hermes/",
                                     "s3": "https://s3.eu-central-1.amazonaws.com"}[kind])

    def _set_enabled(self, configured: bool) -> None:
        for button in (self.backup_button, self.refresh_button, self.restore_button, self.sync_button):
            button.setEnabled(configured)

    def _config(self) -> Any:
        from hermes_desktop.core.sync.config import SyncConfig

        current = self.actions.service().config
        return SyncConfig(kind=self.kind.currentData(), url=self.url.text().strip(), user=self.user.text().strip(),
                          bucket=self.bucket.text().strip(), region=self.region.text().strip() or "us-east-1",
                          device_name=current.device_name, schedule_hours=int(self.schedule.currentData()),
                          keep_daily=self.keep_daily.value(), keep_weekly=self.keep_weekly.value(),
                          backup_at_quit=self.at_quit.isChecked())

    def _save_schedule(self) -> None:
        service = self.actions.service()
        if service.config.configured:
            service.update_schedule(schedule_hours=int(self.schedule.currentData()),
                                    keep_daily=self.keep_daily.value(), keep_weekly=self.keep_weekly.value(),
                                    backup_at_quit=self.at_quit.isChecked())

    def _progress(self, what: str, done: int, total: int) -> None:
        self.progress.setVisible(True)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        names = {"database": self.tr("History"), "attachments": self.tr("Attachments"),
                 "download": self.tr("Downloading"), "merge": self.tr("Merging"), "upload": self.tr("Uploading")}
        self.progress.setFormat(f"{names.get(what, what)} %v/%m")

    def _finished(self, text: str, ok: bool) -> None:
        self.progress.setVisible(False)
        self.message.setText(text)

    # ------------------------------------------------------------------ actions
    async def test_connection(self) -> None:
        from hermes_desktop.ui.sync_actions import sync_error_text

        service, config, password = self.actions.service(), self._config(), self.password.text() or None
        self.message.setText(self.tr("Connecting…"))
        try:
            text = await asyncio.to_thread(service.test_connection, config, password)
        except Exception as exc:
            self.message.setText(sync_error_text(exc))
            return
        self.message.setText(self.tr("Connected: {0}").format(text))

    async def set_up(self) -> None:
        from hermes_desktop.ui.sync_actions import sync_error_text

        service, config = self.actions.service(), self._config()
        password, passphrase = self.password.text() or None, self.passphrase.text() or None
        self.message.setText(self.tr("Checking the storage and making the key…"))
        try:
            code = await asyncio.to_thread(service.setup, config, password, passphrase)
        except Exception as exc:
            self.message.setText(sync_error_text(exc))
            return
        self.password.clear()
        self.passphrase.clear()
        self._set_enabled(True)
        await self.actions.refresh_status()
        await self.fill_backups()
        self.message.setText(self.tr("Set up. Write down this recovery code: with it (or the passphrase) a new "
                                     "computer can restore your backups.\n{0}").format(code))

    async def fill_backups(self) -> None:
        backups = await self.actions.list_backups()
        self.backup_list.clear()
        for info in backups:
            contents = info.contents
            if info.problem:
                text = self.tr("{0} — cannot be opened: {1}").format(info.id, info.problem)
            else:
                text = self.tr("{0} — {1}: {2} sessions, {3} messages, {4} attachments").format(
                    _when(info.created), info.device or info.device_id, contents.get("sessions", 0),
                    contents.get("messages", 0), contents.get("attachments", 0))
            item = QListWidgetItem(text)
            item.setData(ID_ROLE, info.id)
            self.backup_list.addItem(item)

    async def fill_conflicts(self) -> None:
        """One line when changes were made on two devices (each kept the newer), with Show… to read them."""
        if not self.actions.service().config.configured:
            return
        status = await self.actions.refresh_status()
        self.conflicts = list(status.get("conflicts") or [])
        count = len(self.conflicts)
        self.conflicts_note.setText(
            self.tr("1 change was made on two devices at once; the newer one was kept.") if count == 1 else
            self.tr("{0} changes were made on two devices at once; the newer one was kept each time.").format(count))
        self.conflicts_note.setVisible(bool(count))
        self.conflicts_button.setVisible(bool(count))

    def conflict_text(self, conflict: dict[str, Any]) -> str:
        what = {"session": self.tr("Conversation"), "memory": self.tr("Memory"), "assistant": self.tr("Assistant"),
                "prompt": self.tr("Prompt")}.get(str(conflict.get("kind")), str(conflict.get("kind")))
        field = {"title": self.tr("title"), "pinned": self.tr("pin"), "deleted": self.tr("trash"),
                 "model": self.tr("model"), "assistant": self.tr("assistant"), "body": self.tr("content"),
                 "state": self.tr("state")}.get(str(conflict.get("field")), str(conflict.get("field")))
        # The stamp names a device by its random id, not a name the user gave: "the other device" says enough.
        kept = (self.tr("this computer's change was kept") if conflict.get("kept") == "yours"
                else self.tr("the other device's change was kept"))
        return self.tr("{0} “{1}”, {2}: {3} ({4})").format(what, conflict.get("label") or "…", field, kept,
                                                          _when(float(conflict.get("at") or 0)))

    async def show_conflicts(self) -> None:
        from PySide6.QtWidgets import QDialog, QDialogButtonBox

        dialog = QDialog(self)
        dialog.setObjectName("syncConflictsDialog")
        dialog.setWindowTitle(self.tr("Changed on two devices"))
        listing = QListWidget()
        listing.setObjectName("syncConflictsList")
        listing.setWordWrap(True)
        for conflict in reversed(self.conflicts):  # newest first
            listing.addItem(self.conflict_text(conflict))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        clear = buttons.addButton(self.tr("Clear the list"), QDialogButtonBox.ButtonRole.ResetRole)
        clear.setObjectName("clearSyncConflictsButton")
        buttons.rejected.connect(dialog.reject)

        def cleared() -> None:
            self.actions.service().clear_conflicts(self.actions.store)
            dialog.accept()

        clear.clicked.connect(cleared)
        layout = QVBoxLayout(dialog)
        intro = QLabel(self.tr("The same thing was changed on two devices before they synced. Each device keeps "
                               "the newer change; the other one is listed here."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addWidget(listing, 1)
        layout.addWidget(buttons)
        dialog.resize(620, 360)
        self.conflicts_dialog = dialog  # for tests
        from hermes_desktop.ui.async_dialog import run_dialog

        await run_dialog(dialog)
        await self.fill_conflicts()

    async def back_up(self) -> None:
        said = self.message.text
        if await self.actions.backup_now() is not None:
            text = said()
            await self.fill_backups()
            self.message.setText(text)  # "Backed up: …" stays

    async def restore(self) -> None:
        item = self.backup_list.currentItem()
        if item is None or not item.data(ID_ROLE):
            self.message.setText(self.tr("Choose a backup in the list first."))
            return
        backup_id = item.data(ID_ROLE)
        try:
            preview = await asyncio.to_thread(self.actions.service().preview, backup_id)
        except Exception as exc:
            from hermes_desktop.ui.sync_actions import sync_error_text

            self.message.setText(sync_error_text(exc))
            return
        contents = preview["contents"]
        memories = contents.get("memories") or {}
        text = self.tr("Restore the backup of {0} from {1}?\n\nIt holds {2} sessions, {3} messages, {4} memories "
                       "and {5} attachments.\n\nThis replaces the history, settings.json and mcp.json here. A backup "
                       "of what is here now is made first (in the data folder's sync-safety).").format(
            _when(preview["created"]), preview.get("device") or preview.get("device_id"), contents.get("sessions", 0),
            contents.get("messages", 0), sum(memories.values()) if isinstance(memories, dict) else 0,
            contents.get("attachments", 0))
        self.confirmation = Confirmation(self, QMessageBox.Icon.Warning, self.tr("Restore backup"), text,
                                         self.tr("Restore"), QMessageBox.ButtonRole.DestructiveRole)
        if await self.confirmation.confirmed():
            await self.actions.restore(backup_id)


def _when(value: float) -> str:
    from datetime import datetime

    return f"{datetime.fromtimestamp(value):%Y-%m-%d %H:%M}"

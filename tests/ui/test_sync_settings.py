"""Settings › Backup & sync through the real dialog: set up a folder target (random key, recovery code shown),
back up with the list filled, sync with the status bar saying so, restore after the confirmation (Cancel is the
default), and a wrong passphrase on a second setup shown as a sentence while nothing changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QListWidget, QMessageBox, QPushButton, QTabWidget

from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.sync.config import key_name
from tests.support.keyring_session import keyring_or_memory_store


@pytest.fixture
def keyring_store(monkeypatch: pytest.MonkeyPatch):
    with keyring_or_memory_store([key_name("folder")]) as store:
        from hermes_desktop.core.sync.service import SyncService
        from hermes_desktop.ui.sync_actions import SyncActions

        monkeypatch.setattr(SyncActions, "service",
                            lambda self: SyncService(self.controller.runtime.paths, store))
        yield store


def test_set_up_back_up_sync_and_restore_from_the_settings_page(make_window, keyring_store, tmp_path: Path) -> None:
    h = make_window()
    store = h.controller.runtime.store
    store.create_session("trip", title="Trip plans")
    store.append_message("trip", NewMessage("user", "where to go"))
    h.do(h.window.open_settings)
    dialog = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings dialog")
    page = dialog.sync_page
    tabs = dialog.findChild(QTabWidget)
    h.do(lambda: tabs.setCurrentWidget(page))
    restore = page.findChild(QPushButton, "restoreButton")
    assert not restore.isEnabled()  # nothing to restore from before setup
    h.do(lambda: page.kind.setCurrentIndex(page.kind.findData("folder")))
    assert not page.bucket.isVisible() and not page.password.isEnabled()
    remote = tmp_path / "external-disk"
    h.do(lambda: page.url.setText(str(remote)))
    h.do(page.setup_button.click)
    message = page.findChild(QLabel, "syncMessage")
    h.wait_until(lambda: "HRC1-" in message.text(), what="the recovery code")
    assert (remote / "keyinfo.json").is_file()

    h.do(page.backup_button.click)
    backups = page.findChild(QListWidget, "backupList")
    h.wait_until(lambda: backups.count() == 1, what="the new backup in the list")
    assert "1 sessions" in backups.item(0).text()

    h.do(page.sync_button.click)
    h.wait_until(lambda: message.text().startswith("Synced"), what="the sync to finish")
    h.wait_until(lambda: h.window.sync.label.text().startswith("Synced"), what="the status bar's sync text")

    h.do(lambda: backups.setCurrentRow(0))
    h.do(restore.click)
    box = h.wait_until(lambda: getattr(page, "confirmation", None), what="the restore question")
    h.wait_until(box.isVisible, what="the question to show")
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    assert "1 sessions" in box.text()
    h.do(box.action.click)
    h.wait_until(lambda: message.text().startswith("Restored"), what="the restore to finish")
    assert list((h.controller.runtime.paths.data_dir / "sync-safety" / "backups").rglob("*.manifest"))
    assert store.get_session("trip").title == "Trip plans"

    # setting up the same target again with a passphrase it was not made with: refused, nothing changes
    h.do(lambda: page.passphrase.setText("a passphrase it never had"))
    before = keyring_store.get(key_name("folder"))
    h.do(page.setup_button.click)
    h.wait_until(lambda: message.text().startswith("Wrong passphrase"), what="the wrong passphrase sentence")
    assert keyring_store.get(key_name("folder")) == before
    h.do(dialog.reject)


def test_the_schedule_syncs_and_backs_up_when_due_and_not_again_until_the_next_interval(make_window, keyring_store,
                                                                                         tmp_path: Path) -> None:
    from hermes_desktop.core.sync.config import SyncConfig

    h = make_window()
    service = h.window.sync.service()
    remote = tmp_path / "disk"
    service.setup(SyncConfig(kind="folder", url=str(remote), schedule_hours=24), None, None)
    h.controller.runtime.store.create_session("s", title="S")
    h.run(h.window.sync.scheduled())
    assert len(list((remote / "backups").rglob("*.manifest"))) == 1
    assert list((remote / "log").rglob("*.batch"))
    h.run(h.window.sync.scheduled())  # synced a moment ago: nothing is due
    assert len(list((remote / "backups").rglob("*.manifest"))) == 1
    service.update_schedule(schedule_hours=0)  # only by hand: the timer never syncs
    h.controller.runtime.store.create_session("t", title="T")
    h.run(h.window.sync.scheduled())
    assert len(list((remote / "log").rglob("*.batch"))) == 1


def test_conflicts_from_two_devices_are_listed_and_can_be_cleared(make_window, keyring_store, tmp_path) -> None:
    """Two real devices: the window's store and a second data folder, through one folder target."""
    from hermes_desktop.core.sync.config import SyncConfig
    from hermes_desktop.core.sync.target import FolderTarget
    from hermes_desktop.ui.dialogs.sync_settings import SyncSettingsPage
    from tests.support.sync_devices import Device

    h = make_window()
    service = h.window.sync.service()
    remote = tmp_path / "disk"
    service.setup(SyncConfig(kind="folder", url=str(remote), schedule_hours=0), None, None)
    key = service.open()[1]
    store = h.controller.runtime.store
    store.create_session("trip", title="Trip")
    h.run(h.window.sync.sync_now())
    laptop = Device(tmp_path, "laptop")
    try:
        laptop.sync(FolderTarget(remote), key)
        laptop.store.rename("trip", "Lisbon")
        store.rename("trip", "Kyoto")
        h.run(h.window.sync.sync_now())
        laptop.sync(FolderTarget(remote), key)
        h.run(h.window.sync.sync_now())
    finally:
        laptop.close()
    page = SyncSettingsPage(h.window.sync)
    h.run(page.fill_conflicts())
    assert page.conflicts_note.isVisibleTo(page) and "1 change" in page.conflicts_note.text()

    async def read_and_clear() -> None:
        import asyncio

        shown = asyncio.ensure_future(page.show_conflicts())
        for _ in range(200):
            await asyncio.sleep(0.01)
            if getattr(page, "conflicts_dialog", None) is not None and page.conflicts_dialog.isVisible():
                break
        listing = page.conflicts_dialog.findChild(QListWidget, "syncConflictsList")
        assert listing.count() == 1 and "Conversation" in listing.item(0).text()
        assert "Kyoto" in listing.item(0).text() or "Lisbon" in listing.item(0).text()
        page.conflicts_dialog.findChild(QPushButton, "clearSyncConflictsButton").click()
        await shown

    h.run(read_and_clear())
    assert not page.conflicts_note.isVisibleTo(page) and service.status(store)["conflicts"] == []

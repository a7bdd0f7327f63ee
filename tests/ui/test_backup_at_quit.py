"""Backup at quit (issue 26): with the setting on, closing the app makes a backup after the controller has shut
down (so it holds the last message), through the real folder target; with it off nothing is made; Skip and the
time limit let the app quit at once while a backup is still running."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QCheckBox, QWidget

from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.sync.config import SyncConfig
from hermes_desktop.ui.quit_backup import backup_at_quit
from tests.ui.test_sync_settings import keyring_store  # noqa: F401  (the fixture)


def _set_up(h, remote: Path, *, at_quit: bool):
    service = h.window.sync.service()
    service.setup(SyncConfig(kind="folder", url=str(remote), schedule_hours=0, backup_at_quit=at_quit), None, None)
    return service


def test_quitting_backs_up_what_was_saved_last(make_window, keyring_store, tmp_path: Path) -> None:  # noqa: F811
    h = make_window()
    remote = tmp_path / "disk"
    service = _set_up(h, remote, at_quit=True)
    assert service.config.backup_at_quit  # kept in sync.json
    store = h.controller.runtime.store
    store.create_session("last", title="Written just before quitting")
    store.append_message("last", NewMessage("user", "the very last words"))
    h.run(h.controller.shutdown())
    assert h.run(backup_at_quit(service, show=False)) == "done"
    manifests = list((remote / "backups").rglob("*.manifest"))
    assert len(manifests) == 1
    contents = service.preview(service.list_backups()[0].id)["contents"]
    assert contents["sessions"] == 1 and contents["messages"] == 1  # the message saved just before the quit


def test_with_the_setting_off_nothing_is_made_and_the_limit_never_holds_the_quit(make_window, keyring_store,  # noqa: F811
                                                                                 tmp_path: Path) -> None:
    h = make_window()
    remote = tmp_path / "disk"
    service = _set_up(h, remote, at_quit=False)
    assert h.run(backup_at_quit(service, show=False)) == ""
    assert not list(remote.rglob("*.manifest"))
    service.update_schedule(backup_at_quit=True)
    assert h.run(backup_at_quit(service, limit_s=0.0, show=False)) == "timed out"  # quits without waiting


def test_the_checkbox_saves_the_setting_and_skip_lets_the_app_quit(make_window, keyring_store, tmp_path) -> None:  # noqa: F811
    h = make_window()
    service = _set_up(h, tmp_path / "disk", at_quit=False)
    from hermes_desktop.ui.dialogs.sync_settings import SyncSettingsPage

    dialog = SyncSettingsPage(h.window.sync)
    box = dialog.findChild(QCheckBox, "syncBackupAtQuitCheck")
    assert box is not None and not box.isChecked()
    h.do(lambda: box.setChecked(True))
    assert service.config.backup_at_quit
    dialog.close()

    async def skip_soon() -> str:
        import asyncio

        running = asyncio.ensure_future(backup_at_quit(service))
        notice = None
        for _ in range(200):
            await asyncio.sleep(0.01)
            notice = next((w for w in QApplication.topLevelWidgets()
                           if isinstance(w, QWidget) and w.objectName() == "quitBackupNotice" and w.isVisible()), None)
            if notice is not None:
                break
        assert notice is not None, "the notice is shown while the backup runs"
        notice.skip.click()
        return await running

    assert h.run(skip_soon()) in ("skipped", "done")  # a fast disk may finish before the click

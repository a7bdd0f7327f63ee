"""fetch_url refuses addresses on the user's own network unless the host is listed; the refusal points to
Settings › Permissions, and that field is where a new user can list one (the walk found only a settings.json key).
Real window, real scripted model server, a real fetch of the server's own /v1/models over 127.0.0.1."""

from __future__ import annotations

from urllib.parse import urlsplit

from PySide6.QtWidgets import QLabel, QLineEdit

from hermes_desktop.ui.chat.items import ToolCardItem
from hermes_desktop.ui.dialogs.settings import SettingsDialog
from tests.support.model_server import CallScript, text_reply, tool_call_reply
from tests.ui.test_approvals import settle_turn


def fetch(h, model_server, url: str) -> ToolCardItem:
    model_server.enqueue(tool_call_reply(CallScript("fetch_url", {"url": url})), text_reply("done"))
    h.send(f"fetch {url}")
    settle_turn(h)
    return [item for item in h.window.chat.model.items() if isinstance(item, ToolCardItem)][-1]


def test_a_local_host_listed_in_settings_can_be_fetched_and_a_bad_entry_changes_nothing(make_window,
                                                                                           model_server) -> None:
    h = make_window()
    url = model_server.base_url.rstrip("/") + "/models"
    host = urlsplit(url).netloc  # 127.0.0.1:PORT
    refused = fetch(h, model_server, url)
    assert "Settings › Permissions" in (refused.result or "")

    dialog = SettingsDialog(h.controller, h.window)
    try:
        field = dialog.findChild(QLineEdit, "privateHostsField")
        message = dialog.findChild(QLabel, "settingsMessage")
        h.do(lambda: (field.setText("http://nas.local/, 192.168.1.5"), field.editingFinished.emit()))
        assert "http://nas.local/" in message.text()
        assert h.controller.runtime.settings.fetch_allowed_private_hosts == ()  # nothing saved
        h.do(lambda: (field.setText(f"{host.upper()}, {host}"), field.editingFinished.emit()))
        assert h.controller.runtime.settings.fetch_allowed_private_hosts == (host.lower(),)
        assert h.controller.runtime.settings_store.load().settings.fetch_allowed_private_hosts == (host.lower(),)
        assert field.text() == host.lower()
    finally:
        dialog.deleteLater()
    fetched = fetch(h, model_server, url)
    assert "refused" not in (fetched.result or "") and "scripted-model" in (fetched.result or ""), fetched.result

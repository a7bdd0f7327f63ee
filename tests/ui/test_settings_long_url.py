"""Settings › Providers with a 200-character base URL (a gateway with a long path and query): the list does not
scroll sideways at the dialog's default size, the URL gives way in the middle while name and model stay whole,
and the row's tooltip and accessible description hold the whole URL (issue 16)."""

from __future__ import annotations

import html
import json
import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QStyleOptionViewItem

from hermes_desktop.core.paths import app_paths

LONG_URL = "https://gateway.example.com/" + "tenant-7f3a9c/" * 11 + "v1?route=eu-west&cache=off"


def test_a_long_base_url_is_elided_in_the_middle_with_the_whole_url_in_the_tooltip(make_window, model_server) -> None:
    url = (LONG_URL + "x" * 200)[:200]
    assert len(url) == 200
    config = app_paths().config_dir
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({
        "profiles": [{"id": "demo", "name": "Demo", "base_url": model_server.base_url, "model": "scripted-model",
                      "needs_api_key": False},
                     {"id": "gateway", "name": "Gateway", "base_url": url, "model": "gpt-4o-mini",
                      "needs_api_key": False}], "active_profile_id": "demo"}), encoding="utf-8")
    h = make_window(configured=False)
    h.do(h.window.open_settings)
    dialog = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings dialog")
    h.settle(0.2)
    profiles = dialog.findChild(QListWidget, "profileList")
    assert profiles.isVisible()
    bar = profiles.horizontalScrollBar()
    assert bar.maximum() == 0 and not bar.isVisible(), "the provider list scrolls sideways"
    item = profiles.item(1)
    tip = item.toolTip()
    assert url in html.unescape(re.sub(r"<[^>]+>", "", tip)), "the tooltip holds the whole URL"
    assert tip.startswith("<p"), "rich text, so a long URL wraps instead of running off the screen"
    assert url in item.data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert url in item.text(), "the item's own text (screen readers, keyboard search) is whole"
    # What is painted: name and model whole, the URL cut in the middle (its host and its end stay), all in the row.
    rect = profiles.visualItemRect(item)
    assert rect.right() <= profiles.viewport().width()
    option = QStyleOptionViewItem()
    option.initFrom(profiles)
    option.rect = rect
    profiles.itemDelegate().initStyleOption(option, profiles.indexFromItem(item))
    shown = option.text
    assert shown.startswith("   Gateway — gpt-4o-mini  (https://gateway.ex"), shown
    assert "…" in shown and shown.endswith(url[-6:] + ")"), shown
    assert option.fontMetrics.horizontalAdvance(shown) <= rect.width(), "the painted row fits the list"
    h.do(dialog.reject)

"""Issue 21 §2 in the real window: the import preview shows everything a server runs or sends, warns about
LD_PRELOAD and NODE_OPTIONS, and a remote server that would send the app's environment variables has its own box,
unticked: imported only when the user ticks it, after reading which variables."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QTreeWidget

from hermes_desktop.core.paths import app_paths
from tests.ui.test_mcp_import_window import import_dialog_showing, rows

SOURCE = Path(__file__).resolve().parents[1] / "core" / "fixtures" / "mcp_import" / "hostile_review.json"


def row(tree: QTreeWidget, name: str):
    return next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(0) == name)


def test_the_preview_shows_all_and_an_unticked_environment_sender_is_not_imported(make_window) -> None:
    h = make_window()
    dialog = import_dialog_showing(h, SOURCE)
    tree = dialog.findChild(QTreeWidget, "mcpImportPreview")
    h.wait_until(lambda: set(rows(tree)) == {"cloud", "local"}, what="the preview")
    shown = rows(tree)
    local = shown["local"][1]
    for text in ("command: node", "argument 2: --token", "env LD_PRELOAD: /tmp/evil.so", "working folder: /srv/app",
                 "Warning: env LD_PRELOAD loads a library", "Warning: env NODE_OPTIONS"):
        assert text in local, local
    assert "sk-proj-abcdefghijklmnop" not in local and "ghp_abcdefghij" not in local
    cloud = shown["cloud"][1]
    assert "header Authorization: Bearer ${env:AWS_SECRET_ACCESS_KEY}" in cloud
    assert "Sends your environment variables AWS_SECRET_ACCESS_KEY (headers.Authorization), ORG_ID (headers.X-Org)" \
        in cloud
    cloud_row = row(tree, "cloud")
    assert cloud_row.checkState(0) == Qt.CheckState.Unchecked
    assert dialog.findChild(QLabel, "mcpImportSummary").text().startswith("1 to add")

    h.do(lambda: dialog.findChild(QPushButton, "mcpImportButton").click())
    h.wait_until(lambda: h.window.mcp.import_task.done(), what="the import to finish")
    assert set(json.loads(app_paths().mcp_config_file.read_text())["mcpServers"]) == {"local"}


def test_ticking_the_environment_sender_imports_it(make_window) -> None:
    h = make_window()
    dialog = import_dialog_showing(h, SOURCE)
    tree = dialog.findChild(QTreeWidget, "mcpImportPreview")
    h.wait_until(lambda: set(rows(tree)) == {"cloud", "local"}, what="the preview")
    h.do(lambda: row(tree, "cloud").setCheckState(0, Qt.CheckState.Checked))
    assert dialog.accepted_env() == {"cloud"} and dialog.accepted_changes() == set()
    assert dialog.findChild(QLabel, "mcpImportSummary").text().startswith("2 to add")
    h.do(lambda: dialog.findChild(QPushButton, "mcpImportButton").click())
    h.wait_until(lambda: h.window.mcp.import_task.done(), what="the import to finish")
    assert set(json.loads(app_paths().mcp_config_file.read_text())["mcpServers"]) == {"local", "cloud"}

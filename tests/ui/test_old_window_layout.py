"""A window.json saved by a version before issue 16 (inspector 320 px, no layout_version): at the next start the
inspector is widened to what the Tools tab needs, taken from the chat, and the sidebar, the window's size and
the open tab stay as the user left them. A layout saved by this version is restored as it is (issue 16)."""

from __future__ import annotations

import base64
import json

from PySide6.QtWidgets import QComboBox

from hermes_desktop.core.paths import app_paths
from hermes_desktop.ui.launch import build_window
from hermes_desktop.ui.window_layout import INSPECTOR_MIN, restored_sizes
from tests.ui.conftest import Harness


def started(loop, env) -> Harness:
    """The real window started as the app starts it: the saved geometry is the size (no test resize)."""
    _app, window, controller = build_window(env)
    window.show()
    h = Harness(loop, window, controller)
    h.run(controller.start())
    h.wait_until(lambda: window.chat.isEnabled(), what="the window to be ready")
    return h


def stop(h: Harness) -> None:
    from hermes_desktop.ui.tasks import drain

    h.run(h.controller.shutdown())
    h.run(drain())
    h.window.close()
    h.window.deleteLater()


def test_an_old_layout_with_a_320px_inspector_is_widened_for_the_tools_tab(qapp, loop, model_server,
                                                                           workspace_dir) -> None:
    env = {"HERMES_BASE_URL": model_server.base_url, "HERMES_MODEL": "scripted-model",
           "HERMES_API_KEY": "sk-ui-test-key", "HERMES_WORKSPACE": str(workspace_dir)}
    # The geometry of a real 1340×840 window, then the file as the old version wrote it.
    first = started(loop, env)
    first.do(lambda: first.window.resize(1340, 840))
    first.settle(0.1)
    geometry = base64.b64encode(bytes(first.window.saveGeometry().data())).decode("ascii")
    stop(first)
    state_file = app_paths().config_dir / "window.json"
    state_file.write_text(json.dumps({"geometry": geometry, "splitter": [262, 758, 320], "inspector_tab": 0,
                                      "session": None}), encoding="utf-8")

    h = started(loop, env)
    window = h.window
    # Offscreen, Qt fits a restored geometry into its 800×600 screen; the size is set again as the desktop keeps it.
    h.do(lambda: window.resize(1340, 840))
    h.settle(0.2)
    assert window.width() == 1340
    sidebar, chat, inspector = window.splitter.sizes()
    assert inspector >= INSPECTOR_MIN, window.splitter.sizes()
    assert sidebar == 262, "the sidebar keeps the user's width"
    assert window.inspector.currentWidget() is window.inspector.tools
    tree = window.inspector.tools
    assert tree.horizontalScrollBar().maximum() == 0 and not tree.horizontalScrollBar().isVisible()
    for combo in [c for c in tree.findChildren(QComboBox) if c.objectName().startswith("rule:")]:
        assert combo.geometry().right() <= tree.viewport().width(), "the combo (and its arrow) is inside the list"
    # This version writes its version, and its own narrow choice is kept next time.
    window.splitter.setSizes([262, 778, 300])
    window.save_state()
    saved = json.loads(state_file.read_text(encoding="utf-8"))
    assert saved["layout_version"] == 2
    assert restored_sizes(saved) == window.splitter.sizes()
    stop(h)


def test_restored_sizes_takes_the_room_from_the_chat_then_the_sidebar() -> None:
    assert restored_sizes({"splitter": [250, 770, 320]}) == [250, 700, 390]
    assert restored_sizes({"splitter": [300, 420, 320]}) == [250, 400, 390]
    assert restored_sizes({"splitter": [250, 770, 320], "layout_version": 2}) == [250, 770, 320]
    assert restored_sizes({"splitter": [250, 770, 0]}) == [250, 770, 0], "a collapsed inspector stays collapsed"
    assert restored_sizes({"splitter": [250, "x", 320]}) is None
    assert restored_sizes({"splitter": [1, 2]}) is None

"""At start the reopened inspector tab must not say it is empty before the engine has looked.

Seen by hand in the real app (Xvfb, `python -m hermes_desktop` against the demo model): with one memory stored and
the Memory tab open when the window was closed, the next start paints the Memory tab with "No memories yet.
Memory keeps short facts you tell Hermes…" and keeps it for 0.7-1.4 s (first paint until the engine has read the
store), then replaces it with the memory. The same with the Skills tab: "No skills installed" with its Open
skills folder / Reload buttons, while the four bundled skills are there. English and Chinese, light and dark.
The session list does it right: on a restart it shows nothing until its first page is read, never "No
conversations yet". These tests stop at the moment of the first paint (ui/launch.first_paint: the window built
with complete=False, shown and painted, the engine not started) and read what the restored tab shows then.
"""

from __future__ import annotations

from PySide6.QtWidgets import QListWidget

from hermes_desktop.ui.launch import build_window


def _texts(view: QListWidget) -> list[str]:
    return [view.item(i).text() for i in range(view.count())]


def _next_start_at_first_paint(h, qapp):  # type: ignore[no-untyped-def]
    """Close the window as the user does (its layout is saved), then build the next start up to its first paint."""
    h.window.save_state()  # what closeEvent does
    env = {"HERMES_BASE_URL": "http://127.0.0.1:9/v1", "HERMES_MODEL": "scripted-model"}
    _app, window, _controller = build_window(env, complete=False)
    window.resize(1200, 800)
    window.show()
    for _ in range(5):
        qapp.processEvents()
    return window


def test_the_restored_memory_tab_does_not_say_there_are_no_memories_before_reading_them(make_window, qapp) -> None:
    h = make_window()
    h.run(h.controller.add_memory("I prefer tea"))
    h.do(lambda: h.window.inspector.setCurrentIndex(4))
    h.wait_until(lambda: any("I prefer tea" in t for t in _texts(h.window.inspector.memory.list)),
                 what="the memory in the Memory tab")

    window = _next_start_at_first_paint(h, qapp)
    try:
        assert window.inspector.currentIndex() == 4  # the Memory tab is the one on screen
        shown = _texts(window.inspector.memory.list)
        assert not any("No memories yet" in text for text in shown), (
            f"the first paint says there are no memories while one is stored: {shown}")
    finally:
        window.close()
        window.deleteLater()


def test_the_restored_skills_tab_does_not_say_no_skills_are_installed_before_loading_them(make_window, qapp) -> None:
    h = make_window()
    h.do(lambda: h.window.inspector.setCurrentIndex(1))
    h.wait_until(lambda: h.window.inspector.selected_skill() is not None or any(
        "file-organizer" in t for t in _texts(h.window.inspector.skills)), what="the bundled skills listed")

    window = _next_start_at_first_paint(h, qapp)
    try:
        assert window.inspector.currentIndex() == 1  # the Skills tab is the one on screen
        overlay = window.inspector.skills_empty
        claims_none = overlay._state is not None and overlay.state.isVisible()
        assert not claims_none, "the first paint says 'No skills installed' while the bundled skills are there"
    finally:
        window.close()
        window.deleteLater()


def test_the_restored_mcp_tab_does_not_say_there_are_no_servers_before_reading_mcp_json(make_window, qapp) -> None:
    import json

    from hermes_desktop.core.paths import app_paths

    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"ghost": {"command": "no-such-mcp-binary"}}}), encoding="utf-8")
    h = make_window()
    h.do(lambda: h.window.inspector.setCurrentIndex(2))
    servers = h.window.inspector.mcp.servers
    h.wait_until(lambda: any("ghost" in servers.item(i).text() for i in range(servers.count())), timeout=30,
                 what="the configured server in the MCP tab")

    window = _next_start_at_first_paint(h, qapp)
    try:
        assert window.inspector.currentIndex() == 2  # the MCP tab is the one on screen
        overlay = window.inspector.mcp.empty_state
        claims_none = overlay._state is not None and overlay.state.isVisible()
        assert not claims_none, "the first paint says 'No MCP servers yet' while mcp.json lists one"
    finally:
        window.close()
        window.deleteLater()

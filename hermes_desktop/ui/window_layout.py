"""The saved window layout (window.json): which splitter sizes to restore.

Layouts saved before issue 16 have no `layout_version` and often a 320 px inspector, which cuts the Tools tab
(names, the Approval combos' arrows) and brings back its horizontal scroll bar. Such a layout is widened to
`INSPECTOR_MIN`, the width the Tools tab needs at the default 1340 px window (tests/ui/test_keyboard.py measures
it), taking the room from the chat first, then from the sidebar, never below their own minimums; the window's
geometry and the user's other sizes are kept. A layout saved by this version (`layout_version` 2) is restored as
it is, so an inspector the user narrows on purpose stays narrow.
"""

from __future__ import annotations

from typing import Any

LAYOUT_VERSION = 2
INSPECTOR_MIN = 390  # the Tools tab's columns fit (ui/keyboard.py fit_tool_columns); main_window's default width
CHAT_MIN = 400
SIDEBAR_MIN = 180
MAX_SIZE = 100_000  # no screen is wider; anything above comes from a damaged or hand-edited file


def restored_sizes(state: dict[str, Any]) -> list[int] | None:
    """The splitter sizes [sidebar, chat, inspector] to restore from a saved state, or None to keep the default."""
    sizes = state.get("splitter")
    if not isinstance(sizes, list) or len(sizes) != 3:
        return None
    try:
        sidebar, chat, inspector = (max(0, int(v)) for v in sizes)
    except (TypeError, ValueError, OverflowError):  # a hand-edited file: null, "wide", Infinity
        return None
    if max(sidebar, chat, inspector) > MAX_SIZE:  # Qt's int would overflow
        return None
    if state.get("layout_version") == LAYOUT_VERSION or inspector == 0 or inspector >= INSPECTOR_MIN:
        return [sidebar, chat, inspector]  # this version's choice, a hidden inspector, or wide enough already
    need = INSPECTOR_MIN - inspector
    from_chat = min(need, max(0, chat - CHAT_MIN))
    from_sidebar = min(need - from_chat, max(0, sidebar - SIDEBAR_MIN))
    return [sidebar - from_sidebar, chat - from_chat, inspector + from_chat + from_sidebar]

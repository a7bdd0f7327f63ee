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


# The window on real screens (issue 24). A laptop's 1366×768 leaves about 1366×730 for windows once a panel is
# counted, so the default 1340×840 put the message box below the screen's edge. The window is sized to what the
# screen makes available, and below YIELD_BELOW the inspector gives its room to the chat.
DEFAULT_WINDOW = (1340, 840)
FRAME_ALLOWANCE = (16, 48)  # a title bar and borders, before the window manager has told us their real size
YIELD_BELOW = SIDEBAR_MIN + CHAT_MIN + INSPECTOR_MIN + 120  # 1090 px: narrower, and the inspector yields


def fitted_window_rect(want: tuple[int, int], available: tuple[int, int, int, int],
                       frame: tuple[int, int] = FRAME_ALLOWANCE) -> tuple[int, int, int, int]:
    """The window's (x, y, width, height) so that it, frame included, lies inside `available` (x, y, w, h).

    The wanted size is kept where it fits; a screen smaller than it gets the whole available area, centred.
    """
    ax, ay, aw, ah = available
    width = max(1, min(want[0], aw - frame[0]))
    height = max(1, min(want[1], ah - frame[1]))
    x = ax + max(0, (aw - frame[0] - width) // 2)
    y = ay + max(0, (ah - frame[1] - height) // 2)
    return x, y, width, height


def reshown_sizes(sizes: list[int], inspector_width: int = INSPECTOR_MIN) -> list[int]:
    """Splitter sizes [sidebar, chat, inspector] with the inspector given `inspector_width` again.

    The room comes from the chat down to CHAT_MIN, then from the sidebar down to SIDEBAR_MIN; on a window too
    narrow for all three the inspector gets what is left (never a zero width that looks like a bug).
    """
    sidebar, chat, inspector = (max(0, int(v)) for v in sizes)
    if inspector >= inspector_width:
        return [sidebar, chat, inspector]
    need = inspector_width - inspector
    from_chat = min(need, max(0, chat - CHAT_MIN))
    from_sidebar = min(need - from_chat, max(0, sidebar - SIDEBAR_MIN))
    given = inspector + from_chat + from_sidebar
    if given < INSPECTOR_MIN // 2:  # nothing to spare: share the chat's room rather than show a sliver
        share = max(0, (chat + inspector) // 3)
        return [sidebar, chat + inspector - share, share]
    return [sidebar - from_sidebar, chat - from_chat, given]

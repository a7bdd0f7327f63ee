"""A sidebar search hit opens the conversation where the words are: the version (branch) that holds the message,
scrolled to it, and the message highlighted (issue 24).

Before, a hit opened the session's active branch at the hit's depth: a message of an older version (an edit, a
regenerated reply) led to whatever message of the active branch sat at that depth, and nothing marked which one
was meant. Now:
- the hit's message is read back (and must still belong to the session: a hit listed before a deletion opens the
  session plainly);
- when it is not on the active branch, the branch through it is made the active one, as the ‹ › version arrows
  under a message do (store.switch_branch); never while a turn runs in that session, which would answer on another
  branch (the session then opens as it is, at its end);
- the page around it is loaded, the row scrolled to the middle of the view and highlighted (ChatView.highlight:
  an accent tint that the next click in the transcript takes away). A hit in a tool result is its tool card's
  row.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QAbstractItemView

from hermes_desktop.ui.chat.items import ToolCardItem

if TYPE_CHECKING:
    from hermes_desktop.core.session_types import StoredMessage
    from hermes_desktop.ui.chat.model import TranscriptModel


def _prepare(store: Any, session_id: str, message_id: int, depth: int | None,
             busy: bool) -> tuple["StoredMessage | None", int | None]:
    """The hit's message and its position (`depth`, the search hit's: a message's distance from the first is its
    position on any branch through it) on the active branch, switched to it when needed; (None, None) when it is
    gone, or on another branch while a turn runs."""
    message = store.message(message_id)
    if message is None or message.session_id != session_id or depth is None:
        return None, None
    at_depth = store.messages_range(session_id, depth, 1)
    if at_depth and at_depth[0].id == message_id:
        return message, depth  # already on the active branch
    if busy:
        return None, None
    store.switch_branch(message_id)
    return message, depth


def row_of_message(model: "TranscriptModel", message: "StoredMessage") -> int:
    """The transcript row showing `message`: its own row, or for a tool result the card of the call it answers."""
    if message.role == "tool":
        return next((row for row, item in enumerate(model.items())
                     if isinstance(item, ToolCardItem) and item.call_id == message.tool_call_id), -1)
    return model.find_message(message.id)


async def open_search_hit(window: Any, session_id: str, message_id: int, position: int | None) -> None:
    """Open the hit's message in its version of the conversation, scrolled to and highlighted."""
    controller = window.controller
    if not controller.ready:
        return
    message, position = await asyncio.to_thread(_prepare, controller.store, session_id, message_id, position,
                                                controller.is_busy(session_id))
    await window.open_session(session_id, position)
    if message is None or window.current_session != session_id:
        return  # gone, or another session was opened meanwhile
    view = window.chat.view
    row = row_of_message(window.chat.model, message)
    if row < 0:
        return

    def show() -> None:  # after the open's own scroll (same turn of the loop, queued before this)
        view.scroll_to_row(row, QAbstractItemView.ScrollHint.PositionAtCenter)
        view.highlight(row)

    QTimer.singleShot(0, show)

"""Which turn a chat row belongs to (issue 27: "Save as skill…" in a reply's own menu).

A turn is the user message and everything the transcript shows after it until the next user message: one or more
reply rounds and the tool cards between them. The menu of any of its reply rows offers "Save as skill…" only when
the turn used tools (a reply without tools has no path to save), and names the turn by its user message id, which
is how core/learning/trajectories.py records paths (ui/learning_actions.save_turn_as_skill looks it up). Read from
the rows on screen, not the store: the menu opens at once and the rows already say whether tools ran.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from hermes_desktop.ui.chat.items import Item, MessageItem, ToolCardItem


@dataclass(frozen=True, slots=True)
class ReplyTurn:
    user_message_id: int  # the stored user message the turn answered
    tool_calls: int  # tool cards shown for the turn


def reply_turn(rows: Sequence[Item], row: int) -> ReplyTurn | None:
    """The turn of the assistant reply at `row`, or None (not a stored reply, or no stored user message above)."""
    if not 0 <= row < len(rows):
        return None
    item = rows[row]
    if not isinstance(item, MessageItem) or item.role != "assistant" or item.message_id is None:
        return None
    start = next((i for i in range(row - 1, -1, -1) if _is_user(rows[i])), None)
    if start is None:
        return None
    user = rows[start]
    assert isinstance(user, MessageItem)
    if user.message_id is None:  # still being stored: no turn to name yet
        return None
    end = next((i for i in range(row + 1, len(rows)) if _is_user(rows[i])), len(rows))
    tools = sum(isinstance(rows[i], ToolCardItem) for i in range(start + 1, end))
    return ReplyTurn(user.message_id, tools)


def _is_user(item: Item) -> bool:
    return isinstance(item, MessageItem) and item.role == "user"

"""A tool card in a narrow chat column (the inspector dragged wide, or a small window): the status ("done in
0.01 s · allowed once (you)") was drawn over the tool's name and source ("MCP remote-oauth"); it now takes a line
of its own when the header is too full, and keeps its place on the right when there is room."""

from __future__ import annotations

from hermes_desktop.ui.chat.items import DONE, ToolCardItem


def header_parts(h, card: ToolCardItem, width: int):
    layout = h.window.chat.view.delegate.row_layout(card, width)
    return {part.role: part.rect for part in layout.texts if part.role in ("badge", "name", "muted", "status")}


def test_the_status_never_covers_the_name_or_source(make_window) -> None:
    h = make_window()
    card = ToolCardItem("c1", "mcp_remote-oauth_ask_form", "{}", source="mcp:remote-oauth", risk="read", status=DONE,
                        decided_by="user", decision="allow_once", duration_s=13.59)
    for width in (300, 420, 900):
        parts = header_parts(h, card, width)
        for other in ("badge", "name", "muted"):
            assert not parts["status"].intersects(parts[other]), (width, other)
    wide = header_parts(h, card, 900)
    assert wide["status"].top() == wide["name"].top(), "with room, the status stays on the header line"
    narrow = header_parts(h, card, 300)
    assert narrow["status"].top() > narrow["name"].bottom() - 1, "in a narrow column it goes below"

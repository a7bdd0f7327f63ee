"""The inspector builds only the tab on screen before the first paint (ui/inspector.py); the others come after it,
when shown, or when code asks for one of their widgets, and each comes exactly once, in its place."""

from __future__ import annotations

from PySide6.QtCore import SIGNAL
from PySide6.QtWidgets import QWidget

from hermes_desktop.ui.inspector import Inspector


def test_pages_are_built_once_in_their_place_when_asked_for(qapp) -> None:
    inspector = Inspector(lazy=True)
    labels = [inspector.tabText(i) for i in range(inspector.count())]
    assert labels == ["Tools", "Skills", "MCP", "Activity", "Memory", "Knowledge", "Assistants"]
    placeholders = [inspector.widget(i) for i in range(1, 6)]
    seen: list[tuple[str, QWidget]] = []
    inspector.when_built("memory", lambda page: seen.append(("memory", page)))
    inspector.when_built("mcp", lambda page: seen.append(("mcp", page)))
    assert seen == []  # nothing built yet

    memory = inspector.memory  # asking for a widget builds its page
    assert inspector.widget(4) is memory and inspector.indexOf(memory) == 4 and seen == [("memory", memory)]
    assert inspector.memory is memory and seen == [("memory", memory)]  # once
    assert inspector.currentIndex() == 0  # the swap did not change the tab on screen

    inspector.setCurrentIndex(3)  # showing a tab builds it, and it stays the current one
    assert inspector.currentWidget() is inspector.activity and inspector.indexOf(inspector.activity) == 3

    inspector.build_pages()
    assert seen[-1] == ("mcp", inspector.mcp) and len(seen) == 2
    assert [inspector.tabText(i) for i in range(inspector.count())] == labels
    assert not any(inspector.indexOf(p) >= 0 for p in placeholders)
    late: list[QWidget] = []
    inspector.when_built("skills", late.append)  # already built: called at once
    assert late and late[0].isAncestorOf(inspector.skills) and inspector.skills_empty is not None
    inspector.deleteLater()


def test_the_window_builds_the_hidden_tabs_after_its_first_paint_and_wires_them(make_window) -> None:
    h = make_window()
    inspector = h.window.inspector
    assert not inspector._unbuilt  # finish_start built them all
    assert inspector.widget(2) is inspector.mcp and inspector.widget(4) is inspector.memory
    # The MCP tab's buttons reach the MCP actions, and the Memory tab's the memory actions (connected when built).
    assert inspector.mcp.receivers(SIGNAL("sig_action(QString,QString)")) == 1
    assert inspector.memory.receivers(SIGNAL("sig_add()")) == 1
    assert inspector.memory.receivers(SIGNAL("sig_undo()")) == 1

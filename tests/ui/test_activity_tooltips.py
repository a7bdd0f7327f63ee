"""The Activity tab at the default window size (1340×840, the inspector 390 px wide): a turn's title, each entry
and each of its detail lines can be longer than the row (a long question, a model round's numbers, a tool's
JSON arguments or a path without spaces). Such lines wrap to the tab's width (and again when it changes) instead
of being cut, and every line has its whole text in a tooltip, as plain text (issue 16)."""

from __future__ import annotations

from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from tests.support.model_server import CallScript, text_reply, tool_call_reply

LONG_PATH = "notes/" + "a-rather-long-folder-name-without-spaces/" * 4 + "final-report-2026-draft.md"
QUESTION = ("Please write a short summary of the quarterly report into a new file in the workspace, "
            "keeping the headings, and tell me where you put it when you are done with it")


def every_item(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    found: list[QTreeWidgetItem] = []

    def walk(item: QTreeWidgetItem) -> None:
        found.append(item)
        for n in range(item.childCount()):
            walk(item.child(n))

    for n in range(tree.topLevelItemCount()):
        walk(tree.topLevelItem(n))
    return found


def plain(tip: str) -> str:
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", tip))


def test_every_activity_line_that_can_be_cut_has_its_whole_text_in_a_tooltip(make_window, model_server,
                                                                           workspace_dir) -> None:
    from hermes_desktop.core.paths import app_paths
    from hermes_desktop.core.settings import Settings, SettingsStore

    SettingsStore(app_paths()).save(Settings(tool_rules={"builtin/write_file": "always_allow"}))
    h = make_window()
    window = h.window
    h.do(lambda: window.resize(1340, 840))
    h.do(lambda: window.inspector.setCurrentWidget(window.inspector.activity))
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": LONG_PATH, "content": "# Summary\n"})),
                         text_reply(f"Written to {LONG_PATH}."))
    h.send(QUESTION)
    h.wait_until(lambda: not h.controller.is_busy(window.current_session) and window.current_session, what="idle")
    tree = window.inspector.activity
    h.wait_until(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() >= 3, what="the turn")
    # The new session's title request is added to the trace when its usage is saved (a side request): wait for it,
    # so the tree is not rebuilt under the measurements below.
    recorder = h.controller.activity[window.current_session]
    h.wait_until(lambda: any(e.kind == "side" for e in recorder.turns[-1].entries), what="the title's side request")
    h.settle(0.2)
    h.do(tree.expandAll)
    h.settle(0.2)
    assert window.width() == 1340 and tree.width() <= 400
    items = every_item(tree)
    top = items[0]
    assert QUESTION in plain(top.toolTip(0)), "the turn's whole question is in its tooltip"
    lines = [(item, item.text(0)) for item in items]
    assert any(LONG_PATH in text for _item, text in lines), "the path is shown in a detail line"
    cut = 0
    for item, text in lines:
        rect = tree.visualItemRect(item)
        if rect.height() == 0:
            continue
        one_line = tree.fontMetrics().horizontalAdvance(text) > rect.width()
        if one_line or len(text) > 40:
            cut += one_line
            assert text in plain(item.toolTip(0)), f"no whole text in the tooltip of {text!r}"
        tip = item.toolTip(0)
        if tip:
            assert tip.startswith("<p") and "<b>" not in tip, "tooltips are the text, not its HTML"
    assert cut >= 2, "at this width some lines are longer than the row (the test must see them)"
    # Those lines wrap: their rows are as tall as their wrapped text, and nothing scrolls sideways.
    line_height = tree.fontMetrics().lineSpacing()
    for item, text in lines:
        rect = tree.visualItemRect(item)
        if rect.height() and tree.fontMetrics().horizontalAdvance(text) > rect.width():
            assert rect.height() >= 2 * line_height, f"{text!r} is cut to one line"
    assert tree.horizontalScrollBar().maximum() == 0
    path_line = next(item for item, text in lines if LONG_PATH in text)
    before = tree.visualItemRect(path_line).height()
    sizes = window.splitter.sizes()
    # Wider, not narrower: the inspector's minimum width (its widest tab's buttons) is not this test's subject.
    h.do(lambda: window.splitter.setSizes([sizes[0], sizes[1] - 120, sizes[2] + 120]))
    h.settle(0.2)
    assert tree.width() >= 500
    assert tree.visualItemRect(path_line).height() < before, "a wider tab wraps the line again, to fewer rows"

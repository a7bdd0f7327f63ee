"""What the speed work (issue 16) changed, checked for behaviour, not time (timings are in tests/benchmarks).

- Streamed text reaches the transcript a frame's budget at a time, in order, all of it; any other event
  (a tool call, the end of the turn) applies the text before it first, and waits for the frames that show it
  when that is more than one frame's share.
- The delegate keeps full layouts for the last rows painted only; an evicted row keeps its exact height.
- PySide6's import hook answers "uses PySide6" from the module's file, as shiboken's own test does.
"""

from __future__ import annotations

import json
import types

from PySide6.QtWidgets import QListView, QStyleOptionViewItem

from hermes_desktop import qt_import_hook
from hermes_desktop.core import events as ev
from hermes_desktop.ui.chat import delegate as delegate_module
from hermes_desktop.ui.chat import model as model_module
from hermes_desktop.ui.chat.delegate import TranscriptDelegate
from hermes_desktop.ui.chat.items import MessageItem, ToolCardItem
from hermes_desktop.ui.chat.model import TranscriptModel


def test_a_fast_stream_is_shown_a_frame_budget_at_a_time_and_all_of_it(qapp) -> None:
    model = TranscriptModel()
    text = "".join(f"line {n} 🙂 with some words\n\n" for n in range(400))
    for start in range(0, len(text), 4):
        model.apply(ev.TextDelta(text[start:start + 4]))
    item = model.streaming_item
    assert item is not None and item.text == ""
    frames = 0
    while model._pending_text:  # noqa: SLF001 - the timer's slot, called as the timer would
        model._flush_frame()  # noqa: SLF001
        frames += 1
        assert len(item.text) <= frames * model_module.STREAM_CHARS_PER_FRAME
        assert item.text.count("\n\n") <= frames * model_module.STREAM_BLOCKS_PER_FRAME
        assert text.startswith(item.text), "pieces arrive in order, none lost or split inside a character"
    assert item.text == text and frames > 1


def _call() -> ev.ToolCallProposed:
    return ev.ToolCallProposed("c1", "calculate", {"expression": "1+1"}, '{"expression": "1+1"}', "builtin", "read")


def test_another_event_applies_the_text_before_it_first(qapp) -> None:
    model = TranscriptModel()
    model.apply(ev.TextDelta("Let me work that out."))
    reply = model.streaming_item
    model.apply(_call())
    assert reply is not None and reply.text == "Let me work that out." and not reply.streaming
    assert isinstance(model.items()[-1], ToolCardItem)


def test_an_event_behind_a_backlog_waits_for_the_frames_that_show_it(qapp) -> None:
    model = TranscriptModel()
    text = "".join(f"paragraph {n}\n\n" for n in range(5 * model_module.STREAM_BLOCKS_PER_FRAME))
    model.apply(ev.TextDelta(text))
    reply = model.streaming_item
    model._flush_frame()  # noqa: SLF001
    model.apply(_call())
    model.apply(ev.TextDelta("then more text"))  # anything after it waits too, in order
    assert reply is not None and reply.streaming and len(model.items()) == 1, "the card waits for the text"
    frames = 0
    while model._pending_text or model._deferred:  # noqa: SLF001
        model._flush_frame()  # noqa: SLF001
        frames += 1
        assert frames < 50
    assert reply.text == text and not reply.streaming and frames > 2
    assert isinstance(model.items()[1], ToolCardItem)
    assert model.items()[2].text == "then more text"  # type: ignore[union-attr]


def test_flush_stream_brings_text_and_waiting_events_up_to_date_at_once(qapp) -> None:
    model = TranscriptModel()
    text = "x" * (model_module.STREAM_CHARS_PER_FRAME * 3)
    model.apply(ev.TextDelta(text))
    reply = model.streaming_item
    model.apply(_call())
    model.flush_stream()
    assert reply is not None and reply.text == text and not reply.streaming
    assert isinstance(model.items()[-1], ToolCardItem)


def test_evicted_layouts_keep_their_exact_heights(qapp, monkeypatch) -> None:
    monkeypatch.setattr(delegate_module, "LAYOUT_CACHE_ROWS", 5)
    view = QListView()
    view.resize(600, 400)
    delegate = TranscriptDelegate(view)
    items = [MessageItem("assistant", f"## Answer {n}\n\n" + "word " * (20 * n), n + 1) for n in range(12)]
    model = TranscriptModel()
    model.reset(items)  # first: the model groups the replies under one header (items.continues), a layout change
    width = max(200, view.viewport().width())  # the width sizeHint lays rows out at
    heights = {item.key: delegate.row_layout(item, width).height for item in items}
    assert len(delegate._layouts) == 5  # noqa: SLF001 - the bound itself
    for item in items:
        assert delegate.exact_height_known(item, width)

    view.setModel(model)
    option = QStyleOptionViewItem()
    for row, item in enumerate(items):
        assert delegate.sizeHint(option, model.index(row)).height() == int(heights[item.key] + 0.5)


def test_the_import_hook_answers_from_the_modules_file(tmp_path) -> None:
    uses = tmp_path / "uses_qt.py"
    uses.write_text("from PySide6.QtCore import QObject\n", encoding="utf-8")
    plain = tmp_path / "plain.py"
    plain.write_text("VALUE = 1\n", encoding="utf-8")
    for path, expected in ((uses, True), (plain, False)):
        module = types.ModuleType(path.stem)
        module.__file__ = str(path)
        assert qt_import_hook._mentions_pyside(module) is expected  # noqa: SLF001
    assert qt_import_hook._mentions_pyside(json.decoder) is False  # noqa: SLF001
    assert qt_import_hook._mentions_pyside(types.ModuleType("no_file")) is False  # noqa: SLF001


def test_the_tools_tab_is_rebuilt_only_when_its_tools_change(qapp) -> None:
    from PySide6.QtWidgets import QComboBox

    from hermes_desktop.core.tools.builtin import builtin_tools
    from hermes_desktop.ui.inspector import Inspector

    inspector = Inspector()
    specs = builtin_tools()
    inspector.show_tools(specs, set(), {})
    combos = inspector.tools.findChildren(QComboBox)
    first = inspector.tools.topLevelItem(0).child(0)
    first.setExpanded(True)  # the user opened a tool's details
    inspector.show_tools(specs, set(), {})  # an MCP status change with the same tools
    assert inspector.tools.findChildren(QComboBox) == combos and first.isExpanded()
    inspector.show_tools(specs, {specs[0].name}, {})  # a tool was disabled: shown
    item = inspector.tool_item(specs[0].name)
    assert item is not None and item.checkState(0).name == "Unchecked"

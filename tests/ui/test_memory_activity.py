"""Activity lists the memories a turn's requests carried, with their sources (issue 13: "see them used, with their
sources, in the Activity tab"). The recorder is the Activity tab's model; the event comes from the real agent in
tests/core/test_memory.py."""

from __future__ import annotations

from hermes_desktop.core import events as ev
from hermes_desktop.ui.activity import ActivityRecorder


def test_recalled_memories_appear_in_the_turn_with_their_sources() -> None:
    recorder = ActivityRecorder(clock=lambda: 0.0)
    recorder.record(ev.TurnStarted("s", 1, "Any ideas for a drink?", ()))
    entry = recorder.record(ev.MemoryRecalled((3, 5), ("Prefers green tea (from 'Morning drinks', 1 Dec)",
                                                        "Apollo report due 15 Dec (from 'Work', 2 Dec)")))
    assert entry is not None and entry.title == "Memory: 2 recalled"
    assert "from 'Morning drinks', 1 Dec" in entry.detail and "Apollo report due 15 Dec" in entry.detail
    assert recorder.current.entries == [entry]

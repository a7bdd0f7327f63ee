"""Activity shows which past path workflow memory offered and from which session (issue 27). The event comes from
the real agent in tests/core/test_workflow_memory.py; here the Activity tab's model renders it."""

from __future__ import annotations

from hermes_desktop.core import events as ev
from hermes_desktop.ui.activity import ActivityRecorder


def test_an_offered_path_appears_in_the_turn_with_its_session_and_steps() -> None:
    recorder = ActivityRecorder(clock=lambda: 0.0)
    recorder.record(ev.TurnStarted("b", 1, "Move the pdfs to the Desktop", ()))
    entry = recorder.record(ev.WorkflowHintOffered(7, "a", "Tidy the downloads", "Move the pdf to the Desktop",
                                                   "list_directory(Downloads) → move_path(report.pdf, Desktop)"))
    assert entry is not None and entry.title == "Workflow memory: a past path offered (from 'Tidy the downloads')"
    assert "Path: list_directory(Downloads) → move_path(report.pdf, Desktop)" in entry.detail
    assert "Earlier request: Move the pdf to the Desktop" in entry.detail
    assert recorder.current.entries == [entry]

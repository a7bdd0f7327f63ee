"""Suggested skills (issue 27): the same tool sequence with the same argument shapes succeeding three or more times
is suggested, whatever the concrete file names; failed paths, single calls and other shapes are not."""

from __future__ import annotations

from hermes_desktop.core.learning.suggestions import shape, suggestions
from hermes_desktop.core.learning.trajectories import Trajectory


def path(n: int, folder: str, *, good: bool = True, session: str = "s", extra: bool = False) -> Trajectory:
    steps = [{"tool": "list_directory", "arguments": {"path": folder}, "outcome": "ok"},
             {"tool": "move_path", "arguments": {"src": f"{folder}/a.pdf", "dst": "Desktop/a.pdf"}, "outcome": "ok"}]
    if extra:
        steps[1]["arguments"]["overwrite"] = True
    return Trajectory(n, session, n, f"tidy {folder}", steps, "", good, "" if good else "denied", [])


def test_three_successes_of_one_shape_on_other_folders_are_one_suggestion() -> None:
    found = suggestions([path(1, "Downloads", session="a"), path(2, "Inbox", session="b"), path(3, "Scans")])
    assert len(found) == 1
    only = found[0]
    assert only.tools == ("list_directory", "move_path") and only.count == 3 and only.sessions == 3
    assert only.example.id == 3 and only.requests[0] == "tidy Scans"  # newest first: the one a skill is drafted from


def test_failures_other_shapes_and_single_calls_are_not_counted() -> None:
    single = Trajectory(9, "s", 9, "look", [{"tool": "list_directory", "arguments": {"path": "x"}}], "", True, "", [])
    mixed = [path(1, "A"), path(2, "B"), path(3, "C", good=False), path(4, "D", extra=True), single, single, single]
    assert suggestions(mixed) == []
    assert shape(path(1, "A")) == shape(path(2, "Other/Place")) != shape(path(3, "A", extra=True))

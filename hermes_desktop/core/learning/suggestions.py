"""Suggested skills (issue 27): paths that succeeded often enough to be worth a skill.

A suggestion is a group of recorded turns that ended well with the same shape: the same tools in the same order,
each called with the same set of argument names and value kinds (text, a number, a list...), whatever the concrete
values. "Tidy the desktop" done three times on three different folders is one shape; the concrete file names are
exactly what a drafted skill turns into inputs. A shape seen `MIN_SUCCESSES` times or more is suggested, most
frequent first, with its newest turn as the one a skill is drafted from (core/learning/drafting.py).

Shapes whose tools already make up an installed skill's name are not filtered: the names of skills and tools do
not have to match, and a suggestion is only an offer the user can ignore.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable

from hermes_desktop.core.learning.trajectories import Trajectory

MIN_SUCCESSES = 3
MIN_STEPS = 2  # a single tool call is not a workflow
MAX_SUGGESTIONS = 20


@dataclass(frozen=True, slots=True)
class Suggestion:
    tools: tuple[str, ...]  # the path's tools in order
    count: int  # how many turns that ended well had this shape
    sessions: int  # in how many sessions
    example: Trajectory  # the newest of them: the one a skill is drafted from
    requests: tuple[str, ...]  # what the user asked, newest first (up to three, for the list's tooltip)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):  # "Downloads" and "Downloads/a.pdf" alike: a folder name has no slash to tell it by
        return "text"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return "none"


def shape(trajectory: Trajectory) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The path with the concrete values replaced by their kinds: equal for the same task on other files."""
    steps = []
    for step in trajectory.path:
        arguments = step.get("arguments") if isinstance(step.get("arguments"), dict) else {}
        steps.append((str(step.get("tool", "")), tuple(sorted((str(k), _kind(v)) for k, v in arguments.items()))))
    return tuple(steps)


def suggestions(trajectories: Iterable[Trajectory], *, min_successes: int = MIN_SUCCESSES) -> list[Suggestion]:
    groups: dict[tuple[Any, ...], list[Trajectory]] = defaultdict(list)
    for trajectory in trajectories:
        if trajectory.good and len(trajectory.path) >= MIN_STEPS:
            groups[shape(trajectory)].append(trajectory)
    found = []
    for key, members in groups.items():
        if len(members) < min_successes:
            continue
        newest = sorted(members, key=lambda t: t.id, reverse=True)  # ids grow with time
        found.append(Suggestion(tools=tuple(step[0] for step in key), count=len(members),
                                sessions=len({t.session_id for t in members}), example=newest[0],
                                requests=tuple(t.request[:200] for t in newest[:3])))
    found.sort(key=lambda s: (-s.count, -s.example.id))
    return found[:MAX_SUGGESTIONS]

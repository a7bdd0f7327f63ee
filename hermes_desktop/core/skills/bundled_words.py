"""The bundled skills' descriptions as the command line shows them, in its language (core/i18n.py).

The model reads each skill's English description from its SKILL.md or skill.yaml; a person reading
`skills list` in Chinese gets these. The window has the same sentences in its Qt catalogue
(ui/words.skill_description). Any other skill's description is its author's words and is shown as written.
"""

from __future__ import annotations

from hermes_desktop.core.i18n import _


def shown_description(name: str, origin: str, description: str) -> str:
    if origin != "bundled":
        return description
    return {
        "file-organizer": _("Plans and carries out a tidy-up of a folder in the workspace (grouping files into folders "
                            "by type, project or date, renaming them consistently), showing the plan first and asking "
                            "before each change."),
        "meeting-notes": _("Turns a pasted meeting transcript or rough notes into structured meeting notes (summary, "
                           "decisions, action items with owners and dates, open questions) and saves them as a note."),
        "project-doctor": _("Looks at a project folder in the workspace and explains what it is: its purpose, "
                            "languages and frameworks, structure, how to build and test it, and anything that looks "
                            "missing or broken."),
        "web-research": _("Researches a question on the web: reads a few relevant pages, compares what they say, and "
                          "writes a short summary with its sources, saved as a note."),
    }.get(name, description)


def origin_word(origin: str) -> str:
    """Where a skill comes from, in words ("~/.agents" and "~/.claude" are folders and stay as they are)."""
    return {"bundled": _("bundled"), "user": _("user"), "agents": "~/.agents", "claude": "~/.claude"}.get(origin, origin)

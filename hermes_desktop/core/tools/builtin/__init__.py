"""The tools every installation has. Names are a contract (ARCHITECTURE.md)."""

from __future__ import annotations

from hermes_desktop.core.tools.builtin.clock_math import calculate_tool, current_time_tool
from hermes_desktop.core.tools.builtin.files import file_tools
from hermes_desktop.core.tools.builtin.notes import note_tools
from hermes_desktop.core.tools.builtin.web import fetch_url_tool
from hermes_desktop.core.tools.spec import ToolSpec


def builtin_tools() -> list[ToolSpec]:
    return [current_time_tool(), calculate_tool(), *file_tools(), *note_tools(), fetch_url_tool()]

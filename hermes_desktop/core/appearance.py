"""The two settings the window needs before its first paint, the language and the theme, read without the
settings model.

ui/launch.py paints the window before it imports core/settings.py (its dataclasses and enums cost a few
milliseconds of a start that is measured against a bare Qt window); the engine loads, checks and, when they are
broken, reports the whole settings right after. This read never changes a file: `SettingsStore.load()` sets an
unreadable file aside, and doing that here would leave the engine nothing to report. From a file that is not
valid JSON (cut short, say) the language and theme are still found when they can be, so that problem is reported
in the user's language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

DEFAULT = "system"
_VALUE = r'"{key}"\s*:\s*"([A-Za-z_]{{1,16}})"'


def peek_appearance(settings_file: Path) -> tuple[str, str]:
    """(language, theme) as settings.json has them; "system" for each one missing or unreadable."""
    try:
        text = settings_file.read_text(encoding="utf-8", errors="replace")
    except OSError:  # missing, unreadable, a folder: the defaults (the engine says why, if it matters)
        return DEFAULT, DEFAULT
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        return str(data.get("language", DEFAULT)), str(data.get("theme", DEFAULT))
    found = {key: match.group(1) for key in ("language", "theme")
             if (match := re.search(_VALUE.format(key=key), text))}
    return found.get("language", DEFAULT), found.get("theme", DEFAULT)

"""The menu entry (resources/hermes-desktop.desktop) passes `desktop-file-validate` with no error, warning or hint,
and names exactly one main category, so the app appears once in the applications menu."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

ENTRY = Path(__file__).resolve().parents[2] / "resources" / "hermes-desktop.desktop"
# The main categories of the freedesktop.org menu specification (a desktop entry should name exactly one).
MAIN_CATEGORIES = {"AudioVideo", "Audio", "Video", "Development", "Education", "Game", "Graphics", "Network",
                   "Office", "Science", "Settings", "System", "Utility"}


def test_the_entry_has_exactly_one_main_category() -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(ENTRY, encoding="utf-8")
    categories = [c for c in parser["Desktop Entry"]["Categories"].split(";") if c]
    assert [c for c in categories if c in MAIN_CATEGORIES] == ["Network"], categories
    assert "Chat" in categories


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-validate not installed (apt-get install desktop-file-utils)")
def test_desktop_file_validate_reports_nothing() -> None:
    result = subprocess.run(["desktop-file-validate", str(ENTRY)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and result.stdout.strip() == "" and result.stderr.strip() == "", \
        result.stdout + result.stderr

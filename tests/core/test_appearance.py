"""The window's first paint reads only the language and the theme from settings.json (core/appearance.py), never
changing the file: a broken one is left for the engine to set aside and report (in the user's language)."""

from __future__ import annotations

import json
from pathlib import Path

from hermes_desktop.core.appearance import peek_appearance


def test_language_and_theme_from_a_good_file_and_the_defaults_without_one(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    assert peek_appearance(path) == ("system", "system")
    path.write_text(json.dumps({"language": "zh_CN", "theme": "dark", "profiles": []}), encoding="utf-8")
    assert peek_appearance(path) == ("zh_CN", "dark")
    path.write_text(json.dumps({"theme": "light"}), encoding="utf-8")
    assert peek_appearance(path) == ("system", "light")


def test_a_cut_short_file_still_gives_its_language_and_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    broken = '{"language": "zh_CN", "theme": "dark", "profiles": [{"id": "a", "name": "Loc'
    path.write_text(broken, encoding="utf-8")
    assert peek_appearance(path) == ("zh_CN", "dark")
    assert path.read_text(encoding="utf-8") == broken
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("settings")] == ["settings.json"]  # none set aside


def test_unreadable_or_strange_files_give_the_defaults(tmp_path: Path) -> None:
    folder = tmp_path / "settings.json"
    folder.mkdir()  # a folder where the file should be
    assert peek_appearance(folder) == ("system", "system")
    odd = tmp_path / "odd.json"
    odd.write_bytes(b"\xff\xfe[1, 2, 3]")  # not UTF-8, and a list
    assert peek_appearance(odd) == ("system", "system")
    odd.write_text('{"language": "<b>x</b>"', encoding="utf-8")  # cut short, and no plausible value: not taken
    assert peek_appearance(odd) == ("system", "system")

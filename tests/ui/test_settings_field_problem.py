"""One bad value in settings.json (a typo in an enum, a negative limit): the window starts with every provider
profile, and its error bar names the field, in English and in Chinese (core/settings_validation.py)."""

from __future__ import annotations

import json

from hermes_desktop.core.paths import app_paths
from tests.ui.test_translations import chinese  # noqa: F401 - fixture

PROFILE = {"id": "work", "name": "Work", "base_url": "http://127.0.0.1:9/v1", "model": "work-model"}


def _bad_file(language: str) -> None:
    settings = app_paths().settings_file
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"language": language, "profiles": [PROFILE], "active_profile_id": "work",
                                    "approval_mode": "ask_rsky", "limits": {"max_round_trips": -3}}), encoding="utf-8")


def _error_bar(h) -> str:
    return h.wait_until(lambda: h.window.errors.isVisible() and h.window.errors.label.text(), what="the error bar")


def test_the_error_bar_names_each_bad_field_and_the_profiles_stay(make_window) -> None:
    _bad_file("en")
    h = make_window()
    text = _error_bar(h)
    assert "approval_mode" in text and "limits.max_round_trips" in text, text
    assert [p.id for p in h.controller.runtime.settings.profiles] == ["work"]
    assert not list(app_paths().settings_file.parent.glob("settings.json.corrupt-*"))


def test_the_chinese_error_bar_names_the_field_too(chinese, make_window) -> None:
    _bad_file("zh_CN")
    h = make_window()
    text = _error_bar(h)
    assert "设置文件" in text and "approval_mode" in text and "limits.max_round_trips" in text, text

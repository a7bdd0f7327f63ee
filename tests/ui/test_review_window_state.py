"""A window.json edited by hand (or by another program) must not keep the window from opening: the saved layout
is a convenience. Python's json reads Infinity, a number too big for Qt's int, and a geometry that is not base64;
each ended the start with a traceback ("the window could not be built")."""

from __future__ import annotations

import json

import pytest

from hermes_desktop.core.paths import app_paths
from hermes_desktop.ui.window_layout import restored_sizes


def test_the_saved_sizes_never_overflow() -> None:
    assert restored_sizes(json.loads('{"splitter": [Infinity, 500, 400]}')) is None
    assert restored_sizes({"splitter": [10 ** 30, 500, 400], "layout_version": 2}) is None
    assert restored_sizes({"splitter": [250, 700, 390], "layout_version": 2}) == [250, 700, 390]


@pytest.mark.parametrize("state", [
    '{"splitter": [Infinity, 500, 400], "inspector_tab": 1}',
    '{"geometry": "not base64 at all!", "inspector_tab": 1}',
    '{"inspector_tab": 100000000000000000000}',
])
def test_an_odd_window_json_still_opens_the_window(make_window, state: str) -> None:
    paths = app_paths()
    paths.config_dir.mkdir(parents=True, exist_ok=True)
    (paths.config_dir / "window.json").write_text(state, encoding="utf-8")
    harness = make_window()
    assert harness.window.chat.isEnabled()

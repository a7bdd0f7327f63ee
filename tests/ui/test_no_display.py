"""Without a usable display `hermes-desktop` says so in one line and exits 1, instead of Qt's abort (134)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.ui.display import display_problem, find_xcb_plugin

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the display check is for Linux")


def start_app(**env_changes: str | None) -> subprocess.CompletedProcess[str]:
    """`python -m hermes_desktop` (the window) as a real process with this environment."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM",
                                                            "XDG_SESSION_TYPE", "QT_QPA_PLATFORM_PLUGIN_PATH")}
    env.update({k: v for k, v in env_changes.items() if v is not None})
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "hermes_desktop"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def assert_one_clear_line(result: subprocess.CompletedProcess[str], *expected: str) -> str:
    assert result.returncode == 1, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for text in expected:
        assert text in lines[0], lines[0]
    assert "Traceback" not in result.stderr and "qt.qpa" not in result.stderr
    return lines[0]


def free_display() -> str:
    number = next(n for n in range(190, 400) if not Path(f"/tmp/.X11-unix/X{n}").exists()
                  and not Path(f"/tmp/.X{n}-lock").exists())
    return f":{number}"


def test_no_display_at_all_says_it_needs_a_graphical_session_and_names_the_cli() -> None:
    line = assert_one_clear_line(start_app(), "needs a graphical session", 'hermes-desktop ask "')
    assert line.startswith("hermes-desktop:")


def test_a_display_nobody_answers_on_is_named() -> None:
    display = free_display()
    assert_one_clear_line(start_app(DISPLAY=display), f"cannot open the X display {display}", "hermes-desktop ask")


def test_an_xcb_plugin_missing_a_library_names_the_library(tmp_path: Path) -> None:
    """A copy of the real plugin whose DT_NEEDED entry names a library no system has (a real loader failure)."""
    plugin = find_xcb_plugin({})
    if plugin is None:
        pytest.skip("PySide6 has no xcb plugin here")
    data = plugin.read_bytes()
    assert b"libxcb-icccm.so.4\x00" in data
    platforms = tmp_path / "plugins" / "platforms"
    platforms.mkdir(parents=True)
    (platforms / "libqxcb.so").write_bytes(data.replace(b"libxcb-icccm.so.4\x00", b"libxcb-iccXX.so.4\x00"))
    (tmp_path / "lib").symlink_to(plugin.parent.parent.parent / "lib")  # the plugin's RUNPATH is $ORIGIN/../../lib
    result = start_app(DISPLAY=free_display(), QT_QPA_PLATFORM_PLUGIN_PATH=str(platforms))
    assert_one_clear_line(result, "X11 platform plugin cannot load", "missing libxcb-iccXX.so.4", "system-deps.sh",
                          "hermes-desktop ask")


def test_headless_platforms_and_other_systems_are_not_refused() -> None:
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"QT_QPA_PLATFORM": "minimal"}) is None
    assert display_problem({}, system="darwin") is None
    assert "needs a graphical session" in (display_problem({}) or "")
    assert "DISPLAY is not set" in (display_problem({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}) or "")


@pytest.fixture
def xvfb() -> Iterator[str]:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (packaging/linux/system-deps.sh --tests installs it)")
    display = free_display()
    server = subprocess.Popen(["Xvfb", display, "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    socket_path = f"/tmp/.X11-unix/X{display[1:]}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with socket.socket(socket.AF_UNIX) as probe:
                probe.connect(socket_path)
            break
        except OSError:
            time.sleep(0.05)
    else:
        server.kill()
        pytest.fail("Xvfb did not start")
    yield display
    server.terminate()
    server.wait(timeout=10)


def test_a_working_x_display_passes_the_check(xvfb: str) -> None:
    plugin = find_xcb_plugin({})
    if plugin is not None and subprocess.run(["ldd", str(plugin)], capture_output=True, text=True).stdout.count(
            "not found"):
        pytest.skip("this machine lacks xcb libraries (run packaging/linux/system-deps.sh)")
    assert display_problem({"DISPLAY": xvfb}) is None

"""Can this process open a window? Asked before Qt is, because Qt cannot say no politely.

When Qt's platform plugin cannot start (no display at all, an X display nobody answers
on, or the xcb plugin missing a system library) Qt prints a paragraph that blames
`xcb-cursor0` whatever the cause and then aborts the process (SIGABRT, exit status 134).
`display_problem()` finds those cases first and returns one line for the user instead:
what is missing, and that the command line (`hermes-desktop ask "…"`) works without a
display.

Kept cheap, because it runs on every start before the first paint: no subprocess on
the normal path. The xcb plugin is checked only when Qt will use it (Linux, DISPLAY set,
not a Wayland session, QT_QPA_PLATFORM not naming something else), by loading the plugin
file with dlopen (the same load Qt does next, so it costs nothing extra when it works)
and opening one X connection with libxcb (about a millisecond). Only when the load fails
does it run `ldd` to name every missing library, not just the first. Platforms that need
no display (offscreen, minimal, vnc, ...) and other operating systems are not checked;
Wayland is left to Qt unless neither WAYLAND_DISPLAY nor DISPLAY is set.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Mapping

CLI_HINT = 'The command line works without a window: hermes-desktop ask "your question" (--help lists the commands).'
HEADLESS_PLATFORMS = {"offscreen", "minimal", "minimalegl", "vnc", "linuxfb", "eglfs", "vkkhrdisplay"}


def display_problem(env: Mapping[str, str], system: str = sys.platform) -> str | None:
    """One line saying why no window can open here, or None when Qt should be able to open one."""
    if not system.startswith("linux"):
        return None
    platforms = [p.split(":")[0].strip().lower() for p in env.get("QT_QPA_PLATFORM", "").split(";") if p.strip()]
    if any(p in HEADLESS_PLATFORMS for p in platforms):
        return None
    display, wayland = env.get("DISPLAY", "").strip(), env.get("WAYLAND_DISPLAY", "").strip()
    if not display and not wayland:
        return f"hermes-desktop: the window needs a graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set). {CLI_HINT}"
    if not _uses_xcb(platforms, env, wayland):
        return None
    if not display:
        return f"hermes-desktop: QT_QPA_PLATFORM asks for X11 (xcb) but DISPLAY is not set. {CLI_HINT}"
    plugin = find_xcb_plugin(env)
    if plugin is not None:
        missing = _missing_libraries(plugin)
        if missing:
            return ("hermes-desktop: Qt's X11 platform plugin cannot load: missing " + ", ".join(missing) +
                    ". On Debian or Ubuntu, packaging/linux/system-deps.sh (run by `make run`) installs them. "
                    f"{CLI_HINT}")
    if not _x_server_answers(display):
        return (f"hermes-desktop: cannot open the X display {display} (no X server answers there, or it refused "
                f"the connection). {CLI_HINT}")
    return None


def _uses_xcb(platforms: list[str], env: Mapping[str, str], wayland: str) -> bool:
    """Whether Qt will start on its xcb plugin (explicitly, or as its default outside a Wayland session)."""
    if platforms:
        return platforms[0] == "xcb"
    if not wayland:
        return True
    # Qt prefers Wayland in a Wayland session; with WAYLAND_DISPLAY and no DISPLAY, xcb cannot be meant.
    return bool(env.get("DISPLAY")) and env.get("XDG_SESSION_TYPE", "").lower() != "wayland"


def find_xcb_plugin(env: Mapping[str, str]) -> Path | None:
    """The libqxcb.so Qt would load: QT_QPA_PLATFORM_PLUGIN_PATH first, then QT_PLUGIN_PATH, then Qt's own."""
    from PySide6.QtCore import QLibraryInfo

    folders = [Path(p) for p in env.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep) if p]
    folders += [Path(p) / "platforms" for p in env.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    folders.append(Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms")
    return next((folder / "libqxcb.so" for folder in folders if (folder / "libqxcb.so").is_file()), None)


def _missing_libraries(plugin: Path) -> list[str]:
    """The shared libraries the plugin needs and the dynamic loader cannot find ([] when it loads)."""
    import ctypes  # here and below, not at the top: offscreen and Wayland starts need neither ctypes nor subprocess

    try:
        ctypes.CDLL(str(plugin))  # the load Qt does next: a success is kept, not repeated
        return []
    except OSError as exc:
        first = str(exc).split(":")[0].strip()
    return ldd_not_found(plugin) or [first]


def ldd_not_found(library: Path) -> list[str]:
    """Libraries `ldd` reports as "not found" for this file, each once, in its order."""
    import subprocess

    try:
        out = subprocess.run(["ldd", str(library)], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    names = [line.split("=>")[0].strip() for line in out.splitlines() if "not found" in line]
    return list(dict.fromkeys(names))


def _x_server_answers(display: str) -> bool:
    """Open and close one X connection with libxcb (honours XAUTHORITY like Qt); True when it worked."""
    import ctypes

    try:
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        return True  # cannot tell: let Qt try and report
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    try:
        return connection is not None and xcb.xcb_connection_has_error(connection) == 0
    finally:
        if connection is not None:
            xcb.xcb_disconnect(connection)  # an error connection is also freed this way

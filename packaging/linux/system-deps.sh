#!/usr/bin/env bash
# Install the system packages Hermes Desktop and its tests need on Debian/Ubuntu, if any are missing,
# then check that Qt's X11 (xcb) platform plugin finds every library it needs.
#   --tests   also what the test suite needs (a real Secret Service: gnome-keyring + dbus; Xvfb; npm)
# Installs only as root (or with passwordless sudo); otherwise prints the command and carries on,
# and the tests that need a missing part skip with the reason.
#
# The window's list is not written by hand: it is every library `ldd` reports for PySide6's
# plugins/platforms/libqxcb.so, its xcbglintegrations and SVG plugins and the Qt libraries they load
# (Core, Gui, Widgets, DBus, Svg, OpenGL, XcbQpa), mapped to its Debian 12 package with `dpkg -S`
# (PySide6 6.11; redo it when PySide6's major version changes: see `ldd_check` below).
set -u
cd "$(dirname "$0")/../.."
window=(
  libbrotli1 libbsd0 libc6 libcap2 libdbus-1-3 libegl1 libexpat1 libfontconfig1 libfreetype6 libgcc-s1
  libgcrypt20 libgl1 libglib2.0-0 libglvnd0 libglx0 libgpg-error0 liblz4-1 liblzma5 libmd0 libpcre2-8-0
  libpng16-16 libstdc++6 libsystemd0 libx11-6 libx11-xcb1 libxau6 libxcb-cursor0 libxcb-glx0 libxcb-icccm4
  libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-render0 libxcb-shape0 libxcb-shm0
  libxcb-sync1 libxcb-util1 libxcb-xfixes0 libxcb-xkb1 libxcb1 libxdmcp6 libxkbcommon-x11-0 libxkbcommon0
  libzstd1 zlib1g
)
want=("${window[@]}" fonts-noto-cjk fonts-noto-color-emoji)   # the fonts: Chinese text; the assistants' emoji
mode=run
if [ "${1:-}" = "--tests" ]; then
  mode=tests
  want+=(gnome-keyring dbus dbus-x11 xvfb git)  # git: skill installs from git repositories (tests/core/test_skill_sources.py)
  # npm: the MCP conformance suite and its Node 22 (tests/.node). Only when no npm is on PATH: a Node from
  # another source (nodesource's nodejs bundles npm) conflicts with Debian's npm package ("held broken packages").
  command -v npm >/dev/null 2>&1 || want+=(npm)
fi

# Qt's xcb plugin and the Qt libraries it loads, from the project's venv (or QT_PLUGIN_FILES).
qt_files() {
  local qt
  qt=$(ls -d .venv/lib/python3*/site-packages/PySide6/Qt 2>/dev/null | head -1)
  [ -n "$qt" ] || return 0
  ls "$qt"/plugins/platforms/libqxcb.so "$qt"/plugins/xcbglintegrations/*.so "$qt"/plugins/iconengines/libqsvgicon.so \
     "$qt"/plugins/imageformats/libqsvg.so "$qt"/lib/libQt6{Core,Gui,Widgets,DBus,Svg,OpenGL,XcbQpa}.so.6 2>/dev/null
}

# Name every library the plugin still cannot find; in run mode that is an error (no window can open).
ldd_check() {
  command -v ldd >/dev/null 2>&1 || return 0
  local files missing
  files=$(qt_files)
  [ -n "$files" ] || return 0   # no venv yet: nothing to check
  # shellcheck disable=SC2086
  missing=$(for f in $files; do ldd "$f"; done 2>/dev/null | awk '/not found/ {print $1}' | sort -u | tr '\n' ' ')
  [ -z "$missing" ] && return 0
  echo "Qt's X11 platform plugin still cannot find: ${missing% } (the window cannot open; the command line works)." >&2
  [ "$mode" = tests ] && return 0   # the suite runs offscreen
  return 1
}

command -v dpkg-query >/dev/null 2>&1 || { ldd_check; exit $?; }   # not Debian-like: only the check
missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -ne 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    sudo=""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo"
  else
    echo "Missing system packages: ${missing[*]}"
    echo "Install them with: sudo apt-get install -y ${missing[*]}"
    ldd_check
    exit $?
  fi
  echo "Installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
    || { echo "apt-get could not install: ${missing[*]}" >&2; exit 1; }
fi
ldd_check

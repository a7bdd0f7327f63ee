#!/usr/bin/env bash
# Install the system packages Hermes Desktop and its tests need on Debian/Ubuntu, if any are missing.
#   --tests   also what the test suite needs (a real Secret Service: gnome-keyring + dbus)
# Installs only as root (or with passwordless sudo); otherwise prints the command and carries on,
# and the tests that need a missing part skip with the reason.
set -u
want=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libxcb-cursor0 fonts-noto-cjk)
if [ "${1:-}" = "--tests" ]; then
  want+=(gnome-keyring dbus dbus-x11 xvfb)
fi
command -v dpkg-query >/dev/null 2>&1 || exit 0   # not Debian-like: nothing to do here
missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo="sudo"
else
  echo "Missing system packages: ${missing[*]}"
  echo "Install them with: sudo apt-get install -y ${missing[*]}"
  exit 0
fi
echo "Installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
  || { echo "apt-get could not install: ${missing[*]}" >&2; exit 1; }

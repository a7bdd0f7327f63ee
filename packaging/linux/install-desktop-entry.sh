#!/usr/bin/env bash
# Install a built bundle (make bundle) for the current user: the app under ~/.local/opt, the command in
# ~/.local/bin, and a menu entry with its icon, so it starts with a double-click like any other app.
#   packaging/linux/install-desktop-entry.sh [--uninstall]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
opt="$HOME/.local/opt/hermes-desktop"
bin="$HOME/.local/bin/hermes-desktop"
if [ "${1:-}" = "--uninstall" ]; then
  rm -rf "$opt" "$bin" "$data/applications/hermes-desktop.desktop" "$data/icons/hicolor/scalable/apps/hermes-desktop.svg"
  echo "Removed Hermes Desktop (your sessions, settings and keys are kept)."
  exit 0
fi
[ -x "$root/dist/hermes-desktop/hermes-desktop" ] || { echo "No bundle in dist/: run 'make bundle' first." >&2; exit 1; }
mkdir -p "$(dirname "$opt")" "$(dirname "$bin")" "$data/applications" "$data/icons/hicolor/scalable/apps"
rm -rf "$opt"
cp -a "$root/dist/hermes-desktop" "$opt"
ln -sf "$opt/hermes-desktop" "$bin"
cp "$root/resources/icons/hermes-desktop.svg" "$data/icons/hicolor/scalable/apps/hermes-desktop.svg"
sed "s|^Exec=.*|Exec=$opt/hermes-desktop|" "$root/resources/hermes-desktop.desktop" > "$data/applications/hermes-desktop.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$data/applications" || true
echo "Installed: $bin, and Hermes Desktop in the applications menu."

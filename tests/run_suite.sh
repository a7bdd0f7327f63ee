#!/usr/bin/env bash
# Run the whole test suite. When a Secret Service can be started (gnome-keyring + dbus), the suite runs
# inside a private D-Bus session with an unlocked keyring, so the keyring tests use a real backend.
# The window tests run offscreen and need no display either (QT_QPA_PLATFORM=offscreen below).
# pytest's exit 5 ("no tests collected") is a failure here, never a silent pass.
set -u
cd "$(dirname "$0")/.."
python="${PYTHON:-.venv/bin/python}"
export QT_QPA_PLATFORM=offscreen
if command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  export HERMES_TEST_KEYRING_PASSWORD=ci-pass
  # No display inside the test session: gnome-keyring would otherwise start its GUI prompter
  # (gcr-prompter, "Unlock Login Keyring") when a test locks the keyring, and wait for a person.
  # Without one the prompt is dismissed at once, which is what the locked-keyring test expects.
  env -u DISPLAY -u WAYLAND_DISPLAY dbus-run-session -- sh -c '
    export XDG_DATA_HOME=$(mktemp -d)
    eval "$(printf %s "$HERMES_TEST_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets)"
    export HERMES_TEST_SECRET_SERVICE=1
    exec "$0" -m pytest "$@"' "$python" "$@"
  rc=$?
else
  echo "note: gnome-keyring/dbus not found: tests that need a real Secret Service will be skipped"
  "$python" -m pytest "$@"
  rc=$?
fi
if [ "$rc" -eq 5 ]; then
  echo "error: pytest collected no tests" >&2
  exit 1
fi
exit "$rc"

"""`doctor`'s line about the active provider's API key: where the key comes from, never the key itself.

It says whether a key is stored in the keyring for the active profile (username `provider:<profile id>`), whether
HERMES_API_KEY overrides it for this run, and whether the provider needs one at all; a keyring that cannot be
read (locked, broken) is reported as such instead of as "no key". Blocking (the keyring): call it off the loop.
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from hermes_desktop.core.secrets import SecretStoreError
from hermes_desktop.core.settings import is_ephemeral


def key_status(runtime: Any, env: Mapping[str, str] | None = None) -> str:
    """One line, for the active provider; "" when there is no active provider."""
    profile = runtime.profile
    if profile is None:
        return ""
    env = os.environ if env is None else env
    if is_ephemeral(profile):  # HERMES_BASE_URL's own server: never a keyring key (core/settings.effective_profile)
        source = "from HERMES_API_KEY for this run" if env.get("HERMES_API_KEY", "").strip() else "none"
        return (f"API key: {source}; the server HERMES_BASE_URL names is its own profile for this run, so no key "
                "from the keyring and no memories of a saved provider are sent to it")
    where = f"keyring entry {profile.keyring_username}"
    try:
        stored = runtime.secrets.get(profile.keyring_username)
    except SecretStoreError as exc:
        return f"API key: could not read the keyring ({exc})"
    has_stored = bool(stored and stored.strip())
    backend = "the system keyring" if runtime.secrets.is_persistent else "memory for this run only (no keyring)"
    if env.get("HERMES_API_KEY", "").strip():
        return ("API key: from HERMES_API_KEY for this run; " +
                (f"a key is also stored in {backend} ({where})" if has_stored else f"none stored ({where})"))
    if has_stored:
        return f"API key: stored in {backend} ({where})"
    if not profile.needs_api_key:
        return f"API key: none stored ({where}); this provider does not need one"
    return (f"API key: NONE stored ({where}); add one in Settings > Providers, or set HERMES_API_KEY")


def learned_status(profile: Any) -> list[str]:
    """`doctor`'s lines about what the active provider's server taught Hermes (kept in settings.json), and how to
    undo it: a learned reasoning echo sends each reply's reasoning back to that server (never another's)."""
    lines = []
    if getattr(profile, "learned_reasoning_echo", False):
        lines.append(f"reasoning echo: learned (the server asked for reasoning_content with a 400; setting "
                     f"{profile.reasoning_echo.value}); only reasoning this server wrote is sent back to it. To undo: "
                     "Settings > Providers > Edit > Forget what was learned")
    if getattr(profile, "learned_no_vision", False):
        lines.append("images: learned that this model refuses them; to undo: Settings > Providers > Edit > "
                     "Forget what was learned")
    return lines

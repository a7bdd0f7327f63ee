"""`doctor`'s line about the active provider's API key: where the key comes from, never the key itself.

It says whether a key is stored in the keyring for the active profile (username `provider:<profile id>`), whether
HERMES_API_KEY overrides it for this run, and whether the provider needs one at all; a keyring that cannot be
read (locked, broken) is reported as such instead of as "no key". Blocking (the keyring): call it off the loop.
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from hermes_desktop.core.i18n import _
from hermes_desktop.core.secrets import SecretStoreError
from hermes_desktop.core.settings import is_ephemeral


def key_status(runtime: Any, env: Mapping[str, str] | None = None) -> str:
    """One line, for the active provider; "" when there is no active provider."""
    profile = runtime.profile
    if profile is None:
        return ""
    env = os.environ if env is None else env
    if is_ephemeral(profile):  # HERMES_BASE_URL's own server: never a keyring key (core/settings.effective_profile)
        source = _("from HERMES_API_KEY for this run") if env.get("HERMES_API_KEY", "").strip() else _("none")
        return _("API key: {0}; the server HERMES_BASE_URL names is its own profile for this run, so no key from the "
                 "keyring and no memories of a saved provider are sent to it").format(source)
    where = _("keyring entry {0}").format(profile.keyring_username)
    try:
        stored = runtime.secrets.get(profile.keyring_username)
    except SecretStoreError as exc:
        return _("API key: could not read the keyring ({0})").format(exc)
    has_stored = bool(stored and stored.strip())
    backend = _("the system keyring") if runtime.secrets.is_persistent else _("memory for this run only (no keyring)")
    if env.get("HERMES_API_KEY", "").strip():
        return (_("API key: from HERMES_API_KEY for this run; a key is also stored in {backend} ({where})")
                if has_stored else _("API key: from HERMES_API_KEY for this run; none stored ({where})")).format(
            backend=backend, where=where)
    if has_stored:
        return _("API key: stored in {backend} ({where})").format(backend=backend, where=where)
    if not profile.needs_api_key:
        return _("API key: none stored ({0}); this provider does not need one").format(where)
    return _("API key: NONE stored ({0}); add one in Settings > Providers, or set HERMES_API_KEY").format(where)


def learned_status(profile: Any) -> list[str]:
    """`doctor`'s lines about what the active provider's server taught Hermes (kept in settings.json), and how to
    undo it: a learned reasoning echo sends each reply's reasoning back to that server (never another's)."""
    lines = []
    if getattr(profile, "learned_reasoning_echo", False):
        lines.append(_("reasoning echo: learned (the server asked for reasoning_content with a 400; setting {0}); "
                       "only reasoning this server wrote is sent back to it. To undo: Settings > Providers > Edit > "
                       "Forget what was learned").format(profile.reasoning_echo.value))
    if getattr(profile, "learned_no_vision", False):
        lines.append(_("images: learned that this model refuses them; to undo: Settings > Providers > Edit > "
                       "Forget what was learned"))
    return lines

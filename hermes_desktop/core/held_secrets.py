"""Which secrets the app holds, as values, for code that must keep them out of what it stores (memories).

The keyring cannot be listed, so the usernames are derived from what is configured (ARCHITECTURE.md's names):
`provider:<profile id>` for every profile in settings.json and `mcp:<server>:<name>` for every secret, input and
OAuth token set an MCP server in mcp.json uses. `HeldSecrets()` reads them (core/secrets.held_values), adds what
the process already knows (logging_setup.REDACTION.known_secrets: HERMES_API_KEY, keys read this run) and adds what
it read to that set, so logs redact them too. Blocking: call it from a worker thread, as the memory store's writes
are.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Iterable

from hermes_desktop.core.secrets import SecretStore, held_values

log = logging.getLogger(__name__)


def usernames(profiles: Iterable[Any], servers: Iterable[Any]) -> list[str]:
    """The keyring usernames of these settings profiles and MCP server configs."""
    from hermes_desktop.core.mcp.config import secret_username

    names = [p.keyring_username for p in profiles]
    for server in servers:
        names += [secret_username(server.name, n) for n in server.secret_names]
        names.append(secret_username(server.name, "oauth"))
    return names


class HeldSecrets:
    """A callable giving every secret value the app holds (see the module docstring). `profiles` and `servers`
    return the current settings profiles and MCP server configs (read again with the keyring: a key saved since
    counts). What the keyring gave is reused for REREAD_S seconds: one extraction stores up to ten memories, and
    each would otherwise read every entry again (a Secret Service round trip each)."""

    REREAD_S = 5.0

    def __init__(self, store: SecretStore, profiles: Callable[[], Iterable[Any]],
                 servers: Callable[[], Iterable[Any]] = tuple, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._profiles = profiles
        self._servers = servers
        self._clock = clock
        self._lock = threading.Lock()
        self._read_at: float | None = None

    def __call__(self) -> list[str]:
        from hermes_desktop.core.logging_setup import REDACTION

        with self._lock:  # worker threads: one reads the keyring, the others wait for what it found
            now = self._clock()
            if self._read_at is None or now - self._read_at >= self.REREAD_S or now < self._read_at:
                self._read()
                self._read_at = now
        return [*REDACTION.known_secrets]

    def _read(self) -> None:
        from hermes_desktop.core.logging_setup import REDACTION

        try:
            names = usernames(self._profiles(), self._servers())
        except Exception:  # noqa: BLE001 - settings or mcp.json unreadable: the known ones still count
            log.exception("could not list the keyring's usernames for redaction")
            names = []
        REDACTION.known_secrets.update(held_values(self._store, names))

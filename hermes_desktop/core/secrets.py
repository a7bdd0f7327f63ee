"""Secrets (API keys) live in the OS keyring and nowhere else.

Service name `hermes-desktop`; usernames `provider:<profile id>` and
`mcp:<server>:<name>` (ARCHITECTURE.md). When no secure backend exists the app
keeps keys in memory for the current run only and says so; it never falls back
to a plaintext file. Keyring calls can block (a Secret Service unlock prompt), so
callers on the event loop use the `a*` coroutine variants, which run in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass
from typing import Iterable, Mapping, Protocol

log = logging.getLogger(__name__)

SERVICE_NAME = "hermes-desktop"

# keyrings.alt backends that write secrets to disk in the clear or with a key kept next to them.
_INSECURE_BACKEND_MODULES = ("keyrings.alt.file", "keyrings.alt.Gnome", "keyrings.alt.multi")
_INSECURE_BACKEND_NAMES = {"PlaintextKeyring", "EncryptedKeyring", "fail", "null"}


class SecretStoreError(Exception):
    """The keyring refused or failed; the message is fit to show the user (with a code: core/coded.py)."""

    def __str__(self) -> str:
        return self.args[0] if len(self.args) == 1 and isinstance(self.args[0], str) else super().__str__()


class SecretStore(Protocol):
    """Where API keys are kept. `get` returns None only when no key is stored."""

    @property
    def is_persistent(self) -> bool: ...

    def get(self, username: str) -> str | None: ...

    def set(self, username: str, secret: str) -> None: ...

    def delete(self, username: str) -> None: ...


@dataclass(frozen=True, slots=True)
class BackendReport:
    name: str
    secure: bool
    reason: str
    code: str = ""  # the reason as a code (insecure_backend | no_keyring | low_priority | ok), for translation


# keyring's backend modules, by the name users know them under (a report's `name` is the Python class).
_BACKEND_KINDS = (("keyring.backends.SecretService", "secret_service"), ("keyring.backends.libsecret", "secret_service"),
                  ("keyring.backends.kwallet", "kwallet"), ("keyring.backends.macOS", "macos"),
                  ("keyring.backends.Windows", "windows"), ("keyring.backends.fail", "none"),
                  ("keyring.backends.null", "none"))


def backend_kind(name: str) -> str:
    """What a backend is, as a code the window and the command line word for people ("secret_service", "kwallet",
    "macos", "windows", "none"; "other" for a third-party backend, whose class name is then all there is)."""
    return next((kind for prefix, kind in _BACKEND_KINDS if name.startswith(prefix + ".")), "other")


class MemorySecretStore:
    """Keys for this run only: used when no secure keyring exists, and in unit tests."""

    def __init__(self) -> None:
        self._secrets: dict[str, str] = {}

    @property
    def is_persistent(self) -> bool:
        return False

    def get(self, username: str) -> str | None:
        return self._secrets.get(username)

    def set(self, username: str, secret: str) -> None:
        self._secrets[username] = secret

    def delete(self, username: str) -> None:
        self._secrets.pop(username, None)


class KeyringSecretStore:
    """The OS keyring through the `keyring` package."""

    def __init__(self, backend: object | None = None) -> None:
        import keyring

        self._backend = backend or keyring.get_keyring()

    @property
    def is_persistent(self) -> bool:
        return True

    def get(self, username: str) -> str | None:
        try:
            return self._backend.get_password(SERVICE_NAME, username)  # type: ignore[attr-defined]
        except Exception as exc:  # keyring backends raise many unrelated types
            raise SecretStoreError(_describe_keyring_failure("read", exc)) from exc

    def set(self, username: str, secret: str) -> None:
        try:
            self._backend.set_password(SERVICE_NAME, username, secret)  # type: ignore[attr-defined]
        except Exception as exc:
            raise SecretStoreError(_describe_keyring_failure("save", exc)) from exc

    def delete(self, username: str) -> None:
        import keyring.errors

        try:
            self._backend.delete_password(SERVICE_NAME, username)  # type: ignore[attr-defined]
        except keyring.errors.PasswordDeleteError:
            return  # already gone: deleting is idempotent
        except Exception as exc:
            raise SecretStoreError(_describe_keyring_failure("delete", exc)) from exc


def _describe_keyring_failure(action: str, exc: Exception) -> str:
    import keyring.errors

    text = str(exc) or type(exc).__name__
    # SecretService raises KeyringLocked("Failed to unlock the collection!") when the unlock prompt is dismissed.
    from hermes_desktop.core.coded import coded

    if isinstance(exc, keyring.errors.KeyringLocked) or "locked" in text.lower() or "dismissed" in text.lower():
        return coded(f"The system keyring is locked, so Hermes could not {action} the key. Unlock it and try again.",
                     f"keyring_locked_{action}")
    return coded(f"The system keyring could not {action} the key ({type(exc).__name__}: {text}). Try again.",
                 f"keyring_failed_{action}", error=f"{type(exc).__name__}: {text}")


def inspect_backend(backend: object | None = None) -> BackendReport:
    """Tell whether the keyring backend keeps secrets safely (unwrapping the chainer)."""
    import keyring

    backend = backend or keyring.get_keyring()
    candidates = list(getattr(backend, "backends", None) or [backend])
    for candidate in candidates:
        report = _judge_backend(candidate)
        if report.secure:
            return report
    return _judge_backend(candidates[0]) if candidates else BackendReport("none", False, "no keyring backend", "no_keyring")


def _judge_backend(backend: object) -> BackendReport:
    cls = type(backend)
    name = f"{cls.__module__}.{cls.__name__}"
    priority = getattr(backend, "priority", 0)
    try:
        priority = float(priority)
    except (TypeError, ValueError):
        priority = 0.0
    if cls.__module__.startswith(_INSECURE_BACKEND_MODULES) or cls.__name__ in _INSECURE_BACKEND_NAMES:
        return BackendReport(name, False, "this backend does not store secrets securely", "insecure_backend")
    if cls.__module__.startswith(("keyring.backends.fail", "keyring.backends.null")):
        return BackendReport(name, False, "no system keyring is available", "no_keyring")
    if priority < 1:
        return BackendReport(name, False, f"backend priority {priority} is below 1 (not usable here)", "low_priority")
    return BackendReport(name, True, "ok", "ok")


def open_secret_store() -> tuple[SecretStore, BackendReport]:
    """The keyring when it is secure, otherwise an in-memory store (and the reason)."""
    report = inspect_backend()
    if report.secure:
        return KeyringSecretStore(), report
    log.warning("no secure keyring (%s): keys are kept in memory for this run only", report.reason)
    return MemorySecretStore(), report


class LazySecretStore:
    """`open_secret_store()` on first use: keyring detection costs ~50 ms (the keyring backends look for their
    libraries with ctypes, which runs ldconfig), and `hermes-desktop ask` with HERMES_API_KEY and no MCP secrets
    never reads the keyring. The same store (and report) from then on; the warning about an insecure keyring is
    logged when it is first used."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._opened: tuple[SecretStore, BackendReport] | None = None

    def opened(self) -> tuple[SecretStore, BackendReport]:
        with self._lock:  # get/set run in worker threads (asyncio.to_thread)
            if self._opened is None:
                self._opened = open_secret_store()
            return self._opened

    @property
    def report(self) -> "LazyBackendReport":
        return LazyBackendReport(self)

    @property
    def is_persistent(self) -> bool:
        return self.opened()[0].is_persistent

    def get(self, username: str) -> str | None:
        return self.opened()[0].get(username)

    def set(self, username: str, secret: str) -> None:
        self.opened()[0].set(username, secret)

    def delete(self, username: str) -> None:
        self.opened()[0].delete(username)


class LazyBackendReport:
    """A `BackendReport` read from a `LazySecretStore` when one of its fields is first read."""

    def __init__(self, store: LazySecretStore) -> None:
        self._store = store

    name = property(lambda self: self._store.opened()[1].name)
    secure = property(lambda self: self._store.opened()[1].secure)
    reason = property(lambda self: self._store.opened()[1].reason)
    code = property(lambda self: self._store.opened()[1].code)


def resolve_api_key(username: str, store: SecretStore, env: Mapping[str, str] | None = None) -> str | None:
    """HERMES_API_KEY wins; otherwise the stored key. Whitespace is trimmed; empty means none."""
    env = os.environ if env is None else env
    from_env = env.get("HERMES_API_KEY", "").strip()
    if from_env:
        return from_env
    stored = store.get(username)
    return stored.strip() if stored and stored.strip() else None


async def aresolve_api_key(username: str, store: SecretStore, env: Mapping[str, str] | None = None) -> str | None:
    return await asyncio.to_thread(resolve_api_key, username, store, env)


def held_values(store: SecretStore, usernames: Iterable[str]) -> list[str]:
    """The secret values the app holds under these keyring usernames (blocking: keyring reads), for redaction: a
    value kept as JSON (an OAuth token set) gives each of its string fields. A username the keyring cannot read
    (locked, failing) gives nothing and one log line; never raises."""
    found: list[str] = []
    for username in dict.fromkeys(usernames):
        try:
            value = store.get(username)
        except Exception as exc:  # noqa: BLE001 - a locked or broken keyring: nothing to redact from it
            log.info("keyring value %s not read for redaction: %s", username, type(exc).__name__)
            continue
        if not value:
            continue
        found.append(value)
        found += _json_strings(value)
    return [v for v in dict.fromkeys(found) if len(v.strip()) >= 6]


def _json_strings(value: str) -> list[str]:
    import json

    if not value.lstrip().startswith(("{", "[")):
        return []
    try:
        data = json.loads(value)
    except ValueError:
        return []
    out: list[str] = []
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo += list(item.values())
        elif isinstance(item, list):
            todo += item
        elif isinstance(item, str) and len(item) >= 12 and " " not in item:
            out.append(item)
    return out

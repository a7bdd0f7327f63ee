"""The models each provider profile offers, for the model picker: the server's `/models` list, cached on disk.

A profile's entry lists, in this order and without duplicates, the profile's own model, the models the user
typed by hand (`ProviderProfile.models`) and the models its server last listed. The server's list is kept in
`<data dir>/model-lists.json` with the time it was fetched and the base URL it came from (a list fetched from
another URL is not shown for the profile), so the picker opens at once, also when the server is down.
`refresh` asks the server again (a coroutine: the HTTP call never blocks the event loop; the file is read and
written in a worker thread). A server that cannot list its models keeps the cached and hand-typed ones and the
entry carries the reason, which the picker shows. Qt-free.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from hermes_desktop.core.settings import ProviderProfile, write_atomically

log = logging.getLogger(__name__)

CACHE_FILE_NAME = "model-lists.json"
CACHE_VERSION = 1
# A server's list is taken at most this long, and a name at most this many characters (longer ones, and names with
# control characters, are left out: a cut name would be a model that does not exist). A hostile or broken server
# listing a million models, or one of a megabyte, must not freeze the picker or bloat the cache.
MAX_MODELS = 1_000
MAX_MODEL_NAME = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

# Lists the models of one profile's server; raises on failure (ModelClient.list_models does).
Lister = Callable[[ProviderProfile], Awaitable[list[str]]]


@dataclass(frozen=True, slots=True)
class CachedList:
    """What a server listed, when, and from which base URL."""

    base_url: str
    models: tuple[str, ...]
    fetched_at: float


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """The models the picker shows under one profile."""

    profile: ProviderProfile
    listed: tuple[str, ...] = ()  # from the server (cached or just fetched)
    fetched_at: float | None = None  # when `listed` was fetched; None when never
    error: str | None = None  # why the last refresh failed, in words for the user
    left_out: int = 0  # names of the last refresh not kept (over MAX_MODELS, too long, control characters)

    @property
    def hand_typed(self) -> tuple[str, ...]:
        return tuple(m for m in self.profile.models if m)

    @property
    def models(self) -> list[str]:
        """The profile's model first, then hand-typed ones, then the server's, each once."""
        seen: dict[str, None] = {}
        for name in (self.profile.model, *self.hand_typed, *self.listed):
            if name and name not in seen:
                seen[name] = None
        return list(seen)


@dataclass
class ModelCatalog:
    """The cache file and the refreshes. One per window (or command)."""

    path: Path
    _lists: dict[str, CachedList] = field(default_factory=dict)
    _errors: dict[str, str] = field(default_factory=dict)
    _left_out: dict[str, int] = field(default_factory=dict)
    _loaded: bool = False
    _writing: asyncio.Lock = field(default_factory=asyncio.Lock)

    # ------------------------------------------------------------------ reading
    async def load(self) -> None:
        """Read the cache file (in a worker thread). A missing or damaged file is an empty cache."""
        if not self._loaded:
            self._lists = await asyncio.to_thread(read_cache, self.path)
            self._loaded = True

    def entry(self, profile: ProviderProfile) -> CatalogEntry:
        """The profile's entry from what is cached (call `load` first)."""
        cached = self._lists.get(profile.id)
        usable = cached if cached is not None and _same_url(cached.base_url, profile.base_url) else None
        return CatalogEntry(profile, usable.models if usable else (), usable.fetched_at if usable else None,
                            self._errors.get(profile.id), self._left_out.get(profile.id, 0))

    # ------------------------------------------------------------------ refreshing
    async def refresh(self, profile: ProviderProfile, lister: Lister) -> CatalogEntry:
        """Ask the server for its models now. On success the list replaces the cached one (and is saved); on
        failure the cached one stays and the entry carries the reason."""
        await self.load()
        try:
            models, left_out = bounded(await lister(profile))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # any failure of the server or the network: say it, keep what we had
            self._errors[profile.id] = _reason(exc)
            log.info("could not list the models of %s: %s", profile.id, self._errors[profile.id])
            return self.entry(profile)
        self._errors.pop(profile.id, None)
        self._left_out[profile.id] = left_out
        if left_out:
            log.warning("the server of %s listed %d model names that were left out (more than %d, longer than %d "
                        "characters, or with control characters)", profile.id, left_out, MAX_MODELS, MAX_MODEL_NAME)
        self._lists[profile.id] = CachedList(profile.base_url, tuple(models), time.time())
        try:
            # One write at a time, each with everything known when it starts: two refreshes that end together
            # must not let the older snapshot land last.
            async with self._writing:
                await asyncio.to_thread(write_cache, self.path, dict(self._lists))
        except OSError as exc:  # a full or read-only disk: the list is still shown for this run
            log.warning("could not save the model lists to %s: %s", self.path, exc)
        return self.entry(profile)


def bounded(names: Any) -> tuple[list[str], int]:
    """(the usable names sorted, at most MAX_MODELS; how many were left out). Names are stripped; empty ones
    do not count as left out."""
    usable: set[str] = set()
    left_out = 0
    for raw in names:
        name = str(raw).strip()
        if not name:
            continue
        if len(name) > MAX_MODEL_NAME or _CONTROL.search(name):
            left_out += 1
            continue
        usable.add(name)
    ordered = sorted(usable)
    return ordered[:MAX_MODELS], left_out + max(0, len(ordered) - MAX_MODELS)


def read_cache(path: Path) -> dict[str, CachedList]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.warning("ignoring the model-list cache %s: %s", path, exc)
        return {}
    lists: dict[str, CachedList] = {}
    profiles = data.get("profiles") if isinstance(data, dict) else None
    if not isinstance(profiles, dict):  # any other shape is a damaged file: an empty cache, rewritten on refresh
        return lists
    for profile_id, item in profiles.items():
        if not isinstance(item, dict) or not isinstance(item.get("models"), list):
            continue
        fetched = item.get("fetched_at")
        lists[str(profile_id)] = CachedList(str(item.get("base_url") or ""),
                                            tuple(bounded(m for m in item["models"] if isinstance(m, str))[0]),
                                            float(fetched) if isinstance(fetched, (int, float)) else 0.0)
    return lists


def write_cache(path: Path, lists: dict[str, CachedList]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {"version": CACHE_VERSION, "profiles": {
        profile_id: {"base_url": cached.base_url, "fetched_at": cached.fetched_at, "models": list(cached.models)}
        for profile_id, cached in lists.items()}}
    write_atomically(path, json.dumps(data, indent=1, ensure_ascii=False))


def _same_url(a: str, b: str) -> bool:
    return a.strip().rstrip("/") == b.strip().rstrip("/")


def _reason(exc: BaseException) -> str:
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return str(message).strip().splitlines()[0][:300]

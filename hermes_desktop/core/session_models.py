"""Which model answers a session: the default, or the one the user chose for it in the model picker.

A session follows the default (the active profile and its model, with HERMES_BASE_URL / HERMES_MODEL
applied) until the user picks a model for it. The pick is stored with the session: its `profile_id` and
`model` columns, and `"model_chosen": true` in its `params`, which tells a pick from the model a turn merely
recorded (every turn records the model that answered it, as before). Without that mark a session whose
profile was edited (a model name fixed in Settings, say) would keep the old one forever.

A pick names a profile and a model. The profile's current settings are used with the chosen model; for the
active profile that includes HERMES_BASE_URL, and the pick wins over HERMES_MODEL (it is a choice the user
made for this one session). HERMES_API_KEY is only ever sent to the active profile's server: another
profile's key comes from the keyring alone, so the environment's key never reaches a second provider.
When the chosen profile no longer exists the turn uses the default, says so (a Notice), and the pick is
cleared.

One `ModelClient` is kept per (profile, model) and reused across turns, so what a client learned (text
tool-call mode, no `stream_options`) holds for the run; a client whose profile was edited since is replaced.
After a provider is saved, `retire_all` makes every later turn build fresh clients (keys may have changed);
retired clients are closed at `aclose`, never under a turn that may still be streaming with one.
Keyring reads run in a worker thread; store calls on the store executor. Qt-free.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Sequence

from hermes_desktop.core.executors import run_store
from hermes_desktop.core.session_types import SessionStore
from hermes_desktop.core.settings import ProviderProfile

if TYPE_CHECKING:
    from hermes_desktop.core.llm import ModelClient

log = logging.getLogger(__name__)

CHOSEN_MARK = "model_chosen"


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """The client for a turn, and what to tell the user about it (or None)."""

    client: "ModelClient | None"
    notice: str | None = None


@dataclass(frozen=True, slots=True)
class SessionPick:
    """A model the user chose for a session."""

    profile_id: str
    model: str


def read_pick(store: SessionStore, session_id: str) -> SessionPick | None:
    """The session's pick, or None when it follows the default (or does not exist). Blocking: a store call."""
    details = getattr(store, "session_details", None)
    found = details(session_id) if details is not None else None
    if found is None or not found.params.get(CHOSEN_MARK):
        return None
    info = found.info
    return SessionPick(info.profile_id, info.model) if info.profile_id and info.model else None


def write_pick(store: SessionStore, session_id: str, pick: SessionPick | None) -> None:
    """Save a pick with the session (None: follow the default again), creating the session if it is new.
    Blocking: store calls."""
    if store.get_session(session_id) is None:
        store.create_session(session_id, profile_id=pick.profile_id if pick else None,
                             model=pick.model if pick else None)
    found = store.session_details(session_id)  # type: ignore[attr-defined]
    params: dict[str, Any] = {k: v for k, v in (found.params if found else {}).items() if k != CHOSEN_MARK}
    if pick is None:
        info = found.info if found else None
        store.set_model(session_id, info.profile_id if info else None, info.model if info else None,  # type: ignore[call-arg]
                        params=params)
    else:
        store.set_model(session_id, pick.profile_id, pick.model, params={**params, CHOSEN_MARK: True})  # type: ignore[call-arg]


class UnknownModelChoice(ValueError):
    """`ask --model` named a provider that is not set up; `str()` is one line for the user."""


def pick_from_spec(profiles: "Sequence[ProviderProfile]", spec: str) -> SessionPick:
    """The pick `ask --model PROFILE[/MODEL]` asks for: a profile by id or by name (any case), and a model (the
    profile's own when none is given). The model may itself hold slashes (OpenRouter's `openai/gpt-4o`): only the
    first one separates it from the profile, unless the whole text names a profile."""
    text = spec.strip()

    def find(name: str) -> ProviderProfile | None:
        wanted = name.strip().casefold()
        return next((p for p in profiles if p.id.casefold() == wanted), None) or \
            next((p for p in profiles if p.name.strip().casefold() == wanted), None)

    whole = find(text)
    if whole is not None:
        name, model = whole, whole.model
    else:
        head, _, tail = text.partition("/")
        found = find(head) if head else None
        if found is None:
            known = ", ".join(p.id for p in profiles) or "none is set up (run the app once, or set HERMES_BASE_URL)"
            raise UnknownModelChoice(f"no provider named “{head or text}”; the providers are: {known}")
        name, model = found, tail.strip() or found.model
    if not model:
        raise UnknownModelChoice(f"the provider “{name.id}” has no model; give one: --model {name.id}/MODEL")
    return SessionPick(name.id, model)


def same_connection(a: ProviderProfile, b: ProviderProfile) -> bool:
    """Whether a client made for `a` serves `b` as well: everything but the picker's hand-typed list matters."""
    return replace(a, models=()) == replace(b, models=())


class SessionModels:
    """The model clients of one engine, and the choice of one for a session's turn."""

    def __init__(self, store: SessionStore, *, default: Callable[[], "ModelClient | None"],
                 profile: Callable[[str], ProviderProfile | None],
                 api_key: Callable[[ProviderProfile], str | None],
                 make_client: Callable[[ProviderProfile, str | None], "ModelClient"] | None = None) -> None:
        """`default`: the default client (the agent's); `profile`: a profile by id as it is to be used (the
        active one with the environment's overrides); `api_key`: the key for a profile (blocking);
        `make_client`: builds a client (the runtime's, which wires what clients learn into settings)."""
        self._store = store
        self._default = default
        self._profile = profile
        self._api_key = api_key
        self._make_client = make_client
        self._clients: dict[tuple[str, str], "ModelClient"] = {}
        self._retired: list["ModelClient"] = []

    def set_default(self, default: Callable[[], "ModelClient | None"]) -> None:
        self._default = default

    def default(self) -> "ModelClient | None":
        return self._default()

    async def choose(self, session_id: str) -> ModelChoice:
        """The client that answers this session's next turn."""
        default = self._default()
        pick = await run_store(read_pick, self._store, session_id)
        if pick is None:
            return ModelChoice(default)
        profile = self._profile(pick.profile_id)
        if profile is None:
            await run_store(write_pick, self._store, session_id, None)
            shown = f"{default.profile.name} · {default.profile.model}" if default is not None else "none is set up"
            return ModelChoice(default, f"The provider chosen for this session (“{pick.profile_id}”) no longer "
                                        f"exists, so the default model answers instead: {shown}.")
        return ModelChoice(await self.client_for(replace(profile, model=pick.model)))

    async def client_for(self, profile: ProviderProfile) -> "ModelClient":
        """A client for exactly this profile (with its model): the default one when it matches, else a kept one."""
        default = self._default()
        if default is not None and same_connection(default.profile, profile):
            return default
        key = (profile.id, profile.model)
        client = self._clients.get(key)
        if client is not None and same_connection(client.profile, profile):
            return client
        if client is not None:
            self._retired.append(client)  # edited since: a turn may still be streaming with the old one
        api_key = await asyncio.to_thread(self._api_key, profile)
        client = self._new_client(profile, api_key)
        self._clients[key] = client
        return client

    def _new_client(self, profile: ProviderProfile, api_key: str | None) -> "ModelClient":
        if self._make_client is not None:
            return self._make_client(profile, api_key)
        from hermes_desktop.core.llm import ModelClient

        return ModelClient(profile, api_key)

    def retire_all(self) -> None:
        """Providers changed (a key, a URL): later turns get new clients."""
        self._retired.extend(self._clients.values())
        self._clients.clear()

    async def aclose(self) -> None:
        """Close every client this pool made (not the default one: its owner closes it)."""
        clients, self._retired = [*self._clients.values(), *self._retired], []
        self._clients.clear()
        for client in clients:
            try:
                await client.aclose()
            except Exception:  # closing at shutdown: nothing left to tell
                log.debug("closing a model client failed", exc_info=True)

"""Providers marked local-only: a conversation held with one never reaches another provider (issue 24).

A user who runs a model on this machine (Ollama, LM Studio, llama.cpp) for confidential work marks that provider
"local only" (ProviderProfile.local_only, in the provider's Advanced settings). From the first turn such a provider
answers in a session, the session is *held* by it (`sessions.held_local`, migration 14; set once, never cleared,
copied by a fork, carried by export and sync), and:

- its turns go only to local-only providers: a switch in the model picker to a cloud provider is refused before
  anything is sent, with an error card that says what to do (switch back, or start a new conversation). The user's
  message stays stored. Other providers the user also marked local-only may answer: the user declared each of them
  local, and the choice between two local servers is theirs.
- its side requests (titles, summaries, memory extraction) go to the turn's own provider even when an assistant
  names a side model of another, non-local provider (core/agent.py `_LocalOnlyChecks`), and outside a turn (a retitle, "new session with
  a summary") nothing is asked of a provider that may not receive it (core/runtime.py `side_client`).
- the memories made with a local-only provider are recalled only for local-only providers
  (core/memory/store.py `seen_by`): what was said in confidence is not put in a cloud request's system prompt.
  Memories made elsewhere are recalled for it as usual.

What is not covered, and why: MCP sampling requests (an MCP server asking the app's model for a completion) go to
the active provider and show the model in their approval dialog, where the user decides; a knowledge base's
embedding model belongs to the knowledge base: a held session's words are embedded only by the active provider's
endpoint when that one may receive them, never by a base's own URL (core/runtime.py `may_embed_for`; BM25 alone
otherwise). Exports are the user's own act and keep everything (and `held_local`, so an import stays held).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable


def local_only_ids(profiles: Iterable[Any]) -> frozenset[str]:
    """The ids of the providers the user marked local-only."""
    return frozenset(p.id for p in profiles if getattr(p, "local_only", False))


def may_receive(held_by: str | None, profile: Any) -> bool:
    """Whether `profile` may be sent a session held by the local-only provider `held_by` (None: not held)."""
    return held_by is None or profile.id == held_by or bool(getattr(profile, "local_only", False))


def holder_after(held_by: str | None, profile: Any) -> str | None:
    """The session's holder once `profile` answers in it: the first local-only provider to answer keeps it."""
    if held_by is None and getattr(profile, "local_only", False):
        return str(profile.id)
    return held_by


class LocalOnlyRule:
    """The rule applied to one store: every caller (the agent's turn and side model, the runtime's side requests
    outside a turn, knowledge-query embeddings) asks it, with the saved profiles as they are now (`profile_for`: a
    client keeps the copy it was made with, which predates a "local only" ticked since). Blocking (the store): call
    it from a worker thread."""

    def __init__(self, store: Any, profile_for: Callable[[str], Any]) -> None:
        self._store, self._profile_for = store, profile_for

    def live(self, profile: Any) -> Any:
        return self._profile_for(profile.id) or profile

    def holder(self, session_id: str) -> str | None:
        return self._store.held_local(session_id) if session_id else None

    def permits(self, held_by: str | None, profile: Any) -> bool:
        return may_receive(held_by, self.live(profile))

    def may_send(self, session_id: str, profile: Any) -> bool:
        """Whether this session's words may go to `profile`."""
        return self.permits(self.holder(session_id), profile)

    def hold_for_turn(self, session_id: str, profile: Any) -> str | None:
        """The holder once `profile` answers this turn (recorded when it is the first local-only one); raises the
        refusal, before anything is sent, when the session is held by another and `profile` may not receive it."""
        held = self.holder(session_id)
        if not self.permits(held, profile):
            holder = self._profile_for(held) if held else None
            raise refused(getattr(holder, "name", None) or str(held), self.live(profile))
        after = holder_after(held, self.live(profile))
        if after is not None and after != held:
            self._store.hold_local(session_id, after)
        return after


def refused(held_name: str, profile: Any) -> Any:
    """The error of a turn refused because the session is held by a local-only provider."""
    from hermes_desktop.core.events import ErrorKind
    from hermes_desktop.core.llm.errors import ModelError

    return ModelError(
        ErrorKind.BAD_REQUEST,
        f"This conversation was held with {held_name}, which you marked local-only, so it is not sent to "
        f"{profile.name}. Switch back to {held_name} (or another local-only provider) in the model picker, or start "
        "a new conversation for this provider. Your message is saved.",
        code="local_only_session", params={"held": held_name, "other": profile.name})

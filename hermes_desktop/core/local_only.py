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

from typing import Any, Iterable


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

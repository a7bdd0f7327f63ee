"""What a memory is: plain, frozen values the store returns and the UI, the CLI and the tools read."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Layer(StrEnum):
    """Short-term memories (recent cross-session facts) fade with a half-life; long-term ones (stable preferences,
    identities, projects) do not. Working memory is the session's own context and is not stored here."""

    SHORT_TERM = "short_term"
    LONG_TERM = "long_term"


class MemoryState(StrEnum):
    ACTIVE = "active"  # recalled
    SUPERSEDED = "superseded"  # a newer memory on the same subject replaced it (`superseded_by`); kept for history
    FORGOTTEN = "forgotten"  # the user or `forget` removed it; kept so it can be undone (`MemoryStore.undo_forget`)
    EXPIRED = "expired"  # its deadline (`expires_at`) passed; never recalled again


class Kind(StrEnum):
    """Why the rules picked it (decides the layer: see `layer_for`)."""

    EXPLICIT = "explicit"  # "remember …", "记住…"
    PREFERENCE = "preference"  # "I prefer", "我喜欢", "以后", "不要"
    IDENTITY = "identity"  # "I am", "my name is", "我是", "我叫"
    PROJECT = "project"  # a named project
    DEADLINE = "deadline"  # a date or deadline: carries `expires_at`
    FACT = "fact"


LONG_TERM_KINDS = frozenset({Kind.EXPLICIT, Kind.PREFERENCE, Kind.IDENTITY, Kind.PROJECT})


def layer_for(kind: str) -> Layer:
    return Layer.LONG_TERM if kind in LONG_TERM_KINDS else Layer.SHORT_TERM


class Origin(StrEnum):
    AUTO = "auto"  # found after a turn by the rules and the model's refinement
    TOOL = "tool"  # the model's `remember` tool
    USER = "user"  # added by hand (Memory tab, `memory add`)


@dataclass(frozen=True, slots=True)
class Memory:
    """One memory. `state` is as stored, except an active memory whose deadline passed reads as EXPIRED
    (a pinned memory never expires). Times are Unix seconds."""

    id: int
    profile_id: str
    layer: Layer
    statement: str
    quote: str  # the user's exact words it came from ("" for one added by hand)
    session_id: str | None  # the source conversation (it may since have been deleted)
    message_id: int | None  # the source message (jump to source)
    created_at: float
    updated_at: float
    expires_at: float | None
    state: MemoryState
    superseded_by: int | None
    pinned: bool
    subject: str  # conflict key: a new active memory with the same subject supersedes the old one
    entities: tuple[str, ...]  # lower-case names (projects, people) for the entity-match boost
    kind: str
    origin: str
    embedding_model: str | None = None

    @property
    def active(self) -> bool:
        return self.state is MemoryState.ACTIVE

    def to_json(self) -> dict[str, Any]:
        """The fields `memory list --json` and `memory export` print."""
        return {
            "id": self.id,
            "layer": self.layer.value,
            "statement": self.statement,
            "quote": self.quote,
            "source_session": self.session_id,
            "source_message": self.message_id,
            "created": self.created_at,
            "updated": self.updated_at,
            "expires": self.expires_at,
            "state": self.state.value,
            "superseded_by": self.superseded_by,
            "pinned": self.pinned,
            "subject": self.subject,
            "entities": list(self.entities),
            "kind": self.kind,
            "origin": self.origin,
            "profile": self.profile_id,
        }


@dataclass(frozen=True, slots=True)
class Recalled:
    """A memory chosen for a request, with its score and the words naming its source."""

    memory: Memory
    score: float
    source: str  # e.g. "from 'Trip planning', 3 Nov"

"""What the window shows about an MCP server. Kept apart from the supervisor so the UI can import it
before its first paint without pulling in the tool machinery."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from enum import StrEnum


@dataclass(frozen=True, slots=True)
class PromptArgument:
    name: str
    description: str = ""
    required: bool = False


@dataclass(frozen=True, slots=True)
class PromptInfo:
    """A prompt template a server offers; the user fills its arguments and gets text for the message box."""

    name: str
    description: str = ""
    arguments: tuple[PromptArgument, ...] = ()


@dataclass(frozen=True, slots=True)
class BreakerInfo:
    """An open or half-open circuit breaker (core/mcp/breaker.py), for the MCP tab."""

    on_trial: bool  # False: withheld until `retry_at`; True: offered again, the next call decides
    failures: int
    reason: str  # the last failure
    retry_at: str = ""  # local time, HH:MM:SS


class ServerState(StrEnum):
    STARTING = "starting"
    CONNECTED = "connected"
    RESTARTING = "restarting"
    FAILED = "failed"
    DISABLED = "disabled"
    STOPPED = "stopped"
    NEEDS_SIGN_IN = "needs sign-in"  # an HTTP server answered 401/403: it waits for "Sign in" (no restarts)


@dataclass(frozen=True, slots=True)
class ServerStatus:
    name: str
    state: ServerState
    detail: str = ""
    tools: tuple[str, ...] = ()  # the Hermes names of its tools
    transport: str = "stdio"
    target: str = ""  # command line or URL
    secrets: tuple[str, ...] = ()  # the ${secret:NAME} names it needs from the keyring
    schema_tokens: int = 0  # what its tool schemas add to every request (estimated)
    prompts: tuple[PromptInfo, ...] = ()
    sign_in: str = ""  # OAuth: "" (not used for this server), "signed_in", "signed_out"
    withheld: str = ""  # the circuit breaker's note when its tools are withheld or on trial (core/mcp/breaker.py)
    breaker: "BreakerInfo | None" = None  # the same, in parts, for a translated sentence in the MCP tab
    # `detail` as a code and parameters (still_starting, needs_sign_in, refused, failed, restarting), so the MCP tab
    # words it in the user's language; a server's or the OS's own words stay in `reason`, shown as quoted data.
    detail_code: str = ""
    detail_params: dict[str, Any] = field(default_factory=dict)
    # Tools not offered because their Hermes name (sanitised, at most 64 characters) is another tool's already:
    # (the server's own name, the Hermes name it would have had). Shown on the server's card and in `mcp list`.
    skipped_tools: tuple[tuple[str, str], ...] = ()
    # The last line the server wrote to its log before it failed or stopped (stdio servers; "" otherwise): shown
    # on its row, because a server that cannot start usually says why there ("Error: DATABASE_URL is not set").
    log_line: str = ""

    def __post_init__(self) -> None:
        """A URL's password or ?token= (in the target, or quoted in an HTTP error) is never shown (issue 21)."""
        from hermes_desktop.core.redact import redact_urls

        object.__setattr__(self, "detail", redact_urls(self.detail))
        object.__setattr__(self, "target", redact_urls(self.target))
        if any(isinstance(v, str) and "://" in v for v in self.detail_params.values()):
            object.__setattr__(self, "detail_params", {k: redact_urls(v) if isinstance(v, str) else v
                                                       for k, v in self.detail_params.items()})

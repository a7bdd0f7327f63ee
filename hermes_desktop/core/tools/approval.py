"""Who decides whether a risky call runs: the policy first, then the injected Approver.

The engine never runs a non-read call without a decision. The Approver is
whatever can ask the user (the dialog in the window, the terminal for `ask`);
with no one to ask, `DenyAllApprover` denies. Anything that goes wrong while
asking (an exception, no answer within the timeout, a dismissed dialog) is a
denial: fail closed.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Protocol

from hermes_desktop.core.settings import ApprovalMode
from hermes_desktop.core.tools.spec import Risk

log = logging.getLogger(__name__)

APPROVAL_TIMEOUT_S = 300.0


class Decision(StrEnum):
    DENY = "deny"
    ALLOW_ONCE = "allow_once"
    ALLOW_SESSION = "allow_session"
    ALLOW_ALWAYS = "allow_always"


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    session_id: str
    call_id: str
    tool_name: str
    source: str
    risk: Risk
    arguments: dict[str, Any]
    impact: str | None = None
    reason: str = ""  # what the model said before asking, if anything


class Approver(Protocol):
    async def ask(self, request: ApprovalRequest) -> Decision: ...


class DenyAllApprover:
    """The default: nobody is there to ask, so nothing risky runs."""

    async def ask(self, request: ApprovalRequest) -> Decision:
        return Decision.DENY


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    decision: Decision
    decided_by: str  # "user", "policy:<why>", "default approver", "timeout", "error"

    @property
    def allowed(self) -> bool:
        return self.decision is not Decision.DENY


@dataclass
class ApprovalPolicy:
    approver: Approver = field(default_factory=DenyAllApprover)
    mode: ApprovalMode = ApprovalMode.ASK_RISKY
    always_allowed: set[str] = field(default_factory=set)  # tool names the user allowed for good
    timeout_s: float = APPROVAL_TIMEOUT_S
    on_always_allowed: Callable[[str], None] | None = None  # persists a new "always allow"
    _session_grants: set[tuple[str, str]] = field(default_factory=set)

    def needs_asking(self, request: ApprovalRequest) -> PolicyDecision | None:
        """A decision the rules make alone, or None when the user must be asked."""
        if request.risk is Risk.READ and self.mode is not ApprovalMode.ALWAYS_ASK:
            return PolicyDecision(Decision.ALLOW_ONCE, "policy:read-only")
        if (request.session_id, request.tool_name) in self._session_grants:
            return PolicyDecision(Decision.ALLOW_SESSION, "policy:allowed for this session")
        if request.tool_name in self.always_allowed and request.risk is not Risk.DESTRUCTIVE:
            return PolicyDecision(Decision.ALLOW_ALWAYS, "policy:always allowed")
        if self.mode is ApprovalMode.TRUSTED and request.risk is Risk.WRITE:
            return PolicyDecision(Decision.ALLOW_ONCE, "policy:trusted mode")
        return None

    async def decide(self, request: ApprovalRequest) -> PolicyDecision:
        automatic = self.needs_asking(request)
        if automatic is not None:
            return automatic
        by = "default approver" if isinstance(self.approver, DenyAllApprover) else "user"
        try:
            async with asyncio.timeout(self.timeout_s):
                decision = Decision(await self.approver.ask(request))
        except TimeoutError:
            return PolicyDecision(Decision.DENY, "timeout: no answer in time")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("approver failed; denying")
            return PolicyDecision(Decision.DENY, "error while asking")
        if decision is Decision.ALLOW_SESSION:
            self._session_grants.add((request.session_id, request.tool_name))
        elif decision is Decision.ALLOW_ALWAYS:
            self.always_allowed.add(request.tool_name)
            if self.on_always_allowed is not None:
                self.on_always_allowed(request.tool_name)
        return PolicyDecision(decision, by)

"""Who decides whether a tool call runs: per-tool rules, the approval mode, then the user.

Order of evaluation for one call (first match wins):
1. a "never allow" rule for the tool: denied;
2. "chat only" mode: denied (no tools are offered in that mode; this catches a model that calls one anyway);
3. an "always allow" rule: allowed, except a destructive call whose impact crosses the threshold
   (default 20 files or 50 MB), which asks again;
4. an "ask" rule: asks, whatever the risk;
5. "allow for this session" given earlier in this session for the same kind of effect (core/tools/grants.py:
   allowing a new file to be created does not allow an overwrite; a grant for deleting 5 files does not cover
   deleting 19): allowed (a destructive call over the threshold asks again);
6. the mode: read runs (asks in "always ask"), write asks (runs in "trusted"), destructive asks.

Asking means the injected Approver (the dialog in the window, the terminal for `ask`, a denial when
there is neither). Anything that goes wrong while asking (an exception, no answer within five
minutes, a dismissed dialog) is a denial: fail closed. Hard limits (the workspace, credential
files) are enforced by the tools themselves, so no rule or answer can lift them.

Rules are keyed by the tool's name and the identity of its source (`builtin`, `skill:<name>`,
`mcp:<server>@<command or URL digest>`), so a changed MCP server asks again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Protocol

from hermes_desktop.core.settings import ApprovalMode
from hermes_desktop.core.tools.grants import SessionGrants
from hermes_desktop.core.tools.spec import Risk

log = logging.getLogger(__name__)

APPROVAL_TIMEOUT_S = 300.0


class Decision(StrEnum):
    DENY = "deny"
    ALLOW_ONCE = "allow_once"
    ALLOW_SESSION = "allow_session"
    ALLOW_ALWAYS = "allow_always"


class Rule(StrEnum):
    ALWAYS_ALLOW = "always_allow"
    ASK = "ask"
    NEVER_ALLOW = "never_allow"


@dataclass(frozen=True, slots=True)
class Threshold:
    """A destructive call bigger than this asks even when its tool is always allowed."""

    files: int = 20
    bytes: int = 50 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    session_id: str
    call_id: str
    tool_name: str
    source: str  # builtin | skill:<name> | mcp:<server>
    risk: Risk
    arguments: dict[str, Any]
    impact: str | None = None
    reason: str = ""  # what the model said before asking, if anything
    impact_files: int = 0
    impact_bytes: int = 0
    source_detail: str = ""  # an MCP server's command or URL; a skill's folder
    over_threshold: bool = False  # set by the policy: "Always allow" is not offered then
    impact_code: str = ""  # the impact as a code and parameters (tools/spec.py Impact), for the dialog's language
    impact_params: dict[str, Any] = field(default_factory=dict)
    # Asked again: what the call would do changed on disk after this earlier request was allowed (core/tool_calls.py).
    asked_before: ApprovalRequest | None = None

    @property
    def rule_key(self) -> str:
        return rule_key(self.tool_name, self.source, self.source_detail)


def rule_key(tool_name: str, source: str, source_detail: str = "") -> str:
    if source.startswith("mcp:") and source_detail:
        import hashlib

        digest = hashlib.sha256(source_detail.encode("utf-8")).hexdigest()[:12]
        return f"{source}@{digest}/{tool_name}"
    return f"{source}/{tool_name}"


class Approver(Protocol):
    async def ask(self, request: ApprovalRequest) -> Decision: ...


class DenyAllApprover:
    """The default: nobody is there to ask, so nothing risky runs."""

    async def ask(self, request: ApprovalRequest) -> Decision:
        return Decision.DENY


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    decision: Decision
    decided_by: str  # "you", "rule: …", "policy: …", "default approver", "timeout", "error"

    @property
    def allowed(self) -> bool:
        return self.decision is not Decision.DENY


@dataclass
class ApprovalPolicy:
    approver: Approver = field(default_factory=DenyAllApprover)
    mode: ApprovalMode = ApprovalMode.ASK_RISKY
    rules: dict[str, Rule] = field(default_factory=dict)
    threshold: Threshold = field(default_factory=Threshold)
    timeout_s: float = APPROVAL_TIMEOUT_S
    on_rules_changed: Callable[[dict[str, Rule]], None] | None = None  # persists the rules
    grants: SessionGrants = field(default_factory=SessionGrants)

    def over_threshold(self, request: ApprovalRequest) -> bool:
        return request.risk is Risk.DESTRUCTIVE and (
            request.impact_files > self.threshold.files or request.impact_bytes > self.threshold.bytes)

    def needs_asking(self, request: ApprovalRequest) -> PolicyDecision | None:
        """The decision the rules and the mode make alone, or None when the user must be asked."""
        rule = self.rules.get(request.rule_key)
        big = self.over_threshold(request)
        if rule is Rule.NEVER_ALLOW:
            return PolicyDecision(Decision.DENY, "rule: never allow")
        if self.mode is ApprovalMode.CHAT_ONLY:
            return PolicyDecision(Decision.DENY, "policy: chat only")
        if rule is Rule.ALWAYS_ALLOW:
            return None if big else PolicyDecision(Decision.ALLOW_ALWAYS, "rule: always allow")
        if rule is Rule.ASK:
            return None
        if not big and self.grants.covers(request):
            return PolicyDecision(Decision.ALLOW_SESSION, "allowed for this session")
        if request.risk is Risk.READ:
            return None if self.mode is ApprovalMode.ALWAYS_ASK else PolicyDecision(Decision.ALLOW_ONCE, "policy: read-only")
        if request.risk is Risk.WRITE and self.mode is ApprovalMode.TRUSTED:
            return PolicyDecision(Decision.ALLOW_ONCE, "policy: trusted mode")
        return None

    def prepare(self, request: ApprovalRequest) -> ApprovalRequest:
        """The request as the user sees it (with `over_threshold` filled in)."""
        from dataclasses import replace

        return replace(request, over_threshold=self.over_threshold(request))

    async def decide(self, request: ApprovalRequest) -> PolicyDecision:
        request = self.prepare(request)
        automatic = self.needs_asking(request)
        if automatic is not None:
            return automatic
        by = "default approver" if isinstance(self.approver, DenyAllApprover) else "you"
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
        if decision is Decision.ALLOW_ALWAYS and request.over_threshold:
            decision = Decision.ALLOW_ONCE  # "always" is not on offer for a call this big
        if decision is Decision.ALLOW_SESSION:
            self.grants.grant(request)
        elif decision is Decision.ALLOW_ALWAYS:
            self.set_rule(request.rule_key, Rule.ALWAYS_ALLOW)
        return PolicyDecision(decision, by)

    def set_rule(self, key: str, rule: Rule | None) -> None:
        """Set (or, with None, remove) a per-tool rule, and persist the rules."""
        if rule is None:
            self.rules.pop(key, None)
        else:
            self.rules[key] = rule
        if self.on_rules_changed is not None:
            self.on_rules_changed(dict(self.rules))

    def forget_session(self, session_id: str) -> None:
        self.grants.forget_session(session_id)

"""Build a real engine for a test: real model client (against the scripted server), real tools, a store."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermes_desktop.core.agent import Agent, AgentServices
from hermes_desktop.core.audit import AuditLog
from hermes_desktop.core.events import Event
from hermes_desktop.core.llm import ModelClient, RetryPolicy
from hermes_desktop.core.session_types import SessionStore
from hermes_desktop.core.settings import AgentLimits, ApprovalMode, ProviderProfile
from hermes_desktop.core.tools.approval import ApprovalPolicy, ApprovalRequest, Approver, Decision, DenyAllApprover
from hermes_desktop.core.tools.builtin import builtin_tools
from hermes_desktop.core.tools.network import NetworkPolicy
from hermes_desktop.core.tools.registry import ToolRegistry
from hermes_desktop.core.tools.spec import ToolSpec
from hermes_desktop.core.tools.workspace import Workspace

from tests.support.stores import open_test_store

FAST_RETRIES = RetryPolicy(max_retries=2, base_delay_s=0.01, max_delay_s=0.05)


@dataclass
class ScriptedApprover:
    """Answers approval requests from a list (then denies); records what it was asked."""

    answers: list[Decision] = field(default_factory=list)
    asked: list[ApprovalRequest] = field(default_factory=list)

    async def ask(self, request: ApprovalRequest) -> Decision:
        self.asked.append(request)
        return self.answers.pop(0) if self.answers else Decision.DENY


@dataclass
class Engine:
    agent: Agent
    store: Any
    workspace: Path
    audit: AuditLog
    registry: ToolRegistry

    async def ask(self, text: str, session_id: str = "s1") -> list[Event]:
        return await self.agent.start_turn(session_id, text).wait()

    async def close(self) -> None:
        if self.agent.model is not None:
            await self.agent.model.aclose()
        if hasattr(self.store, "close"):
            self.store.close()


def make_engine(
    profile: ProviderProfile | None,
    workspace: Path,
    *,
    approver: Approver | None = None,
    store: SessionStore | None = None,
    limits: AgentLimits | None = None,
    extra_tools: list[ToolSpec] | None = None,
    mode: ApprovalMode = ApprovalMode.ASK_RISKY,
    network: NetworkPolicy | None = None,
    audit_path: Path | None = None,
    api_key: str | None = "sk-test-key",
    retry: RetryPolicy = FAST_RETRIES,
) -> Engine:
    registry = ToolRegistry(builtin_tools() + list(extra_tools or []))
    audit = AuditLog(audit_path or workspace.parent / "audit.jsonl")
    services = AgentServices(
        store=store or open_test_store().store,
        registry=registry,
        policy=ApprovalPolicy(approver=approver or DenyAllApprover(), mode=mode),
        workspace=Workspace(workspace),
        network=network or NetworkPolicy(),
        audit=audit,
        limits=limits or AgentLimits(),
        known_secrets={api_key} if api_key else set(),
    )
    model = ModelClient(profile, api_key, retry=retry) if profile is not None else None
    return Engine(Agent(model, services), services.store, workspace, audit, registry)


def of_type(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]

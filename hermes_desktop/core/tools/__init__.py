"""Tools: specs, the registry, argument checking, the workspace sandbox, approvals, built-ins."""

from hermes_desktop.core.tools.approval import (
    ApprovalPolicy,
    ApprovalRequest,
    Approver,
    Decision,
    DenyAllApprover,
    PolicyDecision,
)
from hermes_desktop.core.tools.registry import PreparedCall, ToolRegistry
from hermes_desktop.core.tools.runner import ToolResult
from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolError, ToolSpec

__all__ = [
    "ApprovalPolicy",
    "ApprovalRequest",
    "Approver",
    "Decision",
    "DenyAllApprover",
    "PolicyDecision",
    "PreparedCall",
    "Risk",
    "ToolContext",
    "ToolError",
    "ToolRegistry",
    "ToolResult",
    "ToolSpec",
]

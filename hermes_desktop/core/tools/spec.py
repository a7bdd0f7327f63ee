"""What a tool is: a name the model calls, a JSON schema, a handler, and a risk level."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping, Union

if TYPE_CHECKING:
    from hermes_desktop.core.tools.network import NetworkPolicy
    from hermes_desktop.core.tools.workspace import Workspace


class Risk(StrEnum):
    READ = "read"
    WRITE = "write"
    DESTRUCTIVE = "destructive"

    @staticmethod
    def parse(value: object) -> "Risk":
        """An unknown or missing risk is treated as destructive (fail closed)."""
        try:
            return Risk(str(value))
        except ValueError:
            return Risk.DESTRUCTIVE

    @property
    def rank(self) -> int:
        return {Risk.READ: 0, Risk.WRITE: 1, Risk.DESTRUCTIVE: 2}[self]


class ToolError(Exception):
    """An expected failure with a message for the model (and the user), e.g. a path outside the workspace."""


@dataclass(frozen=True, slots=True)
class ToolContext:
    """What a handler may use besides its arguments."""

    session_id: str
    workspace: "Workspace"
    network: "NetworkPolicy"
    notes_dir: Path


@dataclass(frozen=True, slots=True)
class Impact:
    """What a call will do, measured before it runs: shown to the user, and compared to the approval threshold."""

    text: str
    files: int = 0
    bytes: int = 0
    # The same as a code and its parameters (paths, byte counts, titles stay data), so the window can word it in the
    # user's language; `text` stays the English line for the CLI, the audit log and `ask --json`.
    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text


ToolResultValue = Union[str, Mapping[str, Any], list[Any], int, float, None]
Handler = Callable[[dict[str, Any], ToolContext], Union[ToolResultValue, Awaitable[ToolResultValue]]]
RiskOf = Callable[[dict[str, Any], ToolContext], Risk]
Precheck = Callable[[dict[str, Any], ToolContext], "str | Impact"]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON Schema of the arguments object
    handler: Handler
    risk: Risk = Risk.DESTRUCTIVE
    timeout_s: float | None = None  # None: the agent's default
    source: str = "builtin"  # builtin | skill:<name> | mcp:<server>
    # A call can be riskier than the tool (write_file that overwrites is destructive).
    risk_of: RiskOf | None = None
    # Describes the impact before running, e.g. "deletes 37 files, 12.4 MB in reports/2025".
    precheck: Precheck | None = None
    # Handlers that block (file I/O, hashing) run in a worker thread; async handlers run on the loop.
    blocking: bool = True
    tags: tuple[str, ...] = field(default=())
    # What stands behind the source (an MCP server's command or URL): approval rules are tied to it.
    source_detail: str = ""
    # The handler does only what its latest precheck listed (memory `forget`): the turn does not measure it again
    # right before it runs (core/tool_calls.py), which would replace the listing the user approved.
    impact_pinned: bool = False

    def risk_for(self, args: dict[str, Any], ctx: ToolContext) -> Risk:
        if self.risk_of is None:
            return self.risk
        raised = self.risk_of(args, ctx)
        return raised if raised.rank > self.risk.rank else self.risk

    def to_openai(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }

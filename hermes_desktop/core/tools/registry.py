"""The tools the agent can offer: register, look up, list in OpenAI format, parse, measure and run calls.

Parsing and measuring are separate steps because a call's risk and impact depend on the disk *when it runs*: the
turn parses every call of a reply at once but measures each one only after the earlier calls of that reply have
run (core/tool_calls.py, docs/approvals.md)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any, Collection, Iterable

from hermes_desktop.core.llm.assembly import RawToolCall
from hermes_desktop.core.tools.arguments import ArgumentProblem, parse_arguments, validate_arguments
from hermes_desktop.core.tools.runner import ToolResult, run_tool
from hermes_desktop.core.tools.spec import Impact, Risk, ToolContext, ToolError, ToolSpec

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PreparedCall:
    """A model's call after parsing and validation. `problem` set means it must not run."""

    call_id: str
    name: str
    raw_arguments: str
    spec: ToolSpec | None
    arguments: dict[str, Any] | None
    risk: Risk
    problem: str | None = None
    impact: str | None = None
    impact_files: int = 0
    impact_bytes: int = 0
    repaired: bool = False
    impact_code: str = ""  # Impact.code / Impact.params, or cannot_run / precheck_failed
    impact_params: dict[str, Any] = field(default_factory=dict)
    # The risk and impact were measured on the disk (`ToolRegistry.measure`); false: only parsed, the risk is the
    # tool's declared one and there is no impact yet (a call behind a change in the same reply: core/tool_calls.py).
    measured: bool = True

    @property
    def source(self) -> str:
        return self.spec.source if self.spec else "unknown"

    @property
    def runnable(self) -> bool:
        return self.problem is None and self.spec is not None and self.arguments is not None


class ToolRegistry:
    def __init__(self, specs: Iterable[ToolSpec] = ()) -> None:
        self._specs: dict[str, ToolSpec] = {}
        for spec in specs:
            self.register(spec)

    def register(self, spec: ToolSpec, *, replace: bool = False) -> None:
        if spec.name in self._specs and not replace:
            raise ValueError(f"a tool named {spec.name!r} is already registered")
        self._specs[spec.name] = spec

    def unregister(self, name: str) -> None:
        self._specs.pop(name, None)

    def get(self, name: str) -> ToolSpec | None:
        return self._specs.get(name)

    def specs(self, *, exclude: Iterable[str] = ()) -> list[ToolSpec]:
        excluded = set(exclude)
        return [s for s in self._specs.values() if s.name not in excluded]

    def openai_tools(self, *, exclude: Iterable[str] = ()) -> list[dict[str, Any]]:
        return [s.to_openai() for s in self.specs(exclude=exclude)]

    def prepare(self, call: RawToolCall, ctx: ToolContext, *, offered: set[str] | None = None) -> PreparedCall:
        """Parse, validate and measure at once (`parse` then `measure`). Never raises."""
        return self.measure(self.parse(call, offered=offered), ctx)

    def parse(self, call: RawToolCall, *, offered: set[str] | None = None) -> PreparedCall:
        """Parse and validate, without looking at the disk: the risk is the tool's declared one and there is no
        impact yet (`measured` is false). Never raises."""
        spec = self._specs.get(call.name)
        if spec is None or (offered is not None and call.name not in offered):
            known = ", ".join(sorted(offered if offered is not None else self._specs))
            return PreparedCall(call.id, call.name, call.arguments, None, None, Risk.DESTRUCTIVE,
                                problem=f"unknown tool {call.name!r}. Available tools: {known}", measured=True)
        try:
            parsed = parse_arguments(call.arguments)
            validate_arguments(parsed.value, spec.parameters)
        except ArgumentProblem as exc:
            return PreparedCall(call.id, call.name, call.arguments, spec, None, spec.risk, problem=str(exc),
                                measured=True)
        return PreparedCall(call.id, call.name, call.arguments, spec, parsed.value, spec.risk,
                            repaired=parsed.repaired, measured=spec.precheck is None and spec.risk_of is None)

    def measure(self, call: PreparedCall, ctx: ToolContext) -> PreparedCall:
        """The call's own risk and impact on the disk as it is now (tool code: run it on the tool executor). A call
        that cannot run is returned as it is. Never raises."""
        spec, args = call.spec, call.arguments
        if not call.runnable or spec is None or args is None:
            return replace(call, measured=True)
        try:
            risk = spec.risk_for(args, ctx)
        except Exception:  # a risk hook that fails must not lower the risk
            log.exception("risk hook of %s failed", spec.name)
            risk = Risk.DESTRUCTIVE
        impact: str | None = None
        code, params = "", {}
        files = size = 0
        if spec.precheck is not None:
            try:
                measured = spec.precheck(args, ctx)
                impact = str(measured)
                if isinstance(measured, Impact):
                    files, size = measured.files, measured.bytes
                    code, params = measured.code, dict(measured.params)
            except ToolError as exc:
                impact = f"cannot run: {exc}"
                code, params = "cannot_run", {"reason": str(exc)}
            except Exception as exc:
                log.exception("precheck of %s failed", spec.name)
                impact = f"impact unknown (precheck failed: {type(exc).__name__})"
                code, params = "precheck_failed", {"error": type(exc).__name__}
        if impact is not None and code != "cannot_run":  # a file name that looks like another one (NFC/NFD)
            impact, params = with_lookalike_note(impact, params, args, ctx)
        return replace(call, risk=risk, impact=impact, impact_files=files, impact_bytes=size, impact_code=code,
                       impact_params=params, measured=True)

    async def execute(self, call: PreparedCall, ctx: ToolContext, *, default_timeout_s: float,
                      char_budget: int, known_secrets: Collection[str] = ()) -> ToolResult:
        assert call.spec is not None and call.arguments is not None, "only runnable calls are executed"
        return await run_tool(call.spec, call.arguments, ctx, default_timeout_s=default_timeout_s,
                              char_budget=char_budget, known_secrets=known_secrets)


def with_lookalike_note(impact: str, params: dict[str, Any], args: dict[str, Any],
                        ctx: ToolContext) -> tuple[str, dict[str, Any]]:
    """The impact with a note when a path argument has a look-alike twin in its folder (core/tools/lookalike.py)."""
    from hermes_desktop.core.tools.lookalike import lookalike_note

    workspace = getattr(ctx, "workspace", None)
    noted = lookalike_note(args, workspace.resolve) if workspace is not None else None
    if noted is None:
        return impact, params
    return f"{impact}\n{noted[0]}", {**params, "lookalike": noted[1]}

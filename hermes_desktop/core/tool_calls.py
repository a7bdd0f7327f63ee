"""The tool calls of one model reply: parsed at once, then each measured, decided, re-checked and run in order.

Why each call is measured only when its turn comes (issue 21, docs/approvals.md): a call's risk and impact depend
on the disk *as it will be when the call runs*, and the earlier calls of the same reply change it. Measured all up
front, a `move_path` B->X after a move A->X said nothing about replacing X, and a delete of a folder the previous
calls had just filled asked about "the empty folder" and then deleted five files. So:

1. every call of the reply is parsed and validated at once, and shown (`ToolCallProposed`); the calls before the
   first non-read call are measured at once too (reads do not change the disk, so that measurement still holds when
   they run); a call behind a non-read call is proposed with its tool's declared risk and no impact;
2. when a call's turn comes, after every earlier call of the reply has run, it is measured (`ToolCallMeasured`
   updates its card), and only then decided by the policy or the user;
3. right before it runs, an allowed call is measured once more; when the effect differs from what was decided
   (the target appeared, the folder now holds files, the risk rose), it is not run silently: it is decided again on
   what it would now do (the user is asked again unless a rule or the mode covers the new effect), at most
   MAX_RECHECKS times, then refused with CHANGED_RESULT. A tool whose handler itself does only what its latest
   precheck listed (`ToolSpec.impact_pinned`: memory `forget`) is not measured again: that would replace the
   listing the user approved.

Read-only calls next to each other that the policy allows without asking still run together (at most
`AgentLimits.max_parallel_tools` at a time). The loop guards (core/turn_guard.py) see each call and each reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from hermes_desktop.core.events import (
    Event,
    ToolCallAwaitingApproval,
    ToolCallDecided,
    ToolCallFinished,
    ToolCallMeasured,
    ToolCallProposed,
    ToolCallStarted,
    ToolOutcome,
)
from hermes_desktop.core.executors import run_tool_thread
from hermes_desktop.core.llm import RawToolCall
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.tools.approval import ApprovalRequest, Decision, PolicyDecision
from hermes_desktop.core.tools.registry import PreparedCall
from hermes_desktop.core.tools.runner import ToolResult
from hermes_desktop.core.tools.spec import Risk, ToolContext
from hermes_desktop.core.turn_guard import FailureGuard, GuardStop, RepeatGuard

if TYPE_CHECKING:  # core/agent.py imports this module
    from hermes_desktop.core.agent import AgentServices

log = logging.getLogger(__name__)

DENIED_RESULT = json.dumps({
    "status": "denied",
    "message": "The user declined this action, so it was not performed. Do not try it again; tell the user "
               "what you wanted to do and ask how they want to proceed.",
})
# Denied with nobody to ask (`ask` in a pipe or script, no window): the model must not say the user declined.
UNASKED_RESULT = json.dumps({
    "status": "denied",
    "message": "Not performed: this action needs the user's approval and there was no one to ask (no terminal or "
               "window). Do not try it again here; tell the user what you wanted to do so they can run it where "
               "they can approve it.",
})
# The question went unanswered until its time limit (the user was away): not a refusal either.
NO_ANSWER_RESULT = json.dumps({
    "status": "denied",
    "message": "Not performed: the user did not answer the approval question in time. Do not try it again now; tell "
               "the user what you wanted to do and ask whether they want it.",
})
# What the call would do kept changing between the decision and the run (step 3 of the module docstring).
CHANGED_RESULT = json.dumps({
    "status": "not_run",
    "message": "Not performed: what this action would do changed on disk after it was approved (files appeared, "
               "disappeared or changed), again and again, so it was not run. Look at the current state (list or read "
               "it) and tell the user what you found before trying again.",
})
CHANGED_DECIDER = "changed before it ran"
SKIPPED_RESULT = json.dumps({"status": "not_run", "message": "Not run: the same call was repeated too many times."})
STOPPED_TOOLS_RESULT = json.dumps({"status": "not_run", "message": "Not run: tools are stopped for the rest of this "
                                   "turn. Tell the user where things stand instead."})
INTERRUPTED_RESULT = json.dumps({"status": "interrupted", "message": "Not run: the reply was cut off before this "
                                 "call was complete. Write the call again in full if it is still needed."})
OUTPUT_LIMIT_RESULT = json.dumps({"status": "interrupted", "message": "Not run: the reply passed its output limit "
                                  "before this call was complete."})
DRY_RUN_MESSAGE = ("Dry run: this was not performed. The user is reviewing the plan; describe what you would do "
                   "and continue with the plan as if it had succeeded only if it does not depend on this result.")
MAX_RECHECKS = 2  # decisions again after a change found right before running; then CHANGED_RESULT


def denial_result(decided_by: str) -> str:
    """What the model is told about a denied call: the user's refusal only when the user was asked."""
    if decided_by == "default approver":
        return UNASKED_RESULT
    if decided_by.startswith("timeout"):
        return NO_ANSWER_RESULT
    return DENIED_RESULT


def effect(call: PreparedCall) -> tuple[Any, ...]:
    """What a decision about `call` was a decision about: its risk, its kind of effect, how many files, and its
    impact's parameters except byte counts (a log file that grew a few bytes is the same decision; a threshold crossed
    by size is caught by the policy's `over_threshold`, compared beside this)."""
    params = tuple(sorted((key, json.dumps(value, sort_keys=True, default=str))
                          for key, value in call.impact_params.items() if "bytes" not in key))
    return call.risk, call.impact_code, call.impact_files, params


class TurnTools:
    """Runs the tool calls of a turn's replies and keeps what they need: each call's decision for its stored record,
    the calls of the current reply without a stored result, and the loop guards."""

    def __init__(self, services: "AgentServices", session_id: str, ctx: ToolContext,
                 store_call: Callable[..., Awaitable[Any]], emit: Callable[[Event], None],
                 history: Callable[[], list[dict[str, Any]]],
                 without_deadline: Callable[[Awaitable[Any]], Awaitable[Any]]) -> None:
        self.services, self.session_id, self.ctx = services, session_id, ctx
        self._store_call, self.emit, self._history, self._without_deadline = store_call, emit, history, without_deadline
        # Each call's decision, for its stored record (_record_call): noted where it is decided (_decided), keyed by
        # the PreparedCall itself, since servers reuse call ids ("call_0" in every reply).
        self.decisions: dict[int, PolicyDecision] = {}
        self.unanswered: list[PreparedCall] = []  # calls of the current reply without a persisted result
        self.repeats = RepeatGuard(services.limits.max_identical_calls)
        self.failures = FailureGuard(services.limits.max_consecutive_failures)

    # ------------------------------------------------------------------ one reply
    async def run_reply(self, calls: list[RawToolCall], offered: set[str], *, reason: str) -> GuardStop | None:
        """Run a reply's calls in order; a guard's stop when one stopped the tools."""
        prepared = [await self._parse(call, offered) for call in calls]
        self.unanswered = list(prepared)  # from here on a Stop stores a result for each of them
        for index, call in enumerate(prepared):  # measured now: only reads come before these (module docstring)
            if not call.measured:
                prepared[index] = await self._measure(call)
                self._replace(call, prepared[index])
            if prepared[index].runnable and prepared[index].risk is not Risk.READ:
                break
        for call in prepared:
            self.emit(ToolCallProposed(call.call_id, call.name, call.arguments, call.raw_arguments, call.source,
                                       call.risk.value, call.impact, call.impact_code, dict(call.impact_params)))
        stop: GuardStop | None = None
        outcomes: list[tuple[str, ToolOutcome]] = []
        index = 0
        while index < len(prepared):
            call = prepared[index]
            stop = stop or self.repeats.check(call.name, call.arguments, call.raw_arguments)
            if stop is not None:
                await self.finish_call(call, ToolResult(ToolOutcome.SKIPPED, SKIPPED_RESULT))
                index += 1
                continue
            batch = await self._concurrent_reads(prepared, index)
            if len(batch) > 1:
                for member, _ in batch[1:]:
                    stop = stop or self.repeats.check(member.name, member.arguments, member.raw_arguments)
                for member, decision in batch:
                    self._decided(member, decision)
                slots = asyncio.Semaphore(max(1, self.services.limits.max_parallel_tools))
                results = await asyncio.gather(*(self._execute(member, decision, slots) for member, decision in batch))
                for (member, _), result in zip(batch, results):
                    await self.finish_call(member, result)
                    outcomes.append((member.name, result.outcome))
                index += len(batch)
                continue
            call, result = await self._decide_and_execute(prepared[index], reason)  # measured by _concurrent_reads
            prepared[index] = call
            await self.finish_call(call, result)
            outcomes.append((call.name, result.outcome))
            index += 1
        return stop or self.failures.after_reply(outcomes)

    async def record_not_run(self, calls: list[RawToolCall], content: str, outcome: ToolOutcome) -> None:
        """Show and store each call as not run (a cut-off reply; a reply after the tools were stopped). Never
        measured, asked about or executed."""
        prepared = [self._not_run_call(raw) for raw in calls]
        self.unanswered = list(prepared)
        for call in prepared:
            self.emit(ToolCallProposed(call.call_id, call.name, None, call.raw_arguments, call.source, call.risk.value))
        for call in prepared:
            result = ToolResult(outcome, content)
            self._audit(call, None, result)
            await self.persist_result(call, result)
            self.emit(ToolCallFinished(call.call_id, call.name, outcome, content, 0.0))

    async def cancel_unanswered(self, content: str) -> None:
        """Store a cancelled result for each call of the reply that has none (a Stop, the turn's deadline)."""
        for call in list(self.unanswered):
            with contextlib.suppress(Exception):
                await self.persist_result(call, ToolResult(ToolOutcome.CANCELLED, content))
                self.emit(ToolCallFinished(call.call_id, call.name, ToolOutcome.CANCELLED, content, 0.0))

    def _not_run_call(self, raw: RawToolCall) -> PreparedCall:
        spec = self.services.registry.get(raw.name)
        return PreparedCall(raw.id, raw.name, raw.arguments, spec, None, spec.risk if spec else Risk.DESTRUCTIVE,
                            problem="not run")

    # ------------------------------------------------------------------ measuring
    async def _parse(self, call: RawToolCall, offered: set[str]) -> PreparedCall:
        """Parse and validate on the tool executor (repairing a huge cut JSON can take a while); one that cannot be
        parsed in time is not run."""
        timeout = self.services.limits.default_tool_timeout_s
        try:
            async with asyncio.timeout(timeout):
                parsed = await run_tool_thread(self.services.registry.parse, call, offered=offered)
        except TimeoutError:
            return PreparedCall(call.id, call.name, call.arguments, None, None, Risk.DESTRUCTIVE,
                                problem=f"could not be checked within {timeout:g} s (every tool worker was busy); it "
                                        "was not run")
        known = self.services.registry.get(call.name)
        refused = self.services.call_guard(self.session_id, call.name, known.source if known else None,
                                           parsed.arguments)
        if refused is not None:  # outside the assistant's allow list: never measured, asked about or run
            return PreparedCall(call.id, call.name, call.arguments, None, None, Risk.DESTRUCTIVE, problem=refused)
        return parsed

    async def _measure(self, call: PreparedCall) -> PreparedCall:
        """The call's risk and impact on the disk now, on the tool executor (prechecks are tool code). One that
        cannot be checked in time is not run."""
        timeout = self.services.limits.default_tool_timeout_s
        try:
            async with asyncio.timeout(timeout):
                return await run_tool_thread(self.services.registry.measure, call, self.ctx)
        except TimeoutError:
            return replace(call, risk=Risk.DESTRUCTIVE, measured=True,
                           problem=f"could not be checked within {timeout:g} s (its check did not finish, or "
                                   "every tool worker was busy); it was not run")

    async def _measured(self, call: PreparedCall) -> PreparedCall:
        """`call` measured when its turn comes (after the reply's earlier calls ran); its card is told."""
        if call.measured:
            return call
        fresh = await self._measure(call)
        self._replace(call, fresh)
        self._tell_measured(fresh)
        return fresh

    def _tell_measured(self, call: PreparedCall) -> None:
        self.emit(ToolCallMeasured(call.call_id, call.risk.value, call.impact, call.impact_code,
                                   dict(call.impact_params)))

    def _replace(self, old: PreparedCall, new: PreparedCall) -> None:
        self.unanswered = [new if c is old else c for c in self.unanswered]

    # ------------------------------------------------------------------ deciding
    async def _concurrent_reads(self, prepared: list[PreparedCall], start: int) -> list[tuple[PreparedCall, PolicyDecision]]:
        """The run of consecutive read-only calls the policy allows without asking, starting at `start`. Measuring a
        call here is as good as measuring it at its turn: only reads run before it."""
        batch = []
        for index in range(start, len(prepared)):
            call = prepared[index] = await self._measured(prepared[index])
            decision = self.services.policy.needs_asking(self._approval_request(call, "")) if call.runnable else None
            if decision is None or not decision.allowed or call.risk is not Risk.READ:
                break
            batch.append((call, decision))
        return batch

    def _approval_request(self, call: PreparedCall, reason: str,
                          asked_before: ApprovalRequest | None = None) -> ApprovalRequest:
        request = ApprovalRequest(self.session_id, call.call_id, call.name, call.source, call.risk,
                                  call.arguments or {}, call.impact, reason.strip(), call.impact_files,
                                  call.impact_bytes, call.spec.source_detail if call.spec else "",
                                  impact_code=call.impact_code, impact_params=dict(call.impact_params),
                                  asked_before=asked_before)
        return self.services.policy.prepare(request)

    async def _decide_and_execute(self, call: PreparedCall, reason: str) -> tuple[PreparedCall, ToolResult]:
        """Decide and run one call; returns the call as last measured (a re-check may have measured it again)."""
        if not call.runnable:
            return call, ToolResult(ToolOutcome.INVALID, json.dumps({"error": call.problem}, ensure_ascii=False))
        if self.services.dry_run and call.risk is not Risk.READ:
            content = json.dumps({"status": "dry_run", "would": call.impact or f"run {call.name}",
                                  "message": DRY_RUN_MESSAGE}, ensure_ascii=False)
            result = ToolResult(ToolOutcome.DRY_RUN, content)
            dry = PolicyDecision(Decision.DENY, "dry run")
            self._decided(call, dry)
            self._audit(call, dry, result)
            return call, result
        allowed: ApprovalRequest | None = None  # the request allowed before a re-check found the call changed
        for _ in range(MAX_RECHECKS + 1):
            request = self._approval_request(call, reason, allowed)
            if self.services.policy.needs_asking(request) is None:
                self.emit(ToolCallAwaitingApproval(call.call_id, request.over_threshold))
            decision = await self._without_deadline(self.services.policy.decide(request))
            self._decided(call, decision)
            if not decision.allowed:
                result = ToolResult(ToolOutcome.DENIED, denial_result(decision.decided_by))
                self._audit(call, decision, result)
                return call, result
            fresh = await self._recheck(call, request)
            if fresh is None:
                return call, await self._execute(call, decision)
            call, allowed = fresh, replace(request, asked_before=None)  # decided again on what it would do now
            if not call.runnable:
                return call, ToolResult(ToolOutcome.INVALID, json.dumps({"error": call.problem}, ensure_ascii=False))
        changed = PolicyDecision(Decision.DENY, CHANGED_DECIDER)
        self._decided(call, changed)
        result = ToolResult(ToolOutcome.DENIED, CHANGED_RESULT)
        self._audit(call, changed, result)
        return call, result

    async def _recheck(self, call: PreparedCall, decided: ApprovalRequest) -> PreparedCall | None:
        """Measure an allowed call once more right before it runs: None when it would still do what was decided,
        else the call as it is now (its card is told)."""
        spec = call.spec
        if spec is None or spec.impact_pinned or (spec.precheck is None and spec.risk_of is None):
            return None  # nothing about it depends on the disk, or it holds to what was approved itself
        fresh = await self._measure(replace(call, measured=False))
        now = self._approval_request(fresh, "")
        if fresh.runnable and effect(fresh) == effect(call) and now.over_threshold == decided.over_threshold:
            return None
        log.info("%s changed between its decision and its run: %s -> %s", call.name, call.impact, fresh.impact)
        self._replace(call, fresh)
        self.decisions.pop(id(call), None)
        self._tell_measured(fresh)
        return fresh

    # ------------------------------------------------------------------ running and keeping
    async def _execute(self, call: PreparedCall, decision: PolicyDecision,
                       slots: asyncio.Semaphore | None = None) -> ToolResult:
        """Run an allowed call; with `slots`, only once one of the batch's parallel slots is free."""
        async with slots if slots is not None else contextlib.nullcontext():
            self.emit(ToolCallStarted(call.call_id))
            limits = self.services.limits
            result = await self.services.registry.execute(call, self.ctx, default_timeout_s=limits.default_tool_timeout_s,
                                                          char_budget=limits.tool_result_char_budget,
                                                          known_secrets=self.services.known_secrets)
        self._audit(call, decision, result)
        return result

    async def finish_call(self, call: PreparedCall, result: ToolResult) -> None:
        if result.outcome in (ToolOutcome.INVALID, ToolOutcome.SKIPPED):
            self._audit(call, None, result)
        await self.persist_result(call, result)
        self.emit(ToolCallFinished(call.call_id, call.name, result.outcome, result.content, result.duration_s,
                                   result.truncated_chars))

    async def persist_result(self, call: PreparedCall, result: ToolResult) -> None:
        message = NewMessage("tool", content=result.content, tool_call_id=call.call_id, name=call.name)
        message_id = await self._store_call(self.services.store.append_message, self.session_id, message)
        await self._record_call(call, result, message_id)
        self._history().append({"role": "tool", "tool_call_id": call.call_id, "name": call.name,
                                "content": result.content})
        self.unanswered = [c for c in self.unanswered if c is not call]

    async def _record_call(self, call: PreparedCall, result: ToolResult, message_id: int) -> None:
        """Keep what the card showed (impact, decision, outcome, duration) beside the stored result, in a transaction
        of its own: the result is already saved, and a record that cannot be written (a full disk) only costs the
        card its detail after a restart, never the turn."""
        decided = self.decisions.pop(id(call), None)
        try:
            await self._store_call(self.services.store.record_tool_call, message_id, session_id=self.session_id,
                                   call_id=call.call_id, impact_code=call.impact_code,
                                   impact_params=dict(call.impact_params), impact=call.impact,
                                   decision=decided.decision.value if decided else None,
                                   decided_by=decided.decided_by if decided else None, outcome=result.outcome.value,
                                   duration_s=result.duration_s)
        except Exception as exc:  # noqa: BLE001 - the result is stored; only the card's detail is lost
            log.warning("the record of tool call %s was not saved: %s", call.call_id, exc)

    def _decided(self, call: PreparedCall, decision: PolicyDecision) -> None:
        """Say how a call was decided, and keep it for the call's stored record (_record_call)."""
        self.decisions[id(call)] = decision
        self.emit(ToolCallDecided(call.call_id, decision.decision.value, decision.decided_by))

    def _audit(self, call: PreparedCall, decision: PolicyDecision | None, result: ToolResult) -> None:
        self.services.audit.record(
            session=self.session_id, call_id=call.call_id, tool=call.name, source=call.source, risk=call.risk.value,
            arguments=call.arguments if call.arguments is not None else call.raw_arguments,
            decision=decision.decision.value if decision else None, decided_by=decision.decided_by if decision else None,
            outcome=result.outcome.value, duration_s=round(result.duration_s, 4), result_chars=len(result.content),
            impact=call.impact,
        )

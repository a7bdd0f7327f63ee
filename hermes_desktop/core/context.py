"""Build the messages for one model request from layers, within a token budget.

Layers, in order: system prompt (role, rules), active skills' instructions,
tool-use rules, the session's assistant's instructions, memory slot, knowledge passages (the Retrieval layer, within
their own budget), history, the new user message. History is dropped
oldest first, one whole exchange at a time (a user message and everything up to
the next one), so an assistant `tool_calls` message is never separated from its
tool results. The current turn is never dropped. What was dropped is reported.

Only conversation (`user`, `assistant`, `tool`: session_types.CONVERSATION_ROLES) is sent as messages.
Notes (imported `system`/`developer`/unknown roles, stored `system` messages) are left out entirely;
the app's own summary that starts a continued session is added to the system message (it is what the
earlier conversation said, written by the model from it), never as a message of its own.

A reply's reasoning rides in the history as `reasoning_content`; it counts toward the budget only on the
messages the model client will actually send it on (`echo_reasoning`, rule in core/llm/reasoning.py).

The reported total (`estimated_tokens`) is never below the sum of its breakdown: a server that counts fewer
tokens than we estimate (calibration factor < 1; the demo server reports 20) would otherwise show a total
smaller than the layers listed under it. Calibration still scales the total up when the server counts more,
and trimming history still uses the calibrated costs.

A long conversation's running summary (core/conversation_summary.py) replaces the first `summarised` messages of
the history: its section goes at the end of the system message, and its tokens are their own breakdown entry
(`conversation_summary`). `available_tokens` says how much room the layers and the current turn leave for summary
and history together, for deciding where the next summary should end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hermes_desktop.core.llm.reasoning import ECHO_FIELD, echo_carriers
from hermes_desktop.core.attachments import attachment_tokens
from hermes_desktop.core.session_types import CONVERSATION_ROLES, SUMMARY
from hermes_desktop.core.tokens import TokenCalibration, estimate_message_tokens, estimate_text_tokens, estimate_tools_tokens

MISSING_RESULT = '{"error": "no result was recorded for this call (the turn was stopped before it ran)"}'


@dataclass(frozen=True, slots=True)
class ContextLayers:
    system: str
    skills: str = ""  # the active skills' instructions
    tool_rules: str = ""
    memory: str = ""
    catalog: str = ""  # one line per installed skill (part of the system prompt)
    knowledge: str = ""  # the Retrieval layer: passages framed as documents (core/knowledge/service.py)
    # The session's assistant's instructions (core/assistants): below the app's rules, above memory and history.
    assistant: str = ""

    def system_message(self) -> str:
        parts = (self.system, self.catalog, self.skills, self.tool_rules, self.assistant, self.memory, self.knowledge)
        return "\n\n".join(part.strip() for part in parts if part.strip())


@dataclass(frozen=True, slots=True)
class BuiltContext:
    messages: list[dict[str, Any]]
    estimated_tokens: int  # calibrated upwards only: never below the breakdown's sum (see `reported_estimate`)
    raw_estimate: int  # before calibration, for observing the server's count
    budget_tokens: int
    dropped_messages: int
    breakdown: dict[str, int] = field(default_factory=dict)
    available_tokens: int = 0  # room for summary + history after the layers and the current turn (calibrated)
    current_attachments: int = 0  # of breakdown["attachments"], the current turn's (always sent: request_fit counts it)


def repair_tool_pairs(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Make the history valid for the API: every tool call answered, no answer without its call.

    A crash or a Stop between a `tool_calls` message and its results leaves calls without
    results; providers reject such a history, so a neutral "no result" is supplied. Messages of other
    roles than user, assistant and tool (notes, summaries) are left out first.
    """
    history = [m for m in history if m.get("role") in CONVERSATION_ROLES]
    out: list[dict[str, Any]] = []
    open_calls: dict[str, str] = {}

    def close_open_calls() -> None:
        for call_id, name in open_calls.items():
            out.append({"role": "tool", "tool_call_id": call_id, "name": name, "content": MISSING_RESULT})
        open_calls.clear()

    for message in history:
        role = message.get("role")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id in open_calls:
                open_calls.pop(call_id)
                out.append(message)
            continue  # an answer to no call (its call was dropped): leave it out
        close_open_calls()
        out.append(message)
        if role == "assistant" and message.get("tool_calls"):
            open_calls = {c.get("id", ""): c.get("function", {}).get("name", "") for c in message["tool_calls"]}
    close_open_calls()
    return out


def _exchanges(history: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    groups: list[list[dict[str, Any]]] = []
    for message in history:
        if message.get("role") == "user" or not groups:
            groups.append([])
        groups[-1].append(message)
    return groups


def build_context(
    layers: ContextLayers,
    history: list[dict[str, Any]],
    *,
    current_turn_start: int,
    tools: list[dict[str, Any]],
    context_window: int,
    reserved_output: int,
    calibration: TokenCalibration | None = None,
    echo_reasoning: bool = False,
    summary: str = "",
    summarised: int = 0,
) -> BuiltContext:
    """`history[current_turn_start:]` is this turn (its user message onward) and is always kept.

    `summary` (the conversation summary's system section) stands in for `history[:summarised]`, which is not sent;
    `summarised` is an exchange boundary before the current turn."""
    calibration = calibration or TokenCalibration()
    carriers = echo_carriers(history) if echo_reasoning else set()
    carried = {id(history[i]) for i in carriers}

    def cost(message: dict[str, Any]) -> int:
        extra = estimate_text_tokens(message.get(ECHO_FIELD)) if id(message) in carried else 0
        return estimate_message_tokens(message) + extra

    summarised = max(0, min(summarised, current_turn_start))
    summary_note = "\n\n".join(str(m.get("content") or "").strip() for m in history[summarised:]
                                if m.get("role") == SUMMARY)
    system_text = "\n\n".join(part for part in (layers.system_message(), summary_note, summary.strip()) if part)
    budget = max(256, context_window - reserved_output)
    breakdown = {
        "system": estimate_text_tokens(layers.system),
        "skill_catalog": estimate_text_tokens(layers.catalog),
        "active_skills": estimate_text_tokens(layers.skills),
        "tool_rules": estimate_text_tokens(layers.tool_rules),
        "assistant": estimate_text_tokens(layers.assistant),
        "memory": estimate_text_tokens(layers.memory),
        "knowledge": estimate_text_tokens(layers.knowledge),
        "tool_schemas": estimate_tools_tokens(tools),
        "summary": estimate_text_tokens(summary_note),
        "conversation_summary": estimate_text_tokens(summary),
    }
    fixed = sum(breakdown.values()) + 4
    current = repair_tool_pairs(history[current_turn_start:])
    current_tokens = sum(cost(m) for m in current)
    earlier = _exchanges(repair_tool_pairs(history[summarised:current_turn_start]))
    sizes = [sum(cost(m) for m in group) for group in earlier]

    available = budget - calibration.apply(fixed + current_tokens)
    room = available + calibration.apply(breakdown["conversation_summary"])
    kept_from = len(earlier)
    used = 0
    for index in range(len(earlier) - 1, -1, -1):
        cost = calibration.apply(sizes[index])
        if used + cost > available:
            break
        used += cost
        kept_from = index
    kept = [m for group in earlier[kept_from:] for m in group]
    dropped = sum(len(group) for group in earlier[:kept_from])

    breakdown["history"] = sum(sizes[kept_from:])
    breakdown["current_turn"] = current_tokens
    raw = fixed + breakdown["history"] + current_tokens
    # Attachments (image parts by OpenAI's tile estimate, attached-file blocks) are their own entry, taken out of
    # history and current_turn so the entries still add up to the total.
    attached_kept, attached_now = sum(map(attachment_tokens, kept)), sum(map(attachment_tokens, current))
    breakdown["history"] -= attached_kept
    breakdown["current_turn"] -= attached_now
    breakdown["attachments"] = attached_kept + attached_now
    messages = [{"role": "system", "content": system_text}, *kept, *current]
    return BuiltContext(messages, reported_estimate(raw, calibration), raw, budget, dropped, breakdown, room,
                        attached_now)


def reported_estimate(raw: int, calibration: TokenCalibration) -> int:
    """The total shown to the user: calibrated up when the server counts more than we estimate, never below
    `raw` (the breakdown's sum plus overhead), so the total is never smaller than the layers it lists."""
    return max(raw, calibration.apply(raw))

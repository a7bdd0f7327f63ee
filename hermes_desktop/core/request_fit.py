"""Never over the window: a request whose fixed part plus the current turn does not fit the model's context window
is not sent. The user is told what takes the room and what to turn off, with what each costs.

Without this check such a request went out anyway (a local server with a 32k window and 900 skills got 43,000
tokens), and either failed or silently lost the start of the conversation. History is not counted: it is what the
context builder drops first. Attachments are checked before the message is sent (core/attachments.py).

The refusal is a `ModelError(CONTEXT_TOO_LONG)` whose message is for people (the window shows it, `ask` prints it
and exits 1) and whose `detail` is JSON for programs: {"needed", "available", "costs": [{"what", "name", "tokens",
"how"}]}, largest first.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, replace
from typing import Sequence

from hermes_desktop.core.context import BuiltContext
from hermes_desktop.core.events import ErrorKind
from hermes_desktop.core.llm.errors import ModelError
from hermes_desktop.core.tokens import estimate_text_tokens, estimate_tools_tokens
from hermes_desktop.core.tools.spec import ToolSpec

# Layers that are sent whatever the history: with the current turn they must fit.
FIXED_LAYERS = ("system", "skill_catalog", "active_skills", "tool_rules", "assistant", "memory", "tool_schemas",
                "current_turn")
_SKILL_SECTION = re.compile(r"^## Skill: (.+?) \(active\)$", re.M)


@dataclass(frozen=True, slots=True)
class Cost:
    what: str  # skill_catalog | skill | mcp_server | tools | memory | attachments | message | system
    name: str
    tokens: int
    how: str  # what the user can do about it


def fixed_tokens(context: BuiltContext) -> int:
    """The layers sent whatever the history, with the current turn's attachments (files attached to this message
    are sent with it; without them a 33,000-token request went to a 32,768-token window)."""
    return sum(context.breakdown.get(k, 0) for k in FIXED_LAYERS) + context.current_attachments


def costs(context: BuiltContext, specs: Sequence[ToolSpec], skills_layer: str) -> list[Cost]:
    """What takes the room, largest first."""
    listed: list[Cost] = []
    by_source: dict[str, list[ToolSpec]] = {}
    for spec in specs:
        by_source.setdefault(spec.source, []).append(spec)

    def schema_tokens(source: str) -> int:
        return estimate_tools_tokens([s.to_openai() for s in by_source.get(source, [])])

    catalog = context.breakdown.get("skill_catalog", 0) + schema_tokens("skills")
    if catalog:
        listed.append(Cost("skill_catalog", "skill catalog", catalog,
                           "disable activate_skill in the Tools tab, or remove skills you do not use"))
    sections = list(_SKILL_SECTION.finditer(skills_layer))
    for number, match in enumerate(sections):
        end = sections[number + 1].start() if number + 1 < len(sections) else len(skills_layer)
        name = match.group(1)
        tokens = estimate_text_tokens(skills_layer[match.start():end]) + schema_tokens(f"skill:{name}")
        listed.append(Cost("skill", name, tokens, f"stop using skill {name} in this session (Skills tab)"))
    for source in sorted(by_source):
        if source.startswith("mcp:"):
            listed.append(Cost("mcp_server", source[4:], schema_tokens(source),
                               f"turn off MCP server {source[4:]} (MCP tab or mcp.json)"))
    builtin = sum(schema_tokens(s) for s in by_source if not s.startswith(("mcp:", "skill:")) and s != "skills")
    if builtin:
        listed.append(Cost("tools", "built-in tools", builtin, "disable tools you do not need in the Tools tab"))
    if context.breakdown.get("memory"):
        listed.append(Cost("memory", "memory", context.breakdown["memory"], "turn memory off in Settings"))
    if context.current_attachments:
        listed.append(Cost("attachments", "attached files", context.current_attachments,
                           "attach fewer or smaller files, or put them in the workspace for the agent to read in parts"))
    if context.breakdown.get("current_turn"):
        listed.append(Cost("message", "this turn", context.breakdown["current_turn"],
                           "your message and this turn's tool results: shorten the message or split the task"))
    return sorted(listed, key=lambda c: -c.tokens)


def refusal(context: BuiltContext, specs: Sequence[ToolSpec], skills_layer: str, window: int) -> ModelError | None:
    """None when the fixed part and the current turn fit the budget (window minus the reply's reserve)."""
    # As the server counts: the context's estimate is calibrated upwards by what the server reported for earlier
    # requests (a model whose tokenizer counts twice our estimate fills the window at half of it).
    factor = max(1.0, context.estimated_tokens / context.raw_estimate) if context.raw_estimate > 0 else 1.0
    needed = math.ceil(fixed_tokens(context) * factor)
    if needed <= context.budget_tokens:
        return None
    listed = [replace(c, tokens=math.ceil(c.tokens * factor)) for c in costs(context, specs, skills_layer)]
    lines = "; ".join(f"{c.name} {c.tokens:,} tokens ({c.how})" for c in listed[:8])
    message = (f"Not sent: this request needs about {needed:,} tokens before any history, but the model's context "
               f"window ({window:,} tokens, less its reply reserve) leaves {context.budget_tokens:,}. "
               f"Turn something off to make room: {lines}. Your message is saved.")
    detail = json.dumps({"needed": needed, "available": context.budget_tokens, "window": window,
                         "costs": [asdict(c) for c in listed]}, ensure_ascii=False)
    return ModelError(ErrorKind.CONTEXT_TOO_LONG, message, None, detail, code="over_window",
                      params={"needed": needed, "available": context.budget_tokens, "window": window,
                              "costs": [asdict(c) for c in listed]})

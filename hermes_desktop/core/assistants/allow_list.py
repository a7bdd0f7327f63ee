"""Which tools an assistant may use: the filter on the tools a request offers, and the refusal of any other call.

Enforced in code, never by the prompt: `offered` narrows the list the model is sent (after the Tools tab, skills
and MCP have narrowed it), and `refusal` is asked again for every call the model makes, before the call is
prepared or the user is asked (core/agent.py `call_guard`), so a model that calls a tool it was not offered (or
that the instructions talk it into) gets a structured refusal, and the approval rules still apply to what is left.

Rules, by a tool's source (ToolSpec.source):
- built-in tools: kept when named in `assistant.tools`. Memory tools only with memory on; `read_more` (pages a long
  result already given) and `search_knowledge` always, whatever the list says.
- `skills` (activate_skill, read_skill_resource, find_skills): when the assistant may use at least one skill;
  activate_skill / read_skill_resource of a skill outside its list is refused.
- `skill:<name>`: the skill is in `assistant.skills`.
- `mcp:<server>`: the server is in `assistant.mcp_servers`.
`None` (Hermes) keeps everything in that group. An assistant never adds a tool: what the user disabled stays off.

Why `search_knowledge` is outside the list: the allow list is the user's boundary on what an assistant can do, and
this tool does nothing but read, and reads only the knowledge bases the session uses — ones the user attached to
the conversation or listed in this assistant's own knowledge field (core/knowledge/service.py `session_bases`).
The same bases' passages already reach the model through the Retrieval layer every turn, so withholding the tool
keeps nothing from the model; it only stops the model searching further in what the user chose to give it. So
the knowledge service alone decides: the tool is offered whenever the session uses a base (by either route) and
never otherwise, and a call in a session without bases is refused by the tool itself. The user can still switch it
off everywhere in the Tools tab (disabled tools are removed before any of this).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from hermes_desktop.core.assistants.model import Assistant
from hermes_desktop.core.tools.spec import ToolSpec

MEMORY_TOOLS = frozenset({"remember", "recall", "forget"})
KNOWLEDGE_TOOL = "search_knowledge"
ALWAYS = frozenset({"read_more"})
SKILL_TOOLS_NAMING_A_SKILL = frozenset({"activate_skill", "read_skill_resource"})


def allows(assistant: Assistant, name: str, source: str) -> bool:
    """Whether `assistant` may use the tool `name` from `source` (see the module docstring)."""
    if name in MEMORY_TOOLS and source == "builtin":
        return assistant.memory  # memory on: its tools come with it (the memory settings still apply)
    if name in ALWAYS or name == KNOWLEDGE_TOOL:  # search_knowledge: offered by the session's bases (see above)
        return True
    if source == "skills":
        return assistant.skills is None or bool(assistant.skills)
    if source.startswith("skill:"):
        return assistant.skills is None or source[6:] in assistant.skills
    if source.startswith("mcp:"):
        return assistant.mcp_servers is None or source[4:] in assistant.mcp_servers
    return assistant.tools is None or name in assistant.tools


def offered(assistant: Assistant, specs: Iterable[ToolSpec]) -> list[ToolSpec]:
    return [spec for spec in specs if allows(assistant, spec.name, spec.source)]


def refusal(assistant: Assistant, name: str, source: str | None, arguments: Mapping[str, Any] | None) -> str | None:
    """Why a call must not run for this assistant, or None. `source` None: no such tool (the registry says so)."""
    shown = assistant.name
    if source is not None and not allows(assistant, name, source):
        return (f"the assistant {shown!r} may not use the tool {name!r}; it was not offered. Use only the tools "
                "you were given, or tell the user this assistant cannot do it.")
    if name in SKILL_TOOLS_NAMING_A_SKILL and assistant.skills is not None and isinstance(arguments, Mapping):
        skill = arguments.get("name")
        if isinstance(skill, str) and skill not in assistant.skills:
            return f"the assistant {shown!r} may not use the skill {skill!r}."
    return None

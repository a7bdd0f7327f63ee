"""What a skill's `tools.py` imports: the `@tool` decorator.

    from hermes_desktop.skill_api import tool

    @tool(risk="read", timeout=20)
    def word_count(path: str, ctx) -> dict:
        '''Count the words of a text file in the workspace.'''
        text = ctx.workspace.resolve(path).read_text(encoding="utf-8")
        return {"words": len(text.split())}

Parameters become the tool's JSON schema from their type hints (str, int, float, bool,
list[...], dict, Literal[...]; a default makes a parameter optional). A parameter named
`ctx` receives the ToolContext (session id, workspace, notes folder): use
`ctx.workspace.resolve(path)` for every path, so the workspace rules hold for skill
tools too. The docstring is the description the model reads. Risk is "read", "write" or
"destructive" (anything else counts as destructive); writes go through approvals.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
MARK = "__hermes_tool__"


def tool(*, risk: str = "read", timeout: float = 30.0, name: str | None = None,
         description: str | None = None) -> Callable[[F], F]:
    def mark(function: F) -> F:
        setattr(function, MARK, {"risk": risk, "timeout": timeout, "name": name, "description": description})
        return function

    return mark

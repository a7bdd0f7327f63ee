"""Turn a trusted skill's `tools.py` into ToolSpecs (see hermes_desktop/skill_api.py for authors).

Only called for bundled skills and skills the user trusted (core/skills/trust.py): importing a
module runs its code.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
import types
import typing
from typing import Any, Callable, Literal, get_args, get_origin

from hermes_desktop.core.skills.model import Skill
from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolSpec
from hermes_desktop.skill_api import MARK

_SIMPLE = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object", list: "array"}


def schema_for(annotation: Any) -> dict[str, Any]:
    origin = get_origin(annotation)
    if origin is Literal:
        return {"enum": list(get_args(annotation))}
    if origin in (typing.Union, types.UnionType):
        options = [a for a in get_args(annotation) if a is not type(None)]
        return schema_for(options[0]) if len(options) == 1 else {}
    if origin in (list, tuple):
        args = get_args(annotation)
        return {"type": "array", "items": schema_for(args[0])} if args else {"type": "array"}
    if origin is dict:
        return {"type": "object"}
    return {"type": _SIMPLE[annotation]} if annotation in _SIMPLE else {}


def spec_from_function(function: Callable[..., Any], skill: Skill) -> ToolSpec:
    options = getattr(function, MARK)
    hints = typing.get_type_hints(function)
    signature = inspect.signature(function)
    properties: dict[str, Any] = {}
    required: list[str] = []
    wants_ctx = False
    for name, parameter in signature.parameters.items():
        if name == "ctx":
            wants_ctx = True
            continue
        properties[name] = schema_for(hints.get(name, str))
        if parameter.default is inspect.Parameter.empty:
            required.append(name)
    is_async = inspect.iscoroutinefunction(function)

    def handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return function(**args, **({"ctx": ctx} if wants_ctx else {}))

    async def async_handler(args: dict[str, Any], ctx: ToolContext) -> Any:
        return await function(**args, **({"ctx": ctx} if wants_ctx else {}))

    return ToolSpec(
        name=options.get("name") or function.__name__,
        description=options.get("description") or inspect.cleandoc(function.__doc__ or "") or function.__name__,
        parameters={"type": "object", "properties": properties, "required": required, "additionalProperties": False},
        handler=async_handler if is_async else handler,
        risk=Risk.parse(options.get("risk")),
        timeout_s=float(options.get("timeout") or 30.0),
        source=skill.source,
        blocking=not is_async,
    )


def load_tools(skill: Skill) -> list[ToolSpec]:
    """Import tools.py and return its @tool functions as specs. Raises on a broken module."""
    path = skill.folder / "tools.py"
    module_name = f"hermes_skill_tools.{skill.name.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    # Compiled from the source itself, never from __pycache__: trust hashes tools.py, not its cached bytecode, and
    # Python would run a planted .pyc whose header matches the source's size and time instead of the source.
    code = compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    sys.modules[module_name] = module
    try:
        exec(code, module.__dict__)  # noqa: S102 - the skill's own trusted tools.py
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return [spec_from_function(value, skill) for value in vars(module).values()
            if callable(value) and hasattr(value, MARK)]


def imported(skill: Skill) -> bool:
    return f"hermes_skill_tools.{skill.name.replace('-', '_')}" in sys.modules


def forget(skill_name: str) -> None:
    sys.modules.pop(f"hermes_skill_tools.{skill_name.replace('-', '_')}", None)



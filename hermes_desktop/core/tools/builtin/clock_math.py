"""get_current_time and calculate: small, read-only, and safe on any input."""

from __future__ import annotations

import ast
import math
import operator
from datetime import datetime
from typing import Any, Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolError, ToolSpec

MAX_EXPRESSION_LENGTH = 500
MAX_RESULT_DIGITS = 10_000
MAX_FACTORIAL = 1_000


def get_current_time(args: dict[str, Any], ctx: ToolContext) -> dict[str, str]:
    name = (args.get("timezone") or "").strip()
    if name:
        try:
            zone: Any = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ToolError(f"unknown time zone {name!r}; use an IANA name such as 'Asia/Shanghai' or 'UTC'") from exc
        now = datetime.now(zone)
    else:
        now = datetime.now().astimezone()
    return {
        "iso": now.isoformat(timespec="seconds"),
        "weekday": now.strftime("%A"),
        "timezone": name or str(now.tzinfo),
        "utc_offset": now.strftime("%z"),
    }


def current_time_tool() -> ToolSpec:
    return ToolSpec(
        name="get_current_time",
        description="Current date and time, in the user's local time zone or in a given IANA time zone.",
        parameters={
            "type": "object",
            "properties": {"timezone": {"type": "string", "description": "IANA name, e.g. 'Europe/Paris'. Empty: local."}},
            "additionalProperties": False,
        },
        handler=get_current_time,
        risk=Risk.READ,
        timeout_s=5,
    )


_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
}
_UNARY: dict[type, Callable[[Any], Any]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sqrt": math.sqrt, "abs": abs, "round": round, "floor": math.floor, "ceil": math.ceil,
    "log": math.log, "log10": math.log10, "log2": math.log2, "exp": math.exp,
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin, "acos": math.acos, "atan": math.atan,
    "min": min, "max": max, "factorial": math.factorial,
}
_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}


def evaluate(expression: str) -> int | float:
    """Arithmetic on numbers only, by walking the syntax tree: never eval, no names but a few functions."""
    text = expression.strip().replace("^", "**").replace("×", "*").replace("÷", "/")
    if not text:
        raise ToolError("the expression is empty")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ToolError(f"the expression is longer than {MAX_EXPRESSION_LENGTH} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ToolError(f"not an arithmetic expression: {exc.msg}") from exc
    try:
        return _eval(tree.body)
    except ZeroDivisionError as exc:
        raise ToolError("division by zero") from exc
    except OverflowError as exc:
        raise ToolError("the result is too large") from exc
    except (ValueError, TypeError) as exc:
        raise ToolError(f"cannot compute that: {exc}") from exc


def _eval(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow):
            _check_power(left, right)
        result = _BINARY[type(node.op)](left, right)
        if isinstance(result, complex):
            raise ToolError("the result is not a real number")
        return result
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand))
    if isinstance(node, ast.Name) and node.id in _CONSTANTS:
        return _CONSTANTS[node.id]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and not node.keywords:
        args = [_eval(a) for a in node.args]
        if node.func.id == "factorial" and (not args or not isinstance(args[0], int) or args[0] > MAX_FACTORIAL):
            raise ToolError(f"factorial needs a whole number up to {MAX_FACTORIAL}")
        return _FUNCTIONS[node.func.id](*args)
    raise ToolError(f"only numbers, + - * / // % ** and {', '.join(sorted(_FUNCTIONS))} are allowed")


def _check_power(base: Any, exponent: Any) -> None:
    if abs(base) <= 1:
        return
    digits = abs(exponent) * math.log10(abs(base))
    if digits > MAX_RESULT_DIGITS:
        raise ToolError(f"refused: the result would have about {digits:,.0f} digits (limit {MAX_RESULT_DIGITS:,})")


def _format(value: int | float) -> str:
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(round(value, 12))
    return str(value)


def calculate(args: dict[str, Any], ctx: ToolContext) -> dict[str, str]:
    expression = str(args["expression"])
    return {"expression": expression, "result": _format(evaluate(expression))}


def calculate_tool() -> ToolSpec:
    return ToolSpec(
        name="calculate",
        description="Evaluate an arithmetic expression exactly, e.g. '(12+34)*5' or 'sqrt(2)*pi'. Use it instead of mental math.",
        parameters={
            "type": "object",
            "properties": {"expression": {"type": "string", "description": "Numbers, + - * / // % ** ( ), sqrt, log, sin, pi, e"}},
            "required": ["expression"],
            "additionalProperties": False,
        },
        handler=calculate,
        risk=Risk.READ,
        timeout_s=5,
    )

"""Tools of the test MCP server that ask the client something back: elicitation (a form, a URL), sampling, roots.

Registered only with `python -m tests.support.mcp_server --client-features`, so the server's usual tool list (which
other tests count) stays as it was. Each tool returns what the client answered, as JSON, so tests can check exactly
what went back over the wire.
"""

from __future__ import annotations

import json
from typing import Any

from mcp import types
from mcp.server import MCPServer
from mcp.server.mcpserver import Context

READ = types.ToolAnnotations(read_only_hint=True)

# Every kind of field a form must handle (spec 2025-11-25): formats, ranges, titled and untitled enums, lists.
FORM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Your name", "description": "As it should appear on the badge",
                 "minLength": 2, "maxLength": 40},
        "email": {"type": "string", "format": "email", "title": "Email"},
        "homepage": {"type": "string", "format": "uri", "title": "Homepage"},
        "start": {"type": "string", "format": "date", "title": "Start date"},
        "seats": {"type": "integer", "minimum": 1, "maximum": 10, "default": 2, "title": "Seats"},
        "budget": {"type": "number", "minimum": 0.5, "maximum": 99.5, "title": "Budget"},
        "newsletter": {"type": "boolean", "default": True, "title": "Newsletter"},
        "size": {"type": "string", "enum": ["s", "m", "l"], "title": "Size"},
        "colour": {"type": "string", "title": "Colour",
                   "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
        "topics": {"type": "array", "title": "Topics", "minItems": 1, "maxItems": 2,
                   "items": {"anyOf": [{"const": "ai", "title": "AI"}, {"const": "db", "title": "Databases"},
                                       {"const": "ui", "title": "Interfaces"}]}},
    },
    "required": ["name", "email", "seats", "size"],
}

roots_changes = 0


def register(server: MCPServer) -> None:
    @server.tool(annotations=READ)
    async def ask_form(ctx: Context, schema: str = "", message: str = "") -> str:
        """Ask the user to fill in a form (elicitation); returns the answer as JSON."""
        requested = json.loads(schema) if schema else FORM_SCHEMA
        result = await ctx.session.elicit_form(message or "Please register for the workshop.", requested,
                                               ctx.request_id)
        return json.dumps({"action": result.action, "content": result.content}, sort_keys=True)

    @server.tool(annotations=READ)
    async def ask_url(ctx: Context, url: str) -> str:
        """Ask the user to open a web page (URL-mode elicitation); returns the answer as JSON."""
        result = await ctx.session.elicit_url("Sign in to the test service.", url, "el-1", ctx.request_id)
        return json.dumps({"action": result.action, "content": result.content}, sort_keys=True)

    @server.tool(annotations=READ)
    async def sample(ctx: Context, prompt: str, max_tokens: int = 200, system: str = "") -> str:
        """Ask the client's model (sampling); returns the reply, or the error, as JSON."""
        try:
            result = await ctx.session.create_message(
                [types.SamplingMessage(role="user", content=types.TextContent(type="text", text=prompt))],
                max_tokens=max_tokens, system_prompt=system or None,
                model_preferences=types.ModelPreferences(hints=[types.ModelHint(name="claude-haiku")],
                                                         speed_priority=0.8),
                related_request_id=ctx.request_id)
        except Exception as exc:  # noqa: BLE001 - the client's refusal is what the test looks at
            return json.dumps({"error": str(exc), "code": getattr(getattr(exc, "error", None), "code", None)})
        return json.dumps({"text": result.content.text, "model": result.model, "stop_reason": result.stop_reason})

    @server.tool(annotations=READ)
    async def ask_then_withdraw(ctx: Context, after_s: float = 1.0) -> str:
        """Ask a question and give up waiting for the answer after `after_s` seconds (the request is cancelled)."""
        import anyio

        with anyio.move_on_after(after_s):
            result = await ctx.session.elicit_form(
                "Quick question?", {"type": "object", "properties": {"x": {"type": "string"}}}, ctx.request_id)
            return json.dumps({"action": result.action})
        return json.dumps({"action": "withdrawn"})

    @server.tool(annotations=READ)
    async def flood_sampling(ctx: Context, count: int = 20) -> str:
        """Send `count` sampling requests at once (a hostile server); returns how each ended, as JSON."""
        import anyio

        outcomes: list[str] = []

        async def one(n: int) -> None:
            try:
                result = await ctx.session.create_message(
                    [types.SamplingMessage(role="user", content=types.TextContent(type="text", text=f"flood {n}"))],
                    max_tokens=10, related_request_id=ctx.request_id)
                outcomes.append("sent:" + result.content.text)
            except Exception as exc:  # noqa: BLE001 - the client's answer is what the test looks at
                outcomes.append("error:" + str(exc))

        async with anyio.create_task_group() as group:
            for n in range(count):
                group.start_soon(one, n)
        return json.dumps(sorted(outcomes))

    @server.tool(annotations=READ)
    async def show_roots(ctx: Context) -> str:
        """The roots the client announces, and how many roots/list_changed notifications arrived."""
        result = await ctx.session.list_roots()
        return json.dumps({"roots": [{"uri": str(r.uri), "name": r.name} for r in result.roots],
                           "changes": roots_changes})

    @server.tool(annotations=READ)
    def client_capabilities(ctx: Context) -> str:
        """What the client declared at initialize."""
        caps = ctx.client_capabilities
        return json.dumps(caps.model_dump(by_alias=True, exclude_none=True, mode="json") if caps else None,
                          sort_keys=True)

    async def on_roots_changed(ctx: Any, params: Any) -> None:
        global roots_changes
        roots_changes += 1

    server._lowlevel_server.add_notification_handler(  # MCPServer has no decorator for client notifications
        "notifications/roots/list_changed", types.NotificationParams, on_roots_changed)

"""MCP tools as Hermes tools: names, risk, and results the model can read.

- Name: `mcp_<server>_<tool>`, sanitised to `[A-Za-z0-9_-]` and at most 64 characters (ARCHITECTURE.md);
  a name cut short ends with a short hash of the full one, so two long names cannot collide.
- Risk from the tool's annotations, failing closed as the MCP spec's defaults do: `readOnlyHint` true is
  read; `destructiveHint` false is write; anything else (no annotations at all included) is destructive.
  Annotations are the server's claims, so they only ever lower the risk of a server the user configured.
- Source `mcp:<server>`, with the server's command or URL as the source detail: an "always allow" rule
  stops applying when the server behind the name changes.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from hermes_desktop.core.tools.spec import Risk

MAX_NAME = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def tool_name(server: str, tool: str) -> str:
    full = _UNSAFE.sub("_", f"mcp_{server}_{tool}")
    if len(full) <= MAX_NAME:
        return full
    digest = hashlib.sha256(full.encode("utf-8")).hexdigest()[:8]
    return full[: MAX_NAME - 9] + "_" + digest


def risk_of(annotations: Any) -> Risk:
    if annotations is None:
        return Risk.DESTRUCTIVE
    if getattr(annotations, "read_only_hint", None) is True:
        return Risk.READ
    if getattr(annotations, "destructive_hint", None) is False:
        return Risk.WRITE
    return Risk.DESTRUCTIVE


def parameters_of(input_schema: Any) -> dict[str, Any]:
    schema = dict(input_schema) if isinstance(input_schema, dict) else {}
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    return schema


def render_blocks(blocks: list[Any]) -> list[str]:
    """Content blocks as text: text as it is, embedded text resources by their text, anything else described."""
    parts: list[str] = []
    for block in blocks:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(block.text)
        elif kind == "resource":
            resource = block.resource
            parts.append(getattr(resource, "text", None) or f"[resource {resource.uri}]")
        elif kind == "resource_link":
            parts.append(f"[resource link {block.uri}]")
        else:
            mime = getattr(block, "mime_type", "") or ""
            parts.append(f"[{kind or 'unknown'} content{(' ' + mime) if mime else ''} not shown]")
    return parts


def render_result(result: Any) -> str:
    """A CallToolResult as text: its blocks joined, or its structured content as JSON when it has no blocks."""
    parts = render_blocks(getattr(result, "content", None) or [])
    structured = getattr(result, "structured_content", None)
    if structured is not None and not parts:
        parts.append(json.dumps(structured, ensure_ascii=False))
    return "\n".join(parts)

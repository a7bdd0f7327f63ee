"""fetch_url: read a public web page as text (guarded against SSRF, see tools/network.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from hermes_desktop.core.tools.network import fetch
from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolSpec


async def fetch_url(args: dict[str, Any], ctx: ToolContext) -> str:
    page = await asyncio.to_thread(fetch, args["url"], ctx.network)
    max_chars = int(args.get("max_chars") or 20_000)
    text = page.text[:max_chars]
    cut = len(page.text) - len(text)
    header = [f"URL: {page.url}", f"Status: {page.status}"]
    if page.title:
        header.insert(0, f"Title: {page.title}")
    notes = []
    if page.truncated:
        notes.append("the page was larger than the download limit; only its beginning was read")
    if cut:
        notes.append(f"{cut:,} more characters not shown (raise max_chars to see more)")
    return "\n".join(header) + "\n\n" + text + ("\n\n[" + "; ".join(notes) + "]" if notes else "")


def fetch_url_tool() -> ToolSpec:
    return ToolSpec(
        name="fetch_url",
        description="Download a public web page (http/https) and return its readable text. "
        "Private, loopback and link-local addresses are refused.",
        parameters={
            "type": "object",
            "properties": {
                "url": {"type": "string", "description": "http:// or https:// URL"},
                "max_chars": {"type": "integer", "minimum": 500, "maximum": 100_000},
            },
            "required": ["url"],
            "additionalProperties": False,
        },
        handler=fetch_url,
        risk=Risk.READ,
        timeout_s=30,
        blocking=False,
    )

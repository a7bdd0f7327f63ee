"""fetch_url: read a public web page as text (guarded against SSRF, see tools/network.py).

The download runs on the bounded tool executor (core/executors.py) and stops itself within the
network policy's total deadline; a Stop or the tool's timeout also cancels its `Transfer`, which
shuts the socket so the worker thread returns at once instead of reading on.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hermes_desktop.core.executors import run_tool_thread
from hermes_desktop.core.tools.network import Transfer, fetch
from hermes_desktop.core.tools.spec import Impact, Risk, ToolContext, ToolSpec


async def fetch_url(args: dict[str, Any], ctx: ToolContext) -> str:
    transfer = Transfer(ctx.network)
    try:
        page = await run_tool_thread(fetch, args["url"], ctx.network, transfer)
    except asyncio.CancelledError:
        transfer.cancel()
        raise
    max_chars = int(args.get("max_chars") or 20_000)
    text = page.text[:max_chars]
    cut = len(page.text) - len(text)
    header = [f"URL: {page.url}", f"Status: {page.status}"]
    if page.title:
        header.insert(0, f"Title: {page.title}")
    notes = []
    if page.stopped:
        notes.append(f"the download was cut off ({page.stopped}); only its beginning was read")
    elif page.truncated:
        notes.append("the page was larger than the download limit; only its beginning was read")
    if cut:
        notes.append(f"{cut:,} more characters not shown (raise max_chars to see more)")
    return "\n".join(header) + "\n\n" + text + ("\n\n[" + "; ".join(notes) + "]" if notes else "")


def _fetch_precheck(args: dict[str, Any], ctx: ToolContext) -> Impact:
    """Shown when a read is asked about (the "always ask" mode): the page it will download."""
    url = str(args.get("url", ""))
    return Impact(f"will download {url}", code="fetch", params={"url": url})


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
        precheck=_fetch_precheck,
        risk=Risk.READ,
        timeout_s=30,
        blocking=False,
    )

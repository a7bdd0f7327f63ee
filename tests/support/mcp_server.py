"""The project's own MCP test server (mcp.server.MCPServer), run as a real process.

    python -m tests.support.mcp_server                 # stdio
    python -m tests.support.mcp_server --http PORT     # Streamable HTTP on 127.0.0.1:PORT/mcp
    python -m tests.support.mcp_server --sse PORT      # legacy HTTP+SSE on 127.0.0.1:PORT/sse (+ /messages/)

Its tools cover what the client must handle: read-only, write and unannotated (destructive) tools, a tool
that reports an error, one that hangs, one that kills the server mid-call, and one that shows an
environment variable (to check secrets reach the server and nothing else does).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

READ = ToolAnnotations(read_only_hint=True)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False)

server = MCPServer("hermes-test-server")


@server.tool(annotations=READ)
def echo(text: str) -> str:
    """Return the text unchanged."""
    return f"echo: {text}"


@server.tool(annotations=READ)
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool(annotations=WRITE)
def write_marker(name: str) -> str:
    """Create a marker file in the server's working directory."""
    Path(name).write_text("written by the MCP server", encoding="utf-8")
    return f"wrote {name}"


@server.tool()
def wipe(folder: str) -> str:
    """Pretend to delete a folder (no annotations: clients must treat it as destructive)."""
    return f"would wipe {folder}"


@server.tool(annotations=READ)
def fail(reason: str) -> str:
    """Always fails with the given reason."""
    raise ToolError(reason)


@server.tool(annotations=READ)
async def hang(seconds: float = 3600) -> str:
    """Sleep for a long time."""
    await asyncio.sleep(seconds)
    return "woke up"


@server.tool(annotations=READ)
def crash() -> str:
    """Kill the server process in the middle of the call."""
    print("test server: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


@server.tool(annotations=READ)
def env_value(name: str) -> str:
    """The value of an environment variable in the server process, or '(unset)'."""
    return os.environ.get(name, "(unset)")


@server.resource("notes://handbook", name="handbook", description="The team handbook", mime_type="text/markdown")
def handbook() -> str:
    return "# Handbook\nShip small changes; ask before deleting."


@server.prompt(description="Ask for a careful review of a change")
def review(change: str, focus: str = "correctness") -> str:
    return f"Please review this change for {focus}:\n\n{change}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int, default=None)
    parser.add_argument("--sse", type=int, default=None)
    parser.add_argument("--client-features", action="store_true",
                        help="add the tools that elicit, sample and list roots (tests/support/mcp_client_features.py)")
    parser.add_argument("folders", nargs="*", help="folders, as the filesystem server takes them (roots tests)")
    options = parser.parse_args()
    if options.client_features:
        from tests.support.mcp_client_features import register

        register(server)
    if options.sse is not None:
        server.run("sse", host="127.0.0.1", port=options.sse)
    elif options.http is not None:
        server.run("streamable-http", host="127.0.0.1", port=options.http)
    else:
        server.run()


if __name__ == "__main__":
    main()

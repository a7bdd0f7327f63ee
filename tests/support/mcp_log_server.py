"""A small real MCP server (stdio) that writes to its stderr when asked, for the MCP tab's live log view.

    python -m tests.support.mcp_log_server

Its one tool, `say(text)`, prints the text to stderr (which the app copies into `mcp/<server>.log`) while the
server keeps running, so a test can watch a line arrive in the log view of a live server.
"""

from __future__ import annotations

import sys

from mcp.server import MCPServer
from mcp.types import ToolAnnotations

server = MCPServer("hermes-log-server")


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def say(text: str) -> str:
    """Write the text as one line on the server's stderr."""
    print(text, file=sys.stderr, flush=True)
    return "said"


if __name__ == "__main__":
    print("log server: ready", file=sys.stderr, flush=True)
    server.run()

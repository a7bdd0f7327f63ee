"""MCP servers as tool sources: `mcp.json`, one supervisor task per server, tools bridged into the registry."""

"""Two MCP tools whose names are the same once made safe (`get.data` and `get_data` both become
`mcp_clash_get_data`): the second is not offered, and that is said on the server's card and in `mcp list`,
not only in the log. A real MCP server process (stdio) and the real command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from tests.support.cli import hermes

SERVER = """
from mcp.server import MCPServer
from mcp.types import ToolAnnotations
server = MCPServer("clash")
@server.tool(name="get.data", annotations=ToolAnnotations(read_only_hint=True))
def dotted() -> str:
    \"\"\"The dotted one.\"\"\"
    return "dotted"
@server.tool(name="get_data", annotations=ToolAnnotations(read_only_hint=True))
def underscored() -> str:
    \"\"\"The underscored one.\"\"\"
    return "underscored"
server.run()
"""


def test_a_tool_whose_safe_name_clashes_is_named_in_mcp_list(tmp_path: Path, env: dict[str, str]) -> None:
    script = tmp_path / "clash_server.py"
    script.write_text(SERVER, encoding="utf-8")
    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"clash": {"command": sys.executable, "args": [str(script)]}}}),
                      encoding="utf-8")
    result = hermes("mcp", "list", env=env)
    assert "tools: mcp_clash_get_data" in result.stdout, result.stdout + result.stderr
    assert "NOT offered, their names clash with another tool's after sanitising: get_data (as mcp_clash_get_data)" \
        in result.stdout, result.stdout


def test_the_servers_card_names_the_tool_that_was_not_offered(qtbot) -> None:
    from hermes_desktop.core.mcp.status import ServerState, ServerStatus
    from hermes_desktop.ui.mcp_panel import HTML_ROLE, McpPanel

    panel = McpPanel()
    qtbot.addWidget(panel)
    status = ServerStatus("clash", ServerState.CONNECTED, "1 tools", ("mcp_clash_get_data",), target="python s.py",
                          skipped_tools=(("get\x1b[2K_data", "mcp_clash_get_data"),))
    panel.show_servers([status], [])
    item = panel.servers.item(0)
    assert "Not offered to the model, their names clash with another tool's once made safe: get\\x1b[2K_data (as " \
           "mcp_clash_get_data)" in item.text()
    assert "get\\x1b[2K_data" in item.data(HTML_ROLE) and "\x1b" not in item.data(HTML_ROLE)

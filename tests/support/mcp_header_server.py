"""The project's MCP test server over Streamable HTTP, recording what each request carried.

    python -m tests.support.mcp_header_server PORT LOGFILE

Every HTTP request's method, path and Authorization header are appended to LOGFILE as one JSON line, before
the MCP server sees it, so a test can check both what a server received and that nothing was sent at all.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import uvicorn

from tests.support.mcp_server import server


def main() -> None:
    port, log_file = int(sys.argv[1]), Path(sys.argv[2])
    app = server.streamable_http_app(host="127.0.0.1")

    async def recording(scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            with log_file.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps({"method": scope["method"], "path": scope["path"],
                                         "authorization": headers.get("authorization")}) + "\n")
        await app(scope, receive, send)

    uvicorn.run(recording, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()

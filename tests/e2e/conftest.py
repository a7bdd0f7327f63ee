"""What the command-line tests share: a scripted model server and an environment pointing `hermes-desktop` at it.

A test module that needs a different server (test_cli.py's demo model) defines its own `server` fixture."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from tests.support.cli import cli_env
from tests.support.model_server import ScriptedModelServer

CLI_KEY = "sk-cli-test-key-0123456789"


@pytest.fixture
def server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer() as scripted:
        yield scripted


@pytest.fixture
def env(server: ScriptedModelServer, workspace_dir: Path) -> dict[str, str]:
    return cli_env(server.base_url, workspace_dir, CLI_KEY)

"""Shared fixtures. Every test runs with its own empty home (XDG directories) and no HERMES_* settings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hermes_desktop.core.settings import ProviderProfile  # noqa: E402
from tests.support.model_server import ScriptedModelServer  # noqa: E402


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    for name, sub in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"),
                      ("XDG_CACHE_HOME", "cache")):
        (home / sub).mkdir(parents=True)
        monkeypatch.setenv(name, str(home / sub))
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(home / "Documents"))
    for name in ("HERMES_BASE_URL", "HERMES_MODEL", "HERMES_API_KEY", "HERMES_WORKSPACE", "OPENAI_API_KEY",
                 "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def workspace_dir(tmp_path: Path) -> Path:
    path = tmp_path / "workspace"
    path.mkdir()
    return path


@pytest.fixture
def model_server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer() as server:
        yield server


@pytest.fixture
def profile(model_server: ScriptedModelServer) -> ProviderProfile:
    return ProviderProfile(id="test", name="Test", base_url=model_server.base_url, model="scripted-model",
                           request_timeout_s=5.0, context_window=32_768, max_output_tokens=1024)

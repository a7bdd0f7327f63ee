"""Where Hermes Desktop keeps its files: the one place that asks platformdirs.

The names are a contract (ARCHITECTURE.md): application `hermes-desktop`, author
`Hermes`. On Linux the directories follow XDG_DATA_HOME, XDG_CONFIG_HOME and
XDG_STATE_HOME, which is also how tests point the app at a temporary home.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "hermes-desktop"
APP_AUTHOR = "Hermes"


@dataclass(frozen=True, slots=True)
class AppPaths:
    """The directories of one installation, and the files the contract places in them."""

    data_dir: Path
    config_dir: Path
    log_dir: Path
    documents_dir: Path

    @property
    def database(self) -> Path:
        return self.data_dir / "hermes.db"

    @property
    def user_skills_dir(self) -> Path:
        return self.data_dir / "skills"

    @property
    def knowledge_dir(self) -> Path:
        """Knowledge bases, one SQLite file each, and their registry (core/knowledge/registry.py)."""
        return self.data_dir / "knowledge"

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def mcp_config_file(self) -> Path:
        return self.config_dir / "mcp.json"

    @property
    def app_log(self) -> Path:
        return self.log_dir / "hermes.log"

    @property
    def audit_log(self) -> Path:
        return self.log_dir / "audit.jsonl"

    @property
    def mcp_log_dir(self) -> Path:
        return self.log_dir / "mcp"

    @property
    def trusted_skills_file(self) -> Path:
        return self.config_dir / "trusted_skills.json"

    @property
    def default_workspace(self) -> Path:
        return self.documents_dir / "Hermes Workspace"


def app_paths() -> AppPaths:
    """Resolve the platform directories now (environment changes are honoured per call)."""
    return AppPaths(
        data_dir=platformdirs.user_data_path(APP_NAME, APP_AUTHOR),
        config_dir=platformdirs.user_config_path(APP_NAME, APP_AUTHOR),
        log_dir=platformdirs.user_log_path(APP_NAME, APP_AUTHOR),
        documents_dir=platformdirs.user_documents_path(),
    )


def bundled_skills_dir() -> Path:
    """The skills shipped with the app: the repository's top-level `skills/` folder (a bundle built by
    packaging/ places it next to the package the same way)."""
    return Path(__file__).resolve().parents[2] / "skills"


def resources_dir() -> Path:
    """Icons, translations and screenshots: the repository's top-level `resources/` (placed the same way in a
    bundle)."""
    return Path(__file__).resolve().parents[2] / "resources"


def claude_skills_dir() -> Path:
    """~/.claude/skills: Claude Code's personal skills folder (read only when the setting claude_skills is on)."""
    return Path.home() / ".claude" / "skills"


def agents_skills_dir() -> Path:
    """~/.agents/skills: where Agent Skills–compatible clients share skills."""
    return Path.home() / ".agents" / "skills"


def ensure_dir(path: Path) -> Path:
    """Create a private directory (0700 where the platform has modes) if it is missing."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path

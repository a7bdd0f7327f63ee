"""Real SQLite stores for tests, in the test's own temporary data directory."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hermes_desktop.core.paths import AppPaths, app_paths
from hermes_desktop.core.store import OpenedStore, open_store

FIXTURES = Path(__file__).resolve().parents[1] / "core" / "fixtures"


def data_paths() -> AppPaths:
    return app_paths()  # XDG_* point into the test's tmp dir (tests/conftest.py)


def open_test_store() -> OpenedStore:
    return open_store(data_paths())


def write_v1_database(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.executescript((FIXTURES / "hermes_v1.sql").read_text(encoding="utf-8"))
    db.close()

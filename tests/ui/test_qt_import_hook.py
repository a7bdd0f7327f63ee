"""PySide6's import hook inspects every module imported after it; a library whose module `__getattr__` imports
more of itself (pydantic, under openai and mcp) could fail its own import that way: the window died at start.

The package below does what pydantic does, in three lines: `errors` answers unknown attributes by importing
`_validators`, which imports `errors` while it is itself half imported. Each case runs in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

IMPORTER = """
import sys
sys.path[:0] = [{root!r}, {packages!r}]
from PySide6 import QtCore  # installs shiboken's import hook
if {guarded}:
    from hermes_desktop import qt_import_hook
    assert qt_import_hook.guard(), "the hook was not found in this PySide6"
import lazy_pkg._validators
print("imported", lazy_pkg._validators.thing)
"""


@pytest.fixture
def packages(tmp_path: Path) -> Path:
    package = tmp_path / "lazy_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "errors.py").write_text(
        "class LazyError(Exception):\n    pass\n\n\n"
        "def __getattr__(name):\n    if name == '__path__':  # pydantic's getattr_migration answers this one at once\n"
        "        raise AttributeError(name)\n"
        "    from lazy_pkg._validators import thing  # and imports more of itself for anything else\n"
        "    raise AttributeError(name)\n")
    (package / "_validators.py").write_text("from lazy_pkg.errors import LazyError\n\nthing = 42\n")
    return tmp_path


def run_importer(packages: Path, *, guarded: bool) -> subprocess.CompletedProcess[str]:
    code = IMPORTER.format(root=str(ROOT), packages=str(packages), guarded=guarded)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})


def test_without_pyside6_such_a_package_imports(packages: Path) -> None:
    code = f"import sys; sys.path[:0] = [{str(packages)!r}]; import lazy_pkg._validators as v; print('imported', v.thing)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "imported 42", result.stderr


def test_without_the_guard_pysides_hook_fails_such_an_import(packages: Path) -> None:
    """The failure the guard exists for, shown on this PySide6 (if a release fixes it, this test says so)."""
    result = run_importer(packages, guarded=False)
    assert result.returncode != 0 and "partially initialized module 'lazy_pkg._validators'" in result.stderr


def test_with_the_guard_the_import_goes_on(packages: Path) -> None:
    result = run_importer(packages, guarded=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "imported 42"

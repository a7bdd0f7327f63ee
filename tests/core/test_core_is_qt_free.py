"""The core must not import Qt, directly or through another module (the UI is a thin layer on top)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_core_module_imports_qt_even_indirectly() -> None:
    script = textwrap.dedent(
        """
        import importlib, json, pkgutil, sys
        for banned in ("PySide6", "shiboken6", "qasync"):
            sys.modules[banned] = None  # any import of it now raises ImportError
        import hermes_desktop.core as core
        checked, failures = [], []
        for module in pkgutil.walk_packages(core.__path__, "hermes_desktop.core."):
            checked.append(module.name)
            try:
                importlib.import_module(module.name)
            except ImportError as exc:
                failures.append(f"{module.name}: {exc}")
        loaded = [m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "qasync") and sys.modules[m]]
        print(json.dumps({"checked": checked, "failures": failures, "loaded": loaded}))
        """
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["failures"] == [] and report["loaded"] == [], f"core modules pull in Qt: {report}"
    on_disk = {p for p in (ROOT / "hermes_desktop" / "core").rglob("*.py") if p.name != "__init__.py"}
    assert len(report["checked"]) >= len(on_disk), "the walk must import every core module"

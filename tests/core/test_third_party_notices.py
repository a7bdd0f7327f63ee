"""The bundle carries a licence for everything it ships: every runtime dependency of hermes-desktop has a row in
packaging/licenses/THIRD_PARTY_NOTICES.md whose files exist, Qt's LGPL and its notice are there, the project has
its MIT LICENSE, and the PyInstaller spec puts them all in the bundle."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LICENSES = ROOT / "packaging" / "licenses"


def _collector():
    spec = importlib.util.spec_from_file_location("collect_licenses", LICENSES / "collect.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows() -> dict[str, list[str]]:
    rows = {}
    for line in (LICENSES / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("Package", "---"):
            rows[re.sub(r"[-_.]+", "-", cells[0]).lower()] = [f.strip() for f in cells[3].split(",")]
    return rows


def test_every_runtime_dependency_has_its_licence_in_the_bundle() -> None:
    rows = _rows()
    missing = sorted(set(_collector().runtime_closure()) - set(rows))
    assert not missing, f"no licence notice for {missing}: run packaging/licenses/collect.py"
    for name, files in rows.items():
        for file in files:
            assert (LICENSES / file).is_file(), f"{name}: {file} is missing"


def test_qt_is_shipped_under_the_lgpl_with_its_notice() -> None:
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in (LICENSES / "qt" / "LGPL-3.0.txt").read_text()
    assert "GNU GENERAL PUBLIC LICENSE" in (LICENSES / "qt" / "GPL-3.0.txt").read_text()
    assert "replace them" in (LICENSES / "qt" / "NOTICE.md").read_text()
    assert _rows()["pyside6-essentials"] == ["qt/NOTICE.md", "qt/LGPL-3.0.txt", "qt/GPL-3.0.txt"]


def test_the_project_licence_and_the_notices_go_into_the_bundle() -> None:
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License") and "Hermes Desktop contributors" in licence
    spec = (ROOT / "packaging" / "pyinstaller" / "hermes-desktop.spec").read_text()
    for needle in ('ROOT / "LICENSE"', '"THIRD_PARTY_NOTICES.md"', '"qt"', '"third_party"'):
        assert needle in spec

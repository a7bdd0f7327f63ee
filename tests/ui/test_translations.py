"""Simplified Chinese: every UI string is translated, the shipped .qm is compiled from the .ts, and the window
speaks Chinese when the language setting asks for it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton

from hermes_desktop.core.paths import app_paths, resources_dir
from hermes_desktop.ui.i18n import effective_language, install_translations

ROOT = Path(__file__).resolve().parents[2]
TS = resources_dir() / "translations" / "hermes_zh_CN.ts"
QM = resources_dir() / "translations" / "hermes_zh_CN.qm"
PLACEHOLDER = re.compile(r"\{[0-9]+[^}]*\}|%p%|\$\{[^}]+\}")


def qt_tool(name: str) -> str:
    found = shutil.which(f"pyside6-{name}", path=str(Path(sys.executable).parent)) or shutil.which(f"pyside6-{name}")
    assert found, f"pyside6-{name} ships with PySide6"
    return found


def test_every_ui_string_has_a_translation_with_the_same_placeholders(tmp_path: Path) -> None:
    fresh = tmp_path / "check.ts"
    shutil.copy(TS, fresh)
    sources = sorted(str(p) for p in (ROOT / "hermes_desktop" / "ui").rglob("*.py"))
    subprocess.run([qt_tool("lupdate"), *sources, "-no-obsolete", "-ts", str(fresh)], check=True, capture_output=True)
    messages = list(ET.parse(fresh).getroot().iter("message"))
    assert len(messages) > 200
    untranslated = [m.findtext("source") for m in messages
                    if m.find("translation").get("type") == "unfinished" or not m.findtext("translation")]
    assert not untranslated, f"translate these (make translations): {untranslated}"
    for message in messages:
        source, translation = message.findtext("source"), message.findtext("translation")
        assert sorted(PLACEHOLDER.findall(source)) == sorted(PLACEHOLDER.findall(translation)), source


def test_the_shipped_qm_is_compiled_from_the_ts(tmp_path: Path) -> None:
    compiled = tmp_path / "check.qm"
    subprocess.run([qt_tool("lrelease"), str(TS), "-qm", str(compiled)], check=True, capture_output=True)
    assert compiled.read_bytes() == QM.read_bytes(), "run `make translations` after editing the .ts"


def test_the_language_setting() -> None:
    assert effective_language("zh_CN") == "zh_CN" and effective_language("en", "zh_CN") == "en"
    assert effective_language("system", "zh_TW") == "zh_CN" and effective_language("system", "de_DE") == "en"


@pytest.fixture
def chinese(qapp):
    config = app_paths().config_dir
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({"language": "zh_CN"}), encoding="utf-8")
    yield
    install_translations(qapp, "en")


def test_the_window_speaks_chinese_when_the_setting_says_so(chinese, make_window) -> None:
    h = make_window()
    assert h.window.findChild(QPushButton, "sendButton").text() == "发送"
    tabs = [h.window.inspector.tabText(i) for i in range(h.window.inspector.count())]
    assert tabs == ["工具", "技能", "MCP", "活动", "记忆", "知识库", "助手"]
    assert h.window.inspector.tools.topLevelItem(0) is not None

#!/usr/bin/env python3
"""Apply docs/glossary.md to the finished translations in hermes_zh_CN.ts, then compile the .qm.

Usage (from the repository root): .venv/bin/python resources/translations/apply_glossary.py [--check]
--check only lists what would change (exit 1 if anything would). Holds an exclusive lock on
$HERMES_TS_LOCK (default /tmp/hermes_helpers/ts.lock when that folder exists), the lock other
translation scripts hold, because several people may fill the .ts at the same time.

The rules are word replacements (one word per concept) and full-width punctuation next to Chinese text;
tests/ui/test_chinese_ui.py checks that no forbidden variant is left.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "resources/translations/hermes_zh_CN.ts"
QM = ROOT / "resources/translations/hermes_zh_CN.qm"
BIN = ROOT / ".venv/bin"

# Sources where "allow" is an approval decision (批准), not a permitted value (允许的最小值).
_APPROVAL = re.compile(r"\bAllow\b|[Aa]lways allow|[Nn]ever allow|allowed this tool|allowed for this|allowed once")
_CJK = "\u3400-\u9fff\uf900-\ufaff"

# (source filter or None, old, new), applied in order.
RULES: list[tuple[Callable[[str], bool] | None, str, str]] = [
    (None, "会话", "对话"),
    (None, "系统钥匙串", "系统密钥环"),
    (None, "安全的钥匙串", "安全的系统密钥环"),
    (None, "钥匙串", "系统密钥环"),
    (None, "分叉", "分支"),
    (None, "总是", "始终"),
    (None, "提供商", "服务商"),
    (lambda source: "identity provider" not in source, "提供方", "服务商"),
    (None, "词元", "Token"),
    (None, "检查器", "右侧面板"),
    (None, "无痕", "不用记忆"),
    (None, "吊销", "撤销"),
    (None, "推理", "思考"),
    (None, "破坏性", "危险"),
    (None, "试运行", "模拟运行"),
    (None, "演练", "模拟运行"),
    (None, "基础网址", "基础 URL"),
    (lambda source: source == "read", "读取", "只读"),  # the risk level, as on the approval dialog
    (lambda source: bool(_APPROVAL.search(source)), "允许", "批准"),
]

_HALF = {",": "，", ":": "：", ";": "；", "?": "？", "!": "！"}


def full_width(text: str) -> str:
    """ASCII punctuation touching Chinese becomes full-width; brackets around Chinese too. Keeps Qt's mnemonic
    "(&F)", file filters "(*.json)", placeholders, URLs and code."""
    for half, full in _HALF.items():
        text = re.sub(rf"(?<=[{_CJK}]){re.escape(half)}(?=\s|$|[{_CJK}“”])", full, text)
    text = re.sub(rf"\(((?!&|\*)[^()]*[{_CJK}][^()]*)\)", r"（\1）", text)
    return text


def apply(source: str, translation: str) -> str:
    for applies, old, new in RULES:
        if old in translation and (applies is None or applies(source)):
            translation = translation.replace(old, new)
    # a model's token is "Token" ("150 个 Token", as Cherry Studio writes it); max_tokens and {tokens} are data
    translation = re.sub(rf"(?<=[{_CJK}（]) ?(?<![A-Za-z0-9_{{])tokens?(?![\w}}]) ?(?=[{_CJK}）；，。]|$)", "Token",
                         translation)
    translation = re.sub(rf"(?<=[{_CJK}])(?=Token)|(?<=Token)(?=[{_CJK}])", " ", translation)  # 150 个 Token
    translation = re.sub(rf"基础 URL(?=[{_CJK}])", "基础 URL ", translation)  # a space between Latin and Chinese
    return full_width(translation)


@contextlib.contextmanager
def ts_lock() -> Iterator[None]:
    default = "/tmp/hermes_helpers/ts.lock" if Path("/tmp/hermes_helpers").is_dir() else str(ROOT / ".ts.lock")
    with open(os.environ.get("HERMES_TS_LOCK", default), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def main(argv: list[str]) -> int:
    check = "--check" in argv
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "hermes_desktop/ui").rglob("*.py"))
    with ts_lock():
        tree = ET.ElementTree(ET.fromstring(TS.read_text(encoding="utf-8")))
        changed = []
        for message in tree.getroot().iter("message"):
            tr = message.find("translation")
            if tr is None or not tr.text:
                continue
            new = apply(message.findtext("source") or "", tr.text)
            if new != tr.text:
                changed.append((tr.text, new))
                tr.text = new
        for old, new in changed:
            print(f"{old}\n  -> {new}")
        if check or not changed:
            return 1 if changed and check else 0
        body = ET.tostring(tree.getroot(), encoding="unicode")
        TS.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")
        subprocess.run([str(BIN / "pyside6-lupdate"), *files, "-no-obsolete", "-ts", str(TS)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run([str(BIN / "pyside6-lrelease"), str(TS), "-qm", str(QM)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

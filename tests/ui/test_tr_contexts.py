"""lupdate files `obj.tr("…")` under a context named after the variable (`obj`), while at run time `tr` looks the
text up under the object's class name: such a string is never translated. Only `self.tr(…)` inside the class, or
`QCoreApplication.translate("Class", …)` with the context written out, keep the two in step."""

from __future__ import annotations

import re
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "hermes_desktop" / "ui"
FOREIGN_TR = re.compile(r"\b(?!self\b)[A-Za-z_][A-Za-z0-9_]*\.tr\(")


def test_no_tr_call_on_another_object() -> None:
    found = [f"{path.relative_to(UI)}:{number}: {line.strip()}"
             for path in sorted(UI.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if FOREIGN_TR.search(line)]
    assert not found, found

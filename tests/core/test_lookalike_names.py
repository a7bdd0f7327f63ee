"""Two files named `café.txt`, one NFC and one NFD, look the same: list_directory marks both with their escaped
forms, and an approval that names one of them says another looks the same (core/tools/lookalike.py). Real files
in a real workspace; the real registry prepares the calls."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from hermes_desktop.core.llm.assembly import RawToolCall
from hermes_desktop.core.tools.builtin import builtin_tools
from hermes_desktop.core.tools.network import NetworkPolicy
from hermes_desktop.core.tools.registry import ToolRegistry
from hermes_desktop.core.tools.spec import ToolContext
from hermes_desktop.core.tools.workspace import Workspace

NFC = unicodedata.normalize("NFC", "café.txt")
NFD = unicodedata.normalize("NFD", "café.txt")


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    root = tmp_path / "ws"
    root.mkdir()
    try:
        (root / NFC).write_text("the original")
        (root / NFD).write_text("the look-alike")
    except OSError:
        pytest.skip("this filesystem normalises names (both are one file here)")
    if len(list(root.iterdir())) != 2:
        pytest.skip("this filesystem normalises names (both are one file here)")
    (root / "plain.txt").write_text("x")
    return ToolContext("s", Workspace(root), NetworkPolicy(), root / "notes")


def test_list_directory_marks_both_look_alikes_with_their_escaped_forms(ctx: ToolContext) -> None:
    registry = ToolRegistry(builtin_tools())
    listing = registry.get("list_directory").handler({"path": "."}, ctx)
    lines = listing.splitlines()
    assert any(line.startswith(f"  {NFC}  ") and "written caf\\u00e9.txt]" in line for line in lines), listing
    assert any(line.startswith(f"  {NFD}  ") and "written cafe\\u0301.txt]" in line for line in lines), listing
    assert not any("plain.txt" in line and "looks like" in line for line in lines)


def test_an_approval_for_one_look_alike_says_another_looks_the_same(ctx: ToolContext, qapp) -> None:
    registry = ToolRegistry(builtin_tools())
    call = registry.prepare(RawToolCall("c1", "delete_path", json.dumps({"path": NFD})), ctx)
    assert "another name in this folder looks the same" in (call.impact or "")
    assert "this one is written cafe\\u0301.txt, the other caf\\u00e9.txt" in (call.impact or "")
    from hermes_desktop.ui import words

    shown = words.impact_text(call.impact_code, call.impact_params, call.impact, tool="delete_path")
    assert "Note: another name in this folder looks the same" in shown and "cafe\\u0301.txt" in shown
    plain = registry.prepare(RawToolCall("c2", "delete_path", json.dumps({"path": "plain.txt"})), ctx)
    assert "looks the same" not in (plain.impact or "")


def test_writing_a_new_file_whose_name_looks_like_an_existing_one_says_so(ctx: ToolContext, tmp_path: Path) -> None:
    (ctx.workspace.root / NFD).unlink()
    registry = ToolRegistry(builtin_tools())
    call = registry.prepare(RawToolCall("c1", "write_file", json.dumps({"path": NFD, "content": "new"})), ctx)
    assert "will create" in (call.impact or "") and "looks the same" in (call.impact or "")

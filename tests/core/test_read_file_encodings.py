"""read_file decodes as attachments and knowledge bases do (core/documents/text.py `decode_text`), and says the
encoding it guessed (issue 21: a German cp1252 file came back as "M黱chen", labelled only ", gb18030")."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from hermes_desktop.core.tools.builtin import builtin_tools
from hermes_desktop.core.tools.network import NetworkPolicy
from hermes_desktop.core.tools.spec import ToolContext, ToolError
from hermes_desktop.core.tools.workspace import Workspace

GERMAN = ("Die Straßenbahn in München fährt über die Brücke. Grüße aus Köln, schöne Größe, Äpfel und Öl.\n"
          "Übermorgen ist Sitzung im Rathaus; bitte die Unterlagen für Herrn Müller mitbringen.\n") * 3
CHINESE = "这是一个用国标编码保存的中文文本文件，内容关于数据库索引和全文检索。\n" * 4
JAPANESE = "これはシフトJISで保存された日本語のテキストファイルです。会議の議事録と予定表が含まれています。\n" * 4


@pytest.fixture
def ctx(workspace_dir: Path) -> ToolContext:
    return ToolContext("s", Workspace(workspace_dir), NetworkPolicy(), workspace_dir / "notes")


def _read(ctx: ToolContext, name: str, data: bytes, **args: object) -> str:
    (ctx.workspace.root / name).write_bytes(data)
    spec = next(tool for tool in builtin_tools() if tool.name == "read_file")
    return spec.handler({"path": name, **args}, ctx)


def test_a_cp1252_german_file_reads_as_german_and_says_the_guess(ctx: ToolContext) -> None:
    out = _read(ctx, "brief.txt", GERMAN.encode("cp1252"))
    header, note, first = out.splitlines()[:3]
    assert header.startswith("brief.txt, cp1252 (lines 1-6 of 6)"), header
    assert note == "[Not UTF-8: read as cp1252 (detected).]"
    assert first == GERMAN.splitlines()[0] and "M黱chen" not in out


def test_gb18030_chinese_and_shift_jis_japanese_are_detected_and_said(ctx: ToolContext) -> None:
    out = _read(ctx, "中文.txt", CHINESE.encode("gb18030"))
    assert out.splitlines()[:3] == ["中文.txt, gb18030 (lines 1-4 of 4)", "[Not UTF-8: read as gb18030 (detected).]",
                                    CHINESE.splitlines()[0]]
    out = _read(ctx, "議事録.txt", JAPANESE.encode("shift_jis"))
    header, note, first = out.splitlines()[:3]
    assert header.startswith("議事録.txt, ") and note.startswith("[Not UTF-8: read as ") and "(detected).]" in note
    assert any(name in note for name in ("shift_jis", "cp932")), note
    assert first == JAPANESE.splitlines()[0]


def test_utf16_with_a_bom_is_read_by_its_bom_without_a_guess(ctx: ToolContext) -> None:
    out = _read(ctx, "export.csv", codecs.BOM_UTF16_LE + "Name;Stadt\nMüller;München\n".encode("utf-16-le"))
    assert out == "export.csv, utf-16 (lines 1-2 of 2)\nName;Stadt\nMüller;München"


def test_utf8_reads_exactly_as_before_with_or_without_a_bom(ctx: ToolContext) -> None:
    text = "Grüße, 你好\nline two\n"
    assert _read(ctx, "plain.txt", text.encode("utf-8")) == "plain.txt (lines 1-2 of 2)\nGrüße, 你好\nline two"
    assert _read(ctx, "bom.txt", codecs.BOM_UTF8 + text.encode("utf-8")) == \
        "bom.txt (lines 1-2 of 2)\nGrüße, 你好\nline two"
    assert _read(ctx, "plain.txt", text.encode("utf-8"), offset=0, limit=5) == \
        "plain.txt (characters 0-5 of 19; 14 more: continue with offset=5)\nGrüße"


def test_a_guessed_encoding_is_said_on_a_page_by_characters_too(ctx: ToolContext) -> None:
    out = _read(ctx, "brief.txt", GERMAN.encode("cp1252"), offset=10, limit=20)
    assert out.splitlines()[1] == "[Not UTF-8: read as cp1252 (detected).]"
    assert out.splitlines()[2] == GERMAN[10:30]


def test_binary_and_undetectable_files_are_refused_saying_why(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match=r"^blob.bin is a binary file, not text$"):
        _read(ctx, "blob.bin", b"\x89PNG\x00\x00binary")
    with pytest.raises(ToolError, match=r"^noise.dat is not UTF-8, and its encoding could not be detected$"):
        _read(ctx, "noise.dat", bytes([1, 2, 3, 4, 5, 6, 7, 8, 0x80, 0xFF] * 300))  # no NUL, no encoding fits

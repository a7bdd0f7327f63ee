"""What the import says it wrote: one whole sentence per case (never "server(s)"), and in Chinese when the window
is. The sentences used to be `dialog.tr(…)` in a module function, which lupdate filed under a context named
"dialog" that the running McpImportDialog never looks up: they stayed English in the Chinese window."""

from __future__ import annotations

from hermes_desktop.ui.dialogs.mcp_import import _imported_text
from hermes_desktop.ui.i18n import install_translations


def test_each_case_is_one_sentence_in_english(qapp) -> None:
    install_translations(qapp, "en")
    assert _imported_text(1, 0) == "Imported 1 new MCP server."
    assert _imported_text(3, 0) == "Imported 3 new MCP servers."
    assert _imported_text(0, 1) == "Replaced 1 MCP server."
    assert _imported_text(0, 2) == "Replaced 2 MCP servers."
    assert _imported_text(2, 1) == "Imported MCP servers: 2 new, 1 replaced."


def test_the_sentences_are_chinese_in_the_chinese_window(qapp) -> None:
    install_translations(qapp, "zh_CN")
    try:
        assert _imported_text(1, 0) == "已导入 1 个新的 MCP 服务器。"
        assert _imported_text(2, 1) == "已导入 MCP 服务器：新增 2 个，替换 1 个。"
    finally:
        install_translations(qapp, "en")

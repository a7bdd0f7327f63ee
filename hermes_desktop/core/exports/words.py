"""The words an exported file carries (headings, labels), in English and Simplified Chinese.

The window's words live in Qt's .ts catalogue, which the Qt-free core cannot read; exports are written by the core
(and by `sessions export` on a terminal), so their few words are here, one table per language: a file is written
in the language asked for, whatever language the process speaks (core/i18n.py), and the window asks for its own.
`language` is the app's setting ("en", "zh_CN", or "system": then the environment's LANGUAGE / LC_ALL / LANG decide).
Markdown (core/storage/transfer.py), Word and Obsidian use the same table.
"""

from __future__ import annotations

from hermes_desktop.core.i18n import resolve_language

EN = {
    "untitled": "Untitled session", "you": "You", "assistant": "Hermes", "summary": "Summary", "note": "Note",
    "created": "Created {0}", "model": "model {0}", "messages": "{0} messages", "thinking": "Thinking",
    "thought_for": "Thought for {0} s", "tool_call": "Tool call: {0}", "arguments": "Arguments", "result": "Result",
    "no_result": "(no result)", "attached": "Attached: {0}", "interrupted": "(interrupted)",
    "exported": "Exported from Hermes Desktop on {0}", "index": "Hermes sessions", "written_by": "written by {0}",
    "result_label": "Result:", "note_message": "Note (a {0} message, not sent to the model)",
    "sources": "Sources", "page": "page {0}",
}
ZH = {
    "untitled": "未命名对话", "you": "你", "assistant": "Hermes", "summary": "摘要", "note": "备注",
    "created": "创建于 {0}", "model": "模型 {0}", "messages": "{0} 条消息", "thinking": "思考",
    "thought_for": "已思考（用时 {0} 秒）", "tool_call": "工具调用：{0}", "arguments": "参数", "result": "结果",
    "no_result": "（无结果）", "attached": "附件：{0}", "interrupted": "（已中断）",
    "exported": "由 Hermes Desktop 导出于 {0}", "index": "Hermes 对话", "written_by": "由 {0} 撰写",
    "result_label": "结果：", "note_message": "备注（一条 {0} 消息，未发给模型）",
    "sources": "来源", "page": "第 {0} 页",
}


def export_words(language: str | None) -> dict[str, str]:
    return ZH if resolve_language(language) == "zh_CN" else EN

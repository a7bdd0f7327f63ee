"""Export and import: exact JSON round trip, the original design's files, Markdown, and no keys in any export."""

from __future__ import annotations

import json

import pytest

from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.storage.transfer import ImportProblem, export_json, export_markdown, import_file
from tests.support.stores import open_test_store

CALLS = [{"id": "c1", "type": "function", "function": {"name": "calculate", "arguments": '{"expression": "(12+34)*5"}'}}]


def populate(store) -> None:
    store.create_session("trip", title="去杭州的计划")
    store.append_message("trip", NewMessage("user", "(12+34)*5 是多少？"))
    store.append_message("trip", NewMessage("assistant", "我来算一下。", tool_calls=CALLS, finish_reason="tool_calls", tokens=9))
    store.append_message("trip", NewMessage("tool", '{"result": "230"}', tool_call_id="c1", name="calculate"))
    store.append_message("trip", NewMessage("assistant", "等于 **230**。", finish_reason="stop"))
    second = store.append_message("trip", NewMessage("user", "再乘以二"))
    store.append_message("trip", NewMessage("assistant", "46", finish_reason="interrupted", interrupted=True))
    store.edit_user_message(second, "再乘以二，谢谢")  # a second branch; the old one is kept
    store.append_message("trip", NewMessage("assistant", "460", finish_reason="stop"))
    store.set_pinned("trip", True)
    store.add_usage("trip", 100, 20)


def test_json_export_import_export_is_identical(monkeypatch, tmp_path) -> None:
    first = open_test_store().store
    populate(first)
    exported = export_json(first, "trip")
    first.close()
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):  # an empty profile
        monkeypatch.setenv(name, str(tmp_path / "other" / name))
    second = open_test_store().store
    result = import_file(second, exported)
    assert (result.session_id, result.messages, result.renamed_from) == ("trip", 8, None)
    assert export_json(second, "trip") == exported
    assert [m.content for m in second.messages("trip")][-2:] == ["再乘以二，谢谢", "460"]
    second.close()


def test_importing_an_id_that_exists_gets_a_new_id_and_says_so() -> None:
    store = open_test_store().store
    populate(store)
    result = import_file(store, export_json(store, "trip"))
    assert result.renamed_from == "trip" and result.session_id != "trip"
    assert [m.content for m in store.messages(result.session_id)] == [m.content for m in store.messages("trip")]
    store.close()


def test_imports_the_original_design_session_file() -> None:
    store = open_test_store().store
    legacy = {
        "session_id": "legacy-1", "model": "gpt-4o", "created_at": "2025-03-01T10:00:00Z", "updated_at": 1740823300,
        "metadata": {"tags": ["work"]},
        "messages": [
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": "List my files"},
            {"role": "assistant", "content": None, "tool_calls": CALLS},
            {"role": "tool", "tool_call_id": "c1", "content": "a.txt"},
            {"role": "assistant", "content": [{"type": "text", "text": "You have a.txt"}]},
        ],
    }
    result = import_file(store, json.dumps(legacy))
    assert result.session_id == "legacy-1" and result.messages == 5
    messages = store.messages("legacy-1")
    assert [m.role for m in messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert messages[2].tool_calls == CALLS and messages[-1].content == "You have a.txt"
    info = store.get_session("legacy-1")
    assert info.model == "gpt-4o" and info.title == "List my files" and info.created_at == 1740823200.0
    store.close()


@pytest.mark.parametrize("text", ["not json", "[]", '{"hello": 1}', '{"format": "hermes-desktop.session", "version": 99}'])
def test_bad_files_are_refused_with_a_reason(text: str) -> None:
    store = open_test_store().store
    with pytest.raises(ImportProblem):
        import_file(store, text)
    assert store.list_sessions() == []
    store.close()


def test_markdown_reads_as_a_document_with_tool_calls_collapsed() -> None:
    store = open_test_store().store
    populate(store)
    text = export_markdown(store, "trip")
    assert text.startswith("# 去杭州的计划\n")
    assert "## You\n\n(12+34)*5 是多少？" in text and "<details>" in text and "<code>calculate</code>" in text
    assert '"expression": "(12+34)*5"' in text and '{"result": "230"}' in text
    assert text.count("## Hermes") == 2, "one heading per reply, not per tool round"
    assert "*(interrupted)*" not in text and "\n46\n" not in text, "only the active branch"
    store.close()


def test_exports_never_contain_keys() -> None:
    store = open_test_store().store
    store.create_session("s")
    store.append_message("s", NewMessage("user", "my key is sk-proj-ABCDEFGHIJKLMNOP1234 and my-own-secret-value"))
    for exporter in (export_json, export_markdown):
        text = exporter(store, "s", known_secrets=["my-own-secret-value"])
        assert "sk-proj-ABCDEFGHIJKLMNOP1234" not in text and "my-own-secret-value" not in text
        assert "[redacted]" in text
    store.close()

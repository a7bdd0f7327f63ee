"""The model that wrote each reply (issue 24, core/reply_model.py) is kept with it and travels with it: JSON export and
import (exact round trip), the Markdown export's reply heading, a fork, a sync to another device. A name from a file
or another device is cleaned where it enters the store. Real SQLite stores on disk."""

from __future__ import annotations

import json
from pathlib import Path

from hermes_desktop.core.reply_model import MAX_MODEL_NAME, clean_model_name
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.storage.transfer import export_json, export_markdown, import_file
from hermes_desktop.core.sync.target import FolderTarget
from tests.support.stores import open_test_store
from tests.support.sync_devices import Device


def two_models(store) -> None:
    store.create_session("s", title="two models")
    store.append_message("s", NewMessage("user", "hello"))
    store.append_message("s", NewMessage("assistant", "Hi.", finish_reason="stop", model="deepseek-chat"))
    store.append_message("s", NewMessage("user", "and you?"))
    store.append_message("s", NewMessage("assistant", "Hello!", finish_reason="stop", model="qwen2.5:7b*_[x]"))


def test_json_carries_each_replys_model_and_round_trips_exactly(monkeypatch, tmp_path) -> None:
    first = open_test_store().store
    two_models(first)
    exported = export_json(first, "s")
    messages = json.loads(exported)["messages"]
    assert [m.get("model") for m in messages] == [None, "deepseek-chat", None, "qwen2.5:7b*_[x]"]
    first.close()
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "other" / name))
    second = open_test_store().store
    import_file(second, exported)
    assert export_json(second, "s") == exported
    second.close()


def test_markdown_heads_each_reply_with_its_model_escaped() -> None:
    store = open_test_store().store
    two_models(store)
    text = export_markdown(store, "s")
    assert "## Hermes · deepseek-chat\n" in text
    assert "## Hermes · qwen2.5:7b\\*\\_\\[x\\]\n" in text, "a name's * _ [ ] cannot start emphasis or a link"
    chinese = export_markdown(store, "s", language="zh_CN")
    assert "· deepseek-chat\n" in chinese
    store.close()


def test_an_imported_files_model_names_are_cleaned_and_capped_and_never_given_to_other_roles() -> None:
    store = open_test_store().store
    document = {"format": "hermes-desktop-session", "version": 1, "session": {"id": "lies", "title": "t"},
                "messages": [
                    {"n": 1, "parent": None, "role": "user", "content": "q", "model": "user-model"},
                    {"n": 2, "parent": 1, "role": "assistant", "content": "a",
                     "model": "\x1b[2J\x1b]0;owned\x07real\u202e-name\n" + "y" * 5000},
                    {"n": 3, "parent": 2, "role": "user", "content": "q2"},
                    {"n": 4, "parent": 3, "role": "assistant", "content": "b", "model": {"not": "text"}},
                    {"n": 5, "parent": 4, "role": "user", "content": "q3"},
                    {"n": 6, "parent": 5, "role": "assistant", "content": "c", "model": " \t\r "}]}
    real = json.loads(export_json(_with_one(store), "one"))
    document["format"], document["version"] = real["format"], real["version"]
    result = import_file(store, json.dumps(document))
    models = [(m.role, m.model) for m in store.all_messages(result.session_id)]
    assert models[0] == ("user", None) and models[2] == ("user", None)
    role, name = models[1]
    assert role == "assistant" and name is not None and len(name) == MAX_MODEL_NAME
    assert name.startswith("real\\u202e-name yyy") and "\x1b" not in name
    assert models[3] == ("assistant", None) and models[5] == ("assistant", None)
    store.close()


def _with_one(store):
    store.create_session("one", title="one")
    store.append_message("one", NewMessage("user", "x"))
    return store


def test_a_fork_keeps_the_replies_models() -> None:
    store = open_test_store().store
    two_models(store)
    last = store.messages("s")[-1]
    fork = store.fork("s", last.id).id
    assert [m.model for m in store.messages(fork) if m.role == "assistant"] == ["deepseek-chat", "qwen2.5:7b*_[x]"]
    store.close()


def test_a_synced_reply_keeps_its_model_and_old_replies_are_not_sent_again(tmp_path: Path) -> None:
    a, b = Device(tmp_path, "desktop"), Device(tmp_path, "laptop")
    (tmp_path / "remote").mkdir()
    remote = FolderTarget(tmp_path / "remote")
    try:
        a.chat("old", "from before v11")  # replies without a model: their bodies are as any older version sent them
        a.sync(remote)
        a.store.append_message("old", NewMessage("user", "new question"))
        a.store.append_message("old", NewMessage("assistant", "new answer", finish_reason="stop",
                                                 model="\x1b[31mgpt-4o"))
        assert a.sync(remote).uploaded_batches == 1
        b.sync(remote)
        assert [(m.content, m.model) for m in b.store.messages("old") if m.role == "assistant"] == \
            [("reply to from before v11", None), ("new answer", "gpt-4o")]
        assert a.sync(remote).uploaded_batches == 0, "nothing changed since: nothing is sent again"
    finally:
        a.close()
        b.close()


def test_clean_model_name() -> None:
    assert clean_model_name("  deepseek-reasoner ") == "deepseek-reasoner"
    assert clean_model_name("Qwen/Qwen3-235B-A22B") == "Qwen/Qwen3-235B-A22B"
    assert clean_model_name("\x9b31mred\x9b0m") == "red"
    assert clean_model_name("") is None and clean_model_name(None) is None and clean_model_name(7) is None

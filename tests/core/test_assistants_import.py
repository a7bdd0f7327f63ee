"""Importing assistants (core/assistants/imports.py): our JSON, Cherry Studio's subscription list, NextChat masks;
from a file and from a URL on a real local HTTP server behind fetch_url's guard; into real SQLite on disk.
Nothing is granted silently, and a bad file says where it is wrong and saves nothing."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

from hermes_desktop.core.assistants import imports
from hermes_desktop.core.assistants.model import Assistant, AssistantFormatError
from hermes_desktop.core.assistants.store import AssistantStore, NameTaken
from tests.support.stores import open_test_store


def cherry_list(count: int) -> list[dict]:
    """Shaped like Cherry Studio's agents.json: id, name, emoji, group (a list), prompt, description."""
    return [{"id": str(i), "name": f"助手 {i}", "emoji": "🧑‍💼", "group": ["职业", "写作"],
             "prompt": f"你是第 {i} 号助手。" + "请认真回答。" * 20, "description": f"第 {i} 号"} for i in range(count)]


@pytest.fixture
def store() -> Iterator[AssistantStore]:
    opened = open_test_store()
    yield AssistantStore(opened.store)
    opened.store.close()


def test_300_cherry_studio_assistants_import_in_one_transaction(store) -> None:
    plan = imports.read_import(json.dumps(cherry_list(300), ensure_ascii=False).encode("utf-8"), source="agents.json")
    assert plan.format == imports.CHERRY and len(plan.items) == 300 and not plan.requests_tools
    saved = plan.apply(store)
    assert len(saved) == 300 == len(store.mine())
    first = store.get("助手 0")
    assert first.instructions.startswith("你是第 0 号助手") and first.group == "职业, 写作" and first.emoji == "🧑‍💼"
    assert first.tools == () and first.skills == () and first.mcp_servers == () and first.origin == "imported"


def test_importing_the_same_list_twice_renames_instead_of_overwriting(store) -> None:
    data = json.dumps(cherry_list(2))
    imports.read_import(data).apply(store)
    again = imports.read_import(data).apply(store)
    assert [a.name for a in again] == ["助手 0 (2)", "助手 1 (2)"]
    assert len(store.mine()) == 4


@pytest.mark.parametrize("broken, place", [
    ([{"name": "ok", "prompt": "p"}, {"name": "no prompt"}], "[1].prompt"),
    ([{"name": "ok", "prompt": "p"}, {"name": 5, "prompt": "p"}], "[1].name"),
    ([{"name": "ok", "prompt": "p"}, "just text"], "[1]"),
    ([{"name": "x", "prompt": "p", "group": [1, 2]}], "[0].group"),
    ([{"name": "x" * 500, "prompt": "p"}], "[0].name"),
])
def test_a_malformed_cherry_list_says_where_and_saves_nothing(store, broken, place) -> None:
    with pytest.raises(AssistantFormatError) as caught:
        imports.read_import(json.dumps(broken))
    assert caught.value.place == place and place in str(caught.value)
    assert store.mine() == []


def test_not_json_names_the_line_and_column() -> None:
    with pytest.raises(AssistantFormatError) as caught:
        imports.read_import(b'[{"name": "a",\n  "prompt": oops}]')
    assert caught.value.place == "line 2, column 13"
    with pytest.raises(AssistantFormatError, match="not UTF-8"):
        imports.read_import(b"\xff\xfe[")
    with pytest.raises(AssistantFormatError, match="too large"):
        imports.read_import(b" " * (imports.MAX_IMPORT_BYTES + 1))
    with pytest.raises(AssistantFormatError, match="not an assistants file"):
        imports.read_import(b'{"hello": 1}')


def test_our_format_round_trips_and_requested_tools_need_a_yes(store) -> None:
    mine = store.save(Assistant(id="", name="Reader", emoji="📖", instructions="Read carefully.",
                                tools=("read_file", "list_directory"), skills=("pdf",), mcp_servers=("files",),
                                temperature=0.4, knowledge=("handbook",), starters=("Read a.txt",)))
    exported = imports.export_json([mine])
    store.delete(mine.id)
    plan = imports.read_import(exported)
    assert plan.format == imports.HERMES_FORMAT and plan.requests_tools
    assert plan.items[0].requested == ("read_file", "list_directory", "skill:pdf", "mcp:files")
    without = plan.apply(store)[0]
    assert without.tools == () and without.skills == () and without.mcp_servers == ()
    assert without.temperature == 0.4 and without.knowledge == ("handbook",) and without.starters == ("Read a.txt",)
    granted = imports.read_import(exported).apply(store, grant_tools=True)[0]
    assert granted.tools == ("read_file", "list_directory") and granted.name == "Reader (2)"


def test_a_file_cannot_ask_for_every_tool() -> None:
    data = {"format": "hermes-assistants", "version": 1,
            "assistants": [{"name": "All", "instructions": "x", "tools": "all"}]}
    with pytest.raises(AssistantFormatError) as caught:
        imports.read_import(json.dumps(data))
    assert caught.value.place == "assistants[0].tools"


@pytest.mark.parametrize("field, value, place", [
    ("parameters", {"temperature": 9}, "assistants[0].parameters.temperature"),
    ("parameters", {"top_p": "high"}, "assistants[0].parameters.top_p"),
    ("parameters", {"reasoning_effort": "max"}, "assistants[0].parameters.reasoning_effort"),
    ("parameters", {"max_output_tokens": 0}, "assistants[0].parameters.max_output_tokens"),
    ("memory", "yes", "assistants[0].memory"),
    ("tools", ["read_file", 3], "assistants[0].tools[1]"),
    ("starters", [""], "assistants[0].starters[0]"),
])
def test_a_bad_field_in_our_format_names_its_place(field, value, place) -> None:
    data = {"format": "hermes-assistants", "version": 1, "assistants": [{"name": "A", "instructions": "x", field: value}]}
    with pytest.raises(AssistantFormatError) as caught:
        imports.read_import(json.dumps(data))
    assert caught.value.place == place


def test_a_nextchat_mask_becomes_an_assistant_with_its_prompt_and_parameters(store) -> None:
    mask = {"id": "abc", "avatar": "1f916", "name": "文案写手", "lang": "cn", "builtin": False,
            "context": [{"id": "1", "role": "system", "content": "你是一位文案写手。", "date": ""},
                        {"id": "2", "role": "user", "content": "写一句口号", "date": ""},
                        {"id": "3", "role": "assistant", "content": "好的！", "date": ""}],
            "modelConfig": {"model": "gpt-4o", "temperature": 0.8, "top_p": 1, "max_tokens": 2000}}
    plan = imports.read_import(json.dumps(mask, ensure_ascii=False))
    assert plan.format == imports.NEXTCHAT
    saved = plan.apply(store)[0]
    assert saved.emoji == "🤖" and saved.name == "文案写手" and saved.temperature == 0.8 and saved.top_p == 1
    assert saved.max_output_tokens == 2000 and saved.instructions.startswith("你是一位文案写手。")
    assert "User: 写一句口号" in saved.instructions and saved.tools == ()
    with pytest.raises(AssistantFormatError) as caught:
        imports.read_import(json.dumps([mask, {**mask, "context": [{"role": "tool", "content": "x"}]}]))
    assert caught.value.place == "[1].context[0].role"


def test_names_clash_with_the_gallery_and_hermes(store) -> None:
    with pytest.raises(NameTaken):
        store.save(Assistant(id="", name="hermes"))
    with pytest.raises(NameTaken):
        store.save(Assistant(id="", name="周报"))
    saved = imports.read_import(json.dumps([{"name": "Translator", "prompt": "p"}])).apply(store)
    assert saved[0].name == "Translator (2)"


class _Serve(BaseHTTPRequestHandler):
    body = b""

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)


@pytest.fixture
def list_server() -> Iterator[ThreadingHTTPServer]:
    _Serve.body = json.dumps(cherry_list(3), ensure_ascii=False).encode("utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Serve)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_url_goes_through_fetch_urls_private_network_guard(store, list_server) -> None:
    url = f"http://127.0.0.1:{list_server.server_address[1]}/agents.json"
    with pytest.raises(AssistantFormatError, match="could not download"):
        imports.fetch_import(url)  # loopback is private: refused like fetch_url refuses it
    plan = imports.fetch_import(url, [f"127.0.0.1:{list_server.server_address[1]}"])  # the user allowed this host
    assert plan.format == imports.CHERRY and plan.source == url and len(plan.apply(store)) == 3
    with pytest.raises(AssistantFormatError, match="could not download"):
        imports.fetch_import("file:///etc/passwd")


def test_names_lose_controls_and_bidi_overrides(store) -> None:
    hostile = [{"name": "Trans\u202elator\x1b[2J", "emoji": "\u202e🌐", "prompt": "p\u202eq",
                "description": "line\rtwo\u2066"}]
    saved = imports.read_import(json.dumps(hostile)).apply(store)[0]
    assert saved.name == "Translator [2J" or saved.name == "Translator[2J"
    assert "\u202e" not in saved.name + saved.emoji + saved.description and "\r" not in saved.description
    assert saved.instructions == "p\u202eq", "instructions are the model's text, kept as written"
    with pytest.raises(AssistantFormatError) as caught:
        imports.read_import(json.dumps([{"name": "\u202e\u202c", "prompt": "p"}]))
    assert caught.value.place == "[0].name"

"""An assistant's knowledge bases in real turns: the real runtime (open_runtime + make_agent), the real openai client
against the scripted model server over HTTP, real SQLite (hermes.db and each base's file), real files indexed.

The user's story (Cherry Studio's): they give an assistant a knowledge base; every chat with that assistant gets the
base's passages and may search it, with whatever they attached in the chat on top; switching to another assistant
stops it from the next message; a base removed later is skipped, the chat goes on; and an assistant whose tool list
does not name search_knowledge still searches the bases the user attached."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from hermes_desktop.core import events as ev
from hermes_desktop.core.assistants.model import Assistant
from hermes_desktop.core.knowledge.service import TOOL_NAME
from hermes_desktop.core.knowledge.sync import sync_base
from tests.core.test_assistants import READ_ONLY, ask, choose, mine, runtime, save_profile
from tests.support.engine import of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply


def make_base(made, tmp_path: Path, name: str, files: dict[str, str]) -> None:
    folder = tmp_path / f"folder-{len(list(tmp_path.glob('folder-*')))}"
    folder.mkdir()
    for file, text in files.items():
        (folder / file).write_text(text, encoding="utf-8")
    registry = made.knowledge.registry
    registry.create(name, [folder])
    with registry.open(name) as index:
        sync_base(index)


HANDBOOK = {"leave.md": "# Leave\n\nEvery employee gets twenty-five days of paid annual leave.\n"}
TRAVEL = {"visa.md": "# Visa\n\nThe visa application takes ten working days.\n"}


def tool_result(request) -> dict:
    return json.loads([m for m in request.messages if m.get("role") == "tool"][-1]["content"])


async def test_an_assistants_base_gives_passages_and_search_and_a_switch_stops_it_from_the_next_turn(
        model_server, workspace_dir, tmp_path) -> None:
    save_profile(model_server)
    made = runtime(workspace_dir)
    make_base(made, tmp_path, "Handbook", HANDBOOK)
    # Names are matched case-insensitively; the assistant's tool list does not name search_knowledge.
    hr = mine(made, Assistant(id="", name="HR helper", tools=READ_ONLY, knowledge=("handbook",), memory=False))
    plain = mine(made, Assistant(id="", name="Plain", tools=READ_ONLY, memory=False))
    choose(made, "s", hr)
    model_server.enqueue(tool_call_reply(CallScript(TOOL_NAME, {"query": "annual leave days",
                                                                "knowledge_base": "HANDBOOK"})),
                         text_reply("Twenty-five days [1]."))
    events = await ask(made, "s", "How many days of annual leave do I get?")
    assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
    first = model_server.chat_requests[0]
    assert "Passages from the user's knowledge bases" in first.system_prompt
    assert "(Handbook)" in first.system_prompt and "twenty-five days of paid annual leave" in first.system_prompt
    assert TOOL_NAME in first.tool_names and set(first.tool_names) == set(READ_ONLY) | {TOOL_NAME}
    result = tool_result(model_server.chat_requests[1])
    assert result["passages"][0]["document"].endswith("leave.md") and result["passages"][0]["citation"] == "[1]"
    assert made.knowledge.registry.session_bases("s") == [], "nothing was copied into the chat's own bases"

    choose(made, "s", plain)  # the session's assistant changes: no base from the next message on
    model_server.enqueue(text_reply("I cannot look that up."))
    await ask(made, "s", "And how many days of annual leave again?")
    after = model_server.chat_requests[-1]
    assert TOOL_NAME not in after.tool_names
    assert "Passages from the user's knowledge bases" not in after.system_prompt
    made.store.close()


async def test_the_chats_base_and_the_assistants_base_both_contribute(model_server, workspace_dir, tmp_path) -> None:
    save_profile(model_server)
    made = runtime(workspace_dir)
    make_base(made, tmp_path, "Handbook", HANDBOOK)
    make_base(made, tmp_path, "Travel", TRAVEL)
    hr = mine(made, Assistant(id="", name="HR helper", tools=READ_ONLY, knowledge=("Handbook",), memory=False))
    choose(made, "s", hr)
    made.knowledge.registry.set_session_bases("s", ["Travel"])  # what the chat's picker stores
    used = made.knowledge.session_bases("s", fresh=True)
    assert (used.attached, used.from_assistant, used.names) == (("Travel",), ("Handbook",), ["Travel", "Handbook"])
    model_server.enqueue(tool_call_reply(CallScript(TOOL_NAME, {"query": "visa working days",
                                                                "knowledge_base": "travel"})),
                         text_reply("Ten working days [2], twenty-five days of leave [1]."))
    await ask(made, "s", "How long does the visa take, and how much annual leave do I have?")
    system = model_server.chat_requests[0].system_prompt
    assert "(Travel, Handbook)" in system
    assert "ten working days" in system and "twenty-five days of paid annual leave" in system
    assert tool_result(model_server.chat_requests[1])["passages"][0]["knowledge_base"] == "Travel"
    # A base that is neither attached nor the assistant's stays out of reach of the model's search.
    make_base(made, tmp_path, "Secret", {"s.md": "The visa code word is swordfish.\n"})
    model_server.enqueue(tool_call_reply(CallScript(TOOL_NAME, {"query": "visa", "knowledge_base": "Secret"})),
                         text_reply("not mine"))
    await ask(made, "s", "visa code word?")
    refused = tool_result(model_server.chat_requests[-1])
    assert refused["status"] == "refused" and "Travel, Handbook" in refused["message"]
    assert "swordfish" not in json.dumps([r.body for r in model_server.chat_requests])
    made.store.close()


async def test_a_base_removed_after_an_assistant_named_it_is_skipped_without_an_error(
        model_server, workspace_dir, tmp_path, caplog) -> None:
    save_profile(model_server)
    made = runtime(workspace_dir)
    make_base(made, tmp_path, "Handbook", HANDBOOK)
    make_base(made, tmp_path, "Travel", TRAVEL)
    hr = mine(made, Assistant(id="", name="HR helper", tools=READ_ONLY, knowledge=("Handbook", "Travel"),
                              memory=False))
    choose(made, "s", hr)
    made.knowledge.registry.remove("Handbook")
    model_server.enqueue(text_reply("Ten working days [1]."))
    with caplog.at_level(logging.INFO, logger="hermes_desktop.core.knowledge.service"):
        events = await ask(made, "s", "How long does the visa take? And my annual leave?")
    assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
    request = model_server.chat_requests[0]
    assert "(Travel)" in request.system_prompt and "twenty-five" not in request.system_prompt
    assert TOOL_NAME in request.tool_names
    assert any("'Handbook', which does not exist" in r.getMessage() for r in caplog.records)
    assert made.knowledge.session_bases("s", fresh=True).missing == ("Handbook",)
    made.knowledge.registry.remove("Travel")  # no base left at all: no layer, no tool, still no error
    model_server.enqueue(text_reply("I do not know."))
    events = await ask(made, "s", "visa?")
    assert of_type(events, ev.TurnFinished)[-1].reason is ev.FinishReason.COMPLETED
    last = model_server.chat_requests[-1]
    assert TOOL_NAME not in last.tool_names and "Passages from the user's" not in last.system_prompt
    made.store.close()


async def test_an_allow_list_without_search_knowledge_keeps_it_for_a_base_the_user_attached(
        model_server, workspace_dir, tmp_path) -> None:
    save_profile(model_server)
    made = runtime(workspace_dir)
    make_base(made, tmp_path, "Travel", TRAVEL)
    reader = mine(made, Assistant(id="", name="Reader", tools=READ_ONLY, memory=False))
    choose(made, "s", reader)
    made.knowledge.registry.set_session_bases("s", ["Travel"])
    model_server.enqueue(tool_call_reply(CallScript(TOOL_NAME, {"query": "visa"})), text_reply("Ten days [1]."))
    events = await ask(made, "s", "How long does the visa take?")
    assert set(model_server.chat_requests[0].tool_names) == set(READ_ONLY) | {TOOL_NAME}
    finished = [e for e in of_type(events, ev.ToolCallFinished) if e.name == TOOL_NAME]
    assert finished and "refused" not in json.dumps(tool_result(model_server.chat_requests[1]))
    # Without any base the same assistant is offered nothing extra, and a call anyway is refused as not offered.
    choose(made, "other", reader)
    model_server.enqueue(tool_call_reply(CallScript(TOOL_NAME, {"query": "visa"})), text_reply("none"))
    await ask(made, "other", "visa?")
    assert set(model_server.chat_requests[-2].tool_names) == set(READ_ONLY)
    assert "unknown tool 'search_knowledge'" in tool_result(model_server.chat_requests[-1])["error"]
    made.store.close()

"""Elicitation, sampling and roots with the test MCP server as a real stdio process (`--client-features`).

The Elicitor and Sampler are scripted here: they are the injection points the window and the terminal fill, so
everything between them and the server (schema to fields, validation, the SDK callbacks, the model call, the
audit line, roots/list_changed) is the real code."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

import pytest

from hermes_desktop.core.llm import ModelClient
from hermes_desktop.core.mcp.client_features import (
    SAMPLING_MAX_TOKENS,
    ElicitAction,
    ElicitationAnswer,
    ElicitationRequest,
    FieldKind,
    ProblemCode,
    SamplingDraft,
    SamplingRequest,
    check_value,
    form_fields,
    parse_text,
)
from hermes_desktop.core.mcp.status import ServerState
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.tools.spec import ToolContext
from tests.support.mcp_client_features import FORM_SCHEMA
from tests.support.model_server import text_reply

REPO = Path(__file__).resolve().parents[2]
SETTLE_S = 30


@dataclass
class ScriptedElicitor:
    answers: list[ElicitationAnswer] = field(default_factory=list)
    asked: list[ElicitationRequest] = field(default_factory=list)

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        self.asked.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


@dataclass
class ScriptedSampler:
    """approve: whether to generate; then `reply` turns the draft into what is sent (None: refuse)."""

    approve: bool = True
    reply: Callable[[SamplingDraft], str | None] = lambda draft: draft.text
    asked: list[SamplingRequest] = field(default_factory=list)
    drafts: list[SamplingDraft] = field(default_factory=list)

    async def sample(self, request: SamplingRequest, generate: Callable[[], Awaitable[SamplingDraft]]) -> str | None:
        self.asked.append(request)
        if not self.approve:
            return None
        draft = await generate()
        self.drafts.append(draft)
        return self.reply(draft)


@pytest.fixture
def runtime(workspace_dir: Path):
    made = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=MemorySecretStore())
    yield made
    made.store.close()


async def start(runtime, name: str = "cf", folders: tuple[str, ...] = ()) -> None:
    entry = {"command": sys.executable, "args": ["-m", "tests.support.mcp_server", "--client-features", *folders],
             "cwd": str(REPO), "env": {"PYTHONPATH": str(REPO)}}
    runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {name: entry}}), encoding="utf-8")
    await runtime.mcp.reload()
    await runtime.mcp.wait_until_settled(SETTLE_S)
    assert runtime.mcp.supervisors[name].status.state is ServerState.CONNECTED, runtime.mcp.supervisors[name].status


async def call(runtime, tool: str, **args: Any) -> Any:
    spec = runtime.registry.get(f"mcp_cf_{tool}")
    assert spec is not None, tool
    ctx = ToolContext("s1", runtime.workspace, runtime.network_policy(), runtime.workspace.root / "notes")
    return json.loads(await spec.handler(args, ctx))


def audit(runtime, tool: str) -> list[dict[str, Any]]:
    return [entry for entry in runtime.audit.read() if entry.get("tool") == tool]


# ------------------------------------------------------------------ the schema, without a server

def test_every_field_kind_of_the_spec_becomes_a_field_with_its_limits_and_defaults() -> None:
    fields = {f.name: f for f in form_fields(FORM_SCHEMA)}
    assert [f.name for f in form_fields(FORM_SCHEMA)] == list(FORM_SCHEMA["properties"])
    assert fields["name"].kind is FieldKind.TEXT and fields["name"].required and fields["name"].min_length == 2
    assert fields["name"].description == "As it should appear on the badge" and fields["name"].label == "Your name"
    assert fields["email"].format == "email" and fields["start"].format == "date"
    assert fields["seats"].kind is FieldKind.INTEGER and (fields["seats"].minimum, fields["seats"].maximum) == (1, 10)
    assert fields["seats"].default == 2 and fields["newsletter"].default is True
    assert [o.value for o in fields["size"].options] == ["s", "m", "l"]
    assert [(o.value, o.label) for o in fields["colour"].options] == [("r", "Red"), ("g", "Green")]
    assert fields["topics"].kind is FieldKind.MULTI and fields["topics"].max_items == 2
    legacy = form_fields({"type": "object", "properties": {"p": {"type": "string", "enum": ["a", "b"],
                                                                    "enumNames": ["Alpha", "Beta"]}}})
    assert [o.label for o in legacy[0].options] == ["Alpha", "Beta"]


def test_answers_are_checked_against_each_rule() -> None:
    fields = {f.name: f for f in form_fields(FORM_SCHEMA)}
    bad = {"name": ("x", ProblemCode.TOO_SHORT), "email": ("me@", ProblemCode.BAD_EMAIL),
           "homepage": ("not a uri", ProblemCode.BAD_URI), "start": ("2026-02-30", ProblemCode.BAD_DATE),
           "seats": (11, ProblemCode.ABOVE_MAXIMUM), "budget": (0.1, ProblemCode.BELOW_MINIMUM),
           "size": ("xl", ProblemCode.NOT_AN_OPTION), "topics": (["ai", "db", "ui"], ProblemCode.TOO_MANY)}
    for name, (value, code) in bad.items():
        problem = check_value(fields[name], value)
        assert problem is not None and problem.code is code, (name, problem)
    assert check_value(fields["seats"], 2.5).code is ProblemCode.NOT_INTEGER
    assert check_value(fields["name"], "").code is ProblemCode.REQUIRED
    assert check_value(fields["homepage"], "") is None  # optional and empty: left out
    for name, value in {"email": "a@b.io", "homepage": "https://x.org/p", "start": "2026-12-01", "seats": 10,
                        "budget": 99.5, "newsletter": False, "colour": "g", "topics": ["ui"]}.items():
        assert check_value(fields[name], value) is None, name
    assert parse_text(fields["seats"], "3") == 3 and parse_text(fields["colour"], "Green") == "g"
    assert parse_text(fields["topics"], "1, db") == ["ai", "db"] and parse_text(fields["newsletter"], "n") is False
    with pytest.raises(ValueError):
        parse_text(fields["seats"], "three")


def test_a_sampling_request_s_images_go_to_the_model_and_audio_or_tools_are_refused() -> None:
    from mcp import types

    from hermes_desktop.core.mcp.client_features import UnsupportedSampling, model_messages, sampling_request

    image = types.ImageContent(type="image", data="aGk=", mime_type="image/png")
    params = types.CreateMessageRequestParams(
        messages=[types.SamplingMessage(role="user", content=[types.TextContent(type="text", text="What is it?"),
                                                              image]),
                  types.SamplingMessage(role="assistant", content=types.TextContent(type="text", text="A dot."))],
        max_tokens=10, include_context="allServers")
    request = sampling_request("s", params, "m")
    assert request.messages[0].images == 1 and request.include_context == "allServers"
    assert model_messages(request) == [
        {"role": "user", "content": [{"type": "text", "text": "What is it?"},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,aGk="}}]},
        {"role": "assistant", "content": "A dot."}]
    audio = types.AudioContent(type="audio", data="aGk=", mime_type="audio/wav")
    with pytest.raises(UnsupportedSampling, match="audio"):
        sampling_request("s", types.CreateMessageRequestParams(
            messages=[types.SamplingMessage(role="user", content=audio)], max_tokens=5), "m")
    tool = types.Tool(name="t", input_schema={"type": "object"})
    with pytest.raises(UnsupportedSampling, match="tool"):
        sampling_request("s", types.CreateMessageRequestParams(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text="x"))],
            max_tokens=5, tools=[tool]), "m")


def test_a_url_s_domain_shows_look_alike_letters_as_punycode() -> None:
    assert ElicitationRequest("s", "m", "url", url="https://login.example.com/x").domain == "login.example.com"
    spoof = ElicitationRequest("s", "m", "url", url="https://l\u043egin.example.com/x").domain  # Cyrillic o
    assert spoof.endswith("(xn--lgin-55d.example.com)"), spoof


# ------------------------------------------------------------------ over a real server

async def test_the_client_declares_elicitation_sampling_and_roots(runtime) -> None:
    await start(runtime)
    caps = await call(runtime, "client_capabilities")
    assert set(caps) == {"elicitation", "sampling", "roots"}
    assert caps["elicitation"] == {"form": {}, "url": {}} and caps["roots"] == {"listChanged": True}
    await runtime.mcp.stop_all()


async def test_a_form_is_asked_with_its_fields_and_the_typed_answer_reaches_the_server(runtime) -> None:
    elicitor = ScriptedElicitor([ElicitationAnswer(ElicitAction.ACCEPT, {
        "name": "Ada", "email": "ada@example.com", "seats": 3.0, "budget": 12.5, "size": "m", "topics": ["ai"],
        "homepage": ""})])
    runtime.mcp.client_features.elicitor = elicitor
    await start(runtime)
    answer = await call(runtime, "ask_form")
    request = elicitor.asked[0]
    assert request.server == "cf" and request.mode == "form" and request.message == "Please register for the workshop."
    assert [f.name for f in request.fields][:3] == ["name", "email", "homepage"]
    assert answer == {"action": "accept", "content": {"name": "Ada", "email": "ada@example.com", "seats": 3,
                                                      "budget": 12.5, "size": "m", "topics": ["ai"]}}
    assert audit(runtime, "elicitation/create")[-1]["decision"] == "accept"
    await runtime.mcp.stop_all()


async def test_decline_cancel_a_failing_ui_and_an_invalid_answer_never_send_content(runtime) -> None:
    elicitor = ScriptedElicitor([ElicitationAnswer(ElicitAction.DECLINE), ElicitationAnswer(ElicitAction.CANCEL),
                                 RuntimeError("the dialog broke"),  # type: ignore[list-item]
                                 ElicitationAnswer(ElicitAction.ACCEPT, {"name": "Ada", "email": "not-an-email",
                                                                         "seats": 2, "size": "s"})])
    runtime.mcp.client_features.elicitor = elicitor
    await start(runtime)
    assert await call(runtime, "ask_form") == {"action": "decline", "content": None}
    assert await call(runtime, "ask_form") == {"action": "cancel", "content": None}
    assert await call(runtime, "ask_form") == {"action": "cancel", "content": None}
    assert await call(runtime, "ask_form") == {"action": "cancel", "content": None}
    await runtime.mcp.stop_all()


async def test_without_a_ui_a_form_is_declined_never_answered(runtime) -> None:
    await start(runtime)  # the runtime's default elicitor: nobody to ask
    assert await call(runtime, "ask_form") == {"action": "decline", "content": None}
    await runtime.mcp.stop_all()


async def test_a_schema_a_form_cannot_show_is_an_error_naming_the_field(runtime) -> None:
    elicitor = ScriptedElicitor([])
    runtime.mcp.client_features.elicitor = elicitor
    await start(runtime)
    nested = json.dumps({"type": "object", "properties": {"address": {"type": "object", "properties": {}}}})
    with pytest.raises(Exception, match="address"):
        await call(runtime, "ask_form", schema=nested)
    assert elicitor.asked == []  # the user was never shown a form that could not be filled
    await runtime.mcp.stop_all()


async def test_url_mode_opens_the_browser_only_after_the_user_accepts(runtime) -> None:
    opened: list[str] = []
    elicitor = ScriptedElicitor([ElicitationAnswer(ElicitAction.DECLINE), ElicitationAnswer(ElicitAction.ACCEPT)])
    features = runtime.mcp.client_features
    features.elicitor = elicitor
    features._open_url = opened.append
    await start(runtime)
    url = "https://login.example.com/authorize?state=abc"
    assert await call(runtime, "ask_url", url=url) == {"action": "decline", "content": None}
    assert opened == []
    assert await call(runtime, "ask_url", url=url) == {"action": "accept", "content": None}
    assert opened == [url]
    assert elicitor.asked[0].mode == "url" and elicitor.asked[0].url == url
    assert elicitor.asked[0].domain == "login.example.com"
    with pytest.raises(Exception, match="http"):
        await call(runtime, "ask_url", url="file:///etc/passwd")
    assert opened == [url] and len(elicitor.asked) == 2
    await runtime.mcp.stop_all()


async def test_a_call_does_not_time_out_while_the_user_fills_in_its_form(runtime) -> None:
    """The server's `timeout` is 2 s; the user takes longer than that to answer: the call still gets the answer."""
    import asyncio

    from hermes_desktop.core.tools.runner import run_tool

    class SlowUser:
        async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
            await asyncio.sleep(3)  # longer than the call's timeout
            return ElicitationAnswer(ElicitAction.ACCEPT, {"city": "Porto"})

    runtime.mcp.client_features.elicitor = SlowUser()
    entry = {"command": sys.executable, "args": ["-m", "tests.support.mcp_server", "--client-features"],
             "cwd": str(REPO), "env": {"PYTHONPATH": str(REPO)}, "timeout": 2}
    runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {"cf": entry}}), encoding="utf-8")
    await runtime.mcp.reload()
    await runtime.mcp.wait_until_settled(SETTLE_S)
    schema = json.dumps({"type": "object", "properties": {"city": {"type": "string"}}})
    ctx = ToolContext("s1", runtime.workspace, runtime.network_policy(), runtime.workspace.root / "notes")
    result = await run_tool(runtime.registry.get("mcp_cf_ask_form"), {"schema": schema}, ctx, default_timeout_s=60,
                            char_budget=10_000)
    assert result.outcome.value == "ok", result.content
    assert json.loads(result.content) == {"action": "accept", "content": {"city": "Porto"}}
    await runtime.mcp.stop_all()


# ------------------------------------------------------------------ sampling

async def test_sampling_is_served_by_the_active_model_with_only_the_server_s_messages(
        runtime, profile, model_server) -> None:
    sampler = ScriptedSampler()
    runtime.mcp.client_features.sampler = sampler
    agent = runtime.make_agent(model=ModelClient(profile, "k"))
    model_server.enqueue(text_reply("A haiku about tests."))
    await start(runtime)
    answer = await call(runtime, "sample", prompt="Write a haiku.", system="You are terse.", max_tokens=300)
    assert answer == {"text": "A haiku about tests.", "model": "scripted-model", "stop_reason": "endTurn"}
    request = sampler.asked[0]
    assert request.server == "cf" and request.model_hints == ("claude-haiku",) and request.priorities == {"speed": 0.8}
    assert request.requested_max_tokens == 300 and request.max_tokens == 300 and request.model == "scripted-model"
    sent = model_server.chat_requests[-1]
    assert sent.messages == [{"role": "system", "content": "You are terse."},
                             {"role": "user", "content": "Write a haiku."}]
    assert "tools" not in sent.body and sent.body["max_tokens"] == 300
    line = audit(runtime, "sampling/createMessage")[-1]
    assert line["decision"] == "sent" and line["source"] == "mcp:cf" and line["model"] == "scripted-model"
    assert line["arguments"]["messages"] == [{"role": "user", "text": "Write a haiku."}]
    await agent.model.aclose()
    await runtime.mcp.stop_all()


async def test_a_huge_max_tokens_is_capped_and_an_edit_is_what_goes_back(runtime, profile, model_server) -> None:
    from dataclasses import replace

    sampler = ScriptedSampler(reply=lambda draft: draft.text + " (checked by me)")
    runtime.mcp.client_features.sampler = sampler
    agent = runtime.make_agent(model=ModelClient(replace(profile, max_output_tokens=None), "k"))
    model_server.enqueue(text_reply("Draft."))
    await start(runtime)
    answer = await call(runtime, "sample", prompt="Go on forever.", max_tokens=1_000_000)
    assert answer["text"] == "Draft. (checked by me)"
    assert sampler.asked[0].max_tokens == SAMPLING_MAX_TOKENS
    assert model_server.chat_requests[-1].body["max_tokens"] == SAMPLING_MAX_TOKENS
    assert audit(runtime, "sampling/createMessage")[-1]["decision"] == "edited"
    await agent.model.aclose()
    await runtime.mcp.stop_all()


async def test_a_refusal_is_the_spec_s_error_and_the_model_is_never_called(runtime, profile, model_server) -> None:
    runtime.mcp.client_features.sampler = ScriptedSampler(approve=False)
    agent = runtime.make_agent(model=ModelClient(profile, "k"))
    await start(runtime)
    answer = await call(runtime, "sample", prompt="Tell me secrets.")
    assert answer["code"] == -1 and "rejected" in answer["error"].lower()
    assert model_server.chat_requests == []
    assert audit(runtime, "sampling/createMessage")[-1]["decision"] == "refused"
    # A reply the user refuses after seeing it is not sent either.
    runtime.mcp.client_features.sampler = ScriptedSampler(reply=lambda draft: None)
    model_server.enqueue(text_reply("Something I would rather not send."))
    answer = await call(runtime, "sample", prompt="Again.")
    assert answer["code"] == -1 and len(model_server.chat_requests) == 1
    await agent.model.aclose()
    await runtime.mcp.stop_all()


async def test_without_a_ui_sampling_is_refused(runtime, profile, model_server) -> None:
    agent = runtime.make_agent(model=ModelClient(profile, "k"))
    await start(runtime)
    answer = await call(runtime, "sample", prompt="Anyone there?")
    assert answer["code"] == -1 and model_server.chat_requests == []
    assert audit(runtime, "sampling/createMessage")[-1]["decided_by"] == "nobody to ask"
    await agent.model.aclose()
    await runtime.mcp.stop_all()


async def test_a_failing_model_is_shown_and_nothing_is_sent(runtime, profile, model_server) -> None:
    from tests.support.model_server import error_reply

    sampler = ScriptedSampler()
    runtime.mcp.client_features.sampler = sampler
    agent = runtime.make_agent(model=ModelClient(profile, "k", retry=_no_retries()))
    model_server.enqueue(error_reply(400, "context too long"))
    await start(runtime)
    answer = await call(runtime, "sample", prompt="Hi")
    assert answer["code"] == -1
    assert sampler.drafts[0].error and not sampler.drafts[0].text
    await agent.model.aclose()
    await runtime.mcp.stop_all()


def _no_retries():
    from tests.support.engine import FAST_RETRIES

    return FAST_RETRIES


# ------------------------------------------------------------------ roots

async def test_roots_are_the_workspace_and_notes_and_a_change_is_announced(runtime, tmp_path) -> None:
    from hermes_desktop.core.tools.workspace import Workspace

    (runtime.workspace.root / "notes").mkdir()
    await start(runtime)
    first = await call(runtime, "show_roots")
    assert first == {"roots": [{"uri": runtime.workspace.root.resolve().as_uri(), "name": "Workspace"},
                               {"uri": (runtime.workspace.root / "notes").resolve().as_uri(), "name": "Notes"}],
                     "changes": 0}
    runtime.mcp.client_features.workspace_changed()  # nothing changed: nothing is sent
    other = tmp_path / "other"
    other.mkdir()
    runtime.workspace = Workspace(other)
    told = await runtime.mcp.client_features.announce_roots_changed()
    assert told == ["cf"]
    after = await call(runtime, "show_roots")
    assert after == {"roots": [{"uri": other.resolve().as_uri(), "name": "Workspace"}], "changes": 1}
    await runtime.mcp.stop_all()


async def test_a_server_s_own_folders_are_offered_as_roots_beside_the_workspace(runtime, tmp_path) -> None:
    """Issue 24: a filesystem server given ~/Documents (as its README says) was narrowed to the workspace by the
    roots Hermes sent. The folders in its own arguments are offered too; `/` and files are not."""
    documents = tmp_path / "Documents"
    documents.mkdir()
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    await start(runtime, folders=(str(documents), str(a_file), "/", str(tmp_path / "missing")))
    seen = await call(runtime, "show_roots")
    assert seen["roots"] == [{"uri": runtime.workspace.root.resolve().as_uri(), "name": "Workspace"},
                             {"uri": documents.resolve().as_uri(), "name": "Documents"}]
    await runtime.mcp.stop_all()


async def test_workspace_changed_sends_list_changed_once_per_change(runtime, tmp_path) -> None:
    import asyncio

    from hermes_desktop.core.tools.workspace import Workspace

    await start(runtime)
    await call(runtime, "show_roots")
    features = runtime.mcp.client_features
    features.workspace_changed()  # unchanged
    other = tmp_path / "elsewhere"
    other.mkdir()
    runtime.workspace = Workspace(other)
    features.workspace_changed()
    await asyncio.gather(*features._pending)
    assert (await call(runtime, "show_roots"))["changes"] == 1
    await runtime.mcp.stop_all()


# ------------------------------------------------------------------ the reference server from npm

@pytest.mark.skipif(__import__("shutil").which("npx") is None,
                    reason="Node.js (npx) is not installed: @modelcontextprotocol/server-everything needs it")
async def test_server_everything_offers_its_elicitation_sampling_and_roots_tools_and_they_work(
        runtime, profile, model_server) -> None:
    """server-everything only lists these tools to a client that declares the capabilities."""
    opened: list[str] = []
    features = runtime.mcp.client_features
    features.elicitor = ScriptedElicitor([
        ElicitationAnswer(ElicitAction.ACCEPT, {"name": "Ada", "integer": 7, "untitledMultipleSelectEnum": ["Piano"]}),
        ElicitationAnswer(ElicitAction.ACCEPT)])
    features.sampler = ScriptedSampler()
    features._open_url = opened.append
    agent = runtime.make_agent(model=ModelClient(profile, "k"))
    model_server.enqueue(text_reply("Sampled by Hermes."))
    from tests.core.test_mcp import start_everything_server

    status = await start_everything_server(runtime, settle_s=90)
    for tool in ("get-roots-list", "trigger-elicitation-request", "trigger-url-elicitation",
                 "trigger-sampling-request"):
        assert f"mcp_everything_{tool}" in status.tools, tool

    def tool(name: str):
        return runtime.registry.get(f"mcp_everything_{name}").handler

    roots = await tool("get-roots-list")({}, None)
    assert runtime.workspace.root.resolve().as_uri() in roots
    form = await tool("trigger-elicitation-request")({}, None)
    assert '"action": "accept"' in form and '"name": "Ada"' in form and '"integer": 7' in form
    asked = features.elicitor.asked[0]
    legacy = next(f for f in asked.fields if f.name == "legacyTitledEnum")
    assert legacy.kind is FieldKind.CHOICE and legacy.options[0].label != legacy.options[0].value
    await tool("trigger-url-elicitation")({"url": "https://example.com/consent"}, None)
    assert opened == ["https://example.com/consent"]
    sampled = await tool("trigger-sampling-request")({"prompt": "hi", "maxTokens": 50}, None)
    assert "Sampled by Hermes." in sampled
    assert model_server.chat_requests[-1].body["max_tokens"] == 50
    await agent.model.aclose()
    await runtime.mcp.stop_all()

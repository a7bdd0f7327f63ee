"""Issue 21 §2: a reasoning echo goes only to the server that produced that reasoning. A session that switches
providers (the model picker) holds one provider's thinking beside another's; learning "this server needs the echo"
from one 400 never makes it send the other provider's reasoning; the learned setting is shown by `doctor`.

Real runtime, real openai client, two scripted servers over HTTP on 127.0.0.1 (one behaving as DeepSeek's thinking
mode, which refuses an assistant tool-call message without its `reasoning_content`), the real SQLite store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.core.events import FinishReason
from hermes_desktop.core.llm import reasoning_origins
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.runtime import Runtime, open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.session_models import SessionPick, write_pick
from hermes_desktop.core.settings import ProviderProfile, ReasoningEcho, Settings, SettingsStore
from tests.support.model_server import CallScript, ScriptedModelServer, reasoning_reply, text_reply

OTHERS_THINKING = "The other provider privately weighs the user's salary of 91000."
OWN_THINKING = "DeepSeek's own thought about the product."


@pytest.fixture
def other_server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer() as server:
        yield server


def setup(deepseek: ScriptedModelServer, other: ScriptedModelServer, workspace: Path, *,
          echo: ReasoningEcho = ReasoningEcho.AUTO) -> Runtime:
    main = ProviderProfile(id="deep", name="Deep", base_url=deepseek.base_url, model="thinker", request_timeout_s=5.0,
                           needs_api_key=False, reasoning_echo=echo)
    other_profile = ProviderProfile(id="other", name="Other", base_url=other.base_url, model="other-thinker",
                                    request_timeout_s=5.0, needs_api_key=False)
    SettingsStore(app_paths()).save(Settings(profiles=(main, other_profile), active_profile_id="deep"))
    return open_runtime({"HERMES_WORKSPACE": str(workspace)}, secrets=MemorySecretStore())


async def turn(runtime: Runtime, session: str, text: str):
    agent = runtime.make_agent()
    try:
        return await agent.start_turn(session, text).wait()
    finally:
        await agent.model.aclose()
        await runtime.session_models.aclose()


def sent_reasoning(server: ScriptedModelServer) -> str:
    return json.dumps([m.get("reasoning_content") for r in server.chat_requests for m in r.messages])


async def other_provider_thinks_with_a_tool_call(runtime: Runtime, other: ScriptedModelServer) -> None:
    write_pick(runtime.store, "s", SessionPick("other", "other-thinker"))
    other.enqueue(reasoning_reply(OTHERS_THINKING, "", CallScript("calculate", {"expression": "6*7"}, id="o1")),
                  reasoning_reply("Done thinking.", "It is 42."))
    events = await turn(runtime, "s", "What is 6*7?")
    assert events[-1].reason is FinishReason.COMPLETED
    write_pick(runtime.store, "s", None)  # back to the default: DeepSeek


async def test_an_echo_always_server_gets_its_own_reasoning_back_never_another_providers(
        model_server, other_server, workspace_dir) -> None:
    runtime = setup(model_server, other_server, workspace_dir, echo=ReasoningEcho.ALWAYS)
    await other_provider_thinks_with_a_tool_call(runtime, other_server)
    model_server.enqueue(reasoning_reply(OWN_THINKING, "", CallScript("calculate", {"expression": "2+2"}, id="d1")),
                         text_reply("4, and before that 42."))
    events = await turn(runtime, "s", "And 2+2?")
    assert events[-1].reason is FinishReason.COMPLETED
    second = model_server.chat_requests[-1]
    echoed = [m.get("reasoning_content") for m in second.messages if m.get("role") == "assistant"]
    assert OWN_THINKING in echoed, "its own reasoning still goes back (the echo works)"
    assert OTHERS_THINKING not in sent_reasoning(model_server), "another provider's reasoning was sent"
    assert "91000" not in json.dumps([r.body for r in model_server.chat_requests])
    runtime.store.close()


async def test_learning_the_echo_from_a_400_never_sends_another_providers_reasoning(
        model_server, other_server, workspace_dir) -> None:
    runtime = setup(model_server, other_server, workspace_dir)
    await other_provider_thinks_with_a_tool_call(runtime, other_server)
    model_server.enforce_reasoning_echo = True  # DeepSeek's rule: its first request is refused with a 400
    model_server.enqueue(text_reply("never reached"), text_reply("never reached"))
    events = await turn(runtime, "s", "And 2+2?")
    assert len(model_server.chat_requests) == 2, "refused, learned, retried once"
    assert OTHERS_THINKING not in sent_reasoning(model_server), "the learned echo sent another provider's thinking"
    saved = {p["id"]: p for p in json.loads(SettingsStore(app_paths()).path.read_text())["profiles"]}
    assert saved["deep"]["learned_reasoning_echo"] is True and not saved["other"].get("learned_reasoning_echo")
    # Once the echo is on, the other provider's call (no reasoning of its own may go) is sent as text, which the
    # strict server accepts (issue 24): the session keeps working without handing over what is not the server's.
    assert events[-1].reason is FinishReason.COMPLETED
    assert "[Tool call, shown as text: calculate" in json.dumps(model_server.chat_requests[-1].messages)
    runtime.store.close()


async def test_notes_are_kept_across_a_restart_and_an_imported_reasoning_is_in_none(
        model_server, other_server, workspace_dir, tmp_path) -> None:
    runtime = setup(model_server, other_server, workspace_dir, echo=ReasoningEcho.ALWAYS)
    model_server.enqueue(reasoning_reply(OWN_THINKING, "", CallScript("calculate", {"expression": "2+2"}, id="d1")),
                         text_reply("4."))
    await turn(runtime, "t", "2+2?")
    runtime.store.close()
    folder = app_paths().data_dir / reasoning_origins.FOLDER_NAME
    assert [p.read_text().count("\n") for p in folder.iterdir()] == [1], "one digest noted, no text"
    assert OWN_THINKING not in "".join(p.read_text() for p in folder.iterdir())
    reasoning_origins.configure(None)  # as a new process: nothing in memory
    reasoning_origins.configure(folder)
    assert reasoning_origins.produced_by(model_server.base_url, OWN_THINKING)
    assert reasoning_origins.produced_by(model_server.base_url.rstrip("/") + "/", OWN_THINKING)
    assert not reasoning_origins.produced_by(other_server.base_url, OWN_THINKING)
    assert not reasoning_origins.produced_by(model_server.base_url, "text from an imported session")
    reasoning_origins.forget(model_server.base_url)
    assert not reasoning_origins.produced_by(model_server.base_url, OWN_THINKING)


def test_doctor_shows_a_learned_echo_and_how_to_undo_it(model_server, workspace_dir) -> None:
    import os

    from tests.support.cli import ROOT, hermes

    learned = ProviderProfile(id="deep", name="Deep", base_url=model_server.base_url, model="scripted-model",
                              needs_api_key=False, learned_reasoning_echo=True)
    SettingsStore(app_paths()).save(Settings(profiles=(learned,), active_profile_id="deep"))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HERMES_WORKSPACE": str(workspace_dir)}
    done = hermes("doctor", env=env)
    assert "reasoning echo: learned (the server asked for reasoning_content with a 400" in done.stdout, done.stdout
    assert "only reasoning this server wrote is sent back to it" in done.stdout
    assert "Forget what was learned" in done.stdout

"""Issue 24 through the real window: a session in which another model made a tool call, switched in the model
picker to DeepSeek in thinking mode, keeps working (another model's call goes as text, DeepSeek's own calls carry
their reasoning); a server that refuses even that leaves an error card that says what the user can do.

Real parts: two scripted servers over HTTP (one applies DeepSeek's documented rule, tests/support/model_server.py),
the real openai client, the window's model picker, transcript and store. The core rules are in
tests/core/test_model_switch_history.py."""

from __future__ import annotations

from typing import Iterator

import pytest

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.session_models import SessionPick
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore
from hermes_desktop.ui.chat.items import BannerItem, MessageItem
from tests.support.model_server import (DEEPSEEK_ECHO_MESSAGE, CallScript, ScriptedModelServer, error_reply,
                                        reasoning_reply, text_reply, tool_call_reply)


@pytest.fixture
def deepseek() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(models=["deepseek-reasoner"]) as server:
        yield server


@pytest.fixture
def two_providers(model_server, deepseek) -> None:
    other = ProviderProfile(id="other", name="Other", base_url=model_server.base_url, model="gpt-like",
                            request_timeout_s=5.0, needs_api_key=False)
    deep = ProviderProfile(id="deep", name="DeepSeek", base_url=deepseek.base_url, model="deepseek-reasoner",
                           request_timeout_s=5.0, needs_api_key=False)
    SettingsStore(app_paths()).save(Settings(profiles=(other, deep), active_profile_id="other"))


def replies(h) -> list[MessageItem]:
    return [i for i in h.window.chat.model.items() if isinstance(i, MessageItem) and i.role == "assistant"]


def banners(h) -> list[BannerItem]:
    return [i for i in h.window.chat.model.items() if isinstance(i, BannerItem)]


def other_model_calculates(h, model_server) -> str:
    model_server.enqueue(tool_call_reply(CallScript("calculate", {"expression": "6*7"}, id="other_1")),
                         text_reply("6*7 is 42."))
    h.send("What is 6*7?")
    h.wait_until(lambda: replies(h) and replies(h)[-1].text == "6*7 is 42.", what="the first answer")
    session = h.window.current_session
    h.wait_until(lambda: not h.controller.is_busy(session), what="idle")
    h.run(h.window.model_picker.choose(SessionPick("deep", "deepseek-reasoner")))
    return session


def test_switched_to_deepseek_thinking_after_another_models_tool_turn_the_session_keeps_working(
        make_window, model_server, deepseek, two_providers) -> None:
    h = make_window(configured=False)
    session = other_model_calculates(h, model_server)
    deepseek.deepseek_thinking = True
    deepseek.enqueue(reasoning_reply("Which tool?", "", CallScript("calculate", {"expression": "2+2"}, id="d1")),
                     reasoning_reply("Now the answer.", "2+2 is 4, and 6*7 was 42."))
    h.send("And 2+2?")
    h.wait_until(lambda: replies(h)[-1].text == "2+2 is 4, and 6*7 was 42.", what="DeepSeek's answer")
    h.wait_until(lambda: not h.controller.is_busy(session), what="idle")
    assert banners(h) == [], "no error card"
    turn = [r for r in deepseek.chat_requests if not r.system_prompt.startswith("Write a title")]
    assert len(turn) == 2, "no request was refused"
    assert "[Tool call, shown as text: calculate" in str(turn[0].messages)


def test_a_server_that_refuses_again_leaves_a_card_that_says_what_to_do(
        make_window, model_server, deepseek, two_providers) -> None:
    h = make_window(configured=False)
    session = other_model_calculates(h, model_server)
    deepseek.enqueue(error_reply(400, DEEPSEEK_ECHO_MESSAGE), error_reply(400, DEEPSEEK_ECHO_MESSAGE))
    h.send("And 2+2?")
    card = h.wait_until(lambda: next(iter(banners(h)), None), what="the error card")
    h.wait_until(lambda: not h.controller.is_busy(session), what="idle")
    assert "Switch this conversation back to the model that wrote them" in card.message
    assert "retry" in card.actions

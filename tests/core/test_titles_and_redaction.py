"""Model-made session titles, and secrets kept out of logs and audit values."""

from __future__ import annotations

import logging

import pytest

from hermes_desktop.core.llm import ModelClient
from hermes_desktop.core.logging_setup import RedactingFilter
from hermes_desktop.core.redact import redact_value
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.titles import clean_title, retitle_session
from tests.support.engine import FAST_RETRIES
from tests.support.model_server import error_reply, text_reply
from tests.support.stores import open_test_store


@pytest.fixture
def store():
    opened = open_test_store()
    yield opened.store
    opened.store.close()


def first_exchange(store, user: str, reply: str) -> None:
    store.create_session("s")
    store.append_message("s", NewMessage("user", user))
    store.append_message("s", NewMessage("assistant", reply, finish_reason="stop"))
    store.set_title("s", user[:20])


async def test_the_model_titles_a_session_in_the_users_language(store, profile, model_server) -> None:
    first_exchange(store, "帮我规划一下杭州周末两日游的行程", "好的，第一天去西湖……")
    model_server.auto_titles = False
    model_server.enqueue(text_reply("标题：杭州周末两日游。"))
    model = ModelClient(profile, "k", retry=FAST_RETRIES)
    assert await retitle_session(store, model, "s") == "杭州周末两日游"
    await model.aclose()
    assert store.get_session("s").title == "杭州周末两日游"
    request = model_server.chat_requests[0]
    assert "same language" in request.system_prompt and "杭州" in request.messages[-1]["content"]


async def test_a_failed_title_request_keeps_the_first_line_title(store, profile, model_server) -> None:
    first_exchange(store, "plan my weekend", "sure")
    model_server.auto_titles = False
    model_server.enqueue(error_reply(400, "nope"))
    model = ModelClient(profile, "k", retry=FAST_RETRIES)
    assert await retitle_session(store, model, "s") is None
    await model.aclose()
    assert store.get_session("s").title == "plan my weekend"


async def test_a_title_the_user_typed_is_never_replaced(store, profile, model_server) -> None:
    first_exchange(store, "plan my weekend", "sure")
    store.rename("s", "Mine")
    model = ModelClient(profile, "k", retry=FAST_RETRIES)
    assert await retitle_session(store, model, "s") is None
    await model.aclose()
    assert model_server.chat_requests == [] and store.get_session("s").title == "Mine"


@pytest.mark.parametrize("raw,title", [('"Weekend in Paris"', "Weekend in Paris"), ("Title: Budget review.", "Budget review"),
                                       ("x" * 100, None), ("", None), ("Trip plan\nextra words", "Trip plan")])
def test_clean_title(raw: str, title: str | None) -> None:
    assert clean_title(raw) == title


def test_log_records_are_scrubbed_of_keys(caplog) -> None:
    scrub = RedactingFilter()
    scrub.known_secrets.add("custom-secret-value-123")
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "key %s and %s", ("sk-abcdefghijklmnop", "custom-secret-value-123"),
                               None)
    scrub.filter(record)
    assert record.getMessage() == "key [redacted] and [redacted]"


def test_redact_value_keeps_counts_and_scrubs_secret_fields() -> None:
    value = {"api_key": "abc", "prompt_tokens": 12, "headers": {"Authorization": "Bearer abcdefghijkl"},
             "note": "token sk-ABCDEFGHIJKL1234"}
    assert redact_value(value) == {"api_key": "[redacted]", "prompt_tokens": 12,
                                   "headers": {"Authorization": "[redacted]"}, "note": "token [redacted]"}


def test_a_model_title_loses_its_escape_sequences() -> None:
    from hermes_desktop.core.titles import clean_title

    assert clean_title("\x1b]52;c;QQ==\x07\x1b[31mTrip\x1b[0m plan\r") == "Trip plan"

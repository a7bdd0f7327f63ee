"""Usage and cost (issue 28): every model request the app makes is one row in `usage_records`, with the server's
own figures (cached and reasoning tokens in each provider's field), estimated and marked so where none came;
prices from the shipped table and the user's edits; the monthly budget; the CSV.

Real parts: the runtime, the real openai client over HTTP to the scripted server (tests/support/model_server.py)
streaming real `usage` chunks, the real SQLite store on disk, usage.json in the config folder."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.llm import ChatRequest, ModelClient, StreamDone, TextPiece
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.runtime import Runtime, open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.settings import Settings, SettingsStore
from hermes_desktop.core.titles import retitle_session
from hermes_desktop.core.usage import budget, config as usage_config
from hermes_desktop.core.usage.budget import BudgetState
from hermes_desktop.core.usage.config import Budget, UsageConfig
from hermes_desktop.core.usage.counts import from_server
from hermes_desktop.core.usage.prices import Price, PriceTable
from hermes_desktop.core.usage.report import csv_text
from tests.support.model_server import (
    ScriptedModelServer, endless_text_reply, reasoning_reply, text_reply, with_usage,
)

OPENAI_USAGE = {"prompt_tokens": 1200, "completion_tokens": 300, "total_tokens": 1500,
                "prompt_tokens_details": {"cached_tokens": 1024},
                "completion_tokens_details": {"reasoning_tokens": 180}}
DEEPSEEK_USAGE = {"prompt_tokens": 64, "completion_tokens": 5, "total_tokens": 69,
                  "prompt_cache_hit_tokens": 48, "prompt_cache_miss_tokens": 16}


def make_runtime(profile, workspace: Path) -> Runtime:
    SettingsStore(app_paths()).save(Settings(profiles=(profile,), active_profile_id=profile.id))
    return open_runtime({"HERMES_WORKSPACE": str(workspace)}, secrets=MemorySecretStore())


def records(runtime: Runtime) -> list[sqlite3.Row]:
    runtime.drain_usage()
    return runtime.store._read("SELECT * FROM usage_records ORDER BY id")  # type: ignore[attr-defined]


async def one_turn(runtime: Runtime, session_id: str, text: str) -> list[ev.Event]:
    agent = runtime.make_agent()
    try:
        events = await agent.start_turn(session_id, text).wait()
        if runtime.memory is not None:
            await runtime.memory.wait_idle(10)
        return events
    finally:
        await agent.stop_background()
        if agent.model is not None:
            await agent.model.aclose()


async def test_a_chat_turn_is_recorded_with_the_servers_cached_and_reasoning_tokens(
        model_server: ScriptedModelServer, profile, workspace_dir) -> None:
    runtime = make_runtime(profile, workspace_dir)
    model_server.enqueue(with_usage(reasoning_reply("Let me think about tea.", "Tea it is."), OPENAI_USAGE))
    events = await one_turn(runtime, "s1", "What should I drink?")
    assert isinstance(events[-1], ev.TurnFinished) and events[-1].reason is ev.FinishReason.COMPLETED
    chat = [r for r in records(runtime) if r["purpose"] == "chat"]
    assert len(chat) == 1
    row = chat[0]
    assert (row["session_id"], row["profile_id"], row["model"]) == ("s1", "test", "scripted-model")
    assert (row["input_tokens"], row["cached_input_tokens"], row["output_tokens"], row["reasoning_tokens"]) == \
        (1200, 1024, 300, 180)
    assert row["estimated"] == 0
    # the per-session counters still count the chat turn
    info = runtime.store.get_session("s1")
    assert info is not None and (info.prompt_tokens, info.completion_tokens) == (1200, 300)
    runtime.store.close()


async def test_a_title_request_is_recorded_as_a_side_request_with_deepseeks_cache_field(
        model_server: ScriptedModelServer, profile, workspace_dir) -> None:
    runtime = make_runtime(profile, workspace_dir)
    model_server.auto_titles = False
    model_server.enqueue(text_reply("Paris is lovely in spring."))
    await one_turn(runtime, "trip", "Tell me about Paris")
    model_server.enqueue(with_usage(text_reply("Paris in spring"), DEEPSEEK_USAGE))
    client = runtime.new_client(profile, None)
    try:
        assert await retitle_session(runtime.store, client, "trip") == "Paris in spring"
    finally:
        await client.aclose()
    title = [r for r in records(runtime) if r["purpose"] == "title"]
    assert len(title) == 1
    assert (title[0]["session_id"], title[0]["input_tokens"], title[0]["cached_input_tokens"],
            title[0]["output_tokens"], title[0]["estimated"]) == ("trip", 64, 48, 5, 0)
    runtime.store.close()


async def test_memory_extraction_inside_a_turn_is_counted_for_that_session(
        model_server: ScriptedModelServer, profile, workspace_dir) -> None:
    runtime = make_runtime(profile, workspace_dir)
    model_server.enqueue(text_reply("Noted."))
    await one_turn(runtime, "m1", "Remember that I prefer green tea in the morning.")
    rows = records(runtime)
    memory = [r for r in rows if r["purpose"] == "memory"]
    assert memory, [dict(r) for r in rows]
    assert memory[0]["session_id"] == "m1"  # the turn's session, carried by core/usage/scope.py
    assert (memory[0]["input_tokens"], memory[0]["output_tokens"]) == (20, 10)  # the scripted server's usage
    runtime.store.close()


async def test_a_reply_without_usage_is_estimated_and_marked(
        model_server: ScriptedModelServer, profile, workspace_dir) -> None:
    runtime = make_runtime(profile, workspace_dir)
    model_server.enqueue(with_usage(text_reply("A fairly long answer about the weather today."), None))
    await one_turn(runtime, "e1", "How is the weather?")
    chat = [r for r in records(runtime) if r["purpose"] == "chat"]
    assert len(chat) == 1 and chat[0]["estimated"] == 1
    assert chat[0]["input_tokens"] > 10 and chat[0]["output_tokens"] >= 10
    assert chat[0]["cached_input_tokens"] == 0 and chat[0]["reasoning_tokens"] == 0
    runtime.store.close()


async def test_a_stopped_stream_is_still_recorded_estimated(
        model_server: ScriptedModelServer, profile, workspace_dir) -> None:
    runtime = make_runtime(profile, workspace_dir)
    runtime.store.create_session("stop")
    model_server.enqueue(endless_text_reply())
    client = runtime.new_client(profile, None)
    seen = 0
    try:
        async with contextlib.aclosing(client.stream(ChatRequest([{"role": "user", "content": "go on"}],
                                                                 purpose="chat", session_id="stop"))) as stream:
            async for item in stream:
                if isinstance(item, TextPiece):
                    seen += 1
                    if seen == 20:
                        break  # the user pressed Stop
    finally:
        await client.aclose()
    rows = records(runtime)
    assert len(rows) == 1 and rows[0]["estimated"] == 1 and rows[0]["output_tokens"] > 0
    runtime.store.close()


async def test_a_client_without_a_sink_records_nothing_and_breaks_nothing(model_server, profile) -> None:
    model_server.enqueue(text_reply("plain"))
    client = ModelClient(profile, None)
    try:
        async with contextlib.aclosing(client.stream(ChatRequest([{"role": "user", "content": "hi"}]))) as stream:
            done = [item async for item in stream if isinstance(item, StreamDone)]
    finally:
        await client.aclose()
    assert done[0].text == "plain"


def test_a_failing_sink_never_breaks_the_reply(model_server, profile) -> None:
    def broken(_usage) -> None:
        raise OSError("disk on fire")

    async def go() -> str:
        model_server.enqueue(text_reply("still here"))
        client = ModelClient(profile, None, usage_sink=broken)
        try:
            async with contextlib.aclosing(client.stream(ChatRequest([{"role": "user", "content": "hi"}]))) as s:
                return [i async for i in s if isinstance(i, StreamDone)][0].text
        finally:
            await client.aclose()

    assert asyncio.run(go()) == "still here"


@pytest.mark.parametrize("usage, cached", [
    ({"prompt_tokens": 100, "completion_tokens": 9, "prompt_tokens_details": {"cached_tokens": 60}}, 60),  # OpenAI
    ({"prompt_tokens": 100, "completion_tokens": 9, "prompt_cache_hit_tokens": 70}, 70),  # DeepSeek
    ({"prompt_tokens": 100, "completion_tokens": 9, "cached_tokens": 80}, 80),  # Moonshot (Kimi)
    ({"prompt_tokens": 100, "completion_tokens": 9, "prompt_tokens_details": {"cached_tokens": 500}}, 100),  # clipped
])
def test_cached_tokens_are_read_from_every_providers_field(usage, cached) -> None:
    counts = from_server(usage, estimate_input=lambda: 1 / 0, estimate_output=lambda: 1 / 0)
    assert (counts.input, counts.cached_input, counts.output, counts.estimated) == (100, cached, 9, False)


def test_the_price_table_matches_dated_names_and_never_invents_a_price() -> None:
    table = PriceTable()
    assert table.price("gpt-4o-2024-08-06") == table.price("gpt-4o")
    assert table.price("claude-sonnet-4-5-20250929") == table.price("claude-sonnet-4-5")
    assert table.price("openai/gpt-4o-mini") == table.price("gpt-4o-mini") != table.price("gpt-4o")
    assert table.price("gpt-5-pro") is None  # not gpt-5's price
    assert table.price("scripted-model") is None
    assert table.price("deepseek-chat").currency == "USD" and table.price("qwen-plus").currency == "CNY"


def test_a_price_edit_is_saved_reloaded_and_used(tmp_path: Path) -> None:
    edited = PriceTable().with_edit("scripted-model", Price(2.0, 0.5, 8.0, "CNY")).with_edit("gpt-4o", None)
    usage_config.save(tmp_path, UsageConfig(edited.edits, Budget(10.0, "CNY")))
    loaded = usage_config.load(tmp_path)
    assert loaded.problem is None and loaded.budget == Budget(10.0, "CNY")
    prices = loaded.prices()
    assert prices.price("scripted-model") == Price(2.0, 0.5, 8.0, "CNY")
    assert prices.price("gpt-4o") is None and prices.is_edited("gpt-4o")  # the shipped price removed
    assert prices.without_edit("gpt-4o").price("gpt-4o") == PriceTable().price("gpt-4o")
    # 1,000,000 input of which 400,000 cached, 500,000 output: 0.6 × 2 + 0.4 × 0.5 + 0.5 × 8
    from hermes_desktop.core.usage.counts import TokenCounts

    assert prices.price("scripted-model").cost(TokenCounts(1_000_000, 400_000, 500_000)) == pytest.approx(5.4)


def test_a_damaged_usage_json_is_reported_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "usage.json").write_text('{"prices": {"x": {"input": -1, "output": 2}}}', encoding="utf-8")
    loaded = usage_config.load(tmp_path)
    assert loaded.problem is not None and "'x'" in loaded.problem and loaded.price_edits == {}
    assert (tmp_path / "usage.json").read_text(encoding="utf-8").startswith('{"prices"')
    with pytest.raises(ValueError):
        Price(1.0, 1.0, float("nan"))


async def test_the_budget_warns_when_near_and_when_over(model_server, profile, workspace_dir) -> None:
    runtime = make_runtime(profile, workspace_dir)
    assert runtime.usage is not None
    prices = PriceTable().with_edit("scripted-model", Price(1000.0, 100.0, 1000.0, "USD"))  # $1 per 1,000 tokens
    runtime.usage.save_config(UsageConfig(prices.edits, Budget(2.0, "USD", warn_at=0.8)))
    model_server.enqueue(with_usage(text_reply("one"), {"prompt_tokens": 1000, "completion_tokens": 700}))
    await one_turn(runtime, "b1", "first")
    records(runtime)
    status = runtime.usage.budget_status()
    assert status.state is BudgetState.NEAR and status.spent == pytest.approx(1.7)
    model_server.enqueue(with_usage(text_reply("two"), {"prompt_tokens": 500, "completion_tokens": 100}))
    await one_turn(runtime, "b1", "second")
    records(runtime)
    assert runtime.usage.budget_status().state is BudgetState.OVER
    # spend in another currency is never converted into the budget's
    assert budget.status(Budget(2.0, "CNY"), {"USD": 99.0}).state is BudgetState.OK
    runtime.store.close()


async def test_the_report_and_csv_follow_the_records(model_server, profile, workspace_dir) -> None:
    runtime = make_runtime(profile, workspace_dir)
    assert runtime.usage is not None
    model_server.enqueue(with_usage(text_reply("hello"), OPENAI_USAGE))
    await one_turn(runtime, "r1", "hello")
    runtime.store.rename("r1", "=HYPERLINK(\"http://evil\")")
    records(runtime)
    today = date.today()
    report = runtime.usage.report(today, today)
    assert report.total.input >= 1200 and report.unpriced_models == ["scripted-model"]
    assert report.total.cost == {} and report.total.unpriced_tokens > 0  # tokens only: no invented cost
    session = report.biggest_sessions(1)[0]
    assert session.key == "r1"
    rows = list(csv.DictReader(io.StringIO(runtime.usage.csv(today, today))))
    chat = next(r for r in rows if r["purpose"] == "chat")
    assert chat["cost"] == "" and chat["cached_input_tokens"] == "1024" and chat["reasoning_tokens"] == "180"
    assert chat["session_title"].startswith("'=")  # a spreadsheet never runs it as a formula
    priced = csv_text(runtime.usage.ledger.rows(), PriceTable().with_edit("scripted-model", Price(1, 0.1, 2)))
    assert "USD" in priced
    # a deleted session keeps its cost
    runtime.store.delete_session("r1")
    runtime.store.purge_session("r1")
    assert runtime.usage.report(today, today).biggest_sessions(1)[0].label.endswith("deleted)")
    runtime.store.close()


async def test_an_embeddings_request_is_recorded_for_the_session_it_ran_in(
        model_server: ScriptedModelServer, profile, workspace_dir) -> None:
    from hermes_desktop.core.knowledge.embeddings import Endpoint, embed
    from hermes_desktop.core.usage.scope import within_session

    runtime = make_runtime(profile, workspace_dir)
    model_server.embeddings = lambda texts: [[1.0, 0.0] for _ in texts]

    async def search() -> list[list[float]]:
        return await asyncio.to_thread(embed, Endpoint(model_server.base_url, None, "embed-small"),
                                       ["green tea in the morning", "a cello"])

    assert len(await within_session("k1", search)) == 2
    rows = [r for r in records(runtime) if r["purpose"] == "embedding"]
    assert len(rows) == 1
    assert (rows[0]["session_id"], rows[0]["model"], rows[0]["input_tokens"], rows[0]["output_tokens"],
            rows[0]["estimated"]) == ("k1", "embed-small", 7, 0, 0)
    runtime.store.close()


async def test_test_connection_is_recorded_too(model_server: ScriptedModelServer, profile, workspace_dir) -> None:
    from hermes_desktop.core.connection_check import CheckStatus, check_connection
    from tests.support.model_server import ScriptedReply

    runtime = make_runtime(profile, workspace_dir)
    model_server.enqueue(ScriptedReply(json_body={
        "id": "c", "object": "chat.completion", "created": 1, "model": "scripted-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "p"}, "finish_reason": "length"}],
        "usage": {"prompt_tokens": 57, "completion_tokens": 1, "total_tokens": 58}}))
    result = await check_connection(model_server.base_url, "scripted-model", None)
    assert result.status is CheckStatus.OK
    rows = [r for r in records(runtime) if r["purpose"] == "connection_test"]
    assert [(r["model"], r["input_tokens"], r["output_tokens"], r["estimated"]) for r in rows] == \
        [("scripted-model", 57, 1, 0)]
    runtime.store.close()

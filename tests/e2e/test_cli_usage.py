"""`hermes-desktop usage` as a real subprocess: an `ask` against the scripted server (its usage chunk with cached and
reasoning tokens, and the title request's) is recorded, then printed per model, day and session, as text and as
JSON, with and without a price; a bad date is a usage error that says what to type."""

from __future__ import annotations

import json
from datetime import date, timedelta

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.usage import config as usage_config
from hermes_desktop.core.usage.config import Budget, UsageConfig
from hermes_desktop.core.usage.prices import Price
from tests.support.cli import hermes
from tests.support.model_server import text_reply, with_usage

USAGE = {"prompt_tokens": 4000, "completion_tokens": 900, "prompt_tokens_details": {"cached_tokens": 3000},
         "completion_tokens_details": {"reasoning_tokens": 400}}


def test_ask_then_usage_as_text_and_json(server, env) -> None:
    server.enqueue(with_usage(text_reply("The capital is Paris."), USAGE))
    asked = hermes("ask", "What is the capital of France?", "--session", "geo", env=env)
    assert asked.returncode == 0, asked.stderr

    text = hermes("usage", env=env)
    assert text.returncode == 0, text.stderr
    assert "scripted-model" in text.stdout and "no price" in text.stdout
    assert "No price for: scripted-model" in text.stdout
    line = next(l for l in text.stdout.splitlines() if l.startswith("scripted-model"))
    assert "3,000" in line  # cached input

    raw = hermes("usage", "--json", "--by", "session", env=env)
    assert raw.returncode == 0, raw.stderr
    report = json.loads(raw.stdout)
    assert report["by"] == "session" and report["total"]["cost"] == {}
    geo = next(r for r in report["rows"] if r["key"] == "geo")
    assert geo["cached_input_tokens"] >= 3000 and geo["reasoning_tokens"] == 400
    assert geo["requests"] >= 1 and geo["estimated_requests"] == 0

    usage_config.save(app_paths().config_dir, UsageConfig({"scripted-model": Price(1.0, 0.1, 4.0)},
                                                         Budget(0.004, "USD")))
    priced = json.loads(hermes("usage", "--json", "--by", "day", env=env).stdout)
    today = date.today().isoformat()
    assert [r["key"] for r in priced["rows"]] == [today]
    # the chat alone: 1,000 uncached × $1 + 3,000 cached × $0.10 + 900 output × $4, per million
    assert priced["total"]["cost"]["USD"] >= 0.0049
    assert priced["budget"]["state"] == "over"
    assert "Budget this month" in hermes("usage", env=env).stdout

    tomorrow = (date.today() + timedelta(days=1)).isoformat()
    empty = hermes("usage", "--since", tomorrow, "--until", tomorrow, env=env)
    assert empty.returncode == 0 and "No model requests in this period." in empty.stdout
    csv_out = hermes("usage", "--csv", env=env)
    assert csv_out.returncode == 0 and csv_out.stdout.startswith("day,model,purpose")


def test_a_bad_date_is_a_usage_error(env) -> None:
    bad = hermes("usage", "--since", "last tuesday", env=env)
    assert bad.returncode == 2 and "use YYYY-MM-DD" in bad.stderr

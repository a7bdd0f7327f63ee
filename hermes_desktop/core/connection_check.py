"""Test a provider before saving it: one cheap, real round trip, and an answer a user can act on.

Order: list the models (also proves the key), then a one-token completion that carries a
tiny tool, which shows whether the model accepts native tool calls. Every failure is
mapped to a status the setup dialog explains: invalid key, unreachable, wrong URL (with
the URL that works when adding /v1 fixes it), model not found (with the models the
server offers), tool calling not supported (offer the text fallback).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import openai

from hermes_desktop.core.events import ErrorKind
from hermes_desktop.core.llm.errors import ModelError, classify
from hermes_desktop.core.redact import redact_url

CHECK_TIMEOUT_S = 15.0
_PROBE_TOOL = {"type": "function", "function": {"name": "ping", "description": "Connectivity probe; never call it.",
                                                "parameters": {"type": "object", "properties": {}}}}


class CheckStatus(StrEnum):
    OK = "ok"
    INVALID_KEY = "invalid_key"
    UNREACHABLE = "unreachable"
    WRONG_URL = "wrong_url"
    MODEL_NOT_FOUND = "model_not_found"
    TOOLS_UNSUPPORTED = "tools_unsupported"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class CheckResult:
    status: CheckStatus
    message: str
    latency_ms: float | None = None
    models: list[str] = field(default_factory=list)
    suggested_url: str | None = None
    # The result as a code and its parameters (model, latency, URLs; for a failure, the model error's code and
    # params from core/llm/errors.py), so the setup dialog can word it in the user's language.
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status is CheckStatus.OK


def _client(base_url: str, api_key: str | None) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(api_key=api_key or "no-key-needed", base_url=base_url, max_retries=0,
                              timeout=openai.Timeout(CHECK_TIMEOUT_S, connect=5.0))


async def _list_models(base_url: str, api_key: str | None) -> list[str]:
    client = _client(base_url, api_key)
    try:
        page = await client.models.list()
        return sorted(m.id for m in page.data)
    finally:
        await client.close()


async def check_connection(base_url: str, model: str, api_key: str | None) -> CheckResult:
    base_url = base_url.strip().rstrip("/")
    if not base_url.startswith(("http://", "https://")):
        return CheckResult(CheckStatus.WRONG_URL, "The base URL must start with http:// or https://.",
                           code="bad_scheme", params={"url": redact_url(base_url)})
    secrets = (api_key,) if api_key else ()
    models: list[str] = []
    try:
        models = await _list_models(base_url, api_key)
    except openai.NotFoundError:
        if not base_url.endswith("/v1"):
            try:
                await _list_models(base_url + "/v1", api_key)
                shown = redact_url(base_url)  # the message never repeats a password or ?key= (issue 21)
                return CheckResult(CheckStatus.WRONG_URL, f"Nothing answers at {shown}, but {shown}/v1 works. "
                                   "Use that URL.", suggested_url=base_url + "/v1", code="add_v1",
                                   params={"url": shown, "suggested_url": redact_url(base_url + "/v1")})
            except Exception:
                pass
        # Some servers have no model list; the completion below still tells us what works.
    except Exception as exc:
        error = classify(exc, base_url=base_url, model=model, known_secrets=secrets)
        result = _from_error(error, models)
        if result.status is not CheckStatus.ERROR:
            return result
    if models and model and model not in models:
        return CheckResult(CheckStatus.MODEL_NOT_FOUND, f"The server does not list the model “{model}”. "
                           f"Pick one of the {len(models)} it offers.", models=models, code="model_not_listed",
                           params={"model": model, "count": len(models)})
    if not model:
        return CheckResult(CheckStatus.MODEL_NOT_FOUND, "Choose a model.", models=models, code="no_model")
    client = _client(base_url, api_key)
    started = time.monotonic()
    try:
        answer = await client.chat.completions.create(model=model, messages=[{"role": "user", "content": "ping"}],
                                                      max_tokens=1, tools=[_PROBE_TOOL])
        from hermes_desktop.core.usage import hooks as usage_hooks  # even a ping is billed (core/usage/hooks.py)

        usage_hooks.completion(answer, model=model, purpose="connection_test", estimate_input=60)
    except Exception as exc:
        error = classify(exc, base_url=base_url, model=model, sent_tools=True, known_secrets=secrets)
        return _from_error(error, models)
    finally:
        await client.close()
    latency = (time.monotonic() - started) * 1000
    return CheckResult(CheckStatus.OK, f"Connected: {model} answered in {latency:.0f} ms.", latency, models,
                       code="connected", params={"model": model, "latency_ms": round(latency)})


def _from_error(error: ModelError, models: list[str]) -> CheckResult:
    if error.tools_unsupported:
        return CheckResult(CheckStatus.TOOLS_UNSUPPORTED, "The model answers, but does not accept native tool calls. "
                           "Use the text tool-call format for it.", models=models, code="tools_unsupported",
                           params=dict(error.params))
    mapping = {
        ErrorKind.AUTH: CheckStatus.INVALID_KEY,
        ErrorKind.CONNECTION: CheckStatus.UNREACHABLE,
        ErrorKind.TIMEOUT: CheckStatus.UNREACHABLE,
        ErrorKind.MODEL_NOT_FOUND: CheckStatus.MODEL_NOT_FOUND,
    }
    status = mapping.get(error.kind, CheckStatus.ERROR)
    if error.kind is ErrorKind.BAD_REQUEST and "/v1" in error.message:
        status = CheckStatus.WRONG_URL
    return CheckResult(status, error.message, models=models, code=error.code, params=dict(error.params))


async def list_models_quietly(base_url: str, api_key: str | None) -> list[str]:
    """The server's models, or [] if it offers no list (or cannot be reached): for filling a combo box."""
    try:
        return await _list_models(base_url.rstrip("/"), api_key)
    except Exception:
        return []

"""Provider presets: a base URL and a sensible default model for the services users ask for most.

Everything a preset fills in stays editable. Local servers need no key. Defaults were
checked against each provider's OpenAI-compatible documentation; models change often,
which is why the setup dialog also lists what the server itself offers (`/models`).

Reasoning echo (`needs_reasoning_echo`): DeepSeek documents that in thinking mode the `reasoning_content` of a
stretch with tool calls must be passed back (400 otherwise); Moonshot's Kimi K2 thinking models likewise
want their reasoning kept in the context across tool calls. Zhipu GLM's "preserved thinking" is optional
(`clear_thinking`), so GLM stays off and learns it from a 400 if a server ever asks.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Preset:
    id: str
    name: str
    base_url: str
    model: str
    needs_key: bool = True
    key_hint: str = ""  # where to get a key
    context_window: int = 128_000
    # The thinking mode refuses a request whose tool-call turns lack their `reasoning_content` (see
    # core/llm/reasoning.py): the profile's AUTO reasoning echo is on for this preset from the first request.
    needs_reasoning_echo: bool = False


PRESETS: tuple[Preset, ...] = (
    Preset("openai", "OpenAI", "https://api.openai.com/v1", "gpt-4o-mini", key_hint="platform.openai.com/api-keys"),
    Preset("deepseek", "DeepSeek", "https://api.deepseek.com/v1", "deepseek-chat", key_hint="platform.deepseek.com",
           context_window=64_000, needs_reasoning_echo=True),
    Preset("qwen", "Qwen (DashScope)", "https://dashscope.aliyuncs.com/compatible-mode/v1", "qwen-plus",
           key_hint="dashscope.console.aliyun.com", context_window=128_000),
    Preset("moonshot", "Moonshot / Kimi", "https://api.moonshot.cn/v1", "moonshot-v1-32k",
           key_hint="platform.moonshot.cn", context_window=32_000, needs_reasoning_echo=True),
    Preset("zhipu", "Zhipu GLM", "https://open.bigmodel.cn/api/paas/v4", "glm-4-flash", key_hint="open.bigmodel.cn"),
    Preset("openrouter", "OpenRouter", "https://openrouter.ai/api/v1", "openai/gpt-4o-mini",
           key_hint="openrouter.ai/keys"),
    Preset("ollama", "Ollama (local)", "http://localhost:11434/v1", "qwen2.5:7b", needs_key=False, context_window=32_768),
    Preset("lmstudio", "LM Studio (local)", "http://localhost:1234/v1", "", needs_key=False, context_window=32_768),
    # "Custom" first: a user who has their own server looks for that word (vLLM and the rest are examples).
    Preset("custom", "Custom (vLLM, other OpenAI-compatible)", "", "", needs_key=False, context_window=32_768),
)


def preset(preset_id: str) -> Preset | None:
    return next((p for p in PRESETS if p.id == preset_id), None)


def preset_for_url(base_url: str) -> Preset:
    """The preset whose URL this is (to show the right entry when editing), else "custom"."""
    normalised = base_url.rstrip("/")
    for candidate in PRESETS:
        if candidate.base_url and candidate.base_url.rstrip("/") == normalised:
            return candidate
    return PRESETS[-1]


# Model ids (after any "vendor/" prefix) of models whose thinking mode wants its reasoning back with tool calls,
# whoever serves them: a DeepSeek or Kimi model behind a proxy or a router keeps the rule of its maker.
_ECHO_MODEL_PREFIXES = ("deepseek", "kimi-k2")


def needs_reasoning_echo(base_url: str, model: str) -> bool:
    """Whether `auto` sends reasoning back: the provider's preset (by URL) or the model's maker needs it."""
    if preset_for_url(base_url).needs_reasoning_echo:
        return True
    name = model.strip().lower().rsplit("/", 1)[-1]
    return name.startswith(_ECHO_MODEL_PREFIXES) and (not name.startswith("kimi") or "thinking" in name)


def profile_id_for(name: str, taken: set[str]) -> str:
    """A stable, keyring-safe id from a display name: lowercase ASCII, digits and hyphens, unique."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:40] or "provider"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate

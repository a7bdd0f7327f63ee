"""Extract raw SSE bodies from other client libraries' public HTTP cassettes into `<provider>/<name>.sse`.

Run by hand, not by the tests: `python -m tests.support.recordings.extract MIRRORS_DIR`, where MIRRORS_DIR
holds bare git mirrors named `<owner>+<name>/repo` (charmbracelet/fantasy, crmne/ruby_llm,
pydantic/pydantic-ai, vercel/ai). Each body is written byte for byte as the cassette stored it (the cassette is
YAML: its string is the body; a `base64_string` is decoded; nothing else is changed), and a sidecar
`<name>.json` names the source repository, path, commit and interaction index, the response status and
content type, and the request URL (so the provider is visible). The expected results in the sidecar
(`expect`) are NOT written here: they are written by hand after reading each body (see docs/providers.md).
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent

# (provider, name, repository, path in the repository, interaction index)
FANTASY = "charmbracelet/fantasy"
RUBY = "crmne/ruby_llm"
PYD = "pydantic/pydantic-ai"
VERCEL = "vercel/ai"
_F = "providertests/testdata/"
_R = "spec/fixtures/vcr_cassettes/"
_P = "tests/models/cassettes/"
SOURCES: list[tuple[str, str, str, str, int]] = [
    ("openai", "gpt-4o-mini-multi-tool", FANTASY, _F + "TestOpenAICommon/openai-gpt-4o-mini/multi_tool_streaming.yaml", 0),
    ("openai", "gpt-5-simple", FANTASY, _F + "TestOpenAICommon/openai-gpt-5/simple_streaming.yaml", 0),
    ("azure", "gpt-5-mini-tool", FANTASY, _F + "TestAzureCommon/azure-gpt-5-mini/tool_streaming.yaml", 0),
    ("azure", "gpt-5-mini-simple", FANTASY, _F + "TestAzureCommon/azure-gpt-5-mini/simple_streaming.yaml", 0),
    ("azure", "o4-mini-tool-answer", FANTASY, _F + "TestAzureCommon/azure-o4-mini/tool_streaming.yaml", 1),
    ("groq", "kimi-k2-tool", FANTASY, _F + "TestOpenAICompatibleCommon/groq-kimi-k2/tool_streaming.yaml", 0),
    ("groq", "kimi-k2-multi-tool", FANTASY, _F + "TestOpenAICompatibleCommon/groq-kimi-k2/multi_tool_streaming.yaml", 0),
    ("groq", "tool-use-failed", PYD, _P + "test_groq/test_tool_use_failed_error_streaming.yaml", 0),
    ("huggingface", "kimi-k2-tool", FANTASY, _F + "TestOpenAICompatibleCommon/huggingface-kimi-k2/tool_streaming.yaml", 0),
    ("huggingface", "kimi-k2-simple", FANTASY, _F + "TestOpenAICompatibleCommon/huggingface-kimi-k2/simple_streaming.yaml", 0),
    ("llama-cpp", "gpt-oss-tool", FANTASY, _F + "TestOpenAICompatibleCommon/llama-cpp-gpt-oss/tool_streaming.yaml", 0),
    ("llama-cpp", "gpt-oss-thinking", FANTASY, _F + "TestOpenAICompatibleThinking/llama-cpp-gpt-oss/thinking-streaming.yaml", 0),
    ("xai", "grok-4-fast-tool", FANTASY, _F + "TestOpenAICompatibleCommon/xai-grok-4-fast/tool_streaming.yaml", 0),
    ("xai", "grok-3-mini-thinking", FANTASY, _F + "TestOpenAICompatibleThinking/xai-grok-3-mini/thinking-streaming.yaml", 0),
    ("zai", "glm-4-7-flash-multi-tool", FANTASY, _F + "TestOpenAICompatibleCommon/zai-glm-4-7-flash/multi_tool_streaming.yaml", 0),
    ("zai", "glm-4-7-flash-thinking", FANTASY, _F + "TestOpenAICompatibleThinking/zai-glm-4-7-flash/thinking-streaming.yaml", 0),
    ("avian", "kimi-tool", FANTASY, _F + "TestOpenAICompatibleCommon/avian-kimi/tool_streaming.yaml", 0),
    ("avian", "kimi-thinking", FANTASY, _F + "TestOpenAICompatibleThinking/avian-kimi/thinking-streaming.yaml", 0),
    ("openrouter", "anthropic-tool", FANTASY, _F + "TestOpenRouterCommon/anthropic/tool_streaming.yaml", 0),
    ("openrouter", "gemini-multi-tool", FANTASY, _F + "TestOpenRouterCommon/gemini/multi_tool_streaming.yaml", 0),
    ("openrouter", "glm-tool", FANTASY, _F + "TestOpenRouterCommon/glm/tool_streaming.yaml", 0),
    ("openrouter", "kimi-tool", FANTASY, _F + "TestOpenRouterCommon/kimi/tool_streaming.yaml", 0),
    ("openrouter", "grok-simple", FANTASY, _F + "TestOpenRouterCommon/grok/simple_streaming.yaml", 0),
    ("openrouter", "anthropic-thinking", FANTASY, _F + "TestOpenRouterThinking/anthropic/thinking-streaming.yaml", 0),
    ("openrouter", "minimax-stream-error", PYD, _P + "test_openrouter/test_openrouter_stream_error.yaml", 0),
    ("vercel", "gpt-5-tool", FANTASY, _F + "TestVercelCommon/gpt-5/tool_streaming.yaml", 0),
    ("vercel", "claude-sonnet-4-thinking", FANTASY, _F + "TestVercelThinking/claude-sonnet-4/thinking-streaming.yaml", 0),
    ("vercel", "gemini-2-5-flash-multi-tool", FANTASY, _F + "TestVercelCommon/gemini-2.5-flash/multi_tool_streaming.yaml", 0),
    ("deepseek", "chat-simple", RUBY, _R + "chat_streaming_responses_deepseek_deepseek-chat_supports_streaming_responses.yml", 0),
    ("deepseek", "chat-tools", RUBY, _R + "chat_function_calling_deepseek_deepseek-chat_can_use_tools_with_multi-turn_streaming_conversations.yml", 0),
    ("deepseek", "thinking-pydantic", PYD, _P + "test_deepseek/test_deepseek_model_thinking_stream.yaml", 0),
    ("mistral", "small-simple", RUBY, _R + "chat_streaming_responses_mistral_mistral-small-latest_supports_streaming_responses.yml", 0),
    ("mistral", "small-tools", RUBY, _R + "chat_function_calling_mistral_mistral-small-latest_can_use_tools_with_multi-turn_streaming_conversations.yml", 0),
    ("mistral", "small-hybrid-thinking", RUBY, _R + "chat_mistral_hybrid_reasoning_streams_thinking_separately_from_content.yml", 0),
    ("mistral", "magistral-thinking", PYD, _P + "test_mistral/test_mistral_model_thinking_part_iter.yaml", 0),
    ("perplexity", "sonar-simple", RUBY, _R + "chat_streaming_responses_perplexity_sonar_supports_streaming_responses.yml", 0),
    ("gpustack", "qwen3-simple", RUBY, _R + "chat_streaming_responses_gpustack_qwen3_supports_streaming_responses.yml", 0),
    ("ollama", "qwen3-thinking", RUBY, _R + "chat_with_extended_thinking_ollama_qwen3_streams_thinking_content_when_available.yml", 0),
    ("ollama", "qwen3-tools", RUBY, _R + "chat_function_calling_ollama_qwen3_can_use_tools_with_multi-turn_streaming_conversations.yml", 0),
    ("ollama-cloud", "gpt-oss-120b-simple", RUBY, _R + "chat_streaming_responses_ollama_cloud_gpt-oss_120b_supports_streaming_responses.yml", 0),
    ("snowflake", "claude-sonnet-simple", PYD, _P + "test_snowflake/test_snowflake_model_streaming.yaml", 0),
    ("snowflake", "thinking", PYD, _P + "test_snowflake/test_snowflake_thinking_streaming.yaml", 0),
    ("crusoe", "simple", PYD, _P + "test_crusoe/test_crusoe_model_streaming.yaml", 0),
    ("zai", "thinking-pydantic", PYD, _P + "test_zai/test_zai_thinking_stream.yaml", 0),
    ("groq", "deepseek-r1-think-tags", PYD, _P + "test_groq/test_groq_model_thinking_part_iter.yaml", 0),
    ("dashscope", "qwen3-max-tool-empty-ids", VERCEL, "packages/alibaba/src/__fixtures__/alibaba-tool-call.chunks.txt", 0),
    ("dashscope", "qwen3-max-reasoning", VERCEL, "packages/alibaba/src/__fixtures__/alibaba-reasoning.chunks.txt", 0),
    ("mistral", "glm-incremental-tool-call", VERCEL, "packages/mistral/src/__fixtures__/mistral-incremental-tool-call.chunks.txt", 0),
    ("mistral", "magistral-medium-reasoning", VERCEL, "packages/mistral/src/__fixtures__/mistral-reasoning.chunks.txt", 0),
    ("moonshot", "kimi-stream", VERCEL, "packages/moonshotai/src/__fixtures__/moonshotai-stream.chunks.txt", 0),
    ("azure", "model-router", VERCEL, "packages/openai/src/chat/__fixtures__/azure-model-router.1.chunks.txt", 0),
    ("deepseek", "reasoner-tool-call", VERCEL, "packages/deepseek/src/chat/__fixtures__/deepseek-tool-call.chunks.txt", 0),
    ("perplexity", "sonar-usage-every-chunk", VERCEL, "packages/perplexity/src/__fixtures__/perplexity-text.chunks.txt", 0),
]


class _Loader(yaml.SafeLoader):
    """YAML as VCR writes it: `!binary` is a base64 scalar (ruby_llm's non-UTF-8 or compressed bodies)."""


_Loader.add_constructor("!binary", lambda loader, node: base64.b64decode(loader.construct_scalar(node)))


def _interactions(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return doc.get("interactions") or doc.get("http_interactions") or []


def _body(response: dict[str, Any]) -> bytes:
    body = response.get("body")
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, dict):
        if isinstance(body.get("base64_string"), str):
            return base64.b64decode(body["base64_string"])
        if isinstance(body.get("string"), str):
            return body["string"].encode("utf-8")
        if isinstance(body.get("string"), bytes):
            return body["string"]
    raise ValueError(f"no body string in {sorted(response)}")


def _status(response: dict[str, Any]) -> int:
    if isinstance(response.get("code"), int):
        return response["code"]
    return int(response["status"]["code"])


def _header(response: dict[str, Any], name: str) -> str:
    for key, value in (response.get("headers") or {}).items():
        if key.lower() == name:
            return value[0] if isinstance(value, list) else str(value)
    return ""


def _url(request: dict[str, Any]) -> str:
    return str(request.get("url") or request.get("uri") or "")


def main(mirrors: Path) -> None:
    for provider, name, repo, path, index in SOURCES:
        git_dir = mirrors / repo.replace("/", "+") / "repo"
        commit = subprocess.run(["git", "-C", str(git_dir), "rev-parse", "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
        text = subprocess.run(["git", "-C", str(git_dir), "show", f"{commit}:{path}"], check=True,
                              capture_output=True).stdout.decode("utf-8")
        target = HERE / provider
        target.mkdir(exist_ok=True)
        sidecar = target / f"{name}.json"
        old = json.loads(sidecar.read_text()) if sidecar.exists() else {}
        if path.endswith(".chunks.txt"):
            # vercel/ai keeps the payloads of a recorded stream, one JSON per line, and its tests send each as
            # one `data:` event: the body is rebuilt the same way (no `[DONE]` is added; none was recorded).
            body = b"".join(b"data: " + line + b"\n\n" for line in text.encode("utf-8").splitlines() if line.strip())
            (target / f"{name}.sse").write_bytes(body)
            old.update({
                "source": {"repository": repo, "path": path, "commit": commit, "interaction": index},
                "status": 200, "content_type": "text/event-stream",
                "body_form": "payloads as recorded, one per line; sent as `data: <payload>` events as vercel/ai's tests do",
            })
            sidecar.write_text(json.dumps(old, indent=2, ensure_ascii=False) + "\n")
            print(provider, name, len(body))
            continue
        interaction = _interactions(yaml.load(text, Loader=_Loader))[index]
        response = interaction["response"]
        (target / f"{name}.sse").write_bytes(_body(response))
        old.update({
            "source": {"repository": repo, "path": path, "commit": commit, "interaction": index},
            "status": _status(response),
            "content_type": _header(response, "content-type") or "text/event-stream",
            "request_url": _url(interaction["request"]),
        })
        sidecar.write_text(json.dumps(old, indent=2, ensure_ascii=False) + "\n")
        print(provider, name, len(_body(response)))


if __name__ == "__main__":
    main(Path(sys.argv[1]))

"""A deliberately simple, independent reading of a recorded SSE body: what the provider sent.

This is NOT Hermes' parser (core/llm/client.py): it is a second, plain reading used to draft each
recording's expected result (`expect` in its sidecar), which was then checked by hand against the body.
It reads every `data:` line as JSON, takes choice 0's delta, and collects:
- text: string `content`, and the `text` parts of a list `content` (Mistral);
- thinking: `reasoning_content`, else `reasoning`, else OpenRouter's `reasoning_details` texts; the `thinking`
  parts of a list `content` (Mistral's Magistral); a leading `<think>…</think>` in the text;
- tool calls, grouped by `index` (a fragment without one: a new call when it carries a new id, else the last);
- the last finish reason, and an `error` object sent inside the stream.
"""

from __future__ import annotations

import json
from typing import Any


def _parts(content: list[Any]) -> tuple[str, str]:
    text, thinking = [], []
    for part in content:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "text" and isinstance(part.get("text"), str):
            text.append(part["text"])
        elif part.get("type") == "thinking":
            inner = part.get("thinking")
            if isinstance(inner, str):
                thinking.append(inner)
            elif isinstance(inner, list):
                thinking.extend(p.get("text", "") for p in inner if isinstance(p, dict))
    return "".join(text), "".join(thinking)


def read(body: bytes) -> dict[str, Any]:
    text, thinking, calls, finish, error = [], [], [], None, None
    by_index: dict[int, dict[str, Any]] = {}
    for line in body.decode("utf-8").splitlines():
        if not line.startswith("data:"):
            continue
        payload = line[5:].strip()
        if payload == "[DONE]" or not payload:
            continue
        data = json.loads(payload)
        if isinstance(data.get("error"), dict):
            error = data["error"]
            continue
        for choice in data.get("choices") or []:
            if choice.get("index", 0) not in (0, None):
                continue
            delta = choice.get("delta") or {}
            content = delta.get("content")
            if isinstance(content, str):
                text.append(content)
            elif isinstance(content, list):
                t, th = _parts(content)
                text.append(t)
                thinking.append(th)
            for key in ("reasoning_content", "reasoning"):
                if isinstance(delta.get(key), str) and delta[key]:
                    thinking.append(delta[key])
                    break
            else:
                for item in delta.get("reasoning_details") or []:
                    if isinstance(item, dict) and isinstance(item.get("text"), str):
                        thinking.append(item["text"])
            for fragment in delta.get("tool_calls") or []:
                index = fragment.get("index")
                call = by_index.get(index) if isinstance(index, int) else None
                new_id = fragment.get("id")
                if call is None or (new_id and call["id"] and new_id != call["id"]):
                    if not isinstance(index, int) and calls and not (new_id and new_id != calls[-1]["id"]):
                        call = calls[-1]
                    else:
                        call = {"id": new_id or "", "name": "", "arguments": ""}
                        calls.append(call)
                        if isinstance(index, int):
                            by_index[index] = call
                function = fragment.get("function") or {}
                call["id"] = call["id"] or new_id or ""
                call["name"] = call["name"] or function.get("name") or ""
                arguments = function.get("arguments")
                if isinstance(arguments, dict):
                    arguments = json.dumps(arguments)
                call["arguments"] += arguments or ""
            if choice.get("finish_reason"):
                finish = choice["finish_reason"]
    answer, thought = "".join(text), "".join(thinking)
    stripped = answer.lstrip()
    if stripped.startswith("<think>") and "</think>" in stripped:
        inside, _, rest = stripped[len("<think>"):].partition("</think>")
        thought, answer = thought + inside, rest.lstrip()
    return {
        "text": answer,
        "thinking": thought,
        "tool_calls": [{"name": c["name"], "arguments": json.loads(c["arguments"] or "{}")} for c in calls if c["name"]],
        "finish_reason": finish,
        "error": error,
    }

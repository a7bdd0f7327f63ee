"""Token estimates that know a Chinese character is about one token, not a quarter of one.

The estimate is deliberately simple (no tokenizer download, works for every
provider) and is calibrated at run time: each reply's reported `prompt_tokens`
nudges a correction factor, so the budget converges on the real tokenizer.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

# CJK ideographs, kana, hangul, and full-width forms: roughly one token per character.
_DENSE = re.compile(
    "[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f]"
)
MESSAGE_OVERHEAD = 4


def estimate_text_tokens(text: str | None) -> int:
    if not text:
        return 0
    dense = len(_DENSE.findall(text))
    return dense + math.ceil((len(text) - dense) / 4)


def estimate_message_tokens(message: dict[str, Any]) -> int:
    tokens = MESSAGE_OVERHEAD + estimate_text_tokens(message.get("content") if isinstance(message.get("content"), str) else None)
    if isinstance(message.get("content"), list):  # parts (attachments): text parts, and images by their tile estimate
        from hermes_desktop.core.attachments import image_part_tokens

        for part in message["content"]:
            if part.get("type") == "text":
                tokens += estimate_text_tokens(str(part.get("text") or ""))
            elif part.get("type") == "image_url":
                tokens += image_part_tokens(part)
    if message.get("tool_calls"):
        tokens += estimate_text_tokens(json.dumps(message["tool_calls"], ensure_ascii=False))
    return tokens


def estimate_tools_tokens(tools: list[dict[str, Any]]) -> int:
    return estimate_text_tokens(json.dumps(tools, ensure_ascii=False)) if tools else 0


@dataclass
class TokenCalibration:
    """Multiplies estimates by what the server reported last time (smoothed, within sane bounds)."""

    factor: float = 1.0

    def apply(self, estimate: int) -> int:
        return math.ceil(estimate * self.factor)

    def observe(self, raw_estimate: int, reported: int) -> None:
        if raw_estimate <= 0 or reported <= 0:
            return
        measured = min(3.0, max(0.33, reported / raw_estimate))
        self.factor = 0.5 * self.factor + 0.5 * measured

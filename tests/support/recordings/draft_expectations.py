"""Draft each recording's `expect` from the oracle's plain reading (oracle.py), keeping what was written by hand.

`python -m tests.support.recordings.draft_expectations` after adding a recording; then read the body and the
draft, and add by hand what the oracle cannot know: `error_code` (Hermes' code for an error the provider sent),
`tool_call_ids` where the ids themselves are the quirk, and a `note` saying what is peculiar about the body.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.recordings import oracle

HERE = Path(__file__).parent
HAND_WRITTEN = ("error_code", "tool_call_ids", "note")


def main() -> None:
    for sse in sorted(HERE.glob("*/*.sse")):
        sidecar = sse.with_suffix(".json")
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        read = oracle.read(sse.read_bytes())
        expect = {"text": read["text"], "thinking": read["thinking"], "tool_calls": read["tool_calls"],
                  "finish_reason": read["finish_reason"]}
        if read["error"]:
            expect["error_message"] = read["error"].get("message")
        kept = {k: v for k, v in (meta.get("expect") or {}).items() if k in HAND_WRITTEN}
        meta["expect"] = {**expect, **kept}
        sidecar.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

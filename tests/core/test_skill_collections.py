"""The skill collections catalog (issue 27): the shipped list loads clean; the user's file adds and replaces
entries; a broken user file, a non-https URL or a huge file is reported and skipped, never fatal; search finds by
name, description and URL."""

from __future__ import annotations

import json
from pathlib import Path

from hermes_desktop.core.skills import collections


def test_the_shipped_catalog_loads_clean_with_https_git_urls() -> None:
    known, problems = collections.load(None)
    assert problems == [] and len(known) >= 2
    assert all(c.url.startswith("https://github.com/") and c.origin == "shipped" for c in known)
    assert any(c.url == "https://github.com/anthropics/skills" for c in known)


def test_the_users_file_adds_and_replaces_and_its_faults_are_reported(tmp_path: Path) -> None:
    (tmp_path / collections.USER_FILE_NAME).write_text(json.dumps({"collections": [
        {"name": "Ours", "url": "https://git.example.org/team/skills", "description": "team"},
        {"name": "Mine instead", "url": "https://github.com/anthropics/skills/"},
        {"name": "no scheme", "url": "git.example.org/x"},
        "not an object"]}), encoding="utf-8")
    known, problems = collections.load(tmp_path)
    by_name = {c.name: c for c in known}
    assert by_name["Ours"].origin == "user" and "Mine instead" in by_name
    assert "Anthropic skills" not in by_name  # the same URL: the user's entry replaces the shipped one
    assert any("entry 3 needs a name and an https URL" in str(p) for p in problems)
    assert any(p.kind == "not_object" and p.entry == 4 for p in problems)


def test_a_broken_or_huge_users_file_is_skipped(tmp_path: Path) -> None:
    user = tmp_path / collections.USER_FILE_NAME
    user.write_text("{not json", encoding="utf-8")
    known, problems = collections.load(tmp_path)
    assert known == collections.load(None)[0] and "could not be read" in str(problems[0])
    user.write_bytes(b" " * (collections.MAX_FILE_BYTES + 1))
    assert collections.load(tmp_path)[1][0].kind == "too_large"


def test_search_ranks_by_words_and_an_empty_query_lists_all() -> None:
    known, _ = collections.load(None)
    assert collections.search(known, "") == known
    found = collections.search(known, "debugging test-driven")
    assert found and found[0].url == "https://github.com/obra/superpowers"
    assert collections.search(known, "zzzz-nothing") == []


def test_a_description_in_the_users_language_is_picked_where_there_is_one() -> None:
    chinese, _ = collections.load(None, "zh_CN")
    english, _ = collections.load(None, "en")
    assert all(c.description and not c.description.isascii() for c in chinese)
    assert all(c.description.isascii() for c in english)

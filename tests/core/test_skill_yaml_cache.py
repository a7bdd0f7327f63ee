"""core/skills/yaml_cache.py: skills' parsed YAML kept by the text's hash, so unchanged skills never import PyYAML.

Real files, real PyYAML to compare with; the "no PyYAML" check runs the real runtime in fresh processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
import yaml

from hermes_desktop.core.skills import yaml_cache
from hermes_desktop.core.skills.discovery import discover
from hermes_desktop.core.skills.loader import YamlError, YamlTooLarge, _parse_yaml
from hermes_desktop.core.skills.model import Origin

ROOT = Path(__file__).resolve().parents[2]

FRONT_MATTERS = [
    "name: plain\ndescription: A plain skill.",
    'name: quoted\ndescription: "Quoted: with a colon — and a dash"\nlicense: MIT',
    "name: nested\ndescription: x\nmetadata:\n  author: someone\n  version: \"1.0\"\n  tags: [a, b, c]",
    "name: numbers\ndescription: x\nversion: 1.0\ncount: 3\nratio: 0.25\nflag: yes\nother: off\nnothing: ~",
    "name: block\ndescription: |\n  line one\n  line two\nfolded: >\n  a\n  b",
    "name: 中文技能\ndescription: 整理会议纪要。\nallowed-tools: read_file save_note",
    "name: anchors\ndescription: x\nbase: &b {k: v}\nother: *b\nlist: [*b, *b]",
    "name: requires\ndescription: x\nrequires:\n  mcp: [github]\n  commands: [git, rg]",
]


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "cache" / yaml_cache.FILE_NAME
    monkeypatch.setattr(yaml_cache, "_entries", {})
    monkeypatch.setattr(yaml_cache, "_dirty", False)
    monkeypatch.setattr(yaml_cache, "_path", None)
    monkeypatch.setattr(yaml_cache, "_loaded", False)
    yaml_cache.configure(path)
    yield path
    yaml_cache.configure(None)


def _forget_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a new process would start: nothing in memory, the file read again."""
    monkeypatch.setattr(yaml_cache, "_entries", {})
    monkeypatch.setattr(yaml_cache, "_loaded", False)


@pytest.mark.parametrize("text", FRONT_MATTERS)
def test_a_kept_parse_is_what_pyyaml_gives(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = yaml.safe_load(text)
    assert _parse_yaml(text) == expected
    yaml_cache.save()
    _forget_in_memory(monkeypatch)
    assert yaml_cache.lookup(text) == {"value": expected}
    again = _parse_yaml(text)
    assert again == expected and json.dumps(again, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_what_json_cannot_give_back_is_parsed_every_time() -> None:
    for text in ("name: d\ndescription: x\ndate: 2024-05-01", "name: k\ndescription: x\nmap: {1: one}",
                 "name: b\ndescription: x\ndata: !!binary aGk=", "name: f\ndescription: x\nn: .nan"):
        first = _parse_yaml(text)
        assert yaml_cache.lookup(text) is None, text
        assert repr(_parse_yaml(text)) == repr(first) == repr(yaml.safe_load(text))


def test_a_caller_changing_the_value_does_not_change_the_kept_one() -> None:
    text = FRONT_MATTERS[2]
    _parse_yaml(text)["metadata"]["tags"].append("changed")
    _parse_yaml(text)["metadata"]["author"] = "changed"
    assert _parse_yaml(text) == yaml.safe_load(text)


def test_invalid_yaml_and_alias_bombs_fail_the_same_way_from_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = "name: bad\ndescription: [unclosed"
    levels = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    levels += [f"l{n}: &l{n} [" + ",".join([f"*l{n - 1}"] * 9) + "]" for n in range(1, 7)]
    bomb = "name: bomb\n" + "\n".join(levels) + "\ndescription: *l6"
    with pytest.raises(YamlError) as invalid:
        _parse_yaml(bad)
    with pytest.raises(YamlTooLarge) as too_large:
        _parse_yaml(bomb)
    yaml_cache.save()
    _forget_in_memory(monkeypatch)
    with pytest.raises(YamlError) as invalid_again:
        _parse_yaml(bad)
    with pytest.raises(YamlTooLarge) as too_large_again:
        _parse_yaml(bomb)
    assert str(invalid_again.value) == str(invalid.value) and "expected" in str(invalid.value)
    assert str(too_large_again.value) == str(too_large.value) and "alias" in str(too_large.value)


def test_an_edited_skill_is_read_again_and_its_problems_are_the_same(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "skills"
    (root / "notes").mkdir(parents=True)
    skill = root / "notes" / "SKILL.md"
    skill.write_text("---\nname: notes\ndescription: First words.\n---\nTake notes.\n", encoding="utf-8")
    (root / "broken").mkdir()
    (root / "broken" / "SKILL.md").write_text("---\nname: broken\ndescription: [x\n---\nHi.\n", encoding="utf-8")
    first = discover([(root, Origin.USER)])
    yaml_cache.save()
    _forget_in_memory(monkeypatch)
    second = discover([(root, Origin.USER)])
    assert [(s.name, s.description) for s in second.skills] == [("notes", "First words.")]
    assert [[p.reason for p in problems] for _, problems in second.rejected] == \
        [[p.reason for p in problems] for _, problems in first.rejected] != []
    skill.write_text("---\nname: notes\ndescription: Second words.\n---\nTake notes.\n", encoding="utf-8")
    assert [s.description for s in discover([(root, Origin.USER)]).skills] == ["Second words."]


@pytest.mark.parametrize("content", ["{not json", json.dumps({"format": "other", "version": 1, "entries": {}}),
                                     json.dumps({"format": yaml_cache.FORMAT, "version": 1,
                                                 "entries": {"x": {"value": {"a": {1, 2}.__class__.__name__}},
                                                             "y": {"error": "bogus"}, "z": 3}})])
def test_a_damaged_or_foreign_cache_file_is_ignored_and_replaced(fresh_cache: Path, content: str) -> None:
    fresh_cache.parent.mkdir(parents=True)
    fresh_cache.write_text(content, encoding="utf-8")
    text = FRONT_MATTERS[0]
    assert _parse_yaml(text) == yaml.safe_load(text)
    yaml_cache.save()
    document = json.loads(fresh_cache.read_text(encoding="utf-8"))
    assert document["format"] == yaml_cache.FORMAT and {"y", "z"}.isdisjoint(document["entries"])


def test_a_cache_that_cannot_be_written_only_costs_the_import(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache's folder should be", encoding="utf-8")
    yaml_cache.configure(blocker / yaml_cache.FILE_NAME)
    text = FRONT_MATTERS[1]
    assert _parse_yaml(text) == yaml.safe_load(text)
    yaml_cache.save()  # logged, never raised
    assert blocker.read_text(encoding="utf-8").startswith("a file")


def test_a_second_start_with_unchanged_skills_does_not_import_pyyaml(tmp_path: Path) -> None:
    """The real runtime in two fresh processes, the same home: the first parses (PyYAML), the second does not."""
    code = ("import json, sys; from hermes_desktop.core.runtime import open_runtime; "
            "from hermes_desktop.core.secrets import MemorySecretStore; r = open_runtime(secrets=MemorySecretStore()); "
            "print(json.dumps({'yaml': 'yaml' in sys.modules, 'skills': sorted((s.name, s.description, list(s.tools)) "
            "for s in r.skills.discovery.skills)}))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = [json.loads(subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                                      check=True, timeout=120).stdout.strip().splitlines()[-1]) for _ in range(2)]
    assert [run["yaml"] for run in runs] == [True, False]
    assert runs[0]["skills"] == runs[1]["skills"] and len(runs[0]["skills"]) >= 4

"""Tool-call assembly from deltas, the text <tool_call> protocol, and tolerant argument parsing."""

from __future__ import annotations

import json

import pytest

from hermes_desktop.core.llm.assembly import ToolCallAssembler
from hermes_desktop.core.llm.text_protocol import TextToolCallParser, to_text_protocol
from hermes_desktop.core.tools.arguments import ArgumentProblem, parse_arguments, validate_arguments


def fragments(call_id, name, args, index=None):
    out = [{"id": call_id, "index": index, "function": {"name": name, "arguments": ""}}]
    out += [{"index": index, "function": {"arguments": ch}} for ch in args]
    return out


def test_fragments_without_index_or_id_become_separate_calls_in_order() -> None:
    assembler = ToolCallAssembler()
    for fragment in fragments(None, "a", '{"x": 1}') + fragments(None, "b", '{"y": 2}'):
        fragment.pop("index")
        if fragment.get("id") is None:
            fragment.pop("id", None)
        assembler.add([fragment])
    calls = assembler.finish()
    assert [(c.name, json.loads(c.arguments)) for c in calls] == [("a", {"x": 1}), ("b", {"y": 2})]
    assert all(c.id.startswith("call_") for c in calls)


def test_a_server_reusing_index_zero_with_new_ids_gives_two_calls() -> None:
    assembler = ToolCallAssembler()
    assembler.add(fragments("c1", "a", "{}", index=0))
    assembler.add(fragments("c2", "b", "{}", index=0))
    assert [(c.id, c.name) for c in assembler.finish()] == [("c1", "a"), ("c2", "b")]


def test_a_name_repeated_on_every_fragment_is_not_duplicated() -> None:
    assembler = ToolCallAssembler()
    for piece in ['{"a"', ': 1}']:
        assembler.add([{"index": 0, "id": "c1", "function": {"name": "calc", "arguments": piece}}])
    assert [(c.name, c.arguments) for c in assembler.finish()] == [("calc", '{"a": 1}')]


def test_arguments_sent_as_an_object_are_accepted() -> None:
    assembler = ToolCallAssembler()
    assembler.add([{"index": 0, "id": "c", "function": {"name": "f", "arguments": {"k": "v"}}}])
    assert json.loads(assembler.finish()[0].arguments) == {"k": "v"}


TEXT = 'Sure.<tool_call>\n{"name": "calculate", "arguments": {"expression": "1+1"}}\n</tool_call> Done <b>ok</b>'


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 11, 64])
def test_text_protocol_parser_hides_blocks_however_the_text_is_split(size: int) -> None:
    parser = TextToolCallParser()
    visible = "".join(parser.feed(TEXT[i : i + size]) for i in range(0, len(TEXT), size)) + parser.finish()
    assert visible == "Sure. Done <b>ok</b>"
    assert [(c.name, json.loads(c.arguments)) for c in parser.calls] == [("calculate", {"expression": "1+1"})]


def test_text_protocol_parser_keeps_an_unterminated_block_that_is_a_call() -> None:
    parser = TextToolCallParser()
    visible = parser.feed('<tool_call>{"name": "list_notes", "arguments": {}}') + parser.finish()
    assert visible == "" and parser.calls[0].name == "list_notes"


def test_text_protocol_parser_reports_an_unreadable_block_as_a_call_with_raw_arguments() -> None:
    parser = TextToolCallParser()
    parser.feed('<tool_call>{"name": "calculate", "arguments": {{{</tool_call>')
    parser.finish()
    assert parser.calls[0].name == "calculate"


def test_less_than_signs_in_normal_text_are_shown() -> None:
    parser = TextToolCallParser()
    assert parser.feed("a < b and <tool") + parser.feed("tip> here") + parser.finish() == "a < b and <tooltip> here"


def test_history_in_text_protocol_merges_consecutive_results() -> None:
    history = [
        {"role": "system", "content": "sys"},
        {"role": "assistant", "content": "x", "tool_calls": [
            {"id": "1", "function": {"name": "a", "arguments": "{}"}},
            {"id": "2", "function": {"name": "b", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "1", "name": "a", "content": "A"},
        {"role": "tool", "tool_call_id": "2", "name": "b", "content": "B"},
    ]
    converted = to_text_protocol(history, [{"type": "function", "function": {"name": "a"}}])
    assert [m["role"] for m in converted] == ["system", "assistant", "user"]
    assert converted[2]["content"].count("<tool_response>") == 2
    assert "<tools>" in converted[0]["content"] and converted[0]["content"].startswith("sys")


@pytest.mark.parametrize("raw,expected", [
    ('{"path": "a.txt"}', {"path": "a.txt"}),
    ('```json\n{"path": "a.txt"}\n```', {"path": "a.txt"}),
    ('{"path": "a.txt",}', {"path": "a.txt"}),
    ("{'path': 'a.txt'}", {"path": "a.txt"}),
    ('', {}),
])
def test_tolerant_parse_repairs_unambiguous_mistakes(raw: str, expected: dict) -> None:
    assert parse_arguments(raw).value == expected


@pytest.mark.parametrize("raw", ["just some words", "[1, 2]", '"a string"', "not json {"])
def test_unrepairable_arguments_are_refused_with_the_text(raw: str) -> None:
    with pytest.raises(ArgumentProblem):
        parse_arguments(raw)


SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}, "max_lines": {"type": "integer", "minimum": 1}},
          "required": ["path"], "additionalProperties": False}


def test_validation_does_not_coerce_and_names_each_problem() -> None:
    with pytest.raises(ArgumentProblem) as caught:
        validate_arguments({"path": "a", "max_lines": "5"}, SCHEMA)
    assert "max_lines" in str(caught.value) and "'5' is not of type 'integer'" in str(caught.value)
    with pytest.raises(ArgumentProblem) as caught:
        validate_arguments({"max_lines": 0, "extra": 1}, SCHEMA)
    message = str(caught.value)
    assert "'path' is a required property" in message and "extra" in message and "minimum" in message


# ---------------------------------------------------------------- repair never completes a cut value

@pytest.mark.parametrize("raw,reason", [
    ('{"path": "data', "inside a string"),
    ('{"path": "da', "inside a string"),
    ('{"path": "data\\', "inside a string"),
    ("{'path': 'data", "inside a string"),
    ('{"a": 1, "b":', "after a colon"),
    ('{"a": 1,', "after a comma"),
    ('{"a": 1, "b"', "after a key"),
    ('{"a": 1, b', "after a key"),
    ('{"a": tru', "unfinished word"),
    ('{"a": Non', "unfinished word"),
    ('{"n": 12', "number"),
    ('{"a": [1, 2', "number"),
    ('{"a": {', "opening bracket"),
    ('{"a": [', "opening bracket"),
    ("{", "opening bracket"),
])
def test_a_truncated_string_number_literal_or_key_is_never_completed(raw: str, reason: str) -> None:
    with pytest.raises(ArgumentProblem) as caught:
        parse_arguments(raw)
    assert "incomplete" in str(caught.value) and reason in str(caught.value)


@pytest.mark.parametrize("raw,expected", [
    ('{"a": "x"', {"a": "x"}),  # a missing closing brace after a complete value
    ("{'a': 'x',}", {"a": "x"}),
    ('{"a": true', {"a": True}),
    ('{"a": {"b": None}', {"a": {"b": None}}),
    ('{"a": ["x", "y"]', {"a": ["x", "y"]}),
    ('{"a": [1, 2]', {"a": [1, 2]}),
    ("{'msg': \"it's\", 'ok': True}", {"msg": "it's", "ok": True}),
    ('```json\n{"a": "x",}\n```', {"a": "x"}),
    ('{"quote": "say \\"hi\\""', {"quote": 'say "hi"'}),
])
def test_slips_after_complete_values_are_repaired(raw: str, expected: dict) -> None:
    parsed = parse_arguments(raw)
    assert parsed.value == expected and parsed.repaired


def test_text_protocol_closed_block_with_cut_arguments_is_not_completed() -> None:
    parser = TextToolCallParser()
    parser.feed('<tool_call>{"name": "delete_path", "arguments": {"path": "data</tool_call>')
    parser.finish()
    [call] = parser.calls
    assert call.name == "delete_path" and not parser.cut_off
    with pytest.raises(ArgumentProblem):
        parse_arguments(call.arguments)


def test_text_protocol_block_cut_by_the_end_of_the_stream_is_marked_cut_off() -> None:
    parser = TextToolCallParser()
    visible = parser.feed('Deleting.<tool_call>{"name": "delete_path", "arguments": {"path": "data') + parser.finish()
    assert visible == "Deleting." and parser.cut_off and parser.calls[0].name == "delete_path"


def test_text_protocol_tag_named_in_prose_at_the_end_stays_text() -> None:
    parser = TextToolCallParser()
    visible = parser.feed("Calls go in a <tool_call> tag") + parser.finish()
    assert visible == "Calls go in a <tool_call> tag" and not parser.calls and not parser.cut_off

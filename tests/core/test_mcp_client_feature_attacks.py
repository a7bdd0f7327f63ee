"""A hostile MCP server asks the client things (elicitation, sampling, roots). The test MCP server runs as a real
stdio process (`--client-features`); the Elicitor and Sampler are scripted (the window and the terminal fill them),
so everything between them and the server is the real code."""

from __future__ import annotations

import json

import pytest

from hermes_desktop.core.mcp.client_features import (
    MAX_DESCRIPTION_CHARS, MAX_FIELDS, MAX_LABEL_CHARS, MAX_MESSAGE_CHARS, MAX_OPTIONS, ElicitAction,
    ElicitationAnswer, form_fields,
)
from tests.core.test_mcp_client_features import ScriptedElicitor, call, runtime, start  # noqa: F401 - fixture

FLOOD = {"type": "object", "properties": {f"f{i}": {"type": "string"} for i in range(10_000)}}
BIG_ENUM = {"type": "object", "properties": {"pick": {"type": "string", "enum": [f"o{i}" for i in range(100_000)]}}}


async def test_a_form_too_big_to_show_is_an_error_and_the_user_is_never_asked(runtime) -> None:  # noqa: F811
    """10,000 fields, or one choice of 100,000 options, froze the window for seconds building the form (and printed
    100,000 lines in `ask`). Such a request is answered with an error that says why; nobody is asked."""
    elicitor = ScriptedElicitor([])
    runtime.mcp.client_features.elicitor = elicitor
    await start(runtime)
    with pytest.raises(Exception, match=f"at most {MAX_FIELDS}"):
        await call(runtime, "ask_form", schema=json.dumps(FLOOD))
    with pytest.raises(Exception, match=f"at most {MAX_OPTIONS:,}"):
        await call(runtime, "ask_form", schema=json.dumps(BIG_ENUM))
    assert elicitor.asked == []
    await runtime.mcp.stop_all()


async def test_huge_titles_descriptions_and_messages_are_shortened_for_showing(runtime) -> None:  # noqa: F811
    """A megabyte of title or description took seconds to lay out; the user sees a shortened text, marked as such,
    and the answer still goes back under the field's real name."""
    schema = {"type": "object", "properties": {
        "n" * 5_000: {"type": "string", "title": "T" * 1_000_000, "description": "D" * 1_000_000},
        "pick": {"type": "string", "enum": ["a", "b"], "enumNames": ["A" * 100_000, "B"]}}}
    elicitor = ScriptedElicitor([ElicitationAnswer(ElicitAction.ACCEPT, {"n" * 5_000: "ok", "pick": "a"})])
    runtime.mcp.client_features.elicitor = elicitor
    await start(runtime)
    answer = await call(runtime, "ask_form", schema=json.dumps(schema), message="M" * 1_000_000)
    assert answer == {"action": "accept", "content": {"n" * 5_000: "ok", "pick": "a"}}
    asked = elicitor.asked[0]
    text_field, choice = asked.fields
    assert text_field.name == "n" * 5_000 and len(text_field.label) <= MAX_LABEL_CHARS
    assert text_field.label.endswith("…") and len(text_field.description) <= MAX_DESCRIPTION_CHARS
    assert len(choice.options[0].label) <= MAX_LABEL_CHARS and choice.options[0].value == "a"
    assert len(asked.message) <= MAX_MESSAGE_CHARS and asked.message.startswith("MMM")
    await runtime.mcp.stop_all()


def test_the_limits_hold_at_their_edge() -> None:
    options = [str(n) for n in range(MAX_OPTIONS)]
    at_edge = {"type": "object", "properties": {f"f{i}": {"type": "string", "enum": options} for i in range(MAX_FIELDS)}}
    assert len(form_fields(at_edge)) == MAX_FIELDS


async def test_a_malformed_url_is_an_error_and_the_server_stays_connected(runtime) -> None:  # noqa: F811
    """An address urlsplit cannot parse ("http://[oops") raised ValueError out of the callback (the server saw
    "Invalid IPv6 URL"); it is answered as an error saying the address cannot be read, nobody is asked, and the
    server keeps working."""
    from hermes_desktop.core.mcp.status import ServerState

    elicitor = ScriptedElicitor([ElicitationAnswer(ElicitAction.DECLINE)])
    runtime.mcp.client_features.elicitor = elicitor
    await start(runtime)
    with pytest.raises(Exception, match="address cannot be read"):
        await call(runtime, "ask_url", url="http://[oops/login")
    assert elicitor.asked == []
    assert await call(runtime, "ask_form") == {"action": "decline", "content": None}
    assert runtime.mcp.supervisors["cf"].status.state is ServerState.CONNECTED
    await runtime.mcp.stop_all()


async def test_a_server_that_dies_while_its_question_is_open_closes_the_question(runtime) -> None:  # noqa: F811
    """The server crashes while the user is looking at its form: the question is closed (the dialog would stay up
    forever and, holding the one-at-a-time turn, block every other server's questions), the call fails, and the
    restarted server can ask again."""
    import asyncio
    import os
    import signal

    from hermes_desktop.core.mcp.status import ServerState

    class KillingElicitor:
        def __init__(self) -> None:
            self.asked = 0
            self.closed = asyncio.Event()

        async def elicit(self, request):
            self.asked += 1
            if self.asked > 1:
                return ElicitationAnswer(ElicitAction.DECLINE)
            os.killpg(runtime.mcp.supervisors["cf"]._server_pid(), signal.SIGKILL)
            try:
                await asyncio.Event().wait()  # the user has not answered yet
            finally:
                self.closed.set()

    elicitor = KillingElicitor()
    runtime.mcp.client_features.elicitor = elicitor
    await start(runtime)
    with pytest.raises(Exception):
        await asyncio.wait_for(call(runtime, "ask_form"), 60)  # a guard against a hang, not a timing check
    await asyncio.wait_for(elicitor.closed.wait(), 60)
    supervisor = runtime.mcp.supervisors["cf"]
    restarted = False
    for _ in range(1200):  # the restart: the state leaves "connected", then comes back
        state = supervisor.status.state
        restarted = restarted or state is not ServerState.CONNECTED
        if restarted and state is ServerState.CONNECTED:
            break
        await asyncio.sleep(0.05)
    assert supervisor.status.state is ServerState.CONNECTED, supervisor.status
    assert await asyncio.wait_for(call(runtime, "ask_form"), 60) == {"action": "decline", "content": None}
    await runtime.mcp.stop_all()


@pytest.mark.parametrize("typed", ["nan", "inf", "-inf", "1e999"])
def test_not_a_number_or_infinity_is_not_a_number(typed) -> None:
    """"nan" passed a number field with a range (every comparison with NaN is false) and "inf" one without; JSON
    has neither, so the server got null (or nothing usable) for a field the form had accepted."""
    from hermes_desktop.core.mcp.client_features import ProblemCode, check_value, parse_text

    bounded, free = form_fields({"type": "object", "properties": {
        "b": {"type": "number", "minimum": 0, "maximum": 10}, "f": {"type": "number"}}})
    for form_field in (bounded, free):
        try:
            problem = check_value(form_field, parse_text(form_field, typed))
        except ValueError as exc:
            problem = exc.args[0]
        assert problem is not None and problem.code is ProblemCode.NOT_NUMBER, (form_field.name, problem)


def test_an_integer_too_large_for_a_float_is_checked_not_crashed_on() -> None:
    """math.isfinite(10**400) raises OverflowError: a server's default or a typed answer that large crashed the
    check (and with it the form or `ask`). Such an int is a finite number; the range decides."""
    from hermes_desktop.core.mcp.client_features import ProblemCode, check_value

    bounded, free = form_fields({"type": "object", "properties": {
        "b": {"type": "integer", "minimum": 0, "maximum": 10}, "f": {"type": "integer"}}})
    assert check_value(free, 10**400) is None
    problem = check_value(bounded, 10**400)
    assert problem is not None and problem.code is ProblemCode.ABOVE_MAXIMUM


async def test_a_nan_answer_from_the_ui_never_reaches_the_server(runtime) -> None:  # noqa: F811
    schema = {"type": "object", "properties": {"x": {"type": "number", "minimum": 0, "maximum": 5}}, "required": ["x"]}
    elicitor = ScriptedElicitor([ElicitationAnswer(ElicitAction.ACCEPT, {"x": float("nan")})])
    runtime.mcp.client_features.elicitor = elicitor
    await start(runtime)
    assert await call(runtime, "ask_form", schema=json.dumps(schema)) == {"action": "cancel", "content": None}
    await runtime.mcp.stop_all()


async def test_a_flood_of_sampling_requests_is_not_a_flood_of_dialogs(  # noqa: F811 - runtime is a fixture
        runtime, profile, model_server) -> None:
    """A server fires 20 sampling requests at once. The user sees one at a time and only a few wait their turn;
    the rest are refused at once (the spec's rejection), each with one audit line, and the model is never called."""
    import asyncio

    from hermes_desktop.core.llm import ModelClient
    from hermes_desktop.core.mcp.client_features import MAX_WAITING_QUESTIONS
    from tests.core.test_mcp_client_features import audit

    class SlowRefuser:
        def __init__(self) -> None:
            self.asked = 0

        async def sample(self, request, generate):
            self.asked += 1
            if self.asked == 1:  # the user reads the first while the rest arrive (a guard, not a timing check)
                expected = 20 - 1 - MAX_WAITING_QUESTIONS
                for _ in range(400):
                    if len(audit(runtime, "sampling/createMessage")) >= expected:
                        break
                    await asyncio.sleep(0.05)
            return None

    sampler = SlowRefuser()
    features = runtime.mcp.client_features
    features.sampler = sampler
    model = ModelClient(profile, "sk-test")
    features.model = lambda: model
    await start(runtime)
    outcomes = await call(runtime, "flood_sampling", count=20)
    assert len(outcomes) == 20 and all(o.startswith("error:") for o in outcomes)
    assert sampler.asked <= 1 + MAX_WAITING_QUESTIONS, sampler.asked
    too_many = [o for o in outcomes if "waiting" in o]
    assert len(too_many) == 20 - sampler.asked
    assert not model_server.chat_requests
    await runtime.mcp.stop_all()
    await model.aclose()


@pytest.mark.parametrize("url", [
    "https://evil.example\\@good.example/login",  # Python's host: good.example; a browser's: evil.example
    "https://good.example@evil.example/login",  # credentials: a classic look-alike
    "https://user:secret@good.example/",
    "https://evil.example%2Fgood.example/",  # a browser decodes the host
    "https://good.example/\u202egnp.exe",  # a bidi override in what the user reads
    "https://good.example/ x",
    "https://faß.example/",  # shown as fass.example by Python's IDNA 2003; browsers open xn--fa-hia.example
])
async def test_a_url_a_browser_would_read_differently_is_refused(runtime, url) -> None:  # noqa: F811
    """The dialog shows the host Python parses; the browser opens the host the WHATWG URL parser finds. Where they
    can differ (a backslash, user info, an encoded host, controls and spaces) the request is refused, and neither
    the user is asked nor the browser opened."""
    opened: list[str] = []
    elicitor = ScriptedElicitor([ElicitationAnswer(ElicitAction.ACCEPT)])
    features = runtime.mcp.client_features
    features.elicitor = elicitor
    features._open_url = opened.append
    await start(runtime)
    with pytest.raises(Exception, match="address"):
        await call(runtime, "ask_url", url=url)
    assert elicitor.asked == [] and opened == []
    await runtime.mcp.stop_all()


async def test_a_sampling_request_too_big_to_show_is_refused_with_a_reason(  # noqa: F811 - runtime is a fixture
        runtime, profile, model_server) -> None:
    """1.1 million characters to show for approval (5 MB froze the dialog for 2 s): an error that says why, the user
    is not asked, and the model is never called."""
    from hermes_desktop.core.llm import ModelClient
    from hermes_desktop.core.mcp.client_features import MAX_SAMPLING_TEXT_CHARS
    from tests.core.test_mcp_client_features import ScriptedSampler

    sampler = ScriptedSampler()
    features = runtime.mcp.client_features
    features.sampler = sampler
    model = ModelClient(profile, "sk-test")
    features.model = lambda: model
    await start(runtime)
    answer = await call(runtime, "sample", prompt="x" * (MAX_SAMPLING_TEXT_CHARS + 100_000))
    assert "characters of text" in answer["error"] and sampler.asked == []
    assert not model_server.chat_requests
    await runtime.mcp.stop_all()
    await model.aclose()


async def test_a_bound_too_large_for_a_float_is_shown_in_full_on_the_terminal() -> None:
    """A `minimum` of 10**400 (valid JSON) made `ask` fail with OverflowError while printing the field's range; the
    terminal now shows the whole number and checks the answer against it."""
    import io

    from hermes_desktop.commands.mcp_terminal import TerminalElicitor
    from hermes_desktop.core.mcp.client_features import ElicitationRequest

    huge = 10**400
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": huge}}}
    out = io.StringIO()
    lines = iter(["y\n", "7\n", "y\n"])
    answer = await TerminalElicitor(out, lambda: next(lines, "")).elicit(
        ElicitationRequest("srv", "How many?", "form", form_fields(schema)))
    assert answer == ElicitationAnswer(ElicitAction.ACCEPT, {"n": 7})
    assert f"1 to {huge}" in out.getvalue()

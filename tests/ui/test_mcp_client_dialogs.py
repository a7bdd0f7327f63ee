"""The elicitation and sampling dialogs: built from a real request, checked before Accept, and every way out mapped
to the right answer; then both through the real window with the test MCP server as a real process and the scripted
model server as the active model."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QPlainTextEdit, QPushButton

from hermes_desktop.core.mcp.client_features import ElicitAction, ElicitationRequest, form_fields
from hermes_desktop.ui.dialogs.mcp_elicitation import McpElicitationDialog
from tests.support.mcp_client_features import FORM_SCHEMA
from tests.support.model_server import CallScript, text_reply, tool_call_reply

REPO = Path(__file__).resolve().parents[2]


def form_dialog(qtbot) -> McpElicitationDialog:
    dialog = McpElicitationDialog(ElicitationRequest("tickets", "Please register for the workshop.", "form",
                                                     form_fields(FORM_SCHEMA)))
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def field(dialog, name, kind=QLineEdit):
    found = dialog.findChild(kind, f"elicitField:{name}")
    assert found is not None, name
    return found


def error(dialog, name) -> str:
    label = dialog.findChild(QLabel, f"elicitError:{name}")
    return label.text() if label.isVisibleTo(dialog) else ""


def test_the_form_has_a_field_per_property_with_marks_help_hints_and_defaults(qtbot) -> None:
    dialog = form_dialog(qtbot)
    assert "tickets" in dialog.windowTitle()
    assert "“tickets”" in dialog.findChild(QLabel, "elicitServerLabel").text()
    assert dialog.findChild(QLabel, "elicitMessageLabel").text() == "Please register for the workshop."
    labels = [label.text() for label in dialog.findChildren(QLabel)]
    assert "Your name *" in labels and "Email *" in labels and "Homepage" in labels and "Size *" in labels
    assert "As it should appear on the badge" in labels, "descriptions are shown as help text"
    assert field(dialog, "seats").text() == "2" and field(dialog, "seats").placeholderText() == \
        "a whole number from 1 to 10"
    assert field(dialog, "budget").placeholderText() == "a number from 0.5 to 99.5"
    assert field(dialog, "email").placeholderText() == "name@example.com"
    assert field(dialog, "start").placeholderText() == "YYYY-MM-DD"
    assert field(dialog, "newsletter", QCheckBox).isChecked(), "a default is filled in"
    size = field(dialog, "size", QComboBox)
    assert [size.itemText(i) for i in range(size.count())] == ["(choose one)", "s", "m", "l"]
    colour = field(dialog, "colour", QComboBox)
    assert [colour.itemText(i) for i in range(1, colour.count())] == ["Red", "Green"], "titled options show titles"
    topics = [b.text() for b in dialog.findChildren(QCheckBox) if b.objectName().startswith("elicitOption:topics:")]
    assert topics == ["AI", "Databases", "Interfaces"]


def test_accept_checks_required_formats_ranges_and_choices_first(qtbot) -> None:
    dialog = form_dialog(qtbot)
    accept = dialog.findChild(QPushButton, "elicitAcceptButton")
    qtbot.mouseClick(accept, Qt.MouseButton.LeftButton)
    assert dialog.isVisible(), "nothing missing may be sent"
    assert error(dialog, "name") == "This field is required."
    assert error(dialog, "email") == "This field is required."
    assert error(dialog, "size") == "This field is required."
    assert error(dialog, "topics") == "", "optional"
    QTest.keyClicks(field(dialog, "name"), "Ada")
    QTest.keyClicks(field(dialog, "email"), "ada@")
    field(dialog, "seats").setText("11")
    field(dialog, "budget").setText("lots")
    QTest.keyClicks(field(dialog, "start"), "2026-13-01")
    field(dialog, "size", QComboBox).setCurrentIndex(2)
    for value in ("ai", "db", "ui"):
        dialog.findChild(QCheckBox, f"elicitOption:topics:{value}").setChecked(True)
    qtbot.mouseClick(accept, Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    assert error(dialog, "name") == "" and error(dialog, "size") == ""
    assert error(dialog, "email") == "Enter an email address like name@example.com."
    assert error(dialog, "seats") == "The largest allowed value is 10."
    assert error(dialog, "budget") == "Enter a number."
    assert error(dialog, "start") == "Enter a date as YYYY-MM-DD."
    assert error(dialog, "topics") == "Choose at most 2."
    assert dialog.findChild(QLabel, "elicitProblemLabel").text() == "Please correct the marked fields."

    QTest.keyClicks(field(dialog, "email"), "example.com")
    field(dialog, "seats").setText("3")
    field(dialog, "budget").setText("12.5")
    field(dialog, "start").setText("2026-12-01")
    dialog.findChild(QCheckBox, "elicitOption:topics:ui").setChecked(False)
    field(dialog, "newsletter", QCheckBox).setChecked(False)
    field(dialog, "colour", QComboBox).setCurrentIndex(1)
    with qtbot.waitSignal(dialog.finished):
        qtbot.mouseClick(accept, Qt.MouseButton.LeftButton)
    answer = dialog.answer()
    assert answer.action is ElicitAction.ACCEPT
    assert answer.content == {"name": "Ada", "email": "ada@example.com", "seats": 3, "budget": 12.5,
                              "newsletter": False, "size": "m", "colour": "r", "start": "2026-12-01",
                              "topics": ["ai", "db"]}
    assert type(answer.content["seats"]) is int and type(answer.content["budget"]) is float


def test_decline_cancel_escape_and_closing_map_to_decline_and_cancel(qtbot) -> None:
    dialog = form_dialog(qtbot)
    with qtbot.waitSignal(dialog.finished):
        qtbot.mouseClick(dialog.findChild(QPushButton, "elicitDeclineButton"), Qt.MouseButton.LeftButton)
    assert dialog.answer().action is ElicitAction.DECLINE and dialog.answer().content is None

    dialog = form_dialog(qtbot)
    QTest.keyClicks(field(dialog, "name"), "Ada")
    with qtbot.waitSignal(dialog.finished):
        qtbot.mouseClick(dialog.findChild(QPushButton, "elicitCancelButton"), Qt.MouseButton.LeftButton)
    assert dialog.answer().action is ElicitAction.CANCEL and dialog.answer().content is None

    dialog = form_dialog(qtbot)
    with qtbot.waitSignal(dialog.finished):
        QTest.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.answer().action is ElicitAction.CANCEL

    dialog = form_dialog(qtbot)
    with qtbot.waitSignal(dialog.finished):
        dialog.close()
    assert dialog.answer().action is ElicitAction.CANCEL


def test_a_url_request_shows_the_domain_and_the_full_address_and_opens_only_on_the_button(qtbot) -> None:
    url = "https://login.example.com/authorize?next=https://evil.example.net/"
    dialog = McpElicitationDialog(ElicitationRequest("auth", "Sign in to the test service.", "url", url=url))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.findChild(QLabel, "elicitDomainLabel").text() == "It wants you to open a page on login.example.com"
    assert dialog.findChild(QPlainTextEdit, "elicitUrlView").toPlainText() == url
    accept = dialog.findChild(QPushButton, "elicitAcceptButton")
    assert accept.text() == "Open in browser" and not accept.isDefault(), "Enter never opens a page"
    with qtbot.waitSignal(dialog.finished):
        qtbot.mouseClick(accept, Qt.MouseButton.LeftButton)
    assert dialog.answer().action is ElicitAction.ACCEPT and dialog.answer().content is None


# ------------------------------------------------------------------ through the window, with real servers

def start_server(h) -> None:
    from hermes_desktop.core.paths import app_paths

    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"cf": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server", "--client-features"],
        "env": {"PYTHONPATH": str(REPO)}, "cwd": str(REPO)}}}), encoding="utf-8")
    h.run(h.controller.reload_mcp())
    h.wait_until(lambda: h.controller.runtime.registry.get("mcp_cf_ask_form") is not None, timeout=30,
                 what="the client-features server to connect")


def tool_result(model_server) -> str:
    """The newest tool result the model was sent (the session's title request may come after it)."""
    return next(r.messages[-1]["content"] for r in reversed(model_server.chat_requests)
                if r.messages and r.messages[-1].get("role") == "tool")


def visible(dialog_of):
    return lambda: dialog_of() if dialog_of() is not None and dialog_of().isVisible() else None


def test_a_server_s_form_is_answered_in_the_window_and_the_answer_reaches_the_model(make_window, model_server) -> None:
    h = make_window()
    start_server(h)
    schema = json.dumps({"type": "object", "properties": {
        "city": {"type": "string", "title": "City"}, "nights": {"type": "integer", "minimum": 1, "maximum": 14}},
        "required": ["city"]})
    model_server.enqueue(tool_call_reply(CallScript("mcp_cf_ask_form", {"schema": schema})), text_reply("Booked."))
    h.send("book a hotel")
    dialog = h.wait_until(visible(lambda: h.window.elicitor.dialog), what="the elicitation dialog")
    assert "“cf”" in dialog.findChild(QLabel, "elicitServerLabel").text()
    h.do(lambda: QTest.keyClicks(field(dialog, "city"), "Lisbon"))
    h.do(lambda: field(dialog, "nights").setText("3"))
    h.do(lambda: dialog.findChild(QPushButton, "elicitAcceptButton").click())
    h.wait_until(lambda: len(model_server.chat_requests) >= 2, what="the tool result to reach the model")
    result = json.loads(tool_result(model_server))
    assert result == {"action": "accept", "content": {"city": "Lisbon", "nights": 3}}


def sampling_dialog(h):
    return h.wait_until(visible(lambda: h.window.sampler.dialog), what="the sampling dialog")


def test_sampling_in_the_window_is_approved_then_edited_then_sent(make_window, model_server) -> None:
    h = make_window()
    start_server(h)
    model_server.enqueue(tool_call_reply(CallScript("mcp_cf_sample", {"prompt": "Summarise MCP.", "max_tokens": 50,
                                                                      "system": "Be brief."})),
                         text_reply("MCP connects tools."),  # the sampling request, served by the active model
                         text_reply("Done."))
    h.send("ask the server")
    dialog = sampling_dialog(h)
    shown = dialog.findChild(QPlainTextEdit, "samplingRequestView").toPlainText()
    assert shown == "System prompt:\nBe brief.\n\nUser:\nSummarise MCP."
    details = dialog.findChild(QLabel, "samplingDetailsLabel").text()
    assert "Max tokens: 50 requested, 50 allowed." in details and "claude-haiku" in details
    assert "scripted-model" in dialog.findChild(QLabel, "samplingIntroLabel").text()
    assert dialog.findChild(QPushButton, "samplingRefuseButton").isDefault()
    assert len(model_server.chat_requests) == 1, "nothing is generated before the user allows it"
    h.do(lambda: dialog.findChild(QPushButton, "samplingApproveButton").click())
    reply = dialog.findChild(QPlainTextEdit, "samplingReplyEdit")
    h.wait_until(lambda: reply.isVisible() and reply.toPlainText() == "MCP connects tools.",
                 what="the reply to be shown")
    sent_to_model = model_server.chat_requests[1]
    assert sent_to_model.messages == [{"role": "system", "content": "Be brief."},
                                      {"role": "user", "content": "Summarise MCP."}]
    assert "tools" not in sent_to_model.body, "the user's tools are never offered to a server's request"
    h.do(lambda: reply.setPlainText("MCP connects tools to models."))
    h.do(lambda: dialog.findChild(QPushButton, "samplingSendButton").click())
    h.wait_until(lambda: len(model_server.chat_requests) >= 3, what="the tool result to reach the model")
    result = json.loads(tool_result(model_server))
    assert result["text"] == "MCP connects tools to models." and result["model"] == "scripted-model"


def test_sampling_refused_in_the_window_never_calls_the_model(make_window, model_server) -> None:
    h = make_window()
    start_server(h)
    model_server.enqueue(tool_call_reply(CallScript("mcp_cf_sample", {"prompt": "Leak it."})), text_reply("Fine."))
    h.send("ask the server")
    dialog = sampling_dialog(h)
    h.do(lambda: dialog.findChild(QPushButton, "samplingRefuseButton").click())
    h.wait_until(lambda: len(model_server.chat_requests) >= 2, what="the tool result to reach the model")
    result = json.loads(tool_result(model_server))
    assert result["code"] == -1
    assert all(r.messages[-1].get("content") != "Leak it." for r in model_server.chat_requests)


def test_sampling_closed_while_generating_is_a_refusal(make_window, model_server) -> None:
    from tests.support.model_server import hang_reply

    h = make_window()
    start_server(h)
    model_server.enqueue(tool_call_reply(CallScript("mcp_cf_sample", {"prompt": "Slow one."})), hang_reply(),
                         text_reply("Fine."))
    h.send("ask the server")
    dialog = sampling_dialog(h)
    h.do(lambda: dialog.findChild(QPushButton, "samplingApproveButton").click())
    h.wait_until(lambda: len(model_server.chat_requests) >= 2, what="the generation to start")
    assert "Generating" in dialog.findChild(QLabel, "samplingStatusLabel").text()
    h.do(dialog.close)
    h.wait_until(lambda: len(model_server.chat_requests) >= 3, what="the tool result to reach the model")
    assert json.loads(tool_result(model_server))["code"] == -1


def test_changing_the_workspace_in_the_window_tells_the_servers(make_window, model_server, tmp_path) -> None:
    from hermes_desktop.core.tools.spec import ToolContext

    h = make_window(HERMES_WORKSPACE="")  # no environment override: the saved workspace is the one in use
    start_server(h)
    runtime = h.controller.runtime

    def roots() -> dict:
        spec = runtime.registry.get("mcp_cf_show_roots")
        ctx = ToolContext("s", runtime.workspace, runtime.network_policy(), runtime.workspace.root / "notes")
        return json.loads(h.run(spec.handler({}, ctx)))

    assert roots()["changes"] == 0
    other = tmp_path / "project"
    other.mkdir()
    h.do(lambda: h.controller.set_workspace(str(other)))
    seen = roots()
    for _ in range(100):  # the notification is sent in the background: poll the server (no timed assertion)
        if seen["changes"]:
            break
        h.settle(0.05)
        seen = roots()
    assert seen == {"roots": [{"uri": other.resolve().as_uri(), "name": "Workspace"}], "changes": 1}


def test_a_failing_model_is_shown_in_the_sampling_dialog_and_can_be_tried_again(make_window, model_server) -> None:
    from tests.support.model_server import error_reply

    h = make_window()
    start_server(h)
    model_server.enqueue(tool_call_reply(CallScript("mcp_cf_sample", {"prompt": "Once more."})),
                         error_reply(400, "the prompt is too long for this model"),
                         text_reply("Second try."), text_reply("Done."))
    h.send("ask the server")
    dialog = sampling_dialog(h)
    approve = dialog.findChild(QPushButton, "samplingApproveButton")
    h.do(approve.click)
    status = dialog.findChild(QLabel, "samplingStatusLabel")
    h.wait_until(lambda: "The model failed" in status.text(), what="the model's failure to be shown")
    assert "too long" in status.text()
    assert not dialog.findChild(QPushButton, "samplingSendButton").isVisible(), "nothing to send"
    assert approve.text() == "Try again" and approve.isEnabled()
    h.do(approve.click)
    reply = dialog.findChild(QPlainTextEdit, "samplingReplyEdit")
    h.wait_until(lambda: reply.isVisible() and reply.toPlainText() == "Second try.", what="the second reply")
    h.do(lambda: dialog.findChild(QPushButton, "samplingSendButton").click())
    h.wait_until(lambda: len(model_server.chat_requests) >= 4, what="the tool result to reach the model")
    assert json.loads(tool_result(model_server))["text"] == "Second try."

"""The MCP question dialogs with hostile text in them. A QLabel guesses rich text when its first line holds a tag
(Qt::mightBeRichText), so any label that shows text from outside (a server's name or words, a model's error) must
be plain text: otherwise "<a href=…>Click here</a>" becomes a link and "<img src=…>" an image in the app's own
dialog."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from hermes_desktop.core.mcp.client_features import (
    ElicitationRequest, SamplingDraft, SamplingMessage, SamplingRequest, form_fields,
)
from hermes_desktop.ui.dialogs.mcp_elicitation import McpElicitationDialog
from hermes_desktop.ui.dialogs.mcp_sampling import McpSamplingDialog

HOSTILE = '<a href="https://evil.example/">Click here to re-enter your API key</a><img src="file:///etc/hosts">'


def outside_text_labels(dialog) -> list[QLabel]:
    return [label for label in dialog.findChildren(QLabel) if "evil.example" in label.text()]


def test_a_server_name_and_message_with_html_show_as_plain_text_in_the_form(qtbot) -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string", "title": HOSTILE, "description": HOSTILE}}}
    dialog = McpElicitationDialog(ElicitationRequest(HOSTILE, HOSTILE, "form", form_fields(schema)))
    qtbot.addWidget(dialog)
    dialog.show()
    labels = outside_text_labels(dialog)
    assert len(labels) >= 4  # the asker, the message, the field's label and its description
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels), \
        [label.objectName() or label.text()[:30] for label in labels if label.textFormat() != Qt.TextFormat.PlainText]


def test_a_model_error_and_a_server_name_with_html_show_as_plain_text_in_sampling(qtbot) -> None:
    request = SamplingRequest(HOSTILE, (SamplingMessage("user", "hi", 0, ({"type": "text", "text": "hi"},)),),
                              requested_max_tokens=10, max_tokens=10, model="scripted-model")

    async def generate() -> SamplingDraft:
        return SamplingDraft("", "scripted-model", error=HOSTILE)

    dialog = McpSamplingDialog(request, generate)
    qtbot.addWidget(dialog)
    dialog.show()
    loop = asyncio.new_event_loop()  # what "Generate reply" runs (the window runs it on its qasync loop)
    try:
        loop.run_until_complete(dialog._run())
    finally:
        loop.close()
    status = dialog.findChild(QLabel, "samplingStatusLabel")
    assert "evil.example" in status.text()
    labels = outside_text_labels(dialog)
    assert status in labels and dialog.findChild(QLabel, "samplingIntroLabel") in labels
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels), \
        [label.objectName() for label in labels if label.textFormat() != Qt.TextFormat.PlainText]


def _a_form_on_screen(h, model_server):
    """The client-features server connected, and the form its ask_form tool opens for a chat turn, on screen."""
    import json

    from tests.support.model_server import CallScript, text_reply, tool_call_reply
    from tests.ui.test_mcp_client_dialogs import start_server, visible

    start_server(h)
    model_server.enqueue(tool_call_reply(CallScript("mcp_cf_ask_form", {"schema": json.dumps(
        {"type": "object", "properties": {"city": {"type": "string"}}})})), text_reply("ok"))
    h.send("book a hotel")
    return h.wait_until(visible(lambda: h.window.elicitor.dialog), what="the elicitation dialog")


def test_quitting_while_a_server_s_form_is_open_closes_it_and_does_not_hang(make_window, model_server) -> None:
    """The user quits with an MCP server's form still on screen (or a sampling request waiting behind it): the
    questions are closed as cancelled, the server is stopped, and shutting down finishes."""
    from hermes_desktop.core.mcp.status import ServerState

    h = make_window()
    dialog = _a_form_on_screen(h, model_server)
    supervisor = h.controller.runtime.mcp.supervisors["cf"]
    h.do(h.window.close)
    h.run(asyncio.wait_for(h.controller.shutdown(), 60))  # a guard against a hang, not a timing check
    h.wait_until(lambda: not dialog.isVisible() if _alive(dialog) else True, what="the form to close")
    assert h.window.elicitor.dialog is None
    assert supervisor.status.state is ServerState.STOPPED, supervisor.status


def _alive(widget) -> bool:
    from shiboken6 import isValid

    return isValid(widget)


def test_stop_while_a_server_s_form_is_open_closes_the_form(make_window, model_server) -> None:
    """The user presses Stop while the form a tool call opened is on screen: the call is cancelled, so its question
    goes away with it (the server cancels its request), and nothing is sent."""
    from PySide6.QtWidgets import QPushButton

    h = make_window()
    dialog = _a_form_on_screen(h, model_server)
    h.do(lambda: h.window.findChild(QPushButton, "stopButton").click())
    h.wait_until(lambda: h.window.elicitor.dialog is None, timeout=30, what="the form to close after Stop")
    assert not _alive(dialog) or not dialog.isVisible()


def test_a_bound_too_large_for_a_float_is_shown_in_full_in_the_form(qtbot) -> None:
    """A `maximum` of 10**400 (valid JSON) raised OverflowError while the form was built, so the server's question
    never showed; the field now shows the whole number in its range."""
    from PySide6.QtWidgets import QLineEdit

    huge = 10**400
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": huge}}}
    dialog = McpElicitationDialog(ElicitationRequest("srv", "How many?", "form", form_fields(schema)))
    qtbot.addWidget(dialog)
    line = dialog.inputs["n"]
    assert isinstance(line, QLineEdit) and str(huge) in line.placeholderText()
    line.setText("7")
    assert dialog.check() == {"n": 7}

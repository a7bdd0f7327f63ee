"""Assistants in the window, as a user meets them: the Assistants tab (`assistantList`), the chat's assistant button,
starter prompts, `/` in the message box (prompts with a form for their variables, assistants, skills) by keyboard
only, the editor, delete with Undo, import. Real SQLite, the real engine, the scripted model server over HTTP."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QListWidget, QPlainTextEdit

from hermes_desktop.core.assistants.model import Assistant
from hermes_desktop.ui.assistant_panel import ID_ROLE
from tests.support.model_server import text_reply


def show_tab(h) -> QListWidget:
    inspector = h.window.inspector
    h.do(lambda: inspector.setCurrentIndex(inspector.indexOf(inspector.assistants)))
    listing = h.window.findChild(QListWidget, "assistantList")
    h.wait_until(lambda: listing.count() > 20, what="the gallery in the tab")
    return listing


def row_of(listing: QListWidget, assistant_id: str) -> int:
    return next(i for i in range(listing.count()) if listing.item(i).data(ID_ROLE) == assistant_id)


def test_pick_weekly_report_from_the_gallery_by_keyboard_and_send_notes(make_window, model_server) -> None:
    h = make_window()
    listing = show_tab(h)
    texts = [listing.item(i).text() for i in range(listing.count())]
    assert any(t.startswith("📅 Weekly report") for t in texts) and any("Translator" in t for t in texts)
    h.do(lambda: (listing.setFocus(), listing.setCurrentRow(row_of(listing, "builtin:weekly-report"))))
    h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_Return))
    button = h.window.assistants.button
    h.wait_until(lambda: "Weekly report" in button.text(), what="the header to show the assistant")
    welcome = h.window.chat.empty
    assert "Weekly report" in welcome.title.text()
    assert all(b.isHidden() for b in welcome.prompts)
    assert [b.text() for b in welcome.starters if not b.isHidden()] == ["Here are my notes for this week:",
                                                                       "Write my weekly report from notes.md"]
    session = h.window.current_session
    assert session and h.controller.runtime.assistants.store.session_assistant(session).assistant.id == \
        "builtin:weekly-report"
    model_server.enqueue(text_reply("## This week\n- Login page redesign"))
    h.send("Mon: login page. Tue: fixed 2 bugs. Next: payments.")
    h.wait_until(lambda: any("weekly work reports" in r.system_prompt for r in model_server.chat_requests),
                 what="the request with the assistant's instructions")
    request = next(r for r in model_server.chat_requests if "weekly work reports" in r.system_prompt)
    assert set(request.tool_names) <= {"get_current_time", "read_file", "list_directory", "remember", "recall",
                                       "forget"}


def test_slash_opens_the_picker_and_a_prompt_fills_its_variables_by_keyboard(make_window) -> None:
    h = make_window()
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    picker = h.window.assistants.picker
    h.do(lambda: (box.setFocus(), QTest.keyClicks(box, "/")))
    h.wait_until(picker.isVisible, what="the quick picker")
    kinds = {c.kind for c in picker.visible_choices()}
    assert kinds == {"prompt", "assistant", "skill"}
    h.do(lambda: QTest.keyClicks(picker.search, "rewrite tone"))
    assert [c.label for c in picker.visible_choices()] == ["Rewrite in a tone"]
    h.do(lambda: QTest.keyClick(picker.search, Qt.Key.Key_Return))
    h.wait_until(lambda: h.window.assistants.fill_dialog is not None and h.window.assistants.fill_dialog.isVisible(),
                 what="the variables form")
    dialog = h.window.assistants.fill_dialog
    tone, text = dialog.fields["tone"], dialog.fields["text"]
    h.do(lambda: (tone.setFocus(), QTest.keyClicks(tone, "friendly")))
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled(), "every blank first"
    h.do(lambda: (QTest.keyClick(tone, Qt.Key.Key_Tab), QTest.keyClicks(text, "Send me the file")))
    h.do(lambda: QTest.keyClick(text, Qt.Key.Key_Return))
    h.wait_until(lambda: "friendly tone" in box.toPlainText(), what="the filled prompt in the box")
    assert box.toPlainText() == "Rewrite the following text in a friendly tone, keeping its meaning:\n\nSend me the file"


def test_slash_then_esc_keeps_the_slash_and_an_assistant_can_be_chosen(make_window) -> None:
    h = make_window()
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    picker = h.window.assistants.picker
    h.do(lambda: (box.setFocus(), QTest.keyClicks(box, "/")))
    h.wait_until(picker.isVisible, what="the quick picker")
    h.do(lambda: QTest.keyClick(picker.search, Qt.Key.Key_Escape))
    h.wait_until(lambda: not picker.isVisible(), what="Esc to close it")
    assert box.toPlainText() == "/"
    h.do(lambda: box.clear())
    h.do(lambda: QTest.keyClicks(box, "/"))
    h.wait_until(picker.isVisible, what="the quick picker again")
    h.do(lambda: picker.search.setText("中英"))  # typed through an input method (QTest types Latin-1 only)
    assert [c.key for c in picker.visible_choices()] == ["builtin:translator"]
    h.do(lambda: QTest.keyClick(picker.search, Qt.Key.Key_Down))  # one row only: stays on it
    h.do(lambda: QTest.keyClick(picker.search, Qt.Key.Key_Return))
    h.wait_until(lambda: "Translator" in h.window.assistants.button.text(), what="the translator in the header")
    assert box.toPlainText() == ""


def test_new_session_with_assistant_and_plain_new_session(make_window) -> None:
    h = make_window()
    picker = h.window.assistants.picker
    h.do(lambda: QTest.keyClick(h.window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier |
                                Qt.KeyboardModifier.ShiftModifier))
    h.wait_until(picker.isVisible, what="the assistants for a new chat")
    h.do(lambda: QTest.keyClicks(picker.search, "code review"))
    h.do(lambda: QTest.keyClick(picker.search, Qt.Key.Key_Return))
    h.wait_until(lambda: "Code reviewer" in h.window.assistants.button.text(), what="the chosen assistant")
    first = h.window.current_session
    h.do(lambda: QTest.keyClick(h.window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier))
    assert h.window.current_session is None and "Hermes" in h.window.assistants.button.text()
    assert not picker.isVisible(), "Ctrl+N is one keystroke: a new Hermes chat"
    assert first


def test_editor_creates_and_delete_offers_undo(make_window) -> None:
    h = make_window()
    listing = show_tab(h)
    actions = h.window.assistants
    h.do(lambda: actions.panel.new_button.click())
    h.wait_until(lambda: actions.editor is not None and actions.editor.isVisible(), what="the editor")
    editor = actions.editor
    h.do(lambda: QTest.keyClick(editor.buttons.button(editor.buttons.StandardButton.Save), Qt.Key.Key_Space))
    assert editor.isVisible() and editor.problem.isVisible(), "no name: the dialog says so and stays"
    h.do(lambda: (editor.name.setText("Workspace reader"), editor.instructions.setPlainText("Only read.")))
    for i in range(editor.tools.count()):  # tick only read_file
        item = editor.tools.item(i)
        item.setCheckState(Qt.CheckState.Checked if item.data(Qt.ItemDataRole.UserRole + 1) == "read_file"
                           else Qt.CheckState.Unchecked)
    h.do(lambda: editor.buttons.button(editor.buttons.StandardButton.Save).click())
    h.wait_until(lambda: any("Workspace reader" in listing.item(i).text() for i in range(listing.count())),
                 what="the new assistant in Mine")
    saved = h.controller.runtime.assistants.store.get("Workspace reader")
    assert saved.tools == ("read_file",) and saved.instructions == "Only read."
    h.do(lambda: (listing.setFocus(), listing.setCurrentRow(row_of(listing, saved.id))))
    h.do(lambda: QTest.keyClick(listing, Qt.Key.Key_Delete))
    h.wait_until(lambda: actions.panel.undo_bar.isVisible(), what="the undo offer")
    h.wait_until(lambda: not any("Workspace reader" in listing.item(i).text() for i in range(listing.count())),
                 what="the row gone")
    h.do(lambda: actions.panel.undo_button.click())
    h.wait_until(lambda: any("Workspace reader" in listing.item(i).text() for i in range(listing.count())),
                 what="the row back after Undo")


def test_import_dialog_shows_what_is_added_and_grants_no_tools(make_window, tmp_path) -> None:
    h = make_window()
    show_tab(h)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"format": "hermes-assistants", "version": 1, "assistants": [
        {"name": "Deleter", "instructions": "Delete things.", "tools": ["delete_path"]}]}), encoding="utf-8")
    actions = h.window.assistants
    h.do(lambda: actions.panel.import_button.click())
    h.wait_until(lambda: actions.import_dialog is not None and actions.import_dialog.isVisible(), what="the dialog")
    dialog = actions.import_dialog
    h.do(lambda: dialog.source.setText(str(path)))
    h.run(dialog.preview())
    assert "Asks for: delete_path" in dialog.items.item(0).text()
    assert dialog.grant.isVisible() and not dialog.grant.isChecked()
    h.do(dialog.import_button.click)
    h.wait_until(lambda: any(a.name == "Deleter" for a in h.controller.runtime.assistants.store.mine()),
                 what="the import")
    assert h.controller.runtime.assistants.store.get("Deleter").tools == ()
    bad = tmp_path / "bad.json"
    bad.write_text('[{"name": "x"}]', encoding="utf-8")
    h.do(lambda: actions.panel.import_button.click())
    h.wait_until(lambda: actions.import_dialog is not dialog and actions.import_dialog.isVisible(), what="again")
    again = actions.import_dialog
    h.do(lambda: again.source.setText(str(bad)))
    h.run(again.preview())
    assert "[0].prompt" in again.summary.text() and not again.import_button.isEnabled()
    h.do(again.reject)


def test_the_header_follows_the_open_session(make_window) -> None:
    h = make_window()
    store = h.controller.runtime.assistants.store
    mine = store.save(Assistant(id="", name="Mine", emoji="🧪", tools=()))
    session = h.controller.store.create_session(title="with mine").id
    store.set_session_assistant(session, mine.id)
    h.run(h.window.open_session(session, None))
    h.wait_until(lambda: "Mine" in h.window.assistants.button.text(), what="the session's assistant")
    h.do(h.window.new_session)
    assert "Hermes" in h.window.assistants.button.text()


def test_the_prompt_library_saves_a_prompt_that_slash_then_offers(make_window) -> None:
    h = make_window()
    show_tab(h)
    actions = h.window.assistants
    h.do(lambda: actions.panel.prompts_button.click())
    h.wait_until(lambda: actions.library_dialog is not None and actions.library_dialog.isVisible(), what="the library")
    library = actions.library_dialog
    assert library.list.count() >= 5, "the built-in prompts"
    h.do(lambda: (library.name.setText("Leave request"), library.body.setPlainText("Dear {{manager}}, {{days}} off?")))
    assert "manager, days" in library.blanks.text()
    h.run(library.save())
    assert any(library.list.item(i).text() == "Leave request" for i in range(library.list.count()))
    h.do(lambda: (library.start_new(), library.name.setText("leave REQUEST"), library.body.setPlainText("x")))
    h.run(library.save())
    assert "already exists" in library.problem.text()
    h.do(library.reject)
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    picker = actions.picker
    h.do(lambda: (box.setFocus(), QTest.keyClicks(box, "/")))
    h.wait_until(picker.isVisible, what="the picker")
    h.do(lambda: QTest.keyClicks(picker.search, "leave"))
    assert [c.label for c in picker.visible_choices()] == ["Leave request"]
    h.do(lambda: QTest.keyClick(picker.search, Qt.Key.Key_Escape))


def test_a_history_that_cannot_be_saved_says_so_when_an_assistant_is_chosen(make_window, monkeypatch) -> None:
    """The fault injected where the store writes: its own error for a full disk (StorageUnavailable)."""
    from hermes_desktop.core.storage.errors import DiskFullError

    h = make_window()
    store = h.controller.runtime.assistants.store

    def full(*args, **kwargs):
        raise DiskFullError("The disk holding hermes.db is full: the session's assistant was not saved.")

    monkeypatch.setattr(store, "set_session_assistant", full)
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    picker = h.window.assistants.picker
    h.do(lambda: (box.setFocus(), QTest.keyClicks(box, "/")))
    h.wait_until(picker.isVisible, what="the picker")
    h.do(lambda: QTest.keyClicks(picker.search, "translator"))
    h.do(lambda: QTest.keyClick(picker.search, Qt.Key.Key_Return))
    h.wait_until(lambda: "is full" in h.window.errors.label.text(), what="the error bar")
    assert "Hermes" in h.window.assistants.button.text(), "the header does not claim a change that was not saved"


def test_the_editor_builds_what_was_entered_and_keeps_unset_parameters_unset(qapp) -> None:
    from hermes_desktop.core.assistants.model import AssistantFormatError
    from hermes_desktop.ui.dialogs.assistant_editor import AssistantEditor

    editor = AssistantEditor(None, tools=[("read_file", "read_file — read"), ("write_file", "write_file — write")],
                             skills=["pdf"], servers=["files"], profiles=[("main", "Main"), ("cheap", "Cheap")])
    editor.name.setText("  Cheap reader ")
    editor.emoji.setText("📖")
    editor.profile.setCurrentIndex(editor.profile.findData("cheap"))
    editor.model.setText("small")
    editor.side_profile.setCurrentIndex(editor.side_profile.findData("cheap"))
    editor.side_model.setText("tiny")
    editor.temperature.setValue(0.3)
    editor.starters.setPlainText("Read a.txt\n\n  Summarise b.md  ")
    editor.knowledge.setText("handbook, , policies")
    made = editor.assistant()
    assert made.name == "Cheap reader" and made.profile_id == "cheap" and made.model == "small"
    assert (made.side_profile_id, made.side_model) == ("cheap", "tiny")
    assert made.temperature == 0.3 and made.top_p is None and made.max_output_tokens is None
    assert made.reasoning_effort is None, "unset means the provider's own setting, not a value"
    assert made.tools == ("read_file",), "a new assistant starts with the read-only tools it is offered"
    assert made.starters == ("Read a.txt", "Summarise b.md") and made.knowledge == ("handbook", "policies")
    editor.name.setText("")
    try:
        editor.assistant()
    except AssistantFormatError as exc:
        assert exc.place == "assistant.name"
    else:
        raise AssertionError("an empty name must not pass")
    editor.deleteLater()


def test_a_new_chat_offers_assistants_one_click_away(make_window) -> None:
    h = make_window()
    actions = h.window.assistants
    h.wait_until(lambda: actions.suggestions.isVisible(), what="the suggestions in a new chat")
    labels = [b.text() for b in actions.suggestion_buttons]
    assert labels[0] == "🌐 Translator" and "📅 Weekly report" in labels
    h.do(actions.suggestion_buttons[0].click)
    h.wait_until(lambda: "Translator" in actions.button.text(), what="the translator chosen")
    assert not actions.suggestions.isVisible(), "a chat with an assistant shows its starters instead"
    h.do(lambda: QTest.keyClick(h.window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier))
    assert actions.suggestions.isVisible() and "Hermes" in actions.button.text()

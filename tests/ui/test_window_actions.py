"""Window actions no other UI test drives: the session list's menu (pin, fork, rename with F2, export to a real
file, delete and undo), Copy last reply, the MCP tab's Restart and Open logs against a real stdio server, and
Revoke all in Settings."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QListWidget, QMenu, QPushButton

from tests.support.model_server import text_reply
from tests.support.opened_urls import opened_urls

REPO = Path(__file__).resolve().parents[2]
SESSION_ROLE = Qt.ItemDataRole.UserRole + 1


def ask(h, model_server, question: str, answer: str) -> str:
    model_server.enqueue(text_reply(answer))
    h.send(question)
    h.wait_until(lambda: any(getattr(i, "text", None) == answer and not getattr(i, "streaming", False)
                             for i in h.window.chat.model.items()), what=f"the reply {answer!r}")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    return h.window.current_session


def find_row(h, session_id: str):
    sessions = h.window.sidebar.list
    return next((sessions.item(r) for r in range(sessions.count())
                 if sessions.item(r).data(SESSION_ROLE) == session_id), None)


def session_row(h, session_id: str):
    return h.wait_until(lambda: find_row(h, session_id), what="the session's row")


def listed(store) -> set[str]:
    return {s.id for s in store.list_sessions()}


def menu_action(h, session_id: str, *path: str) -> QAction:
    """Open the session's context menu (as a right-click does) and find the entry by its labels."""
    sessions = h.window.sidebar.list
    for old in h.window.sidebar.findChildren(QMenu):
        old.close()
        old.deleteLater()
    item = session_row(h, session_id)
    point = sessions.visualItemRect(item).center()
    h.do(lambda: sessions.customContextMenuRequested.emit(point))
    menu = h.wait_until(lambda: next((m for m in h.window.sidebar.findChildren(QMenu)
                                      if m.isVisible() and m.parent() is h.window.sidebar), None), what="the menu")
    for label in path[:-1]:
        menu = next(a.menu() for a in menu.actions() if a.text() == label)
    return next(a for a in menu.actions() if a.text() == path[-1])


def test_pin_fork_and_rename_from_the_session_list(make_window, model_server) -> None:
    h = make_window()
    session = ask(h, model_server, "first question", "first answer")
    store = h.controller.store

    h.do(menu_action(h, session, "Pin").trigger)
    h.wait_until(lambda: store.get_session(session).pinned, what="the pin to be stored")
    item = h.wait_until(lambda: (row := find_row(h, session)) and row.text().startswith("📌") and row,
                        what="the pinned row")
    sessions = h.window.sidebar.list
    assert sessions.item(0).text() == "Pinned" and sessions.row(item) == 1, "pinned sessions come first"
    h.do(menu_action(h, session, "Unpin").trigger)
    h.wait_until(lambda: not store.get_session(session).pinned, what="the unpin")

    before = {s.id for s in store.list_sessions()}
    h.do(menu_action(h, session, "Fork").trigger)
    forked = h.wait_until(lambda: {s.id for s in store.list_sessions()} - before, what="the fork")
    fork_id = forked.pop()
    assert [m.content for m in store.messages(fork_id)] == ["first question", "first answer"]
    assert [m.content for m in store.messages(session)] == ["first question", "first answer"], "the original stays"

    # F2 renames the current row in place; Enter stores it.
    item = session_row(h, session)
    h.do(lambda: (sessions.setFocus(), sessions.setCurrentItem(item)))
    h.do(lambda: QTest.keyClick(sessions, Qt.Key.Key_F2))
    editor = h.wait_until(lambda: next((e for e in sessions.findChildren(QLineEdit) if e.isVisible()), None),
                          what="the rename editor")
    h.run(h.window.refresh_sessions())  # a refresh while typing (a title arriving, another window) keeps the edit
    assert editor.isVisible()
    h.do(lambda: (editor.selectAll(), QTest.keyClicks(editor, "Renamed by keyboard"),
                  QTest.keyClick(editor, Qt.Key.Key_Return)))
    h.wait_until(lambda: store.get_session(session).title == "Renamed by keyboard", what="the new title stored")
    h.wait_until(lambda: (row := find_row(h, session)) and row.text() == "Renamed by keyboard",
                 what="the new title shown")


def test_delete_then_undo_brings_the_session_back_whole(make_window, model_server) -> None:
    h = make_window()
    session = ask(h, model_server, "keep me", "kept")
    store = h.controller.store
    h.do(menu_action(h, session, "Delete").trigger)
    h.wait_until(lambda: session not in listed(store), what="the delete (to the trash)")
    sidebar = h.window.sidebar
    assert sidebar.undo_bar.isVisible() and "Deleted" in sidebar.undo_label.text()
    h.wait_until(lambda: all(sidebar.list.item(r).data(SESSION_ROLE) != session for r in range(sidebar.list.count())),
                 what="the row to go")
    assert h.window.current_session != session, "the open session was closed"
    h.do(sidebar.undo_button.click)
    h.wait_until(lambda: session in listed(store), what="the undo")
    assert [m.content for m in store.messages(session)] == ["keep me", "kept"], "nothing was lost"
    h.wait_until(lambda: h.window.current_session == session, what="the session reopened")
    assert not sidebar.undo_bar.isVisible()
    session_row(h, session)


def test_export_from_the_menu_writes_the_file(make_window, model_server, tmp_path) -> None:
    h = make_window()
    session = ask(h, model_server, "export question", "export **answer**")
    for fmt, label, name in (("md", "Markdown…", "chat.md"), ("json", "JSON…", "chat.json"),
                             ("docx", "Word…", "chat.docx")):
        h.do(menu_action(h, session, "Export", label).trigger)
        dialog = h.wait_until(lambda: next((d for d in h.window.findChildren(QFileDialog) if d.isVisible()), None),
                              what="the save dialog")
        target = tmp_path / name
        h.do(lambda: dialog.setDirectory(str(tmp_path)))
        name_edit = dialog.findChild(QLineEdit, "fileNameEdit")
        # The dialog lists the folder asynchronously and may put its first name in the box again once it has (later
        # on a busy machine): type the name until it is still there after a pause.
        for _attempt in range(20):
            h.settle(0.2)
            h.do(lambda: (name_edit.clear(), QTest.keyClicks(name_edit, name)))
            h.settle(0.2)
            if dialog.selectedFiles() == [str(target)]:
                break
        assert dialog.selectedFiles() == [str(target)]
        h.do(dialog.accept)
        h.wait_until(target.exists, what=f"the {fmt} file")
        if fmt == "docx":  # issue 28: opened back as a Word document
            import docx

            paragraphs = [p.text for p in docx.Document(str(target)).paragraphs]
            assert "export question" in paragraphs and "export answer" in paragraphs
            h.wait_until(lambda: str(target) in h.window.statusBar().currentMessage(), what="the status message")
            dialog.deleteLater()
            continue
        text = target.read_text(encoding="utf-8")
        if fmt == "md":
            assert "export question" in text and "export **answer**" in text
        else:
            data = json.loads(text)
            contents = json.dumps(data)
            assert "export question" in contents and "export **answer**" in contents
        h.wait_until(lambda: str(target) in h.window.statusBar().currentMessage(), what="the status message")
        dialog.deleteLater()


def test_export_into_an_obsidian_vault_from_the_session_menu(make_window, model_server, tmp_path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    session = ask(h := make_window(), model_server, "vault question", "vault **answer**")
    h.do(menu_action(h, session, "Export", "Obsidian vault…").trigger)
    dialog = h.wait_until(lambda: next((d for d in h.window.findChildren(QFileDialog) if d.isVisible()), None),
                          what="the folder dialog")
    assert dialog.fileMode() == QFileDialog.FileMode.Directory
    h.do(lambda: dialog.setDirectory(str(vault)))
    h.settle(0.3)
    h.do(dialog.accept)
    h.wait_until(lambda: "xported" in h.window.statusBar().currentMessage(), what="the export to finish")
    assert str(vault) in h.window.statusBar().currentMessage(), (h.window.statusBar().currentMessage(),
                                                                 dialog.selectedFiles())
    note = next(p for p in (vault / "Hermes").glob("*.md") if p.name != "Hermes sessions.md")
    text = note.read_text(encoding="utf-8")
    assert text.startswith("---\n") and "vault **answer**" in text and "[[Hermes sessions]]" in text
    h.wait_until(lambda: str(note) in h.window.statusBar().currentMessage(), what="the status message")
    dialog.deleteLater()


def test_copy_last_reply_from_the_edit_menu(make_window, model_server) -> None:
    h = make_window()
    ask(h, model_server, "one", "the first reply")
    ask(h, model_server, "two", "the **last** reply")
    QApplication.clipboard().setText("something else")
    edit = next(a.menu() for a in h.window.menuBar().actions() if a.text() == "&Edit")
    copy = next(a for a in edit.actions() if a.text() == "Copy last reply")
    assert copy.shortcut().toString() == "Ctrl+Shift+C"
    h.do(copy.trigger)
    assert QApplication.clipboard().text() == "the **last** reply"
    assert "Copied" in h.window.statusBar().currentMessage()


def _server_pids(folder: Path) -> set[int]:
    """The test MCP server's processes: python -m tests.support.mcp_server running in `folder`."""
    pids = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if b"tests.support.mcp_server" in command and cwd == str(folder):
            pids.add(int(entry.name))
    return pids


def test_mcp_restart_starts_a_new_process_and_open_logs_opens_the_log_folder(make_window, tmp_path) -> None:
    from hermes_desktop.core.paths import app_paths

    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    folder = tmp_path / "server"
    folder.mkdir()
    config.write_text(json.dumps({"mcpServers": {"test": {
        "command": sys.executable, "args": ["-m", "tests.support.mcp_server"], "env": {"PYTHONPATH": str(REPO)},
        "cwd": str(folder)}}}), encoding="utf-8")
    h = make_window()
    servers = h.window.findChild(QListWidget, "mcpServerList")

    def connected() -> bool:
        return any(servers.item(i).text().startswith("test  ·  connected") for i in range(servers.count()))

    h.wait_until(connected, timeout=30, what="the server to connect")
    first = h.wait_until(lambda: _server_pids(folder), what="the server's process")
    restart = h.window.findChild(QPushButton, "restartMcpButton")
    assert not restart.isEnabled(), "nothing selected yet"
    h.do(lambda: servers.setCurrentRow(0))
    assert restart.isEnabled()
    h.do(restart.click)
    second = h.wait_until(lambda: (pids := _server_pids(folder)) and not pids & first and pids,
                          timeout=30, what="a new server process in place of the old one")
    h.wait_until(connected, timeout=30, what="the restarted server to connect")
    assert second and not second & first

    with opened_urls("file") as opened:  # no file manager starts here
        h.do(lambda: h.window.findChild(QPushButton, "openMcpLogsButton").click())
        h.wait_until(lambda: opened, what="the log folder to be opened")
    logs = Path(opened[0].toLocalFile())
    assert logs == h.controller.runtime.paths.mcp_log_dir and logs.is_dir()
    assert (logs / "test.log").is_file(), "the server's log is in the folder that was opened"
    assert not h.window.errors.isVisible()


def test_revoke_all_clears_the_rules_in_settings_json(make_window) -> None:
    h = make_window()
    tools = h.window.inspector
    for name, rule in (("write_file", "always_allow"), ("delete_path", "never_allow")):
        combo = tools.tools.itemWidget(tools.tool_item(name), 2)
        h.do(lambda c=combo, r=rule: c.setCurrentIndex(c.findData(r)))
    path = h.controller.runtime.settings_store.path
    saved = json.loads(path.read_text())["tool_rules"]
    assert sorted(saved.values()) == ["always_allow", "never_allow"]
    h.do(h.window.open_settings)
    dialog = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings dialog")
    rules = dialog.findChild(QListWidget, "ruleList")
    assert rules.count() == 2
    h.do(lambda: dialog.findChild(QPushButton, "revokeAllRulesButton").click())
    assert json.loads(path.read_text())["tool_rules"] == {}
    assert rules.count() == 1 and not rules.item(0).flags() & Qt.ItemFlag.ItemIsEnabled, "the empty note"
    for name in ("write_file", "delete_path"):
        assert tools.tools.itemWidget(tools.tool_item(name), 2).currentData() is None, "the Tools tab follows"
    h.do(dialog.reject)


def test_empty_states_say_what_to_do_next(make_window, model_server) -> None:
    h = make_window()
    sessions = h.window.sidebar.list
    assert sessions.count() == 1 and "Type a message" in sessions.item(0).text()
    assert not sessions.item(0).flags() & Qt.ItemFlag.ItemIsEnabled, "the hint cannot be opened or selected"
    activity = h.window.inspector.activity
    assert activity.topLevelItemCount() == 1 and "Send a message" in activity.topLevelItem(0).text(0)
    mcp = h.window.findChild(QListWidget, "mcpServerList")
    assert mcp.count() == 1 and "Add…" in mcp.item(0).text()
    ask(h, model_server, "hello", "hi")
    h.wait_until(lambda: all("Type a message" not in sessions.item(r).text() for r in range(sessions.count()))
                 and sessions.count() == 2, what="the hint to give way to the session")


def test_the_session_menu_opens_from_the_keyboard(make_window, model_server) -> None:
    h = make_window()
    session = ask(h, model_server, "menu question", "menu answer")
    sessions = h.window.sidebar.list
    item = session_row(h, session)
    h.do(lambda: (sessions.setFocus(), sessions.setCurrentItem(item)))
    h.do(lambda: QTest.keyClick(sessions, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier))
    menu = h.wait_until(lambda: next((m for m in h.window.sidebar.findChildren(QMenu)
                                      if m.isVisible() and m.parent() is h.window.sidebar), None), what="the menu")
    assert {"Rename", "Pin", "Fork", "Export", "Delete"} <= {a.text() for a in menu.actions()}
    h.do(next(a for a in menu.actions() if a.text() == "Pin").trigger)
    h.wait_until(lambda: h.controller.store.get_session(session).pinned, what="pinned from the keyboard")


def test_the_delete_key_deletes_the_current_session_and_undo_brings_it_back(make_window, model_server) -> None:
    h = make_window()
    session = ask(h, model_server, "delete me by key", "ok")
    store = h.controller.store
    sessions = h.window.sidebar.list
    item = session_row(h, session)
    h.do(lambda: (sessions.setFocus(), sessions.setCurrentItem(item)))
    h.do(lambda: QTest.keyClick(sessions, Qt.Key.Key_Delete))
    h.wait_until(lambda: session not in listed(store), what="the delete")
    assert h.window.sidebar.undo_bar.isVisible()
    h.do(h.window.sidebar.undo_button.click)
    h.wait_until(lambda: session in listed(store), what="the undo")
    assert [m.content for m in store.messages(session)] == ["delete me by key", "ok"]


def test_a_message_s_copy_link_says_copied_after_the_click(make_window, model_server) -> None:
    """Issue 24: Copy gave no sign that it worked."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    from hermes_desktop.ui.chat.items import MessageItem

    h = make_window()
    ask(h, model_server, "hi", "the reply to copy")
    chat = h.window.chat
    view = chat.view
    row = next(r for r, i in enumerate(chat.model.items()) if isinstance(i, MessageItem) and i.text == "the reply to copy")
    item = chat.model.item(row)

    def copy_link():
        layout = view.itemDelegate().row_layout(item, view.viewport().width())
        return next(t for t in layout.hover_texts if t.role == "link" and t.icon == "copy")

    assert copy_link().text == "Copy"
    QApplication.clipboard().setText("something else")
    top = view.visualRect(chat.model.index(row)).topLeft()
    centre = copy_link().rect.center()
    h.do(lambda: QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                                  QPoint(int(top.x() + centre.x()), int(top.y() + centre.y()))))
    h.wait_until(lambda: QApplication.clipboard().text() == "the reply to copy", what="the reply on the clipboard")
    assert copy_link().text == "Copied"
    h.wait_until(lambda: copy_link().text == "Copy", timeout=6, what="the link to say Copy again")

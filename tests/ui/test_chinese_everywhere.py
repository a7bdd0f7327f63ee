"""Issue 24, "Chinese throughout": each place a new Chinese user found English, checked in the real window with the
compiled .qm installed by the language setting. The fork suffix, MCP failure reasons and recalled memories' days
are checked in test_chinese_ui.py; this file adds Qt's own dialogs, the Tools and Skills tabs, a custom provider's
default name, the keyring line, a tool's error on its card and the Markdown export.

The check is test_chinese_ui's: the text, minus the data we know (file, tool and skill names, paths), has no run of
three or more ASCII letters, and has Chinese in it.
"""

from __future__ import annotations

import re

from PySide6.QtWidgets import (QAbstractButton, QComboBox, QDialogButtonBox, QFileDialog, QLabel, QLineEdit,
                               QListWidget, QMessageBox)

from hermes_desktop.ui.chat.items import ToolCardItem
from hermes_desktop.ui.i18n import install_translations
from tests.support.model_server import CallScript, reasoning_reply, text_reply, tool_call_reply
from tests.ui.test_approvals import settle_turn
from tests.ui.test_chinese_ui import assert_chinese, row_text, rows
from tests.ui.test_translations import chinese  # noqa: F401 - fixture


def visible_words(widget) -> str:
    """Every label, button and line-edit placeholder a user sees in `widget`."""
    texts = [widget.windowTitle()]
    texts += [label.text() for label in widget.findChildren(QLabel) if label.isVisible()]
    texts += [button.text() for button in widget.findChildren(QAbstractButton) if button.isVisible()]
    texts += [edit.placeholderText() for edit in widget.findChildren(QLineEdit) if edit.isVisible()]
    return "\n".join(t.replace("&", "") for t in texts if t)


def test_qts_own_file_dialog_and_message_box_speak_chinese(qapp, tmp_path) -> None:
    """Qt's widgets are translated by qtbase_zh_CN.qm from PySide6's translations folder (ui/i18n.py)."""
    install_translations(qapp, "zh_CN")
    try:
        dialog = QFileDialog(None, "", str(tmp_path))
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # the dialog Linux without a desktop portal shows
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.show()
        try:
            shown = visible_words(dialog)
            assert "保存" in shown and "取消" in shown and "文件名" in shown, shown
            assert_chinese(shown, (str(tmp_path), tmp_path.name), "Qt's file dialog")
        finally:
            dialog.close()
        from PySide6.QtCore import QFileInfo, QMimeDatabase
        from PySide6.QtWidgets import QFileIconProvider

        assert QFileIconProvider().type(QFileInfo(str(tmp_path))) == "文件夹", "the Type column of a folder"
        assert QMimeDatabase().mimeTypeForName("application/json").comment() == "JSON 文档", "a file's type"
        box = QMessageBox(QMessageBox.Icon.Question, "", "？",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
                          | QMessageBox.StandardButton.Cancel)
        buttons = [b.text().replace("&", "") for b in box.findChild(QDialogButtonBox).buttons()]
        assert_chinese(" ".join(buttons), (), "a message box's standard buttons")
    finally:
        install_translations(qapp, "en")


def test_the_qt_supplement_is_compiled_from_its_ts(tmp_path) -> None:
    import subprocess

    from hermes_desktop.core.paths import resources_dir
    from tests.ui.test_translations import qt_tool

    source = resources_dir() / "translations" / "qtbase_extra_zh_CN.ts"
    subprocess.run([qt_tool("lrelease"), str(source), "-qm", str(tmp_path / "x.qm")], check=True, capture_output=True)
    assert (tmp_path / "x.qm").read_bytes() == source.with_suffix(".qm").read_bytes(), "run `make translations`"


def test_the_tools_tab_describes_each_built_in_tool_in_chinese(chinese, make_window) -> None:
    h = make_window()
    tools = h.window.inspector.tools
    checked = 0
    for g in range(tools.topLevelItemCount()):
        group = tools.topLevelItem(g)
        if group.text(0) not in ("内置", "技能（按需加载）"):
            continue
        for i in range(group.childCount()):
            item = group.child(i)
            name = item.text(0)
            description = item.child(0).text(0)  # the row under the tool, and its tooltip
            assert_chinese(description, ("IANA", "sqrt", "http/https", "Markdown", "README", "UTF-8"), name)
            assert_chinese(item.toolTip(0), (name, "IANA", "sqrt", "http/https", "Markdown", "README", "UTF-8"), name)
            checked += 1
    assert checked >= 15, "every built-in tool was looked at"


def test_the_bundled_skills_are_described_in_chinese(chinese, make_window) -> None:
    h = make_window()
    skills = h.window.findChild(QListWidget, "skillList")
    texts = {skills.item(i).text().split("  ·  ")[0]: skills.item(i).text() for i in range(skills.count())}
    for name in ("file-organizer", "meeting-notes", "project-doctor", "web-research"):
        assert name in texts, texts
        assert_chinese(texts[name], (name, "skill.yaml", "SKILL.md"), f"the {name} skill")


def test_a_custom_providers_default_name_is_chinese_and_its_id_still_says_custom(chinese, make_window) -> None:
    h = make_window(configured=False)
    dialog = h.wait_until(lambda: getattr(h.window, "setup_dialog", None), what="the setup dialog")
    combo = dialog.findChild(QComboBox, "providerCombo")
    h.do(lambda: combo.setCurrentIndex(combo.findData("custom")))
    assert dialog.findChild(QLineEdit, "profileNameEdit").text() == "自定义服务"
    h.do(lambda: dialog.findChild(QLineEdit, "baseUrlEdit").setText("http://127.0.0.1:9/v1"))
    h.do(lambda: dialog.findChild(QComboBox, "modelEdit").setEditText("m1"))
    profile = dialog.profile()
    assert profile.name == "自定义服务" and profile.id == "custom", "`ask --model custom` still finds it"


def test_the_keyring_is_named_in_words_not_as_a_python_class(chinese, make_window) -> None:
    from hermes_desktop.ui import words
    from hermes_desktop.ui.dialogs.settings import SettingsDialog

    h = make_window()  # installs the Chinese translation
    assert words.keyring_name("keyring.backends.SecretService.Keyring") == "Secret Service：GNOME 密钥环或 KeePassXC"
    assert words.keyring_name("keyring.backends.Windows.WinVaultKeyring") == "Windows 凭据管理器"
    assert words.keyring_name("keyring.backends.macOS.Keyring") == "macOS 钥匙串"
    dialog = SettingsDialog(h.controller, h.window)
    try:
        note = dialog.findChild(QLabel, "keyringStatus").text()
        assert "keyring.backends" not in note and "Keyring" not in note, note
        assert_chinese(note, ("HERMES_API_KEY", "Secret Service", "GNOME", "KeePassXC"), "the Settings keyring line")
    finally:
        dialog.deleteLater()


def test_a_tools_error_is_said_in_chinese_on_its_card(chinese, make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("read_file", {"path": "missing.txt"})), text_reply("没有这个文件。"))
    h.send("read missing.txt")
    settle_turn(h)
    card = next(i for i in rows(h) if isinstance(i, ToolCardItem))
    assert card.result and "does not exist" in card.result, "the model still reads the tool's English"
    painted = row_text(h, card)
    assert "missing.txt 不存在。" in painted, painted
    assert_chinese(painted, ("read_file", "missing.txt"), "the failed tool card")


def test_the_markdown_export_is_headed_in_chinese(chinese, make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(reasoning_reply("先想一想。", "", CallScript("calculate", {"expression": "6*7"})),
                         text_reply("42。"))
    h.send("6*7?")
    settle_turn(h)
    text = h.run(h.controller.export(h.window.current_session, "md"))
    headings = [line for line in text.splitlines() if line.startswith("#") or line.startswith("*")
                or "<summary>" in line or line in ("结果：", "Result:")]
    assert "## 你" in headings and "## Hermes · scripted-model" in headings and "结果：" in headings, headings
    title = h.controller.store.get_session(h.window.current_session).title
    shown = "\n".join(re.sub(r"<[^>]+>", " ", line) for line in headings if line != f"# {title}")
    assert_chinese(shown, ("scripted-model", "calculate"), "the Markdown export's headings")


def test_the_approval_rules_name_where_a_tool_comes_from_in_chinese(chinese, make_window) -> None:
    """Settings › Permissions listed a rule as "write_file — 始终批准 (builtin)": the rule key's source, in English."""
    from hermes_desktop.ui.dialogs.settings import SettingsDialog

    h = make_window()
    h.do(lambda: h.controller.set_rule("builtin/write_file", "always_allow"))
    h.do(lambda: h.controller.set_rule("mcp:files@0123456789ab/mcp_files_wipe", "never_allow"))
    dialog = SettingsDialog(h.controller, h.window)
    try:
        rules = dialog.findChild(QListWidget, "ruleList")
        texts = [rules.item(i).text() for i in range(rules.count())]
        assert "write_file  —  始终批准（内置）" in texts, texts
        assert "mcp_files_wipe  —  从不批准（MCP files）" in texts, texts
        for text in texts:
            assert "builtin" not in text and "@" not in text
            assert_chinese(text, ("write_file", "mcp_files_wipe", "files"), "an approval rule")
    finally:
        dialog.deleteLater()

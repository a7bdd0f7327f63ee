"""Chinese all the way through the window: the approval dialog, tool cards, error banners, the connection check
and the Activity tab speak Chinese, with only data (file, tool and model names, numbers, a server's own words)
left in Latin letters. Plus: every tr()/translate() call in the UI has literal text (lupdate must see it), and
the glossary's forbidden variants appear in no translation.

The check is "the text, minus the data tokens we know, has no run of three or more ASCII letters". Everything
is real: the scripted model server (tests/support/model_server.py), a real file in a temp workspace, the
compiled .qm installed by the window's own language setting.
"""

from __future__ import annotations

import ast
import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import keyring
import keyring.backends.fail
from PySide6.QtWidgets import QAbstractButton, QLabel, QPlainTextEdit, QTreeWidget, QTreeWidgetItem

from hermes_desktop.core.paths import app_paths, resources_dir
from hermes_desktop.ui.chat.items import BannerItem, ToolCardItem
from hermes_desktop.ui.i18n import install_translations
from tests.support.error_codes import emitted_error_codes
from tests.support.glossary import ts_pairs
from tests.support.model_server import CallScript, error_reply, text_reply, tool_call_reply
from tests.ui.test_approvals import dialog_for, settle_turn
from tests.ui.test_translations import chinese  # noqa: F401 - fixture

ROOT = Path(__file__).resolve().parents[2]
TS = resources_dir() / "translations" / "hermes_zh_CN.ts"
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
# Names that are data in any language: the product, protocols and acronyms kept in Chinese UI text.
ALWAYS_DATA = ("Hermes Desktop", "Hermes", "MCP", "API", "JSON", "HTTP", "URL", "Token")  # Token: docs/glossary.md


def english_left(text: str, data: tuple[str, ...] = ()) -> list[str]:
    """The ASCII-letter words of `text` that are not data."""
    for token in sorted((*data, *ALWAYS_DATA), key=len, reverse=True):
        text = text.replace(token, " ")
    return ENGLISH_WORD.findall(text)


def assert_chinese(text: str, data: tuple[str, ...] = (), where: str = "") -> None:
    left = english_left(text, data)
    assert not left, f"English left in {where}: {left}\n---\n{text}"
    assert re.search(r"[\u4e00-\u9fff]", text), f"no Chinese at all in {where}: {text!r}"


def rows(h) -> list:
    return list(h.window.chat.model.items())


def row_text(h, item) -> str:
    """What the transcript paints for one row: its texts and documents."""
    layout = h.window.chat.view.delegate.row_layout(item, 900)
    return "\n".join([t.text for t in layout.texts] + [d.doc.toPlainText() for d in layout.docs])


def tree_texts(item: QTreeWidgetItem) -> list[str]:
    texts = [item.text(0), item.toolTip(0)]
    for i in range(item.childCount()):
        texts += tree_texts(item.child(i))
    return texts


def test_a_delete_asks_in_chinese_and_the_denied_card_and_activity_say_so_in_chinese(
        chinese, make_window, model_server, workspace_dir) -> None:
    (workspace_dir / "hello.txt").write_text("abc", encoding="utf-8")
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "hello.txt"})),
                         text_reply("好的，我没有删除它。"))
    h.send("delete hello.txt")  # typed with QTest, which sends Latin-1 keys only: the user's text is data
    dialog = dialog_for(h)
    data = ("delete_path", "hello.txt", str(workspace_dir), "path")

    labels = [label.text() for label in dialog.findChildren(QLabel) if label.isVisible() and label.text()]
    buttons = [button.text() for button in dialog.findChildren(QAbstractButton) if button.isVisible()]
    shown = "\n".join([dialog.windowTitle(), *labels, *buttons])
    assert_chinese(re.sub(r"<[^>]+>", " ", shown), data, "the approval dialog")
    assert "将删除 hello.txt（3 字节）" in dialog.findChild(QLabel, "impactLabel").text()
    assert "来自内置工具" in dialog.findChild(QLabel, "sourceLabel").text()
    assert "危险" in dialog.findChild(QLabel, "riskLabel").text()
    assert "批准一次" in buttons and "拒绝" in buttons
    assert_chinese(dialog.findChild(QPlainTextEdit, "argsView").toPlainText() + " 参数", data, "the arguments")

    h.do(lambda: dialog.deny_button.click())
    card = h.wait_until(lambda: next((i for i in rows(h) if isinstance(i, ToolCardItem) and i.status == "denied"),
                                     None), what="the denied card")
    settle_turn(h)
    assert (workspace_dir / "hello.txt").read_text(encoding="utf-8") == "abc", "denied: the file is still there"
    painted = row_text(h, card)
    assert "已拒绝（你）" in painted and "(" not in painted.replace("(&", "")
    assert_chinese(painted, data, "the denied tool card")

    activity = h.window.findChild(QTreeWidget, "activityLog")
    texts = [t for i in range(activity.topLevelItemCount()) for t in tree_texts(activity.topLevelItem(i)) if t]
    turn_title = "delete hello.txt"
    assert any("已拒绝" in t for t in texts), texts
    assert_chinese(html.unescape(re.sub(r"<[^>]+>", " ", "\n".join(texts))),  # tooltips are rich text
                   (*data, "scripted-model", turn_title),
                   "the Activity tab")


def test_a_finished_tool_card_and_the_code_block_copy_link_are_chinese(chinese, make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(tool_call_reply(CallScript("calculate", {"expression": "6*7"})),
                         text_reply("结果是 42。\n\n```python\nprint(42)\n```"))
    h.send("6*7?")
    settle_turn(h)
    card = next(i for i in rows(h) if isinstance(i, ToolCardItem))
    painted = row_text(h, card)
    assert "完成" in painted and "结果（" in painted and "个字符）" in painted
    assert_chinese(painted, ("calculate",), "the finished tool card")
    reply = [i for i in rows(h) if getattr(i, "role", "") == "assistant"][-1]
    layout = h.window.chat.view.delegate.row_layout(reply, 900)
    html = "".join(d.doc.toHtml() for d in layout.docs if d.code is not None)
    assert ">复制<" in html and ">Copy<" not in html


def test_error_banners_for_a_refused_key_and_a_rate_limit_are_chinese(chinese, make_window, model_server) -> None:
    h = make_window()
    model_server.required_key = "sk-something-else"
    h.send("hi")
    banner = h.wait_until(lambda: next((i for i in rows(h) if isinstance(i, BannerItem)), None), what="the 401")
    server_words = "Incorrect API key provided: [redacted]"  # the server's own words, with the key redacted
    assert "服务商拒绝了 API 密钥（401）" in banner.message and f"服务器返回：“{server_words}”" in banner.message
    assert_chinese(row_text(h, banner), (server_words,), "the 401 banner")
    model_server.required_key = None
    settle_turn(h)

    many = "Too many requests, slow down"
    model_server.enqueue(*[error_reply(429, many, headers={"retry-after-ms": "20"}) for _ in range(3)])
    h.send("again")
    banner = h.wait_until(lambda: next((i for i in rows(h) if isinstance(i, BannerItem) and "429" in i.message),
                                       None), what="the 429")
    assert "（429）" in banner.message and "请在 1 秒后重试" in banner.message
    assert_chinese(row_text(h, banner), (many,), "the 429 banner")


def test_the_connection_check_answers_in_chinese(chinese, make_window, model_server) -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    try:
        h = make_window(configured=False)
        dialog = h.wait_until(lambda: getattr(h.window, "setup_dialog", None), what="the setup dialog")
        from PySide6.QtWidgets import QComboBox, QLineEdit, QPushButton

        def fill(url: str, key: str) -> None:
            dialog.findChild(QLineEdit, "baseUrlEdit").setText(url)
            dialog.findChild(QComboBox, "modelEdit").setEditText("scripted-model")
            dialog.findChild(QLineEdit, "apiKeyEdit").setText(key)

        def check() -> str:
            status = dialog.findChild(QLabel, "connectionStatus")
            status.clear()
            h.do(lambda: dialog.findChild(QPushButton, "testConnectionButton").click())
            h.wait_until(lambda: status.text() and status.text() != dialog.tr("Testing…"), what="the check")
            return status.text()

        h.do(lambda: fill(model_server.base_url, "sk-ui-test-key"))
        model_server.enqueue(text_reply("ok"))  # the check's one-token completion
        answer = check()
        assert answer.startswith("已连接：scripted-model 在 ") and answer.endswith(" 毫秒内作出响应。")
        assert_chinese(answer, ("scripted-model",), "the connection result")

        model_server.required_key = "sk-something-else"
        answer = check()
        assert "服务商拒绝了 API 密钥（401）" in answer
        assert_chinese(answer, ("Incorrect API key provided: [redacted]",), "the refused key")
        model_server.required_key = None

        h.do(lambda: fill("ftp://example.com", ""))
        assert_chinese(check(), ("http://", "https://"), "the wrong URL scheme")

        names = [dialog.findChild(QComboBox, "providerCombo").itemText(i)
                 for i in range(dialog.findChild(QComboBox, "providerCombo").count())]
        assert "自定义（vLLM 或其他兼容 OpenAI 的服务）" in names and "OpenAI" in names
        note = dialog.findChild(QLabel, "keyringWarning").text()
        assert "没有可用的系统密钥环" in note
        assert_chinese(note, ("HERMES_API_KEY",), "the no-keyring notice")
    finally:
        keyring.set_keyring(previous)


def test_the_assistant_editors_tool_list_says_each_risk_in_chinese(chinese, make_window) -> None:
    """The editor lists the built-in tools with their risk in the Tools tab's words, not the core's "read"."""
    from PySide6.QtWidgets import QListWidget

    h = make_window()
    inspector, actions = h.window.inspector, h.window.assistants
    h.do(lambda: inspector.setCurrentIndex(inspector.indexOf(inspector.assistants)))
    h.do(lambda: actions.panel.new_button.click())
    h.wait_until(lambda: actions.editor is not None and actions.editor.isVisible(), what="the assistant editor")
    tools = actions.editor.findChild(QListWidget, "assistantToolList")
    items = [tools.item(i).text() for i in range(tools.count())]
    assert items, "the editor lists the built-in tools"
    names = tuple(sorted({item.split(" — ")[0] for item in items}, key=len, reverse=True))
    for item in items:
        assert_chinese(item, names, "the assistant editor's tool list")
    risks = {item.split(" — ")[1] for item in items}
    assert risks <= {"只读", "写入", "危险"} and "只读" in risks, risks
    h.do(lambda: actions.editor.reject())


def test_an_mcp_server_that_failed_says_why_in_chinese_with_its_own_words_quoted(chinese, make_window) -> None:
    from PySide6.QtWidgets import QListWidget

    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {
        "ghost": {"command": "no-such-mcp-binary"},
        "noderunner": {"command": "/no/such/dir/npx", "args": ["-y", "some-server"]},
        "needsvar": {"command": "python3", "env": {"TOKEN": "${env:HERMES_TEST_UNSET_VARIABLE}"}}}}), encoding="utf-8")
    h = make_window()
    servers = h.window.findChild(QListWidget, "mcpServerList")

    def failed(name: str) -> str:
        texts = [servers.item(i).text() for i in range(servers.count())]
        return next((t for t in texts if t.startswith(name) and "已停止运行。" in t), "")

    # the supervisor's reasons are codes (core/mcp/supervisor.reason_code), worded here: nothing quoted is stripped
    text = h.wait_until(lambda: failed("ghost"), timeout=30, what="the missing command, in Chinese")
    assert "失败" in text and "找不到命令 no-such-mcp-binary。" in text, text
    assert_chinese(text, ("ghost", "no-such-mcp-binary", "stdio"), "the MCP tab")
    text = h.wait_until(lambda: failed("noderunner"), timeout=30, what="the missing launcher, in Chinese")
    assert "请安装 Node.js，它自带 npx" in text and "然后按“重启”" in text, text
    assert_chinese(text, ("noderunner", "/no/such/dir/npx", "-y", "some-server", "stdio", "Node.js", "npx",
                          "apt install npm"), "the MCP tab's launcher hint")

    def needsvar() -> str:
        texts = [servers.item(i).text() for i in range(servers.count())]
        return next((t for t in texts if t.startswith("needsvar") and "没有值" in t), "")

    text = h.wait_until(needsvar, timeout=30, what="the unresolved variable, in Chinese")
    assert "env.TOKEN 中的 ${env:HERMES_TEST_UNSET_VARIABLE} 没有值" in text, "the variable's name stays as written"
    assert_chinese(text, ("needsvar", "python3", "stdio", "${env:HERMES_TEST_UNSET_VARIABLE}", "env.TOKEN",
                          "${secret:…}"), "the unresolved variable")


def test_a_history_from_a_newer_version_says_in_chinese_why_nothing_can_be_sent(chinese, make_window) -> None:
    import sqlite3

    from hermes_desktop.core.storage.migrations import LATEST_VERSION, migrate

    database = app_paths().data_dir / "hermes.db"
    database.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(database)
    migrate(db)  # a real history at today's schema, then marked as written by a newer app
    db.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    db.commit()
    db.close()
    h = make_window()
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    assert not h.window.chat.send_button.isEnabled()
    assert f"结构版本 {LATEST_VERSION + 1}" in box.placeholderText()
    assert_chinese(box.placeholderText(), ("Hermes Desktop",), "the read-only history")
    assert h.window.errors.isVisible() and box.placeholderText() in h.window.errors.label.text()


IMPACTS = [
    ("create_file", {"path": "a.txt", "bytes": 1}), ("overwrite_file", {"path": "a.txt", "old_bytes": 5, "bytes": 2048}),
    ("create_folder", {"path": "notes"}), ("move", {"src": "a.txt", "dst": "b.txt", "bytes": 3}),
    ("move", {"src": "docs", "dst": "old", "files": 4, "folders": 2, "bytes": 9000, "is_folder": True}),
    ("move_replacing", {"src": "a.txt", "dst": "b.txt", "bytes": 3, "replaced_bytes": 7}),
    ("delete_file", {"path": "hello.txt", "bytes": 3}),
    ("delete_folder", {"path": "reports", "files": 3, "folders": 2, "bytes": 300}),
    ("delete_folder", {"path": "reports", "files": 3, "folders": 0, "bytes": 3 * 1024 * 1024}),
    ("save_note", {"title": "plan", "bytes": 10, "folder": "notes"}),
    ("replace_note", {"title": "plan", "old_bytes": 10, "bytes": 20}),
    ("fetch", {"url": "https://example.com/"}), ("forget_memory_off", {}), ("forget_memories", {"memories": []}),
    ("forget_memories", {"memories": [{"id": 7, "statement": "likes tea"}]}),
    ("run_script", {"command": "scripts/run.sh", "skill": "doctor", "folder": "/w"}),
    ("cannot_run", {"reason": "outside the workspace"}), ("precheck_failed", {"error": "OSError"}),
]
IMPACT_DATA = ("a.txt", "b.txt", "notes", "docs", "old", "hello.txt", "reports", "plan", "https://example.com/",
               "likes tea", "scripts/run.sh", "doctor", "outside the workspace", "OSError", "KB", "MB")
ERRORS = [  # every code core/llm/errors.py, request_fit, the agent and storage give, and every kind without one
    ("auth_rejected", {"status": 401, "server": "bad key"}), ("auth_forbidden", {"status": 403}),
    ("quota", {"status": 429}), ("rate_limited", {"status": 429, "retry_after_s": 7.0}),
    ("rate_limited", {"status": 429, "retry_after_s": None}), ("server_error", {"status": 502}),
    ("refused", {"status": 400}), ("tools_unsupported", {}), ("model_not_found", {"host": "h:1", "model": "m1"}),
    ("no_chat_endpoint", {"host": "h:1"}), ("timeout", {"host": "h:1"}), ("stream_timeout", {}),
    ("stream_dropped", {}), ("connection", {"host": "h:1"}), ("malformed", {}), ("stream_error", {}),
    ("context_too_long", {}), ("internal", {"error": "KeyError: 'x'"}), ("turn_deadline", {"limit_s": 600}),
    ("over_window", {"needed": 40000, "available": 30000, "window": 32768, "costs": [
        {"what": w, "name": n, "tokens": 100} for w, n in (("skill_catalog", "skill catalog"), ("skill", "pdf"),
                                                             ("mcp_server", "files"), ("tools", "built-in tools"),
                                                             ("memory", "memory"), ("message", "this turn"))]}),
    *[(f"storage_{fault}", {"path": "/d/hermes.db", "consequence": "your message was not saved"})
      for fault in ("full", "read_only", "io", "permission", "busy", "corrupt", "other")],
    ("storage", {}), ("no_model", {}), ("local_only_session", {"held": "本机", "other": "云端"}),
    ("reasoning_history_refused", {"model": "m1", "server": "bad key"}),
    ("tool_call_rejected", {"server": "bad key"}), ("reply_output_limit", {}), ("session_busy", {"wait_s": 30}),
]
ERROR_DATA = ("bad key", "h:1", "m1", "KeyError", "turn_deadline_s", "/v1", "/d/hermes.db", "activate_skill", "pdf",
              "files", "mcp.json")


def test_every_impact_error_notice_stop_and_check_code_reads_as_chinese(qapp) -> None:
    from types import SimpleNamespace as Event

    from hermes_desktop.core.events import ErrorKind
    from hermes_desktop.ui import words

    install_translations(qapp, "zh_CN")
    try:
        for code, params in IMPACTS:
            assert_chinese(words.impact_text(code, params, "english fallback"), IMPACT_DATA, code)
        assert_chinese(words.impact_text("", {}, None, tool="mcp_files_wipe", source="mcp:files"),
                       ("mcp_files_wipe", "files"), "an MCP tool")
        # every code the core can give (read from its code, tests/support/error_codes.py) is in the list above
        assert emitted_error_codes() <= {code for code, _ in ERRORS}, emitted_error_codes() - {c for c, _ in ERRORS}
        for code, params in ERRORS:
            assert_chinese(words.model_error_text(code, params), ERROR_DATA, code)
        for kind in ErrorKind:  # an error without a code: a sentence for its kind, the English quoted
            text = words.model_error_text("", {}, kind.value, "Some English words")
            assert_chinese(re.sub(r"“[^”]*”", "", text), (), kind.value)
            assert_chinese(words.error_kind_name(kind.value), (), kind.value)
        for kind in ("rate_limit", "server", "connection", "timeout", "bad_request"):
            assert_chinese(words.retry_text(Event(delay_s=2.0, attempt=1, max_attempts=2, kind=kind)), (), kind)
        for code, params in (("retry_less_history", {}), ("reply_length_cut", {}), ("thinking_only", {}),
                             ("reasoning_echo", {"server": "x"}), ("text_tool_mode", {}),
                             ("summary_failed", {"error": "x", "dropped": 3})):
            assert_chinese(words.notice_text(Event(code=code, params=params, message="english")), (), code)
        for reason, params in (("max_round_trips", {"limit": 8}), ("repeated_call", {"tool": "read_file", "count": 3}),
                               ("repeated_failure", {"tool": "read_file", "count": 3}),
                               ("output_limit", {"limit": 20000, "had_calls": True}),
                               ("output_limit", {"limit": 20000}), ("cancelled", {})):
            assert_chinese(words.stop_text(Event(reason=reason, params=params, message="english")), ("read_file",), reason)
        for code, params in (("connected", {"model": "m1", "latency_ms": 30}), ("bad_scheme", {}),
                             ("add_v1", {"url": "http://h", "suggested_url": "http://h/v1"}),
                             ("model_not_listed", {"model": "m1", "count": 3}), ("no_model", {}),
                             ("tools_unsupported", {}), ("auth_rejected", {"status": 401})):
            assert_chinese(words.check_text(Event(code=code, params=params, message="english")),
                           ("m1", "http://h", "http://h/v1", "http://", "https://"), code)
        for status in ("waiting", "pending", "failed", "timed out", "cancelled", "skipped", "dry run", "interrupted"):
            assert_chinese(words.status_word(status), (), status)
        assert_chinese(words.done_status(0.5, "allow_once", "you"), (), "done")
        for who in ("you", "rule: never allow", "policy: chat only", "default approver", "timeout: no answer in time",
                    "error while asking", "dry run", "rule: always allow", "policy: trusted mode"):
            assert_chinese(words.denied_status(who), (), who)
        for item in ({"statement": "likes tea", "session_id": None, "created_at": 1e9},
                     {"statement": "likes tea", "session_id": "s", "title": None, "created_at": 1e9},
                     {"statement": "likes tea", "session_id": "s", "title": "Trip planning", "created_at": 1e9}):
            assert_chinese(words.memory_line(item), ("likes tea", "Trip planning"), "a recalled memory")
        for code in ("no_keyring", "insecure_backend", "low_priority"):
            assert_chinese(words.keyring_reason(code, "english"), (), code)
        for code, params in (("still_starting", {"waited_s": 5, "limit_s": 30}),
                             ("needs_sign_in", {"reason": "x", "server": "files"}), ("refused", {"reason": "x"}),
                             ("failed", {"reason": "x"}), ("restarting", {"reason": "x", "delay_s": 2}),
                             ("unresolved_variable", {"variable": "${env:TOKEN}", "where": "env.TOKEN", "reason": "x"})):
            text = words.mcp_detail(Event(detail_code=code, detail_params=params, detail="english"))
            assert_chinese(text, ("startTimeout", "hermes-desktop mcp login", "files", "${env:TOKEN}", "env.TOKEN",
                                  "${secret:…}"), code)
        # the supervisor's reasons (core/mcp/supervisor.reason_code), and a hint for every launcher it knows
        from hermes_desktop.core.mcp.launchers import _HINTS

        for code, params in (("failed", {"reason_code": "command_not_found", "command": "npx", "launcher": "npx"}),
                             *(("failed", {"reason_code": "start_timeout", "stage": stage, "limit_s": 5})
                               for stage in ("start", "initialize", "list_tools")),
                             ("failed", {"reason_code": "not_mcp_output", "line": "“{}”"}),
                             ("failed", {"reason_code": "no_answer"}),
                             ("restarting", {"reason_code": "connection_closed", "delay_s": 2})):
            text = words.mcp_detail(Event(detail_code=code, detail_params={"reason": "english", **params},
                                          detail="english"))
            assert "english" not in text, (code, params)
            assert_chinese(text, ("startTimeout", "`initialize`", "npx", "Node.js", "apt install npm", "JSON-RPC", "stderr"),
                           params["reason_code"])
        plain = words.mcp_not_found("x", "")
        for launcher in _HINTS:
            assert words.mcp_not_found("x", launcher) != plain, f"no install hint for {launcher}"
    finally:
        install_translations(qapp, "en")


# ---------------------------------------------------------------- source and translation checks


def _translate_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name == "tr":
            yield node, node.args[:1]
        elif name == "translate" and not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                                          and func.value.id == "painter"):  # QPainter.translate(point)
            yield node, node.args[:2]


def test_every_tr_and_translate_call_in_the_ui_has_literal_text() -> None:
    bad = []
    for path in sorted((ROOT / "hermes_desktop" / "ui").rglob("*.py")):
        for node, args in _translate_calls(ast.parse(path.read_text(encoding="utf-8"))):
            if not args or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:90]}")
    assert not bad, "tr()/translate() with a variable (lupdate cannot see it):\n" + "\n".join(bad)


def test_the_ast_check_catches_a_variable() -> None:
    tree = ast.parse("self.tr(label)\nQCoreApplication.translate('Ctx', text)\nself.tr('fine')")
    flagged = [node.lineno for node, args in _translate_calls(tree)
               if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args)]
    assert flagged == [1, 2]


HALF_WIDTH_NEAR_CHINESE = re.compile(r"[\u4e00-\u9fff][,:;?!]|[,;?!][\u4e00-\u9fff]|\((?!&|\*)[^()]*[\u4e00-\u9fff][^()]*\)")


def test_translations_follow_the_glossary_and_use_full_width_punctuation() -> None:
    from tests.support.glossary import glossary_problems

    problems = glossary_problems(ts_pairs())  # docs/glossary.md, shared with the command line's .po
    for source, translation in ts_pairs():
        if HALF_WIDTH_NEAR_CHINESE.search(re.sub(r"\(\*[^)]*\)|;;", " ", translation)):  # file filters are data
            problems.append(f"half-width punctuation: {source!r} -> {translation!r}")
    assert not problems, "\n".join(problems)
    approval = {m.findtext("source"): m.findtext("translation") for m in ET.parse(TS).getroot().iter("message")}
    assert approval["Allow once"] == "批准一次" and approval["Deny"] == "拒绝" and approval["Revoke"] == "撤销"
    assert approval["Undo"] == "撤销" and approval["Fork"] == "分支"


def test_the_glossary_check_catches_a_forbidden_word() -> None:
    from tests.support.glossary import glossary_problems

    assert glossary_problems([("Allow for this session", "本会话内允许")])
    assert HALF_WIDTH_NEAR_CHINESE.search("结果 (48 个字符)") and not HALF_WIDTH_NEAR_CHINESE.search("文件(&F)")


def test_the_walks_english_leftovers_are_chinese(chinese, make_window, model_server) -> None:
    """A new user's walk in Chinese found English in: the error card when no model is set up, the Settings
    dialog's keyring line, and the roles of the search results ("assistant", "tool", "user")."""
    h = make_window(configured=False)
    h.do(h.window.setup_bar.hide)  # "以后再说": reading old sessions without a model
    h.send("hello")  # (QTest cannot type Chinese on the offscreen platform)
    banner = h.wait_until(lambda: next((i for i in rows(h) if isinstance(i, BannerItem)), None),
                          what="the no-model card")
    assert "尚未设置模型" in banner.message
    assert_chinese(row_text(h, banner), (), "the no-model card")

    from hermes_desktop.ui.dialogs.settings import SettingsDialog
    from hermes_desktop.ui.sidebar import _hit_html

    dialog = SettingsDialog(h.controller, h.window)
    try:
        note = dialog.findChild(QLabel, "keyringStatus")
        if note is not None and not h.controller.runtime.secrets_report.secure:
            assert_chinese(note.text(), ("HERMES_API_KEY",), "the Settings keyring line")
    finally:
        dialog.deleteLater()
    hit = type("Hit", (), {"snippet": "hello", "highlights": (), "session_title": "t", "message_id": 1})
    for role, words in (("user", "你"), ("assistant", "Hermes"), ("tool", "工具结果")):
        hit.role = role
        assert f"· {words}</span>" in _hit_html(hit, "无标题")


def test_a_fork_is_titled_in_chinese(chinese, make_window, model_server) -> None:
    """Issue 24: the fork suffix was English ("… (fork)") in the Chinese window."""
    h = make_window()
    model_server.enqueue(text_reply("好的。"))
    h.send("weekend plans")  # typed: QTest.keyClicks aborts on CJK text offscreen
    settle_turn(h)
    original = h.window.current_session
    new_id = h.run(h.controller.fork(original))
    info = h.controller.store.get_session(new_id)
    assert info.title.endswith("（分支）") and "fork" not in info.title, info.title

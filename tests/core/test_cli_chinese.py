"""The command line speaks the user's language (core/i18n.py): with the language setting at zh_CN, or a Chinese
locale and the setting at "system", `--help`, argparse's own errors, `ask`, `sessions`, `doctor` and the Markdown
export are Chinese, with only data (commands, options, paths, names, ids) in Latin letters; with "en" they are the
English they always were. The gettext catalog has a translation for every `_()` string, with the same placeholders,
and the shipped .mo is compiled from the .po.

The real CLI runs as a process (tests/support/cli.py) against the scripted model server and a real SQLite store.
"""

from __future__ import annotations

import gettext
import json
import re
import string
from pathlib import Path

import polib
import pytest

from hermes_desktop.core import i18n
from tests.support.cli import cli_env, hermes
from tests.support.error_codes import SAMPLE_DATA, SAMPLE_PARAMS, emitted_error_codes
from tests.support.glossary import PO
from tests.support.model_server import DEEPSEEK_ECHO_MESSAGE, CallScript, error_reply, text_reply, tool_call_reply

ROOT = Path(__file__).resolve().parents[2]
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
# Data in any language: the product, protocols, formats, and the command line's own names.
ALWAYS_DATA = ("Hermes Desktop", "Hermes", "hermes-desktop", "MCP", "API", "JSON", "HTTP", "URL", "Token", "SQLite",
               "FTS5", "LIKE", "stdin", "stdout", "stderr", "Markdown", "Word", "Obsidian", "PDF", "CSV", "IANA",
               "COMMAND", "ACTION", "PROFILE", "MODEL", "PATH", "NAME", "TEXT", "FILE")


def english_left(text: str, data: tuple[str, ...] = ()) -> list[str]:
    for token in sorted((*data, *ALWAYS_DATA), key=len, reverse=True):
        text = text.replace(token, " ")
    text = re.sub(r"(?<!\w)--?[a-z][\w-]*|`[^`]*`|\{[^}]*\}|\$\{[^}]*\}|'[^']*'|\S*[/\\]\S*|\S+\.(json|md|docx|py|log)\b",
                  " ", text)  # options, code, placeholders, quoted values, paths and file names are data
    return ENGLISH_WORD.findall(text)


def assert_chinese(text: str, data: tuple[str, ...] = (), where: str = "") -> None:
    left = english_left(text, data)
    assert not left, f"English left in {where}: {left}\n---\n{text}"
    assert re.search(r"[\u4e00-\u9fff]", text), f"no Chinese at all in {where}: {text!r}"


@pytest.fixture
def zh_env(tmp_path: Path, model_server, workspace_dir) -> dict[str, str]:
    """The CLI's environment with settings.json saying zh_CN (as Settings › General writes it)."""
    config = tmp_path / "config"
    (config / "hermes-desktop").mkdir(parents=True)
    (config / "hermes-desktop" / "settings.json").write_text(json.dumps({"language": "zh_CN"}), encoding="utf-8")
    return cli_env(model_server.base_url, workspace_dir, "sk-cli-test", XDG_CONFIG_HOME=str(config),
                   XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"), LANG="C.UTF-8",
                   LANGUAGE="", LC_ALL="")


# ---------------------------------------------------------------- the catalog


def test_every_cli_string_has_a_translation_with_the_same_placeholders() -> None:
    import sys

    sys.path.insert(0, str(ROOT / "resources" / "translations"))
    try:
        import update_po
    finally:
        sys.path.pop(0)
    places, problems = update_po.wanted()
    assert not problems, problems
    catalog = {entry.msgid: entry.msgstr for entry in polib.pofile(str(PO))}
    missing = [msgid for msgid in places if not catalog.get(msgid)]
    assert not missing, f"translate these (make translations, then the .po): {missing}"
    fields = string.Formatter()
    for msgid in places:
        wanted = sorted(f for _, f, _, _ in fields.parse(msgid) if f is not None)
        assert sorted(f for _, f, _, _ in fields.parse(catalog[msgid]) if f is not None) == wanted, msgid
        assert sorted(re.findall(r"%\(\w+\)\w|%[sr]", msgid)) == sorted(re.findall(r"%\(\w+\)\w|%[sr]", catalog[msgid]))
    assert update_po.main(["--check"]) == 0, "the .po is not up to date with the code: run `make translations`"


def test_the_shipped_mo_says_what_the_po_says() -> None:
    compiled = gettext.GNUTranslations(open(PO.with_suffix(".mo"), "rb"))
    for entry in polib.pofile(str(PO)):
        if entry.msgid and entry.msgstr:
            assert compiled.gettext(entry.msgid) == entry.msgstr, f"run `make translations`: {entry.msgid!r}"


def test_the_language_follows_the_setting_then_the_locale(monkeypatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert i18n.resolve_language("zh_CN") == "zh_CN" and i18n.resolve_language("en") == "en"
    assert i18n.resolve_language("system") == "en"
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    assert i18n.resolve_language("system") == "zh_CN" and i18n.resolve_language("en") == "en"
    monkeypatch.setenv("LANGUAGE", "en_GB:zh_CN")
    assert i18n.resolve_language(None) == "en", "LANGUAGE is read before LANG, its first entry first"
    try:
        i18n.use_language("zh_CN")
        assert i18n._("error: {0}") == "错误：{0}" and i18n._("not in the catalog") == "not in the catalog"
    finally:
        i18n.use_language("en")
    assert i18n._("error: {0}") == "error: {0}"


# ---------------------------------------------------------------- the real command line


def test_help_and_usage_errors_are_chinese(zh_env) -> None:
    shown = hermes("--help", env=zh_env)
    assert shown.returncode == 0 and shown.stdout.startswith("用法：hermes-desktop")
    lines = [line for line in shown.stdout.splitlines() if line.strip()]
    own = [line for line in lines if re.match(r"\s+(ask|doctor|sessions|mcp)\s", line)]  # the commands wrapped here
    assert_chinese("\n".join([lines[0], lines[1], *own]), ("ask", "doctor", "sessions", "mcp.json", "mcp", "-h"),
                   "--help")
    wrong = hermes("sessions", "bogus", env=zh_env)
    assert wrong.returncode == 2
    assert "错误：" in wrong.stderr and "无效的选择" in wrong.stderr
    assert_chinese(wrong.stderr, ("sessions", "bogus", "list", "export", "import", "-h"), "a usage error")
    ask_help = hermes("ask", "--help", env=zh_env)
    # metavars and the positional argument's name are what the user types, as in any translated argparse help
    assert_chinese(ask_help.stdout, ("ask", "SESSION", "WORKSPACE", "text", "assistants list"), "ask --help")


def test_ask_sessions_and_export_speak_chinese(zh_env, model_server, workspace_dir) -> None:
    empty = hermes("ask", "   ", env=zh_env)
    assert empty.returncode == 2 and empty.stderr.strip() == "错误：消息为空（只有空格或换行）；没有发送任何内容"

    nothing = hermes("sessions", "list", env=zh_env)
    assert nothing.stdout.strip() == "没有对话"

    model_server.enqueue(tool_call_reply(CallScript("read_file", {"path": "missing.txt"})), text_reply("没有这个文件。"))
    asked = hermes("ask", "read missing.txt", "--session", "cli-zh", env=zh_env)
    assert asked.returncode == 0, asked.stderr
    assert "[工具 read_file：出错，" in asked.stderr and "[对话 cli-zh]" in asked.stderr, asked.stderr
    assert_chinese(asked.stderr, ("read_file", "cli-zh"), "ask's notes")

    listed = hermes("sessions", "list", env=zh_env)
    assert "条消息" in listed.stdout
    exported = hermes("sessions", "export", "cli-zh", "--format", "md", env=zh_env)
    headings = [line for line in exported.stdout.splitlines() if line.startswith(("## ", "*", "<summary>", "结果"))]
    assert "## 你" in headings and "结果：" in headings, headings
    assert_chinese("\n".join(re.sub(r"<[^>]+>", " ", h) for h in headings), ("scripted-model", "read_file"),
                   "the exported headings")


def test_a_model_error_is_said_in_chinese_and_the_server_quoted(zh_env, model_server) -> None:
    model_server.required_key = "sk-something-else"
    refused = hermes("ask", "hello", "--session", "cli-401", env=zh_env)
    assert refused.returncode == 1
    line = next(line for line in refused.stderr.splitlines() if line.startswith("错误："))
    assert "服务商拒绝了 API 密钥（401）" in line and "服务器返回：“" in line, refused.stderr
    assert_chinese(re.sub(r"“[^”]*”", " ", line), (), "the 401 on the terminal")
    english = {**zh_env, "XDG_CONFIG_HOME": zh_env["XDG_CONFIG_HOME"] + "-en"}
    assert "error: The provider rejected the API key" in hermes("ask", "hello", env=english).stderr, \
        "in English the engine's own sentence, as before"


def test_every_error_code_the_core_can_give_is_worded_for_the_terminal() -> None:
    """Read from the code (tests/support/error_codes.py): a new code without terminal words fails here, instead of
    reaching a Chinese terminal as 详细信息：“<the engine's English>”."""
    from hermes_desktop.core.error_words import error_text

    codes = emitted_error_codes()
    assert {"reasoning_history_refused", "over_window", "session_busy", "storage_full"} <= codes, codes
    english = "The engine's English sentence."
    try:
        i18n.use_language("zh_CN")
        for code in sorted(codes):
            text = error_text(code, SAMPLE_PARAMS, english)
            assert english not in text, f"{code} has no terminal words (core/error_words.py)"
            assert_chinese(text, SAMPLE_DATA, code)
        said = error_text("tool_call_rejected", {**SAMPLE_PARAMS, "server": "Tool call validation failed"}, english)
        assert said.endswith("服务器返回：“Tool call validation failed”"), "the server's own words stay, quoted"
    finally:
        i18n.use_language("en")
    assert error_text("session_busy", SAMPLE_PARAMS, english) == english, "in English the engine's sentence"


def test_a_refused_deepseek_history_says_what_to_do_on_the_terminal(zh_env, model_server) -> None:
    """DeepSeek in thinking mode refusing the earlier replies even as text (core/llm/client.py): the advice for the
    terminal (another model with ask --model, a new --session, thinking off), in Chinese, the server quoted."""
    env = {**zh_env, "HERMES_MODEL": "deepseek-reasoner"}  # the name turns reasoning echo on (AUTO)
    model_server.enqueue(*[error_reply(400, DEEPSEEK_ECHO_MESSAGE) for _ in range(3)])
    refused = hermes("ask", "2+2?", "--session", "cli-deepseek", env=env)
    assert refused.returncode == 1, refused.stderr
    line = next(line for line in refused.stderr.splitlines() if line.startswith("错误："))
    assert "deepseek-reasoner 仍拒绝了此对话中早先的回复" in line, refused.stderr
    assert "ask --model" in line and "关闭思考模式" in line and "再问一次" in line, line
    assert f"服务器返回：“{DEEPSEEK_ECHO_MESSAGE}”" in line, line
    assert_chinese(re.sub(r"“[^”]*”", " ", line), ("deepseek-reasoner", "ask"), "the refused history")


def test_mcp_list_says_why_a_server_failed_in_chinese(zh_env) -> None:
    """The supervisor's reasons (core/mcp/supervisor.reason_code) worded on the terminal: a missing command, a
    missing launcher with what to install, a start timeout; only the server's own log line stays quoted data."""
    import sys

    config = Path(zh_env["XDG_CONFIG_HOME"]) / "hermes-desktop" / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "ghost": {"command": "no-such-mcp-binary"},
        "noderunner": {"command": "/no/such/dir/npx", "args": ["-y", "some-server"]},
        "mute": {"command": sys.executable, "startTimeout": 1, "args": [
            "-c", "import sys, time; print('starting up', file=sys.stderr, flush=True); time.sleep(30)"]},
    }}), encoding="utf-8")
    listed = hermes("mcp", "list", env=zh_env)
    assert listed.returncode == 1, listed.stdout + listed.stderr
    why = {line.split(" (", 1)[0].strip(): line.split(" — ", 1)[1] for line in listed.stdout.splitlines()
           if " — " in line}
    assert why["ghost"] == "已停止运行。找不到命令 no-such-mcp-binary。", why
    assert "找不到命令 /no/such/dir/npx。请安装 Node.js，它自带 npx" in why["noderunner"], why
    assert "它没有在 1 秒内响应 `initialize`（它的 startTimeout）" in why["mute"], why
    assert why["mute"].endswith("日志最后一行：“starting up”"), "the server's own words: quoted data"
    for name, text in why.items():  # no quotes stripped: everything but the server's log line is worded
        assert_chinese(text.split("日志最后一行：")[0], ("no-such-mcp-binary", "/no/such/dir/npx", "Node.js", "npx",
                                                  "apt install npm", "startTimeout"), f"mcp list: {name}")
    english = {**zh_env, "XDG_CONFIG_HOME": zh_env["XDG_CONFIG_HOME"] + "-en"}
    (Path(english["XDG_CONFIG_HOME"]) / "hermes-desktop").mkdir(parents=True)
    (Path(english["XDG_CONFIG_HOME"]) / "hermes-desktop" / "mcp.json").write_text(config.read_text(), encoding="utf-8")
    said = hermes("mcp", "list", env=english).stdout
    assert "failed — the command was not found (/no/such/dir/npx); install Node.js, which brings npx" in said, \
        "in English the supervisor's own words, as before"


def test_every_launcher_hint_and_mcp_reason_is_worded_for_the_terminal() -> None:
    from hermes_desktop.core.mcp import detail_words
    from hermes_desktop.core.mcp.launchers import _HINTS
    from hermes_desktop.core.mcp.status import ServerState, ServerStatus

    try:
        i18n.use_language("zh_CN")
        plain = detail_words.not_found_text("x", "")
        for launcher in _HINTS:  # each launcher the supervisor has a hint for has its sentence here
            text = detail_words.not_found_text(f"/opt/{launcher}", launcher)
            assert text != plain and "请安装" in text, launcher
        for params in ({"reason_code": "start_timeout", "stage": stage, "limit_s": 5} for stage in
                       ("start", "initialize", "list_tools")):
            assert_chinese(detail_words.reason_text(params), ("startTimeout",), params["stage"])
        for code, params in (("failed", {"reason": "x", "reason_code": "no_answer"}),
                             ("restarting", {"reason": "x", "reason_code": "connection_closed", "delay_s": 2}),
                             ("failed", {"reason": "x", "reason_code": "not_mcp_output", "line": "“{}”"}),
                             ("still_starting", {"waited_s": 5, "limit_s": 30}),
                             ("needs_sign_in", {"reason": "it needs you to sign in (HTTP 401)", "server": "files"}),
                             ("unresolved_variable", {"variable": "${env:TOKEN}", "where": "env.TOKEN"})):
            status = ServerStatus("files", ServerState.FAILED, "english", detail_code=code, detail_params=params)
            assert_chinese(detail_words.detail_text(status), ("startTimeout", "hermes-desktop mcp login", "files",
                                                              "${env:TOKEN}", "env.TOKEN", "${secret:…}", "JSON-RPC",
                                                              "hermes-desktop mcp set-secret"), code)
    finally:
        i18n.use_language("en")


def test_skills_list_speaks_chinese(zh_env) -> None:
    listed = hermes("skills", "list", env=zh_env)
    lines = listed.stdout.splitlines()
    assert re.fullmatch(r"\d+ 个技能，跳过 \d+ 个文件夹", lines[-1]), lines[-1]
    bundled = [line for line in lines if line.split("  ")[0] in ("file-organizer", "meeting-notes", "project-doctor",
                                                                  "web-research")]
    assert len(bundled) == 4, lines
    for line in bundled:
        assert "[内置" in line
        assert_chinese(line, ("file-organizer", "meeting-notes", "project-doctor", "web-research"), "skills list")
    missing = hermes("skills", "show", "no-such-skill", env=zh_env)
    assert missing.returncode == 2 and missing.stderr.startswith("错误：没有名为 'no-such-skill' 的技能")


def test_doctor_reports_in_chinese(zh_env) -> None:
    report = hermes("doctor", env=zh_env)
    sections = [line for line in report.stdout.splitlines() if line and not line.startswith(" ")]
    assert {"路径", "对话数据库", "系统密钥环", "服务商", "MCP 服务器"} <= set(sections), sections
    paths = [line for line in report.stdout.splitlines() if line.startswith("  ") and "[" in line][:5]
    assert_chinese("\n".join(paths), (), "doctor's paths")
    keyring_line = report.stdout.split("系统密钥环\n", 1)[1].splitlines()[0]
    assert_chinese(re.sub(r"\([\w.]+\)", " ", keyring_line), ("Secret Service", "GNOME", "KeePassXC"),
                   "doctor's keyring line (the class after the name, for whoever helps)")


def test_english_stays_english(zh_env) -> None:
    english = {**zh_env, "XDG_CONFIG_HOME": zh_env["XDG_CONFIG_HOME"] + "-en"}
    assert hermes("sessions", "list", env=english).stdout.strip() == "no sessions"
    assert hermes("--help", env=english).stdout.startswith("usage: hermes-desktop")
    chinese_locale = {**english, "LANG": "zh_CN.UTF-8"}  # the setting is "system" (no settings.json): the locale
    assert hermes("sessions", "list", env=chinese_locale).stdout.strip() == "没有对话"

"""The commands wrapped after the first pass speak Chinese too (core/i18n.py): `knowledge`, `assistants`, `prompts`,
`usage`, `sync` / `backup`, `mcp import` / `mcp login`, `skills install/update/remove`, with settings.json at zh_CN,
through the real command line (tests/support/cli.py). Only data stays in Latin letters: names, paths, ids, commands
and options; `--json` stays the machine's English. With "en" the sentences are the English they were."""

from __future__ import annotations

import json
from pathlib import Path

from tests.core.test_cli_chinese import assert_chinese, zh_env  # noqa: F401  (the fixture)
from tests.support.cli import hermes

COMMANDS = ("hermes-desktop", "knowledge", "create", "sync", "NAME", "FOLDER", "assistants", "list", "prompts",
            "usage", "backup", "now", "setup", "webdav", "folder", "import", "login", "skills", "CLIENT", "--yes")


def _english(env: dict[str, str]) -> dict[str, str]:
    return {**env, "XDG_CONFIG_HOME": env["XDG_CONFIG_HOME"] + "-en"}


def test_knowledge_speaks_chinese(zh_env, tmp_path: Path) -> None:  # noqa: F811
    empty = hermes("knowledge", "list", env=zh_env)
    assert empty.returncode == 0 and empty.stdout.startswith("还没有知识库。"), empty.stdout
    assert_chinese(empty.stdout, COMMANDS, "knowledge list (none)")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "leave.md").write_text("# Leave\n\nEmployees get twenty-five days of paid annual leave.\n", encoding="utf-8")
    made = hermes("knowledge", "create", "Handbook", str(docs), env=zh_env)
    assert made.returncode == 0, made.stderr
    assert_chinese(made.stdout + made.stderr, (*COMMANDS, "Handbook", str(docs)), "knowledge create")
    synced = hermes("knowledge", "sync", "Handbook", env=zh_env)
    assert synced.returncode == 0, synced.stderr
    assert_chinese(synced.stdout, (*COMMANDS, "Handbook"), "knowledge sync")
    listed = hermes("knowledge", "list", env=zh_env)
    assert "个文档" in listed.stdout and "上次同步" in listed.stdout, listed.stdout
    assert_chinese(listed.stdout, (*COMMANDS, "Handbook", str(docs)), "knowledge list")
    found = hermes("knowledge", "search", "Handbook", "annual leave", env=zh_env)
    assert found.returncode == 0, found.stderr
    assert_chinese(found.stdout.splitlines()[0], (*COMMANDS, "leave.md", "Leave"), "knowledge search's hit line")
    for args in (("sync", "Nope"), ("search", "Nope", "x"), ("remove", "Nope"), ("create", "Handbook", str(docs))):
        wrong = hermes("knowledge", *args, env=zh_env)
        assert wrong.returncode == 2 and wrong.stderr.startswith("错误："), (args, wrong.stderr)
        assert_chinese(wrong.stderr, (*COMMANDS, "Nope", "Handbook"), f"knowledge {args[0]}'s error")
    report = hermes("doctor", env=zh_env).stdout.split("\n知识库\n", 1)[1].split("\n\n", 1)[0]
    assert_chinese(report, (*COMMANDS, "Handbook", str(docs)), "doctor's knowledge section")
    as_json = json.loads(hermes("knowledge", "list", "--json", env=zh_env).stdout)
    assert as_json[0]["name"] == "Handbook" and "documents" in as_json[0], "--json keeps its English keys"
    gone = hermes("knowledge", "remove", "Handbook", env=zh_env)
    assert gone.returncode == 0 and "已删除知识库 Handbook" in gone.stdout, gone.stdout
    english = hermes("knowledge", "list", env=_english(zh_env))
    assert english.stdout.startswith("No knowledge bases yet. Make one: hermes-desktop knowledge create NAME FOLDER")


def test_assistants_and_prompts_speak_chinese(zh_env) -> None:  # noqa: F811
    listed = hermes("assistants", "list", env=zh_env)
    assert listed.returncode == 0, listed.stderr
    tools = [line.rsplit(" — ", 1)[1] for line in listed.stdout.splitlines() if " — " in line]
    assert "所有已启用的工具" in tools, tools
    shown = hermes("assistants", "show", "Hermes", env=zh_env)
    assert shown.returncode == 0, shown.stderr
    labels = "\n".join(line.split("：", 1)[0] for line in shown.stdout.splitlines()[1:] if "：" in line)
    assert "模型" in labels and "记忆" in labels, shown.stdout
    assert_chinese(labels, ("ID",), "assistants show's labels")
    missing = hermes("assistants", "show", "No Such", env=zh_env)
    assert missing.returncode == 2
    assert missing.stderr.strip() == "错误：没有名为 'No Such' 的助手。请查看 `hermes-desktop assistants list`。"
    no_prompt = hermes("prompts", "show", "No Such", env=zh_env)
    assert no_prompt.returncode == 2 and no_prompt.stderr.startswith("错误：没有名为 'No Such' 的已保存提示词"), \
        no_prompt.stderr
    asked = hermes("ask", "hi", "--assistant", "No Such", env=zh_env)
    assert asked.returncode == 2 and "没有名为 'No Such' 的助手" in asked.stderr, asked.stderr
    assert json.loads(hermes("assistants", "list", "--json", env=zh_env).stdout)[0]["origin"], "--json unchanged"
    english = hermes("assistants", "show", "No Such", env=_english(zh_env)).stderr.strip()
    assert english == "error: No assistant named 'No Such'. See `hermes-desktop assistants list`."


def test_usage_speaks_chinese(zh_env) -> None:  # noqa: F811
    report = hermes("usage", env=zh_env)
    assert report.returncode == 0, report.stderr
    assert "的用量，按模型" in report.stdout and "这段时间没有模型请求。" in report.stdout, report.stdout
    assert_chinese(report.stdout, (*COMMANDS,), "usage")
    wrong = hermes("usage", "--since", "2026-05-02", "--until", "2026-05-01", env=zh_env)
    assert wrong.returncode == 2 and wrong.stderr.strip() == "错误：--until 2026-05-01 早于 --since 2026-05-02"
    bad = hermes("usage", "--since", "May", env=zh_env)
    assert bad.returncode == 2 and bad.stderr.strip() == "错误：不是日期：'May'（请用 YYYY-MM-DD）", bad.stderr
    helped = hermes("usage", "--help", env=zh_env)
    options = [line for line in helped.stdout.splitlines() if line.strip().startswith(("--since", "--until"))]
    assert_chinese("\n".join(options), ("YYYY-MM-DD", "DATE"), "usage --help")
    assert json.loads(hermes("usage", "--json", env=zh_env).stdout)["by"] == "model"
    english = hermes("usage", env=_english(zh_env)).stdout
    assert english.startswith("Usage ") and "No model requests in this period." in english


def test_sync_and_backup_speak_chinese(zh_env, tmp_path: Path) -> None:  # noqa: F811
    status = hermes("sync", "status", env=zh_env)
    assert status.stdout.startswith("尚未设置同步（"), status.stdout
    assert_chinese(status.stdout, (*COMMANDS, "s3"), "sync status (not set up)")
    for args in (("backup", "now"), ("backup", "list"), ("sync", "now")):
        unset = hermes(*args, env=zh_env)
        assert unset.returncode == 1 and unset.stderr.startswith("错误：尚未设置同步："), (args, unset.stderr)
        assert_chinese(unset.stderr, (*COMMANDS, "…", "s3"), " ".join(args))
    env = {**zh_env, "HERMES_SYNC_PASSPHRASE": "correct horse battery staple"}
    made = hermes("sync", "setup", "folder", str(tmp_path / "disk"), env=env)
    if made.returncode != 0:  # no secure keyring on this machine: the refusal is said in Chinese all the same
        assert made.stderr.startswith(("正在检查目标", "错误：")), made.stderr
        assert_chinese(made.stderr, (*COMMANDS, "doctor"), "sync setup without a keyring")
        return
    assert made.stdout.startswith("同步已设置：文件夹 "), made.stdout
    assert_chinese(made.stdout.splitlines()[0], (str(tmp_path / "disk"),), "sync setup")
    status = hermes("sync", "status", env=env)
    assert_chinese(status.stdout, (str(tmp_path / "disk"),), "sync status")
    listed = hermes("backup", "list", env=env)
    assert_chinese(listed.stdout, COMMANDS, "backup list (none)")
    refused = hermes("backup", "restore", "nope", env=env)
    assert refused.returncode != 0 and "错误：" in refused.stderr, refused.stderr


def test_mcp_import_and_login_speak_chinese(zh_env, tmp_path: Path) -> None:  # noqa: F811
    neither = hermes("mcp", "import", env=zh_env)
    assert neither.returncode == 2 and neither.stderr.strip() == "错误：请给出 FILE 或 --from CLIENT（二者之一）"
    source = tmp_path / "claude.json"
    source.write_text(json.dumps({"mcpServers": {"files": {"command": "npx", "args": ["-y", "files-server"]}}}),
                      encoding="utf-8")
    preview = hermes("mcp", "import", str(source), env=zh_env)
    assert preview.returncode == 0, preview.stderr
    assert_chinese(preview.stdout, (*COMMANDS, str(source), "files", "npx", "files-server", "-y"), "mcp import")
    written = hermes("mcp", "import", str(source), "--yes", env=zh_env)
    assert "已添加：files" in written.stdout, written.stdout
    login = hermes("mcp", "login", "files", env=zh_env)
    assert login.returncode == 2 and login.stderr.startswith("错误：“files”以命令（stdio）启动"), login.stderr
    nobody = hermes("mcp", "login", "nobody", env=zh_env)
    assert nobody.returncode == 2 and "中没有名为“nobody”的 MCP 服务器" in nobody.stderr, nobody.stderr
    english = hermes("mcp", "import", env=_english(zh_env)).stderr.strip()
    assert english == "error: give a FILE or --from CLIENT (one of them)"


def test_skill_sources_speak_chinese(zh_env) -> None:  # noqa: F811
    update = hermes("skills", "update", "no-such-skill", env=zh_env)
    assert update.returncode == 2 and update.stderr.startswith("错误：'no-such-skill' 不是从 URL 或 git 仓库安装的")
    remove = hermes("skills", "remove", "no-such-skill", env=zh_env)
    assert remove.returncode == 2 and remove.stderr.startswith("错误：你的技能文件夹 "), remove.stderr
    learn = hermes("skills", "learn", "no-such-session", env=zh_env)
    assert learn.returncode == 2 and learn.stderr.strip() == "错误：没有对话 'no-such-session'", learn.stderr

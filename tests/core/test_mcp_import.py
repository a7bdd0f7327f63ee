"""Bringing MCP servers over from other clients: each client's real file shape (tests/core/fixtures/mcp_import/),
where each client keeps it on each OS, the preview, the merge without duplicates, secrets moved to the keyring,
and files that are broken, huge or lie about their shape. The command line runs as a real process."""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
from argparse import Namespace
from pathlib import Path

import pytest

from hermes_desktop.commands.mcp_import import run_import
from hermes_desktop.core.mcp.config import load_config
from hermes_desktop.core.mcp.importing import (
    Change,
    ImportError_,
    apply_import,
    client_paths,
    plan_from_client,
    plan_import,
    strip_jsonc,
)
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.secrets import MemorySecretStore
from tests.support.cli import ROOT, hermes

FIXTURES = Path(__file__).parent / "fixtures" / "mcp_import"
GITHUB_PAT = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def config(isolated_home: Path) -> Path:
    return app_paths().mcp_config_file


def names(plan, change: Change) -> list[str]:
    return [item.name for item in plan.of(change)]


# ------------------------------------------------------------------ where each client keeps its servers

def test_each_client_s_usual_place_on_linux_macos_and_windows() -> None:
    home = Path("/home/me")
    linux = {"XDG_CONFIG_HOME": "/home/me/.config"}
    assert client_paths("claude", system="Linux", home=home, environ=linux) == [
        home / ".config/Claude/claude_desktop_config.json"]
    assert client_paths("claude", system="Darwin", home=Path("/Users/me"), environ={}) == [
        Path("/Users/me/Library/Application Support/Claude/claude_desktop_config.json")]
    windows = {"APPDATA": r"C:\Users\me\AppData\Roaming", "USERPROFILE": r"C:\Users\me"}
    assert client_paths("claude", system="Windows", home=home, environ=windows) == [
        Path(r"C:\Users\me\AppData\Roaming") / "Claude" / "claude_desktop_config.json"]
    assert client_paths("cursor", system="Darwin", home=Path("/Users/me"), environ={}) == [
        Path("/Users/me/.cursor/mcp.json")]
    assert client_paths("cursor", system="Windows", home=home, environ=windows) == [
        Path(r"C:\Users\me") / ".cursor" / "mcp.json"]
    vscode = client_paths("vscode", system="Linux", home=home, environ=linux)
    assert vscode[:2] == [home / ".config/Code/User/mcp.json", home / ".config/Code/User/settings.json"]
    assert client_paths("vscode", system="Darwin", home=Path("/Users/me"), environ={})[0] == Path(
        "/Users/me/Library/Application Support/Code/User/mcp.json")
    assert client_paths("vscode", system="Windows", home=home, environ=windows)[1] == Path(
        r"C:\Users\me\AppData\Roaming") / "Code" / "User" / "settings.json"
    assert client_paths("lmstudio", system="Linux", home=home, environ=linux) == [home / ".lmstudio/mcp.json"]
    assert client_paths("windsurf", system="Darwin", home=Path("/Users/me"), environ={}) == [
        Path("/Users/me/.codeium/windsurf/mcp_config.json")]


# ------------------------------------------------------------------ each client's shape

def test_claude_desktop_servers_are_added_and_a_literal_token_goes_to_the_keyring(config: Path) -> None:
    plan = plan_import(config, [FIXTURES / "claude_desktop_config.json"])
    assert names(plan, Change.ADD) == ["filesystem", "github", "time"]
    github = plan.of(Change.ADD)[1]
    assert [(s.where, s.name) for s in github.secrets] == [("env.GITHUB_PERSONAL_ACCESS_TOKEN",
                                                            "GITHUB_PERSONAL_ACCESS_TOKEN")]
    store = MemorySecretStore()
    result = apply_import(config, plan, set(), store, keyring_secure=True)
    assert result.added == ("filesystem", "github", "time") and result.backup is None
    text = config.read_text()
    assert GITHUB_PAT not in text, "the token never lands in mcp.json"
    assert "${secret:GITHUB_PERSONAL_ACCESS_TOKEN}" in text
    assert store.get("mcp:github:GITHUB_PERSONAL_ACCESS_TOKEN") == GITHUB_PAT
    loaded = load_config(config)
    assert not loaded.problems and [s.name for s in loaded.servers] == ["filesystem", "github", "time"]
    assert loaded.servers[1].secret_names == ("GITHUB_PERSONAL_ACCESS_TOKEN",)


def test_cursor_keeps_its_variables_and_type_and_drops_what_hermes_does_not_use(config: Path) -> None:
    plan = plan_import(config, [FIXTURES / "cursor_mcp.json"])
    items = {item.name: item for item in plan.items}
    assert items["linear"].entry == {"url": "https://mcp.linear.app/sse", "type": "sse"}
    assert items["search"].entry["headers"] == {"Authorization": "Bearer ${env:SEARCH_TOKEN}"}
    assert items["search"].secrets == (), "a reference is not a secret"
    notes = items["notes"]
    assert notes.entry["args"][0] == "${userHome}/tools/notes-server.js" and "envFile" not in notes.entry
    assert any("envFile" in note for note in notes.notes)
    assert notes.entry["env"] == {"API_KEY": "${secret:API_KEY}"}


def test_vs_code_mcp_json_with_comments_inputs_and_a_name_to_clean(config: Path) -> None:
    plan = plan_import(config, [FIXTURES / "vscode_mcp.json"])
    assert names(plan, Change.ADD) == ["perplexity", "github", "My-Fetch-Server"]
    assert plan.inputs == ({"type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key",
                            "password": True},), "only the inputs the imported servers use"
    assert any("renamed from “My Fetch Server”" in n for n in plan.items[2].notes)
    apply_import(config, plan, set(), MemorySecretStore(), keyring_secure=True)
    loaded = load_config(config)
    assert not loaded.problems
    perplexity = loaded.servers[0]
    assert perplexity.type == "stdio" and perplexity.inputs[0].description == "Perplexity API Key"
    assert json.loads(config.read_text())["inputs"][0]["id"] == "perplexity-key"


def test_vs_code_settings_json_lm_studio_and_windsurf(config: Path) -> None:
    assert names(plan_import(config, [FIXTURES / "vscode_settings.json"]), Change.ADD) == ["memory"]
    lm = plan_import(config, [FIXTURES / "lmstudio_mcp.json"]).items[0]
    assert lm.entry["headers"] == {"Authorization": "Bearer ${secret:Authorization}"}, "the scheme stays"
    assert lm.secrets[0].value == "hf_notarealtoken0123456789abcdef"
    windsurf = {item.name: item.entry for item in plan_import(config, [FIXTURES / "windsurf_mcp_config.json"]).items}
    assert windsurf["zapier"] == {"url": "https://actions.zapier.com/mcp/sse", "disabled": False}
    assert windsurf["git"]["disabled"] is True


def test_from_a_client_reads_its_files_in_their_usual_place(config: Path, tmp_path: Path) -> None:
    home = tmp_path / "someone"
    xdg = home / ".config"
    (xdg / "Code" / "User").mkdir(parents=True)
    shutil.copy(FIXTURES / "vscode_mcp.json", xdg / "Code" / "User" / "mcp.json")
    shutil.copy(FIXTURES / "vscode_settings.json", xdg / "Code" / "User" / "settings.json")
    where = {"system": "Linux", "home": home, "environ": {"XDG_CONFIG_HOME": str(xdg)}}
    plan = plan_from_client(config, "vscode", **where)
    assert names(plan, Change.ADD) == ["perplexity", "github", "My-Fetch-Server", "memory"]
    with pytest.raises(ImportError_, match=r"no Cursor configuration found \(looked in .*\.cursor/mcp\.json\)"):
        plan_from_client(config, "cursor", **where)


# ------------------------------------------------------------------ merge

def test_a_second_import_skips_identical_servers_and_shows_a_changed_one_field_by_field(config: Path, tmp_path) -> None:
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"mine": {"command": "x", "note": "kept"}},
                                  "myOwnField": 1}))
    store = MemorySecretStore()
    apply_import(config, plan_import(config, [FIXTURES / "claude_desktop_config.json"], store), set(), store,
                 keyring_secure=True)
    again = plan_import(config, [FIXTURES / "claude_desktop_config.json"], store)
    assert names(again, Change.SAME) == ["filesystem", "github", "time"] and not again.has_work

    changed = json.loads((FIXTURES / "claude_desktop_config.json").read_text())
    changed["mcpServers"]["time"]["args"] = ["mcp-server-time", "--local-timezone=Asia/Tokyo"]
    changed["mcpServers"]["mine"] = {"command": "y"}
    source = tmp_path / "changed.json"
    source.write_text(json.dumps(changed))
    plan = plan_import(config, [source], store)
    assert names(plan, Change.CHANGE) == ["time", "mine"] and names(plan, Change.SAME) == ["filesystem", "github"]
    assert plan.of(Change.CHANGE)[0].differences == ("args",)
    result = apply_import(config, plan, {"time"}, store, keyring_secure=True)  # the user accepted only one
    assert result.replaced == ("time",) and result.backup == config.with_name("mcp.json.bak")
    data = json.loads(config.read_text())
    assert data["mcpServers"]["time"]["args"][1] == "--local-timezone=Asia/Tokyo"
    assert data["mcpServers"]["mine"] == {"command": "x", "note": "kept"}, "a change not accepted is left alone"
    assert data["myOwnField"] == 1
    assert "Asia/Tokyo" not in result.backup.read_text(), "the backup is the file as it was"


def test_a_changed_secret_is_a_change_not_identical(config: Path) -> None:
    store = MemorySecretStore()
    apply_import(config, plan_import(config, [FIXTURES / "claude_desktop_config.json"], store), set(), store,
                 keyring_secure=True)
    store.set("mcp:github:GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_other")
    plan = plan_import(config, [FIXTURES / "claude_desktop_config.json"], store)
    assert plan.of(Change.CHANGE)[0].differences == ("secret GITHUB_PERSONAL_ACCESS_TOKEN",)


def test_without_a_secure_keyring_the_secret_is_not_stored_anywhere_and_it_is_said(config: Path) -> None:
    store = MemorySecretStore()
    result = apply_import(config, plan_import(config, [FIXTURES / "lmstudio_mcp.json"]), set(), store,
                          keyring_secure=False)
    assert result.secrets_not_stored == ("mcp:hf-mcp-server:Authorization",) and result.secrets_stored == ()
    assert store.get("mcp:hf-mcp-server:Authorization") is None
    assert "hf_notarealtoken" not in config.read_text()


# ------------------------------------------------------------------ bad sources change nothing

@pytest.mark.parametrize("fixture, reason", [
    ("not_json.json", r"is not valid JSON \(line 2"),
    ("lying.json", "\"mcpServers\" in .* is not an object of server names"),
])
def test_a_broken_or_lying_source_is_refused_and_nothing_changes(config: Path, fixture: str, reason: str) -> None:
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('{"mcpServers": {"mine": {"command": "x"}}}')
    before = config.read_bytes()
    with pytest.raises(ImportError_, match=reason):
        plan_import(config, [FIXTURES / fixture])
    assert config.read_bytes() == before


def test_a_huge_file_or_one_without_servers_is_refused_and_bad_entries_are_skipped(config: Path, tmp_path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("w") as handle:
        handle.write('{"mcpServers": {}, "pad": "')
        handle.write("x" * (6 * 1024 * 1024))
        handle.write('"}')
    with pytest.raises(ImportError_, match="6.0 MB.*not read"):
        plan_import(config, [huge])
    other = tmp_path / "settings.json"
    other.write_text('{"editor.fontSize": 12}')
    with pytest.raises(ImportError_, match="has no MCP servers"):
        plan_import(config, [other])
    plan = plan_import(config, [FIXTURES / "mixed_bad_entries.json"])
    assert names(plan, Change.ADD) == ["ok"]
    assert {item.name: item.notes[-1] for item in plan.of(Change.INVALID)} == {
        "no-command": "needs exactly one of `command` (a program to start) or `url` (a Streamable HTTP endpoint)",
        "text": "is not an object", "bad-url": "`url` must start with http:// or https://, not 'ftp://x'"}


def test_a_broken_mcp_json_is_never_overwritten_by_an_import(config: Path) -> None:
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('{"mcpServers": {"mine": ')
    with pytest.raises(ImportError_, match="fix it in a text editor first"):
        plan_import(config, [FIXTURES / "claude_desktop_config.json"])
    assert config.read_text() == '{"mcpServers": {"mine": '


def test_jsonc_comments_and_trailing_commas_but_not_inside_strings() -> None:
    text = '{"a": "http://x//y /* z */", // c\n "b": [1, 2,], /* d */ "c": "q\\"//"}'
    assert json.loads(strip_jsonc(text)) == {"a": "http://x//y /* z */", "b": [1, 2], "c": 'q"//'}


# ------------------------------------------------------------------ the command line

def cli_env(home: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(home)}


def test_cli_previews_without_a_terminal_then_imports_with_yes_then_skips_duplicates(config: Path,
                                                                                   isolated_home: Path) -> None:
    env = cli_env(isolated_home)
    source = str(FIXTURES / "claude_desktop_config.json")
    preview = hermes("mcp", "import", source, env=env)
    assert preview.returncode == 0, preview.stderr
    assert "+ add: github" in preview.stdout and "moved to the keyring as ${secret:GITHUB_PERSONAL_ACCESS_TOKEN}" \
        in preview.stdout
    assert "Preview only" in preview.stdout and not config.exists(), "no terminal and no --yes: nothing written"

    done = hermes("mcp", "import", source, "--yes", env=env)
    assert done.returncode == 0, done.stderr
    assert "Added: filesystem, github, time" in done.stdout
    assert GITHUB_PAT not in config.read_text()
    assert ("Stored mcp:github:GITHUB_PERSONAL_ACCESS_TOKEN in the keyring" in done.stdout
            or "Needs a value: mcp:github:GITHUB_PERSONAL_ACCESS_TOKEN" in done.stdout)

    again = hermes("mcp", "import", source, "--yes", env=env)
    assert "= identical, skipped: filesystem" in again.stdout and "Nothing to import." in again.stdout
    assert json.loads(config.read_text())["mcpServers"].keys() == {"filesystem", "github", "time"}


def test_cli_from_a_client_and_errors_change_nothing(config: Path, isolated_home: Path) -> None:
    env = cli_env(isolated_home)
    (isolated_home / ".codeium" / "windsurf").mkdir(parents=True)
    shutil.copy(FIXTURES / "windsurf_mcp_config.json", isolated_home / ".codeium/windsurf/mcp_config.json")
    done = hermes("mcp", "import", "--from", "windsurf", "--yes", env=env)
    assert done.returncode == 0, done.stderr
    assert "Added: zapier, git" in done.stdout
    before = config.read_bytes()
    for args, reason in ((("--from", "cursor"), "no Cursor configuration found"),
                         ((str(FIXTURES / "not_json.json"), "--yes"), "is not valid JSON"),
                         ((str(FIXTURES / "lying.json"), "--yes"), "is not an object of server names")):
        failed = hermes("mcp", "import", *args, env=env)
        assert failed.returncode == 1 and reason in failed.stderr and "nothing was changed" in failed.stderr
        assert config.read_bytes() == before


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_each_change_is_asked_and_a_no_keeps_the_file(config: Path, tmp_path: Path,
                                                                     capsys) -> None:
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"time": {"command": "uvx", "args": ["old"]}}}))
    source = FIXTURES / "claude_desktop_config.json"
    args = Namespace(file=source, client=None, yes=False, keep_existing=False)
    lines: list[str] = []
    assert run_import(args, stdin=Terminal("y\nn\n"), out=lines.append) == 0  # replace time: yes; write: no
    assert "  ~ change: time  (uvx mcp-server-time --local-timezone=Europe/Berlin)" in lines
    assert "Nothing was changed." in lines and json.loads(config.read_text())["mcpServers"]["time"]["args"] == ["old"]
    lines.clear()
    assert run_import(args, stdin=Terminal("n\ny\n"), out=lines.append) == 0  # keep time; write the new ones
    data = json.loads(config.read_text())["mcpServers"]
    assert data["time"]["args"] == ["old"] and set(data) == {"time", "filesystem", "github"}
    assert "Kept as they were: time" in lines
    assert "Replace “time” in mcp.json" in capsys.readouterr().err


async def test_story_a_vs_code_file_with_env_and_input_is_imported_and_its_tools_used_in_a_turn(
        config: Path, tmp_path: Path, workspace_dir: Path, profile, model_server, monkeypatch) -> None:
    """The issue's “done when”, without OAuth: import a VS Code mcp.json that uses ${env:…} and ${input:…}, the
    input is asked once, and the model uses the imported server's tool in a turn."""
    from hermes_desktop.core import events as ev
    from hermes_desktop.core.runtime import open_runtime
    from tests.core.test_mcp import run_turn
    from tests.core.test_mcp_variables import RecordingAsker
    from tests.support.engine import of_type
    from tests.support.model_server import CallScript, text_reply, tool_call_reply

    monkeypatch.setenv("H6_REGION", "eu-west")
    source = tmp_path / "mcp.json"
    source.write_text(json.dumps({
        "inputs": [{"type": "promptString", "id": "api-key", "description": "Service API key", "password": True}],
        "servers": {"service": {"type": "stdio", "command": sys.executable, "args": ["-m", "tests.support.mcp_server"],
                                "cwd": "${workspaceFolder}",
                                "env": {"PYTHONPATH": str(ROOT), "REGION": "${env:H6_REGION}",
                                        "API_KEY": "${input:api-key}"}}}}))
    secrets = MemorySecretStore()
    plan = plan_import(config, [source], secrets)
    assert names(plan, Change.ADD) == ["service"] and plan.items[0].secrets == ()
    apply_import(config, plan, set(), secrets, keyring_secure=True)

    runtime = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=secrets)
    try:
        asker = RecordingAsker({"api-key": "key-from-the-user-77"})
        runtime.mcp.input_asker = asker
        await runtime.mcp.reload()
        await runtime.mcp.wait_until_settled(30)
        assert runtime.mcp.supervisors["service"].status.state.value == "connected"
        assert [spec.description for _n, spec in asker.asked] == ["Service API key"]
        model_server.enqueue(tool_call_reply(CallScript("mcp_service_env_value", {"name": "REGION"})),
                             text_reply("You are in eu-west."))
        events = await run_turn(runtime, profile, "story", "which region?")
        assert of_type(events, ev.ToolCallFinished)[0].result == "eu-west"
        handler = runtime.registry.get("mcp_service_env_value").handler
        assert await handler({"name": "API_KEY"}, None) == "key-from-the-user-77"
        await runtime.mcp.stop_all()
    finally:
        runtime.store.close()

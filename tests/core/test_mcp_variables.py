"""mcp.json in VS Code's shape, and its variables: `${env:…}`, `${workspaceFolder}`, `${userHome}`, `${input:…}`.

Real servers: the project's MCP test server over stdio, and over Streamable HTTP behind a recorder that writes
down each request's Authorization header (tests/support/mcp_header_server.py), so a test sees what the server
received, or that nothing was sent at all."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.core.mcp.config import (
    InputSpec,
    UnresolvedVariable,
    VariableContext,
    load_config,
    resolve_server,
    save_server,
)
from hermes_desktop.core.mcp.status import ServerState
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import KeyringSecretStore, MemorySecretStore
from tests.core.test_mcp import REPO, SETTLE_S, runtime, secrets, state, stdio_entry, until  # noqa: F401
from tests.support.loopback import free_port, spawned_server

needs_secret_service = pytest.mark.skipif(
    not os.environ.get("HERMES_TEST_SECRET_SERVICE"),
    reason="needs a real Secret Service (tests/run_suite.sh runs it under dbus-run-session with gnome-keyring)")


class RecordingAsker:
    """Answers `${input:…}` questions like a user would, and remembers each question."""

    def __init__(self, answers: dict[str, str | None]) -> None:
        self.answers = answers
        self.asked: list[tuple[list[str], InputSpec]] = []

    async def ask_input(self, servers: list[str], spec: InputSpec) -> str | None:
        self.asked.append((servers, spec))
        return self.answers.get(spec.id)


async def start_document(runtime, document: dict) -> None:  # noqa: F811
    runtime.paths.mcp_config_file.write_text(json.dumps(document), encoding="utf-8")
    await runtime.mcp.reload()
    await runtime.mcp.wait_until_settled(SETTLE_S)


@pytest.fixture
def header_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    port, log = free_port(), tmp_path / "requests.jsonl"
    log.touch()
    with spawned_server(["-m", "tests.support.mcp_header_server", str(port), str(log)], port, REPO,
                        tmp_path / "http.log"):
        yield f"http://127.0.0.1:{port}/mcp", log


def received(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


# ------------------------------------------------------------------ VS Code's shape

def test_vs_code_shape_is_read_with_type_and_inputs_beside_mcp_servers(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({
        "inputs": [{"type": "promptString", "id": "api-key", "description": "Search API key", "password": True}],
        "servers": {
            "search": {"type": "http", "url": "https://example.com/mcp",
                       "headers": {"Authorization": "Bearer ${input:api-key}"}},
            "legacy": {"type": "sse", "url": "https://example.com/sse"},
            "files": {"type": "stdio", "command": "npx", "args": ["-y", "server-filesystem", "${workspaceFolder}"]},
            "wrong": {"type": "stdio", "url": "https://example.com/mcp"},
            "time": {"command": "uvx"},
        },
        "mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}},
    }))
    config = load_config(path)
    servers = {s.name: s for s in config.servers}
    assert set(servers) == {"search", "legacy", "files", "time"}
    assert servers["search"].transport == "http" and servers["legacy"].type == "sse" and servers["legacy"].transport == "sse"
    assert servers["files"].type == "stdio" and servers["time"].args == ("mcp-server-time",), "mcpServers wins a clash"
    assert servers["search"].inputs == (InputSpec("api-key", "Search API key", True),)
    assert servers["search"].secret_names == ("input:api-key",), "“Set secret…” can change a stored answer"
    assert any("“wrong”" in p and "`type` \"stdio\" needs `command`" in p for p in config.problems)
    assert any("“time”" in p and "both" in p for p in config.problems)


def test_saving_a_server_into_a_vs_code_file_keeps_its_shape(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"inputs": [], "servers": {"a": {"type": "stdio", "command": "x"}}}))
    save_server(path, "b", {"command": "y"})
    save_server(path, "a2", {"command": "x2"}, replacing="a")
    data = json.loads(path.read_text())
    assert "mcpServers" not in data and set(data["servers"]) == {"a2", "b"}
    assert data["servers"]["a2"]["type"] == "stdio", "a field the form does not show is kept"
    save_server(path, "a2", {"url": "https://example.com/mcp"}, replacing="a2")
    assert "type" not in json.loads(path.read_text())["servers"]["a2"], "a type that would contradict is dropped"
    assert not load_config(path).problems


# ------------------------------------------------------------------ substitution

def test_every_field_is_filled_and_an_unknown_or_unset_variable_is_named(tmp_path: Path) -> None:
    config = load_config_from(tmp_path, {"mcpServers": {"s": {
        "command": "${userHome}/bin/server", "args": ["--root", "${workspaceFolder}", "$${literal}"],
        "env": {"TOKEN": "${env:H6_TOKEN}", "KEY": "${secret:key}"}, "cwd": "${workspaceFolder}/sub"}}})
    context = VariableContext(workspace=tmp_path / "ws", home=tmp_path / "home",
                              environ={"H6_TOKEN": "env-token-123"})
    store = MemorySecretStore()
    store.set("mcp:s:key", "keyring-value-456")
    resolved, sensitive = resolve_server(config, store, context)
    assert resolved.command == f"{tmp_path}/home/bin/server"
    assert resolved.args == ("--root", str(tmp_path / "ws"), "${literal}")
    assert resolved.cwd == str(tmp_path / "ws" / "sub")
    assert dict(resolved.env) == {"TOKEN": "env-token-123", "KEY": "keyring-value-456"}
    assert set(sensitive) == {"env-token-123", "keyring-value-456"}, "both are redacted from logs and statuses"
    for variable, where, environ, workspace in (
            ("${env:H6_TOKEN}", "env.TOKEN", {}, tmp_path),
            ("${workspaceFolder}", "args[1]", {"H6_TOKEN": "x"}, None)):
        with pytest.raises(UnresolvedVariable) as caught:
            resolve_server(config, store, VariableContext(workspace=workspace, environ=environ))
        assert caught.value.variable == variable and where in str(caught.value) and "“s”" in str(caught.value)
    odd = load_config_from(tmp_path, {"mcpServers": {"s": {"command": "x", "args": ["${workspaceRoot}"]}}})
    with pytest.raises(UnresolvedVariable, match=r"\$\{workspaceRoot\} in args\[0\]"):
        resolve_server(odd, store, context)


def load_config_from(tmp_path: Path, document: dict):
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(document))
    config = load_config(path)
    assert not config.problems, config.problems
    return config.servers[0]


async def test_a_stdio_server_gets_env_workspace_and_home_filled(runtime, tmp_path, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setenv("H6_FROM_ENV", "from-the-environment")
    entry = stdio_entry(tmp_path, env={"A": "${env:H6_FROM_ENV}", "W": "${workspaceFolder}", "H": "${userHome}"})
    await start_document(runtime, {"servers": {"vars": {"type": "stdio", **entry}}})
    assert state(runtime, "vars") is ServerState.CONNECTED
    value = runtime.registry.get("mcp_vars_env_value").handler
    assert await value({"name": "A"}, None) == "from-the-environment"
    assert await value({"name": "W"}, None) == str(runtime.workspace.root)
    assert await value({"name": "H"}, None) == str(Path.home())
    await runtime.mcp.stop_all()


async def test_the_authorization_header_is_sent_resolved_and_an_unresolved_one_sends_nothing(
        runtime, secrets, header_server, monkeypatch) -> None:  # noqa: F811
    url, log = header_server
    monkeypatch.delenv("H6_MISSING", raising=False)
    await start_document(runtime, {"servers": {"remote": {
        "type": "http", "url": url, "headers": {"Authorization": "Bearer ${env:H6_MISSING}"}}}})
    status = runtime.mcp.supervisors["remote"].status
    assert status.state is ServerState.FAILED
    assert "${env:H6_MISSING}" in status.detail and "headers.Authorization" in status.detail and "remote" in status.detail
    assert received(log) == [], "nothing reached the server, least of all a literal ${env:…}"
    await runtime.mcp.stop_all()

    monkeypatch.setenv("H6_TOKEN", "tok-from-env-7788")
    asker = RecordingAsker({"tenant": "acme-tenant-42"})
    runtime.mcp.input_asker = asker
    await start_document(runtime, {
        "inputs": [{"type": "promptString", "id": "tenant", "description": "Tenant", "password": True}],
        "servers": {"remote": {"type": "http", "url": url,
                               "headers": {"Authorization": "Bearer ${env:H6_TOKEN}.${input:tenant}"}}}})
    assert state(runtime, "remote") is ServerState.CONNECTED, runtime.mcp.supervisors["remote"].status.detail
    seen = {r["authorization"] for r in received(log)}
    assert seen == {"Bearer tok-from-env-7788.acme-tenant-42"}, seen
    assert [(names, spec.id) for names, spec in asker.asked] == [(["remote"], "tenant")]
    assert secrets.get("mcp:remote:input:tenant") == "acme-tenant-42"
    await runtime.mcp.stop_all()


async def test_an_input_is_asked_once_then_comes_from_the_keyring_and_a_declined_one_is_named(
        runtime, secrets, tmp_path) -> None:  # noqa: F811
    document = {"inputs": [{"type": "promptString", "id": "word", "description": "Pass word", "password": True}],
                "servers": {"a": {"type": "stdio", **stdio_entry(tmp_path, env={"WORD": "${input:word}"})},
                            "b": {"type": "stdio", **stdio_entry(tmp_path, env={"WORD": "${input:word}"})}}}
    declined = RecordingAsker({})
    runtime.mcp.input_asker = declined
    await start_document(runtime, document)
    assert len(declined.asked) == 1 and declined.asked[0][0] == ["a", "b"], "one question for both servers"
    assert declined.asked[0][1] == InputSpec("word", "Pass word", True)
    for name in ("a", "b"):
        status = runtime.mcp.supervisors[name].status
        assert status.state is ServerState.FAILED and "${input:word}" in status.detail
    await runtime.mcp.stop_all()
    runtime.mcp.supervisors.clear()

    answering = RecordingAsker({"word": "swordfish-99"})
    runtime.mcp.input_asker = answering
    await start_document(runtime, document)
    assert state(runtime, "a") is ServerState.CONNECTED and state(runtime, "b") is ServerState.CONNECTED
    assert await runtime.registry.get("mcp_a_env_value").handler({"name": "WORD"}, None) == "swordfish-99"
    await runtime.mcp.stop_all()
    runtime.mcp.supervisors.clear()

    again = RecordingAsker({"word": "never-used"})
    runtime.mcp.input_asker = again
    await start_document(runtime, document)
    assert again.asked == [], "answered once, kept in the keyring"
    assert await runtime.registry.get("mcp_b_env_value").handler({"name": "WORD"}, None) == "swordfish-99"
    assert "swordfish-99" not in runtime.paths.mcp_config_file.read_text()
    await runtime.mcp.stop_all()


async def test_without_an_asker_an_input_is_never_asked_and_the_server_says_which(runtime, tmp_path) -> None:  # noqa: F811
    await start_document(runtime, {"servers": {"a": {"type": "stdio", **stdio_entry(tmp_path,
                                                                                     env={"W": "${input:w}"})}}})
    status = runtime.mcp.supervisors["a"].status
    assert status.state is ServerState.FAILED and "${input:w}" in status.detail and "set-secret a input:w" in status.detail
    await runtime.mcp.stop_all()


@pytest.mark.keyring
@needs_secret_service
async def test_an_input_answer_is_kept_in_the_real_keyring(workspace_dir, tmp_path) -> None:
    import keyring

    backend = keyring.core.load_keyring("keyring.backends.SecretService.Keyring")
    store = KeyringSecretStore(backend)
    made = open_runtime({"HERMES_WORKSPACE": str(workspace_dir)}, secrets=store)
    document = {"servers": {"kr": {"type": "stdio", **stdio_entry(tmp_path, env={"WORD": "${input:word}"})}}}
    try:
        made.mcp.input_asker = RecordingAsker({"word": "from-the-real-keyring"})
        await start_document(made, document)
        assert state(made, "kr") is ServerState.CONNECTED
        assert backend.get_password("hermes-desktop", "mcp:kr:input:word") == "from-the-real-keyring"
        await made.mcp.stop_all()
        made.mcp.supervisors.clear()
        later = RecordingAsker({})
        made.mcp.input_asker = later
        await start_document(made, document)
        assert later.asked == [] and state(made, "kr") is ServerState.CONNECTED
        assert await made.registry.get("mcp_kr_env_value").handler({"name": "WORD"}, None) == "from-the-real-keyring"
        await made.mcp.stop_all()
    finally:
        store.delete("mcp:kr:input:word")
        made.store.close()


async def test_restart_asks_again_for_an_input_that_was_declined(runtime, secrets, tmp_path) -> None:  # noqa: F811
    runtime.mcp.input_asker = RecordingAsker({})
    await start_document(runtime, {"servers": {"a": {"type": "stdio",
                                                     **stdio_entry(tmp_path, env={"WORD": "${input:word}"})}}})
    assert state(runtime, "a") is ServerState.FAILED
    answering = RecordingAsker({"word": "second-try"})
    runtime.mcp.input_asker = answering
    runtime.mcp.restart("a")
    await until(lambda: state(runtime, "a") is ServerState.CONNECTED, "the restarted server")
    assert [spec.id for _names, spec in answering.asked] == ["word"]
    assert await runtime.registry.get("mcp_a_env_value").handler({"name": "WORD"}, None) == "second-try"
    await runtime.mcp.stop_all()


def test_mcp_list_on_a_terminal_asks_an_input_once_hidden_and_without_one_never(tmp_path, isolated_home) -> None:
    """`hermes-desktop mcp list` in a real pseudo-terminal: the prompt appears once, the typed answer is not
    echoed, the server connects with it; the same command without a terminal asks nothing and names the input."""
    import pty
    import select

    from hermes_desktop.core.paths import app_paths
    from tests.support.cli import hermes

    config = app_paths().mcp_config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({
        "inputs": [{"type": "promptString", "id": "word", "description": "Pass word", "password": True}],
        "servers": {"vault": {"type": "stdio", **stdio_entry(tmp_path, env={"WORD": "${input:word}"})}}}))
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(isolated_home)}

    piped = hermes("mcp", "list", env=env)
    assert piped.returncode == 1 and "Pass word" not in piped.stdout + piped.stderr
    assert "${input:word}" in piped.stdout and "vault" in piped.stdout

    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal, as in a real shell
        os.chdir(REPO)
        os.execvpe(sys.executable, [sys.executable, "-m", "hermes_desktop", "mcp", "list"], env)
    output = b""
    answered = False
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], 60)
            if not ready:
                raise AssertionError("mcp list did not finish: " + output.decode(errors="replace"))
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child ended (EIO on Linux)
                break
            if not chunk:
                break
            output += chunk
            if not answered and b"Pass word" in output:
                os.write(fd, b"typed-secret-99\n")
                answered = True
    finally:
        _, status = os.waitpid(pid, 0)
        _forget_stored_answer("mcp:vault:input:word")  # the command kept it in the session's real keyring
    text = output.decode(errors="replace")
    assert text.count("Pass word") == 1, text
    assert "typed-secret-99" not in text, "the answer is typed hidden and never printed"
    assert "vault (stdio" in text and ": connected" in text, text
    assert os.waitstatus_to_exitcode(status) == 0


def _forget_stored_answer(username: str) -> None:
    """Under run_suite.sh the keyring is one real Secret Service for the whole run: an answer a subprocess stored
    must not be found by a later test of the same server and input (the window's input test then saw no question)."""
    import keyring
    from keyring.errors import KeyringError

    try:
        keyring.delete_password("hermes-desktop", username)
    except KeyringError:  # nothing stored, or no keyring outside run_suite.sh
        pass

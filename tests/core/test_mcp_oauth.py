"""OAuth sign-in for HTTP MCP servers, end to end against a local authorization server (tests/support/
oauth_server.py) protecting the project's test MCP server, with the browser step done as real HTTP GETs that
follow the redirect to the app's loopback listener. Tokens go to the real Secret Service under run_suite.sh;
legacy HTTP+SSE servers (explicit and by fallback) and the client's identity are here too."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from hermes_desktop.core.mcp.config import parse_server
from hermes_desktop.core.mcp.oauth import (
    LoopbackReceiver,
    SignInError,
    oauth_username,
    sign_in,
)
from hermes_desktop.core.mcp.status import ServerState
from hermes_desktop.core.secrets import KeyringSecretStore, MemorySecretStore
from tests.core.test_mcp import runtime, start, until  # noqa: F401 - runtime: a fixture, over this module's secrets
from tests.support.keyring_session import keyring_or_memory_store
from tests.support.loopback import free_port, spawned_server
from tests.support.oauth_server import AuthState, follow_consent, running_auth_server

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def secrets() -> Iterator[Any]:
    with keyring_or_memory_store([oauth_username(name) for name in ("remote", "sse", "fallback")]) as store:
        yield store


@pytest.fixture
def auth() -> Iterator[AuthState]:
    with running_auth_server() as state:
        yield state


def browser(opened: list[str]):
    async def open_url(url: str) -> None:
        opened.append(url)
        await asyncio.to_thread(follow_consent, url)
    return open_url


def status(runtime, name: str):
    return runtime.mcp.supervisors[name].status


async def test_a_server_needing_sign_in_says_so_and_does_not_restart_then_sign_in_connects_it(
        runtime, auth, secrets) -> None:
    await start(runtime, {"remote": {"url": f"{auth.base}/mcp"}})
    first = status(runtime, "remote")
    assert first.state is ServerState.NEEDS_SIGN_IN, first
    assert "sign in" in first.detail and "Server returned an error response" not in first.detail
    assert first.sign_in == "signed_out"
    requests_then = len(auth.mcp_statuses)
    await asyncio.sleep(1.0)  # a restart loop would have tried again by now (its first delay is 0.5 s)
    assert len(auth.mcp_statuses) == requests_then, "no restart loop while sign-in is needed"
    assert status(runtime, "remote").state is ServerState.NEEDS_SIGN_IN

    opened: list[str] = []
    result = await runtime.mcp.sign_in("remote", open_url=browser(opened))
    assert result.challenged and result.tools > 0
    assert len(opened) == 1 and "code_challenge_method=S256" in opened[0] and "state=" in opened[0]
    assert auth.grants == ["authorization_code"]
    await until(lambda: status(runtime, "remote").state is ServerState.CONNECTED, "connected")
    assert status(runtime, "remote").sign_in == "signed_in"
    assert "mcp_remote_echo" in status(runtime, "remote").tools

    stored = json.loads(secrets.get(oauth_username("remote")))
    assert stored["tokens"]["access_token"] in auth.access and stored["client"]["client_id"] in auth.clients
    if isinstance(secrets, KeyringSecretStore):
        import keyring

        assert keyring.get_password("hermes-desktop", "mcp:remote:oauth") == secrets.get("mcp:remote:oauth")
    # Never in mcp.json, the database, or the logs.
    token = stored["tokens"]["access_token"]
    assert token not in runtime.paths.mcp_config_file.read_text()
    for path in [*runtime.paths.data_dir.rglob("*"), *runtime.paths.mcp_log_dir.parent.rglob("*")]:
        if path.is_file():
            assert token.encode() not in path.read_bytes(), path

    spec = runtime.registry.get("mcp_remote_echo")
    assert await spec.handler({"text": "hi"}, None) == "echo: hi"

    # Who the server was told it talks to, and what it was told the client can do.
    from hermes_desktop import __version__

    hello = auth.initialize[-1]
    assert (hello["clientInfo"]["name"], hello["clientInfo"]["version"]) == ("hermes-desktop", __version__)
    assert set(hello["capabilities"]) == {"elicitation", "sampling", "roots"}, hello["capabilities"]

    assert await runtime.mcp.sign_out("remote") is True
    assert secrets.get(oauth_username("remote")) is None
    await until(lambda: status(runtime, "remote").state is ServerState.NEEDS_SIGN_IN, "signed out")
    await runtime.mcp.stop_all()


async def test_an_expired_token_is_refreshed_without_a_browser(runtime, auth, secrets) -> None:
    config = parse_server("remote", {"url": f"{auth.base}/mcp"})
    await sign_in(config, secrets, open_url=browser([]))
    record = json.loads(secrets.get(oauth_username("remote")))
    old = record["tokens"]["access_token"]
    record["expires_at"] = time.time() - 60  # as if the app restarted an hour later
    secrets.set(oauth_username("remote"), json.dumps(record))

    await start(runtime, {"remote": {"url": f"{auth.base}/mcp"}})
    assert status(runtime, "remote").state is ServerState.CONNECTED, status(runtime, "remote")
    assert auth.grants == ["authorization_code", "refresh_token"]
    renewed = json.loads(secrets.get(oauth_username("remote")))
    assert renewed["tokens"]["access_token"] != old and renewed["expires_at"] > time.time()
    await runtime.mcp.stop_all()


async def test_a_revoked_token_mid_session_turns_into_needs_sign_in(runtime, auth, secrets, caplog) -> None:
    await sign_in(parse_server("remote", {"url": f"{auth.base}/mcp"}), secrets, open_url=browser([]))
    await start(runtime, {"remote": {"url": f"{auth.base}/mcp"}})
    assert status(runtime, "remote").state is ServerState.CONNECTED
    auth.revoke_all()
    spec = runtime.registry.get("mcp_remote_echo")
    with pytest.raises(Exception):
        await spec.handler({"text": "hi"}, None)
    await until(lambda: status(runtime, "remote").state is ServerState.NEEDS_SIGN_IN, "needs sign-in")
    assert "sign in" in status(runtime, "remote").detail
    assert "OAuth flow error" not in caplog.text, "a state, not an error with a traceback in the log"
    await runtime.mcp.stop_all()


async def test_a_redirect_with_the_wrong_state_is_refused_and_nothing_is_stored(auth, secrets) -> None:
    config = parse_server("remote", {"url": f"{auth.base}/mcp"})

    async def forged(url: str) -> None:
        import httpx2

        def go() -> int:
            with httpx2.Client() as http:
                answer = http.get(url, follow_redirects=False)
                location = answer.headers["location"].replace("state=", "state=forged")
                return http.get(location).status_code
        assert await asyncio.to_thread(go) == 400

    with pytest.raises(SignInError, match="state mismatch"):
        await sign_in(config, secrets, open_url=forged)
    record = secrets.get(oauth_username("remote"))
    assert record is None or "tokens" not in json.loads(record)
    assert auth.grants == [], "no code was exchanged"


async def test_the_loopback_listener_is_single_use_and_times_out() -> None:
    receiver = LoopbackReceiver("x")
    port = await receiver.start()
    with pytest.raises(SignInError, match="no answer from the browser"):
        await receiver.wait(0.2)
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", port)


async def test_without_a_secure_keyring_sign_in_is_refused_with_the_reason(auth) -> None:
    config = parse_server("remote", {"url": f"{auth.base}/mcp"})
    opened: list[str] = []
    with pytest.raises(SignInError, match="keyring"):
        await sign_in(config, MemorySecretStore(), open_url=browser(opened))
    assert opened == [] and auth.grants == []


# ---------------------------------------------------------------------------------------------- SSE and identity
@pytest.fixture
def sse_server() -> Iterator[str]:
    port = free_port()
    with spawned_server(["-m", "tests.support.mcp_server", "--sse", str(port)], port, REPO):
        yield f"http://127.0.0.1:{port}/sse"


async def test_a_legacy_sse_server_works_by_type_and_by_the_404_405_fallback(runtime, sse_server) -> None:
    await start(runtime, {"sse": {"type": "sse", "url": sse_server},
                          "fallback": {"url": sse_server}})
    for name in ("sse", "fallback"):
        assert status(runtime, name).state is ServerState.CONNECTED, status(runtime, name)
        spec = runtime.registry.get(f"mcp_{name}_echo")
        assert await spec.handler({"text": name}, None) == f"echo: {name}"
    assert status(runtime, "sse").transport == "sse" and status(runtime, "fallback").transport == "sse"
    await runtime.mcp.stop_all()


async def test_the_client_introduces_itself_as_hermes_desktop(runtime, sse_server) -> None:
    from hermes_desktop import __version__
    from hermes_desktop.core.mcp.supervisor import client_info

    info = client_info()
    assert (info.name, info.version) == ("hermes-desktop", __version__)


# ---------------------------------------------------------------------------------------------- CLI
needs_secret_service = pytest.mark.skipif(
    not os.environ.get("HERMES_TEST_SECRET_SERVICE"),
    reason="needs a real Secret Service (make test runs the suite under dbus-run-session with gnome-keyring)")


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hermes_desktop", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)


def cli_env(auth: AuthState) -> dict[str, str]:
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "hermes-desktop" / "mcp.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"remote": {"url": f"{auth.base}/mcp"},
                                                 "local": {"command": "true"}}}), encoding="utf-8")
    return {**os.environ, "PYTHONPATH": str(REPO), "BROWSER": f"{sys.executable} -m tests.support.fake_browser %s"}


@pytest.mark.keyring
@needs_secret_service
def test_mcp_login_and_logout_on_the_command_line(auth) -> None:
    import keyring

    env = cli_env(auth)
    done = cli("mcp", "login", "remote", env=env)
    assert done.returncode == 0, done.stderr
    assert f"{auth.base}/authorize?" in done.stdout and "Signed in to “remote”" in done.stdout
    assert "mcp:remote:oauth" in done.stdout
    record = json.loads(keyring.get_password("hermes-desktop", "mcp:remote:oauth"))
    token = record["tokens"]["access_token"]
    assert token in auth.access and token not in done.stdout + done.stderr
    assert auth.grants == ["authorization_code"]

    done = cli("mcp", "logout", "remote", env=env)
    assert done.returncode == 0 and "Signed out of “remote”" in done.stdout, done.stderr
    assert keyring.get_password("hermes-desktop", "mcp:remote:oauth") is None


def test_mcp_login_refuses_without_a_keyring_and_for_unknown_or_stdio_servers(auth) -> None:
    env = {**cli_env(auth), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    done = cli("mcp", "login", "remote", env=env)
    assert done.returncode == 1 and "no secure keyring" in done.stderr and "/authorize" not in done.stdout
    assert auth.grants == [] and auth.authorize_requests == []
    done = cli("mcp", "login", "nosuch", env=env)
    assert done.returncode == 2 and "no MCP server named “nosuch”" in done.stderr
    done = cli("mcp", "login", "local", env=env)
    assert done.returncode == 2 and "only HTTP and SSE servers sign in" in done.stderr


async def test_a_refused_authorization_header_fails_once_with_the_status_not_a_restart_loop(runtime, auth) -> None:
    await start(runtime, {"keyed": {"url": f"{auth.base}/mcp", "headers": {"Authorization": "Bearer wrong"}}})
    failed = status(runtime, "keyed")
    assert failed.state is ServerState.FAILED and "HTTP 401" in failed.detail and failed.sign_in == ""
    seen = len(auth.mcp_statuses)
    await asyncio.sleep(1.0)
    assert len(auth.mcp_statuses) == seen, "no restart loop"
    await runtime.mcp.stop_all()


async def test_a_cancelled_sign_in_keeps_the_previous_tokens(auth, secrets) -> None:
    config = parse_server("remote", {"url": f"{auth.base}/mcp"})
    await sign_in(config, secrets, open_url=browser([]))
    before = secrets.get(oauth_username("remote"))

    async def walk_away(url: str) -> None:  # the user closes the browser tab
        pass

    with pytest.raises(SignInError, match="no answer from the browser"):
        await sign_in(config, secrets, open_url=walk_away, timeout_s=0.5)
    assert secrets.get(oauth_username("remote")) == before


def test_the_oauth_field_is_parsed_checked_and_kept_when_the_form_saves_the_server(tmp_path: Path) -> None:
    from hermes_desktop.core.mcp.config import MCPConfigError, load_config, save_server

    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"remote": {"url": "https://example.com/mcp", "oauth": {
        "clientId": "abc", "clientSecret": "${secret:client}", "scopes": ["read", "write"], "redirectPort": 8765}}}}))
    server = load_config(path).servers[0]
    assert (server.oauth.client_id, server.oauth.scopes, server.oauth.redirect_port) == ("abc", ("read", "write"), 8765)
    save_server(path, "remote", {"url": "https://example.com/mcp2"}, replacing="remote")  # what the form sends
    saved = json.loads(path.read_text())["mcpServers"]["remote"]
    assert saved["url"] == "https://example.com/mcp2" and saved["oauth"]["clientId"] == "abc"
    assert not parse_server("off", {"url": "https://x/mcp", "oauth": False}).oauth.enabled
    for bad in ({"scopes": 3}, {"clientSecret": "s"}, {"grant": "password"}, {"grant": "client_credentials"}):
        with pytest.raises(MCPConfigError):
            parse_server("bad", {"url": "https://x/mcp", "oauth": bad})


async def test_a_call_needing_more_scope_asks_to_sign_in_again_and_the_new_sign_in_asks_for_it(
        runtime, secrets) -> None:
    with running_auth_server(scopes_supported=("mcp.read",), needs_scope={"wipe": "mcp.admin"}) as auth:
        await start(runtime, {"remote": {"url": f"{auth.base}/mcp"}})
        await runtime.mcp.sign_in("remote", open_url=browser([]))
        await until(lambda: status(runtime, "remote").state is ServerState.CONNECTED, "connected")
        assert auth.authorize_requests[-1]["scope"] == "mcp.read"
        wipe = runtime.registry.get("mcp_remote_wipe")
        with pytest.raises(Exception):
            await wipe.handler({"folder": "x"}, None)
        await until(lambda: status(runtime, "remote").state is ServerState.NEEDS_SIGN_IN, "needs sign-in")
        assert "more permission" in status(runtime, "remote").detail
        await runtime.mcp.sign_in("remote", open_url=browser([]))
        assert set(auth.authorize_requests[-1]["scope"].split()) == {"mcp.read", "mcp.admin"}
        await until(lambda: status(runtime, "remote").state is ServerState.CONNECTED, "connected again")
        assert await runtime.registry.get("mcp_remote_wipe").handler({"folder": "x"}, None) == "would wipe x"
        await runtime.mcp.stop_all()


async def test_after_sign_in_the_model_uses_the_server_s_tools_in_a_turn(runtime, auth, profile, model_server) -> None:
    from hermes_desktop.core import events as ev
    from tests.core.test_mcp import run_turn
    from tests.support.engine import of_type
    from tests.support.model_server import CallScript, text_reply, tool_call_reply

    await start(runtime, {"remote": {"url": f"{auth.base}/mcp"}})
    assert status(runtime, "remote").state is ServerState.NEEDS_SIGN_IN
    await runtime.mcp.sign_in("remote", open_url=browser([]))
    await until(lambda: status(runtime, "remote").state is ServerState.CONNECTED, "connected")
    model_server.enqueue(tool_call_reply(CallScript("mcp_remote_add", {"a": 20, "b": 22})), text_reply("It is 42."))
    events = await run_turn(runtime, profile, "m", "what is 20 + 22?")
    assert "mcp_remote_add" in model_server.chat_requests[0].tool_names
    finished = of_type(events, ev.ToolCallFinished)[0]
    assert finished.outcome is ev.ToolOutcome.OK and finished.result.strip() == "42"
    token = json.loads(runtime.secrets.get(oauth_username("remote")))["tokens"]["access_token"]
    assert all(token not in json.dumps(request.messages) for request in model_server.chat_requests)
    await runtime.mcp.stop_all()


async def test_a_legacy_sse_server_behind_oauth_needs_sign_in_then_connects(runtime, auth) -> None:
    await start(runtime, {"old": {"type": "sse", "url": f"{auth.base}/sse"}})
    assert status(runtime, "old").state is ServerState.NEEDS_SIGN_IN, status(runtime, "old")
    await runtime.mcp.sign_in("old", open_url=browser([]))
    await until(lambda: status(runtime, "old").state is ServerState.CONNECTED, "connected over SSE")
    assert status(runtime, "old").transport == "sse"
    assert await runtime.registry.get("mcp_old_echo").handler({"text": "sse"}, None) == "echo: sse"
    await runtime.mcp.stop_all()

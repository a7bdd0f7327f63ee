"""Enterprise-managed authorization (SEP-990, `"grant": "identity_assertion"`), end to end: a real identity provider
(tests/support/idp_server.py: RFC 8693 token exchange), a real authorization server with the jwt-bearer grant and
the project's test MCP server behind it over Streamable HTTP (tests/support/oauth_server.py), the app's manager and
supervisor. Tokens go to the real Secret Service under run_suite.sh (`mcp:<server>:oauth`)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from hermes_desktop.core.mcp.config import MCPConfigError, parse_server, secret_username
from hermes_desktop.core.mcp.oauth import SignInError, oauth_username, sign_in
from hermes_desktop.core.mcp.status import ServerState
from hermes_desktop.core.secrets import KeyringSecretStore
from tests.core.test_mcp import SETTLE_S, runtime, start  # noqa: F401 - runtime: a fixture, over this module's secrets
from tests.support.idp_server import ID_JAG, ID_TOKEN, TOKEN_EXCHANGE, IdpState, running_idp
from tests.support.keyring_session import keyring_or_memory_store
from tests.support.oauth_server import AuthState, running_auth_server

NAME = "corp"
AS_CLIENT = ("hermes-enterprise", "as-secret-8f3a")


@pytest.fixture
def secrets() -> Iterator[Any]:
    names = ("oauth", "id-token", "client", "input:idt")
    with keyring_or_memory_store([secret_username(NAME, name) for name in names]) as store:
        yield store


@pytest.fixture
def idp() -> Iterator[IdpState]:
    with running_idp() as state:
        yield state


@pytest.fixture
def auth(idp: IdpState) -> Iterator[AuthState]:
    with running_auth_server(pre_registered=AS_CLIENT, jag_key=idp.jag_key) as state:
        yield state


def entry(auth: AuthState, idp: IdpState, **idp_changes: Any) -> dict[str, Any]:
    return {"url": f"{auth.base}/mcp", "oauth": {
        "grant": "identity_assertion", "issuer": auth.base, "clientId": AS_CLIENT[0],
        "clientSecret": "${secret:client}",
        "idp": {"tokenEndpoint": f"{idp.base}/token", "clientId": idp.client_id, "idToken": "${secret:id-token}",
                **idp_changes}}}


async def restart(runtime) -> None:
    """Stop the server and start it again (a new provider: what a restart of the app does)."""
    supervisor = runtime.mcp.supervisors[NAME]
    await supervisor.stop()
    supervisor.start()
    await runtime.mcp.wait_until_settled(SETTLE_S)


def status(runtime):
    return runtime.mcp.supervisors[NAME].status


def all_written_bytes(runtime) -> list[tuple[Path, bytes]]:
    paths = [*runtime.paths.data_dir.rglob("*"), *runtime.paths.mcp_log_dir.parent.rglob("*")]
    return [(p, p.read_bytes()) for p in paths if p.is_file()]


async def test_both_legs_connect_a_streamable_http_server_and_the_token_is_kept_in_the_keyring(
        runtime, auth, idp, secrets, caplog) -> None:
    id_token = idp.new_id_token()
    secrets.set(secret_username(NAME, "id-token"), id_token)
    secrets.set(secret_username(NAME, "client"), AS_CLIENT[1])
    caplog.set_level("DEBUG")
    await start(runtime, {NAME: entry(auth, idp)})
    assert status(runtime).state is ServerState.CONNECTED, status(runtime)
    assert status(runtime).sign_in == "signed_in"

    # Leg 1 at the IdP: RFC 8693 with the ID token, for the authorization server and the MCP server.
    assert len(idp.requests) == 1
    form = idp.requests[0]
    assert form["grant_type"] == TOKEN_EXCHANGE and form["subject_token"] == id_token
    assert (form["subject_token_type"], form["requested_token_type"]) == (ID_TOKEN, ID_JAG)
    assert (form["audience"], form["resource"], form["client_id"]) == (auth.base, f"{auth.base}/mcp", idp.client_id)
    # Leg 2 at the authorization server: the ID-JAG by jwt-bearer, the client authenticated (Basic).
    assert auth.grants == ["urn:ietf:params:oauth:grant-type:jwt-bearer"] and auth.jag_refusals == []

    spec = runtime.registry.get(f"mcp_{NAME}_echo")
    assert await spec.handler({"text": "hi"}, None) == "echo: hi"
    stored = json.loads(secrets.get(oauth_username(NAME)))
    access = stored["tokens"]["access_token"]
    assert access in auth.access and stored["expires_at"]
    if isinstance(secrets, KeyringSecretStore):
        import keyring

        assert keyring.get_password("hermes-desktop", f"mcp:{NAME}:oauth") == secrets.get(oauth_username(NAME))

    # Nothing secret in the logs, the database or mcp.json.
    for secret in (id_token, idp.issued[0], AS_CLIENT[1], access):
        assert secret not in caplog.text
        assert secret not in runtime.paths.mcp_config_file.read_text()
        for path, data in all_written_bytes(runtime):
            assert secret.encode() not in data, path

    # A restart uses the stored token: no new exchange at either side.
    await restart(runtime)
    assert status(runtime).state is ServerState.CONNECTED, status(runtime)
    assert len(idp.requests) == 1 and len(auth.grants) == 1
    await runtime.mcp.stop_all()


async def test_an_expired_stored_token_is_exchanged_again_with_both_legs(runtime, auth, idp, secrets) -> None:
    secrets.set(secret_username(NAME, "id-token"), idp.new_id_token())
    secrets.set(secret_username(NAME, "client"), AS_CLIENT[1])
    await start(runtime, {NAME: entry(auth, idp)})
    assert status(runtime).state is ServerState.CONNECTED
    record = json.loads(secrets.get(oauth_username(NAME)))
    record["expires_at"] = 1.0  # as if the app restarted long after
    secrets.set(oauth_username(NAME), json.dumps(record))
    await restart(runtime)
    assert status(runtime).state is ServerState.CONNECTED, status(runtime)
    assert len(idp.requests) == 2 and len(auth.grants) == 2
    assert json.loads(secrets.get(oauth_username(NAME)))["tokens"]["access_token"] != record["tokens"]["access_token"]
    await runtime.mcp.stop_all()


async def test_the_identity_provider_refusing_says_so_waits_for_sign_in_and_sign_in_works_with_a_fresh_token(
        runtime, auth, idp, secrets, caplog) -> None:
    stale = "idt-expired-long-ago"
    secrets.set(secret_username(NAME, "id-token"), stale)
    secrets.set(secret_username(NAME, "client"), AS_CLIENT[1])
    await start(runtime, {NAME: entry(auth, idp)})
    now = status(runtime)
    assert now.state is ServerState.NEEDS_SIGN_IN, now
    assert "your identity provider refused the token exchange: invalid_grant (Invalid ID token)" in now.detail
    assert f"mcp set-secret {NAME} id-token" in now.detail
    assert now.sign_in == "signed_out" and auth.grants == [], "no assertion reached the authorization server"
    assert len(idp.requests) == 1
    await asyncio.sleep(1.0)  # a restart loop would have asked the IdP again by now (its first delay is 0.5 s)
    assert len(idp.requests) == 1, "no restart loop"
    assert status(runtime).state is ServerState.NEEDS_SIGN_IN
    assert stale not in caplog.text and AS_CLIENT[1] not in caplog.text
    assert secrets.get(oauth_username(NAME)) is None or "tokens" not in json.loads(secrets.get(oauth_username(NAME)))

    # The user stores a fresh ID token and presses Sign in: both legs run again, the server connects.
    secrets.set(secret_username(NAME, "id-token"), idp.new_id_token())
    result = await runtime.mcp.sign_in(NAME)
    assert result.challenged and result.tools > 0
    async with asyncio.timeout(SETTLE_S):
        while status(runtime).state is not ServerState.CONNECTED:
            await asyncio.sleep(0.05)
    assert json.loads(secrets.get(oauth_username(NAME)))["tokens"]["access_token"] in auth.access
    await runtime.mcp.stop_all()


async def test_the_authorization_server_refusing_the_client_says_so_and_keeps_no_token(
        runtime, auth, idp, secrets) -> None:
    secrets.set(secret_username(NAME, "id-token"), idp.new_id_token())
    secrets.set(secret_username(NAME, "client"), "a-wrong-secret")
    await start(runtime, {NAME: entry(auth, idp)})
    now = status(runtime)
    assert now.state is ServerState.NEEDS_SIGN_IN, now
    assert "the authorization server refused the identity assertion: invalid_client" in now.detail
    assert "oauth.clientSecret" in now.detail and "a-wrong-secret" not in now.detail
    assert len(idp.requests) == 1 and auth.access == {}
    await asyncio.sleep(1.0)
    assert len(idp.requests) == 1, "no restart loop"
    with pytest.raises(SignInError, match="refused the identity assertion: invalid_client"):
        await runtime.mcp.sign_in(NAME)
    record = secrets.get(oauth_username(NAME))
    assert record is None or "tokens" not in json.loads(record)
    await runtime.mcp.stop_all()


async def test_an_id_jag_the_authorization_server_does_not_accept_is_a_clear_refusal(auth, idp, secrets) -> None:
    """The IdP issues the ID-JAG for another client than the one that presents it: invalid_grant at the AS."""
    idp.jag_client_id = "someone-else"
    secrets.set(secret_username(NAME, "id-token"), idp.new_id_token())
    secrets.set(secret_username(NAME, "client"), AS_CLIENT[1])
    with pytest.raises(SignInError, match="the authorization server refused the identity assertion: invalid_grant"):
        await sign_in(parse_server(NAME, entry(auth, idp)), secrets)
    assert auth.jag_refusals == ["client_id or resource"]


async def test_a_missing_id_token_names_how_to_store_it_without_asking_anyone(runtime, auth, idp, secrets) -> None:
    secrets.set(secret_username(NAME, "client"), AS_CLIENT[1])
    await start(runtime, {NAME: entry(auth, idp)})
    now = status(runtime)
    assert now.state is ServerState.NEEDS_SIGN_IN, now
    assert f"`hermes-desktop mcp set-secret {NAME} id-token`" in now.detail
    assert idp.requests == [] and auth.grants == []
    await runtime.mcp.stop_all()


async def test_a_missing_client_secret_waits_for_it_without_sending_anything(runtime, auth, idp, secrets) -> None:
    secrets.set(secret_username(NAME, "id-token"), idp.new_id_token())
    await start(runtime, {NAME: entry(auth, idp)})
    now = status(runtime)
    assert now.state is ServerState.NEEDS_SIGN_IN, now
    assert "oauth.clientSecret" in now.detail and f"`hermes-desktop mcp set-secret {NAME} client`" in now.detail
    assert idp.requests == [] and auth.grants == [] and auth.mcp_statuses == [], "nothing was sent anywhere"
    await runtime.mcp.stop_all()


async def test_an_unreachable_identity_provider_is_named_and_waits_for_the_user(
        runtime, auth, idp, secrets) -> None:
    """Not a refusal, but after the server's 401 also a wait (no restart loop), naming the IdP's host."""
    import socket

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{closed.getsockname()[1]}"
    secrets.set(secret_username(NAME, "id-token"), idp.new_id_token())
    secrets.set(secret_username(NAME, "client"), AS_CLIENT[1])
    server = entry(auth, idp)
    server["oauth"]["idp"]["tokenEndpoint"] = f"{dead}/token"
    runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {NAME: server}}), encoding="utf-8")
    await runtime.mcp.reload()
    await runtime.mcp.wait_until_settled(SETTLE_S)
    assert status(runtime).state is ServerState.NEEDS_SIGN_IN, status(runtime)
    assert f"your identity provider at {dead[7:]} could not be reached (ConnectError)" in status(runtime).detail
    assert auth.grants == []
    await runtime.mcp.stop_all()


def test_the_id_token_and_secrets_are_offered_by_set_secret_and_an_input_is_asked() -> None:
    config = parse_server(NAME, {"url": "https://mcp.example.com/mcp", "oauth": {
        "grant": "identity_assertion", "issuer": "https://auth.example.com", "clientId": "c",
        "clientSecret": "${secret:client}", "idp": {"tokenEndpoint": "https://idp.example.com/token",
                                                    "clientId": "d", "idToken": "${input:idt}"}}})
    assert config.secret_names == ("client", "input:idt")
    assert config.input_ids == ("idt",)


@pytest.mark.parametrize(("oauth", "message"), [
    ({"grant": "identity_assertion", "clientId": "c", "clientSecret": "s",
      "idp": {"tokenEndpoint": "https://i/t", "clientId": "d", "idToken": "x"}}, "needs `oauth.issuer`"),
    ({"grant": "identity_assertion", "issuer": "https://a", "clientId": "c",
      "idp": {"tokenEndpoint": "https://i/t", "clientId": "d", "idToken": "x"}}, "needs `oauth.clientId` and"),
    ({"grant": "identity_assertion", "issuer": "https://a", "clientId": "c", "clientSecret": "s"}, "needs `oauth.idp`"),
    ({"grant": "identity_assertion", "issuer": "https://a", "clientId": "c", "clientSecret": "s",
      "idp": {"tokenEndpoint": "https://i/t", "clientId": "d"}}, "`oauth.idp` needs `idToken`"),
    ({"grant": "identity_assertion", "issuer": "https://a", "clientId": "c", "clientSecret": "s",
      "idp": {"tokenEndpoint": "http://idp.example.com/t", "clientId": "d", "idToken": "x"}}, "must be an https"),
    ({"grant": "identity_assertion", "issuer": "http://auth.example.com", "clientId": "c", "clientSecret": "s",
      "idp": {"tokenEndpoint": "https://i/t", "clientId": "d", "idToken": "x"}}, "`oauth.issuer` must be an https"),
])
def test_an_incomplete_identity_assertion_entry_is_refused_naming_what_is_missing(oauth, message) -> None:
    with pytest.raises(MCPConfigError, match=message.replace("(", r"\(")):
        parse_server(NAME, {"url": "https://mcp.example.com/mcp", "oauth": oauth})


@pytest.mark.keyring
@pytest.mark.skipif(not os.environ.get("HERMES_TEST_SECRET_SERVICE"),
                    reason="needs a real Secret Service (tests/run_suite.sh runs it under dbus-run-session)")
def test_mcp_login_on_the_command_line_runs_both_legs_and_says_who_refused(auth, idp) -> None:
    """`hermes-desktop mcp login` for an identity_assertion server: no browser, both legs, the keyring record;
    with a stale ID token it exits 1 with the IdP's refusal and stores nothing."""
    import subprocess
    import sys

    import keyring

    repo = Path(__file__).resolve().parents[2]
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "hermes-desktop" / "mcp.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {NAME: entry(auth, idp)}}), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(repo), "BROWSER": "false"}
    keyring.set_password("hermes-desktop", secret_username(NAME, "client"), AS_CLIENT[1])
    keyring.set_password("hermes-desktop", secret_username(NAME, "id-token"), "idt-stale")
    try:
        def login() -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-m", "hermes_desktop", "mcp", "login", NAME], cwd=repo, env=env,
                                  capture_output=True, text=True, timeout=120)

        done = login()
        assert done.returncode == 1, done.stdout + done.stderr
        assert "your identity provider refused the token exchange: invalid_grant (Invalid ID token)" in done.stderr
        assert "idt-stale" not in done.stdout + done.stderr
        assert keyring.get_password("hermes-desktop", oauth_username(NAME)) is None

        id_token = idp.new_id_token()
        keyring.set_password("hermes-desktop", secret_username(NAME, "id-token"), id_token)
        done = login()
        assert done.returncode == 0, done.stderr
        assert f"Signed in to “{NAME}”" in done.stdout and f"mcp:{NAME}:oauth" in done.stdout
        assert "browser" not in done.stdout.lower(), "no consent page for this grant"
        record = json.loads(keyring.get_password("hermes-desktop", oauth_username(NAME)))
        assert record["tokens"]["access_token"] in auth.access
        for secret in (id_token, AS_CLIENT[1], record["tokens"]["access_token"]):
            assert secret not in done.stdout + done.stderr
        assert auth.grants == ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
    finally:
        for name in ("client", "id-token", "oauth"):
            try:
                keyring.delete_password("hermes-desktop", secret_username(NAME, name))
            except keyring.errors.PasswordDeleteError:
                pass

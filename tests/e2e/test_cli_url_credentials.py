"""Issue 21 §2: a URL's password and its key-carrying query parameters (?key=, ?api_key=, ?token=, access_token,
sig, ...) never appear in messages, `doctor` output or logs.

The real command line as a subprocess: `doctor` and `mcp list` against a model URL and an MCP server URL that
carry credentials; the MCP server is a real HTTP server on 127.0.0.1 answering 401 (its error quotes the URL);
then `ask` through the scripted model server with credentials in HERMES_BASE_URL, and every file the app wrote
(logs, audit, database) is searched for them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermes_desktop.core.redact import redact_text, redact_url, redact_urls
from tests.support.cli import cli_env, hermes
from tests.support.model_server import text_reply
from tests.support.oauth_server import running_auth_server

SECRETS = ("hunter2-pass", "QUERYKEY999", "MCPTOKEN123", "mcp-pass-777", "SIGNATURE42")


def app_files(home: Path) -> list[Path]:
    return [p for p in home.rglob("*") if p.is_file() and p.name != "mcp.json"]


def assert_clean(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret} in {where}"


def test_doctor_and_mcp_list_never_show_a_urls_password_or_query_keys(tmp_path, isolated_home) -> None:
    with running_auth_server() as auth:  # its /mcp answers 401 without a token
        port = auth.base.rsplit(":", 1)[1]
        mcp_url = f"http://carol:mcp-pass-777@127.0.0.1:{port}/mcp?token=MCPTOKEN123&sig=SIGNATURE42&x=1"
        config = Path(isolated_home / "config" / "hermes-desktop")
        config.mkdir(parents=True, exist_ok=True)
        (config / "mcp.json").write_text(json.dumps({"mcpServers": {"remote": {"url": mcp_url}}}))
        env = cli_env("http://bob:hunter2-pass@127.0.0.1:9/v1?key=QUERYKEY999", tmp_path, "")
        doctor = hermes("doctor", env=env)
        listed = hermes("mcp", "list", env=env)
    for result, what in ((doctor, "doctor"), (listed, "mcp list")):
        assert_clean(result.stdout + result.stderr, what)
    assert "http://bob:[redacted]@127.0.0.1:9/v1?key=[redacted]" in doctor.stdout, doctor.stdout
    assert "remote (http: http://carol:[redacted]@127.0.0.1:" in doctor.stdout
    assert "x=1" in doctor.stdout, "parameters that carry no secret stay, to tell servers apart"
    for path in app_files(isolated_home):
        assert_clean(path.read_text(errors="replace"), str(path))


def test_ask_with_credentials_in_the_base_url_keeps_them_out_of_every_file(server, tmp_path, isolated_home) -> None:
    base = server.base_url.replace("http://", "http://bob:hunter2-pass@")
    server.enqueue(text_reply("fine"))
    env = cli_env(base, tmp_path, "")
    result = hermes("ask", "hello", env=env)
    assert result.returncode == 0 and result.stdout.strip() == "fine", result.stderr
    assert_clean(result.stdout + result.stderr, "ask")
    # A server that cannot be reached: its error names the host, never the password or the query key.
    failed = hermes("ask", "hello", env={**env, "HERMES_BASE_URL": "http://bob:hunter2-pass@127.0.0.1:9/v1"
                                                                    "?key=QUERYKEY999"})
    assert failed.returncode != 0
    assert "127.0.0.1:9" in failed.stderr and "bob" not in failed.stderr
    assert_clean(failed.stdout + failed.stderr, "ask (unreachable)")
    for path in app_files(isolated_home):
        assert_clean(path.read_bytes().decode("utf-8", "replace"), str(path))


@pytest.mark.parametrize("url, shown", [
    ("https://bob:hunter2@api.example.com/v1?key=AIzaX&model=m", "https://bob:[redacted]@api.example.com/v1?key=[redacted]&model=m"),
    ("https://u:p@ss@host/x", "https://u:[redacted]@host/x"),
    ("https://h/x?api_key=a&API-KEY=b&apikey=c&token=t&q=1", "https://h/x?api_key=[redacted]&API-KEY=[redacted]&apikey=[redacted]&token=[redacted]&q=1"),
    ("https://h/cb#access_token=zz&state=s", "https://h/cb#access_token=[redacted]&state=s"),
    ("https://b.s3.amazonaws.com/o?X-Amz-Signature=dead&X-Amz-Credential=AK%2F1&X-Amz-Date=1",
     "https://b.s3.amazonaws.com/o?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]&X-Amz-Date=1"),
    ("https://h/?refresh_token=r;sig=s", "https://h/?refresh_token=[redacted];sig=[redacted]"),
    ("https://u@h/p?keyboard=1", "https://u@h/p?keyboard=1"),
])
def test_redact_url_removes_the_password_and_the_secret_parameters_only(url: str, shown: str) -> None:
    assert redact_url(url) == shown
    assert redact_urls(f"could not reach {url} (HTTP 401)") == f"could not reach {shown} (HTTP 401)"
    assert redact_text(f"'{url}'") == f"'{shown}'"

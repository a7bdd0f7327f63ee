"""`ask` over https: the TLS context made ahead in a thread (core/llm/tls.py) verifies exactly as before.

A real TLS server (the scripted model server's socket wrapped with a certificate made here by `openssl`), the
real command in its own process. Trusted through SSL_CERT_FILE (httpx's default context honours it) the reply
and the title come over TLS; without it the certificate is refused and nothing reaches the server.
"""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Iterator

import pytest

from tests.e2e.conftest import CLI_KEY
from tests.support.cli import cli_env, hermes
from tests.support.certificates import localhost_certificate
from tests.support.model_server import ScriptedModelServer, text_reply


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    return localhost_certificate(tmp_path)


@pytest.fixture
def tls_server(certificate: tuple[Path, Path]) -> Iterator[ScriptedModelServer]:
    server = ScriptedModelServer(responder=lambda request: text_reply("Hello over TLS."))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    server._httpd.socket = context.wrap_socket(server._httpd.socket, server_side=True)
    server.title_responder = lambda request: text_reply("Greeting over TLS")
    with server:
        yield server


def test_ask_over_https_with_a_trusted_certificate_gets_the_reply_and_the_title(tls_server, certificate,
                                                                               workspace_dir) -> None:
    env = cli_env(f"https://localhost:{tls_server.port}/v1", workspace_dir, CLI_KEY,
                  SSL_CERT_FILE=str(certificate[0]))
    result = hermes("ask", "say hello", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Hello over TLS."
    assert len(tls_server.chat_requests) == 2  # the reply and the title, both over TLS
    assert "Greeting over TLS" in hermes("sessions", "list", env=env).stdout


def test_ask_over_https_refuses_a_certificate_it_does_not_trust(tls_server, workspace_dir) -> None:
    env = cli_env(f"https://localhost:{tls_server.port}/v1", workspace_dir, CLI_KEY)
    env.pop("SSL_CERT_FILE", None)
    env.pop("SSL_CERT_DIR", None)
    result = hermes("ask", "say hello", env=env)
    assert result.returncode == 1, result.stderr
    assert "Hello over TLS." not in result.stdout and "Traceback" not in result.stderr
    assert tls_server.chat_requests == []  # refused in the handshake: no request was ever sent

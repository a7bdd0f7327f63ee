"""The MCP tab with an enterprise-managed server (`"grant": "identity_assertion"`): the identity provider's refusal
is shown with its reason in "needs sign-in"; after a fresh ID token is stored, Sign in… connects it without any
browser. Real IdP (tests/support/idp_server.py) and authorization server; secrets and tokens in the real Secret
Service under run_suite.sh."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtWidgets import QListWidget, QPushButton

from tests.support.idp_server import running_idp
from tests.support.oauth_server import running_auth_server

pytestmark = [pytest.mark.keyring, pytest.mark.skipif(
    not os.environ.get("HERMES_TEST_SECRET_SERVICE"),
    reason="needs a real Secret Service (make test runs the suite under dbus-run-session with gnome-keyring)")]

NAME = "corp"
AS_CLIENT = ("hermes-enterprise", "as-secret-ui-1")


def server_texts(h) -> list[str]:
    items = h.window.findChild(QListWidget, "mcpServerList")
    return [items.item(i).text() for i in range(items.count())]


def test_an_identity_provider_refusal_is_shown_and_sign_in_connects_without_a_browser(make_window) -> None:
    import keyring

    from hermes_desktop.core.paths import app_paths

    def store(name: str, value: str) -> None:
        keyring.set_password("hermes-desktop", f"mcp:{NAME}:{name}", value)

    with running_idp() as idp, running_auth_server(pre_registered=AS_CLIENT, jag_key=idp.jag_key) as auth:
        config = app_paths().mcp_config_file
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(json.dumps({"mcpServers": {NAME: {"url": f"{auth.base}/mcp", "oauth": {
            "grant": "identity_assertion", "issuer": auth.base, "clientId": AS_CLIENT[0],
            "clientSecret": "${secret:client}", "idp": {"tokenEndpoint": f"{idp.base}/token",
                                                        "clientId": idp.client_id,
                                                        "idToken": "${secret:id-token}"}}}}}), encoding="utf-8")
        store("client", AS_CLIENT[1])
        store("id-token", "idt-stale")
        try:
            h = make_window()
            h.wait_until(lambda: any(t.startswith(f"{NAME}  ·  needs sign-in") for t in server_texts(h)),
                         timeout=30, what="the server to need sign-in")
            text = next(t for t in server_texts(h) if t.startswith(NAME))
            assert "your identity provider refused the token exchange: invalid_grant (Invalid ID token)" in text
            assert "idt-stale" not in text

            store("id-token", idp.new_id_token())
            h.window.mcp.open_url = lambda url: pytest.fail("no browser for enterprise-managed sign-in")
            items = h.window.findChild(QListWidget, "mcpServerList")
            row = next(i for i in range(items.count()) if items.item(i).text().startswith(NAME))
            h.do(lambda: items.setCurrentRow(row))
            h.do(lambda: h.window.findChild(QPushButton, "signInMcpButton").click())
            h.wait_until(lambda: any(t.startswith(f"{NAME}  ·  connected") for t in server_texts(h)), timeout=30,
                         what="the server to connect after sign-in")
            assert h.window.statusBar().currentMessage() == f"Signed in to “{NAME}”."
            assert h.window.inspector.tool_item(f"mcp_{NAME}_echo") is not None
            assert len(idp.requests) >= 2 and "urn:ietf:params:oauth:grant-type:jwt-bearer" in auth.grants
        finally:
            for name in ("client", "id-token", "oauth"):
                try:
                    keyring.delete_password("hermes-desktop", f"mcp:{NAME}:{name}")
                except keyring.errors.PasswordDeleteError:
                    pass

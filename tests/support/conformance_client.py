"""The client the MCP conformance suite (npm @modelcontextprotocol/conformance, `client` mode) runs: the app's
own MCP layer, not the SDK's Client directly.

    python -m tests.support.conformance_client SERVER_URL      (MCP_CONFORMANCE_SCENARIO names the scenario)

It writes an mcp.json with one HTTP server, starts it through MCPManager / ServerSupervisor (clientInfo, client
features, transports, OAuth exactly as the app has them), and plays the user: when the server's state is "needs
sign-in" it presses Sign in (MCPManager.sign_in) with a browser that follows the consent redirect over HTTP to the
app's loopback listener (enterprise-managed authorization needs no person: the ID token from the scenario's
identity provider is put in the keyring and mcp.json names the grant); then it calls the scenario's tool
through the tool registry, as the model would. An elicitation is accepted with the schema's defaults (a test
answerer standing in for the person at the form). Tokens are kept in memory here (no Secret Service in a
conformance run; the keyring path is tested in tests/core/test_mcp_oauth.py and test_mcp_identity_assertion.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from hermes_desktop.core.mcp.bridge import tool_name
from hermes_desktop.core.mcp.config import secret_username
from hermes_desktop.core.mcp.client_features import ClientFeatures, ElicitAction, ElicitationAnswer
from hermes_desktop.core.mcp.manager import MCPManager
from hermes_desktop.core.mcp.status import ServerState
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.tools.registry import ToolRegistry

NAME = "conformance"
SIGN_IN_ATTEMPTS = 2  # a server that keeps asking for more scope is not asked forever (auth/scope-retry-limit)
SCENARIO_TOOLS = {"tools_call": ("add_numbers", {"a": 5, "b": 3}), "sse-retry": ("test_reconnection", {}),
                  "elicitation-sep1034-client-defaults": ("test_client_elicitation_defaults", {}),
                  # The focal tool's inputSchema as the app holds it (what the model is shown) goes back to the
                  # server through its echo tool; it checks that $schema, $defs and the 2020-12 keywords survived.
                  "json-schema-2020-12-preservation": ("json_schema_echo", {})}

log = logging.getLogger("conformance_client")


class RunStore(MemorySecretStore):
    """Tokens for this run only (see the module docstring)."""

    @property
    def is_persistent(self) -> bool:
        return True


class DefaultsElicitor:
    """Accepts every form with the defaults its schema gives (SEP-1034)."""

    async def elicit(self, request: Any) -> ElicitationAnswer:
        return ElicitationAnswer(ElicitAction.ACCEPT, {f.name: f.default for f in request.fields
                                                       if f.default is not None})


async def follow_consent(url: str) -> None:
    """The browser: GET the consent page, then GET where it redirects (the app's loopback listener)."""
    import httpx2

    async with httpx2.AsyncClient(timeout=30) as http:
        answer = await http.get(url, follow_redirects=False)
        location = answer.headers.get("location")
        if answer.status_code not in (301, 302, 303, 307, 308) or not location:
            raise RuntimeError(f"the consent page answered {answer.status_code}, not a redirect")
        await http.get(location, follow_redirects=False)


def server_entry(url: str, context: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"url": url, "startTimeout": 60}
    oauth: dict[str, Any] = {}
    if context.get("client_id"):
        oauth["clientId"] = context["client_id"]
        if context.get("client_secret"):
            oauth["clientSecret"] = context["client_secret"]
    if os.environ.get("MCP_CONFORMANCE_SCENARIO", "").startswith("auth/client-credentials-"):
        oauth["grant"] = "client_credentials"  # a machine client: its secret or key is in the context
        if context.get("private_key_pem"):
            oauth.update(privateKey=context["private_key_pem"], signingAlgorithm=context.get("signing_algorithm",
                                                                                             "ES256"))
    if os.environ.get("MCP_CONFORMANCE_SCENARIO", "") == "auth/basic-cimd":
        oauth["clientMetadataUrl"] = "https://conformance-test.local/client-metadata.json"
    if context.get("idp_id_token"):  # enterprise-managed authorization (SEP-990): the admin's mcp.json entry
        oauth.update(grant="identity_assertion", issuer=context["as_issuer"],
                     idp={"tokenEndpoint": context["idp_token_endpoint"], "clientId": context["idp_client_id"],
                          "idToken": "${secret:id-token}"})
    if oauth:
        entry["oauth"] = oauth
    return entry


async def authorization_server_of(url: str) -> str:
    """The administrator's step for enterprise-managed authorization: the issuer of the MCP server's authorization
    server, which goes into mcp.json (the app never takes it from the server: core/mcp/identity_assertion.py).
    The suite's context does not name it, so it is read here from the server's RFC 9728 metadata, as an
    administrator would read it from the server's documentation."""
    import httpx2
    from urllib.parse import urlparse

    parts = urlparse(url)
    async with httpx2.AsyncClient(timeout=30) as http:
        answer = await http.get(f"{parts.scheme}://{parts.netloc}/.well-known/oauth-protected-resource{parts.path}")
        answer.raise_for_status()
        return str(answer.json()["authorization_servers"][0])


async def run(url: str, scenario: str, context: dict[str, Any]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="hermes-conformance-"))
    config = folder / "mcp.json"
    store = RunStore()
    if context.get("idp_id_token"):  # the user's ID token from their IdP, kept in the keyring (here: memory)
        context = {**context, "as_issuer": await authorization_server_of(url)}
        store.set(secret_username(NAME, "id-token"), context["idp_id_token"])
    config.write_text(json.dumps({"mcpServers": {NAME: server_entry(url, context)}}), encoding="utf-8")
    registry = ToolRegistry()
    manager = MCPManager(config, registry, store, folder / "logs", set())
    features = ClientFeatures()
    features.elicitor = DefaultsElicitor()
    manager.client_features = features
    try:
        await manager.reload()
        await manager.wait_until_settled(60)
        supervisor = manager.supervisors[NAME]
        signed_in = 0
        while True:
            state = supervisor.status.state
            if state is ServerState.NEEDS_SIGN_IN and signed_in < SIGN_IN_ATTEMPTS:
                signed_in += 1
                log.info("signing in (%s)", supervisor.status.detail)
                before = supervisor.status
                await manager.sign_in(NAME, open_url=follow_consent, timeout_s=30)
                await _until_settled(supervisor, before)
                continue
            if state is not ServerState.CONNECTED:
                raise SystemExit(f"server is {state.value}: {supervisor.status.detail}")
            remote, args = SCENARIO_TOOLS.get(scenario, (None, {}))
            if remote is None and scenario.startswith("auth/") and supervisor.status.tools:
                remote = next((t for t in _remote_names(supervisor)), None)
            if remote is None:
                return
            spec = registry.get(tool_name(NAME, remote))
            if spec is None:
                raise SystemExit(f"the server offers no tool {remote}")
            if scenario == "json-schema-2020-12-preservation":
                focal = registry.get(tool_name(NAME, "json_schema_2020_12_tool"))
                if focal is None:
                    raise SystemExit("the server's json_schema_2020_12_tool was not registered")
                args = {"schema": focal.parameters}
            try:
                result = await spec.handler(args, None)
                log.info("%s -> %s", remote, result)
                return
            except Exception as exc:  # noqa: BLE001 - a sign-in may be needed (step-up); otherwise reported
                await _until_settled(supervisor, supervisor.status, limit=100)
                if supervisor.status.state is ServerState.NEEDS_SIGN_IN and signed_in < SIGN_IN_ATTEMPTS:
                    continue
                if scenario.startswith("auth/"):
                    log.info("%s failed: %s", remote, exc)
                    return
                raise
    finally:
        await manager.stop_all()


def _remote_names(supervisor: Any) -> list[str]:
    prefix = f"mcp_{NAME}_"
    return [name[len(prefix):] for name in supervisor.status.tools
            if name.startswith(prefix) and name[len(prefix):] not in ("list_resources", "read_resource")]


async def _until_settled(supervisor: Any, before: Any, limit: int = 1200) -> None:
    """Wait for the server's next settled state after `before` (a restart, a session that ended)."""
    for _ in range(limit):
        status = supervisor.status
        if status is not before and status.state not in (ServerState.STARTING, ServerState.RESTARTING):
            return
        await asyncio.sleep(0.05)


def main() -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s %(levelname)s %(message)s")
    url = sys.argv[-1]
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    asyncio.run(run(url, scenario, context))


if __name__ == "__main__":
    main()

"""The `oauth` field of an HTTP server in mcp.json (no SDK imports: config.py reads it).

    "search": {"url": "https://example.com/mcp",
               "oauth": {"clientId": "abc", "clientSecret": "${secret:client}", "scopes": ["read", "write"],
                         "redirectPort": 8765}}

Every Streamable HTTP or SSE server may ask for OAuth sign-in; the field is only needed for a client that was
registered by hand with the authorization server (otherwise Hermes registers itself dynamically), for extra
scopes, or to turn OAuth off (`"oauth": false`). `clientSecret` should be a `${secret:NAME}` reference (the
keyring), never the secret itself. `redirectPort` fixes the loopback redirect's port for an authorization
server that does not accept any port on 127.0.0.1 (RFC 8252 §7.3 says it should).

A server for machines rather than people uses the client-credentials grant (no browser, no sign-in button):
`{"grant": "client_credentials", "clientId": "…", "clientSecret": "${secret:client}"}` (sent with
client_secret_basic, or `"tokenEndpointAuth": "client_secret_post"`), or with a signed JWT instead of a secret
(private_key_jwt): `"privateKey": "${secret:key}"` (a PEM) and optionally `"signingAlgorithm"` (default ES256).

Enterprise-managed authorization (SEP-990, "cross-app access"): the company's identity provider vouches for the
user, no consent page. `{"grant": "identity_assertion", "issuer": "https://auth.example.com", "clientId": "…",
"clientSecret": "${secret:client}", "idp": {"tokenEndpoint": "https://idp.example.com/oauth2/token", "clientId":
"…", "clientSecret": "${secret:idp-client}", "idToken": "${secret:id-token}"}}`. `issuer` (the MCP server's
authorization server) is required: the ID-JAG and the client secret only ever go to it, never to an authorization
server the MCP server names (core/mcp/identity_assertion.py says why). `idp.clientSecret` is optional (a public
client at the IdP); `idp.idToken` is the user's ID token from the IdP, a `${secret:…}`, `${input:…}` or
`${env:…}` reference. Both endpoints must be https (http only on localhost/127.0.0.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class OAuthConfigError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class OAuthSettings:
    enabled: bool = True
    client_id: str = ""
    client_secret: str = ""  # usually `${secret:NAME}`
    scopes: tuple[str, ...] = ()
    redirect_port: int = 0  # 0: a free port each time
    client_metadata_url: str = ""  # a URL-based client id (CIMD) the app can use when the server supports it
    grant: str = "authorization_code"  # or "client_credentials"
    token_endpoint_auth: str = "client_secret_basic"  # client credentials with a secret: or client_secret_post
    private_key: str = ""  # client credentials with private_key_jwt: a PEM, usually `${secret:NAME}`
    signing_algorithm: str = "ES256"
    issuer: str = ""  # identity_assertion: the MCP server's authorization server (configuration, not discovery)
    idp: IdpSettings | None = None  # identity_assertion: the enterprise identity provider (leg 1)

    def variable_values(self) -> tuple[str, ...]:
        """The values that may hold `${secret:…}`/`${input:…}` the server needs (identity_assertion: its client
        secret, the IdP client secret and the ID token), so "Set secret…" offers them and inputs are asked."""
        if self.idp is None:
            return ()
        return tuple(v for v in (self.client_secret, self.idp.client_secret, self.idp.id_token) if v)


@dataclass(frozen=True, slots=True)
class IdpSettings:
    """The enterprise identity provider of the identity_assertion grant: where the ID token is exchanged."""

    token_endpoint: str
    client_id: str
    id_token: str  # a `${secret:…}`, `${input:…}` or `${env:…}` reference (or, discouraged, the token itself)
    client_secret: str = ""  # optional: a confidential client at the IdP (sent with client_secret_basic)


GRANTS = ("authorization_code", "client_credentials", "identity_assertion")


def _secure_url(url: str) -> bool:
    """https, or http to this machine (a local IdP or authorization server, as in tests)."""
    from urllib.parse import urlparse

    parsed = urlparse(url)
    return parsed.scheme == "https" or (parsed.scheme == "http" and parsed.hostname in ("localhost", "127.0.0.1",
                                                                                         "::1"))


def _parse_idp(value: Any) -> IdpSettings:
    if not isinstance(value, dict):
        raise OAuthConfigError("the identity_assertion grant needs `oauth.idp`: an object with `tokenEndpoint`, "
                               "`clientId` and `idToken` (your identity provider)")
    for key in ("tokenEndpoint", "clientId", "idToken", "clientSecret"):
        if value.get(key) is not None and not isinstance(value.get(key), str):
            raise OAuthConfigError(f"`oauth.idp.{key}` must be a string")
    missing = [key for key in ("tokenEndpoint", "clientId", "idToken") if not value.get(key)]
    if missing:
        raise OAuthConfigError("`oauth.idp` needs " + ", ".join(f"`{key}`" for key in missing))
    if not _secure_url(value["tokenEndpoint"]):
        raise OAuthConfigError("`oauth.idp.tokenEndpoint` must be an https:// URL (http only on localhost)")
    return IdpSettings(value["tokenEndpoint"], value["clientId"], value["idToken"], value.get("clientSecret") or "")


def parse_oauth(value: Any) -> OAuthSettings:
    if value is None or value is True:
        return OAuthSettings()
    if value is False:
        return OAuthSettings(enabled=False)
    if not isinstance(value, dict):
        raise OAuthConfigError("`oauth` must be an object with `clientId`, `clientSecret`, `scopes`, or false")
    scopes = value.get("scopes", ())
    if isinstance(scopes, str):
        scopes = scopes.split()
    if not isinstance(scopes, (list, tuple)) or not all(isinstance(s, str) for s in scopes):
        raise OAuthConfigError("`oauth.scopes` must be a list of strings")
    port = value.get("redirectPort", 0)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise OAuthConfigError("`oauth.redirectPort` must be a port number")
    for key in ("clientId", "clientSecret", "clientMetadataUrl", "privateKey", "signingAlgorithm"):
        if value.get(key) is not None and not isinstance(value.get(key), str):
            raise OAuthConfigError(f"`oauth.{key}` must be a string")
    if value.get("clientSecret") and not value.get("clientId"):
        raise OAuthConfigError("`oauth.clientSecret` needs `oauth.clientId`")
    grant = value.get("grant", "authorization_code")
    if grant not in GRANTS:
        raise OAuthConfigError("`oauth.grant` must be \"authorization_code\", \"client_credentials\" or "
                               "\"identity_assertion\"")
    method = value.get("tokenEndpointAuth", "client_secret_basic")
    if method not in ("client_secret_basic", "client_secret_post"):
        raise OAuthConfigError("`oauth.tokenEndpointAuth` must be \"client_secret_basic\" or \"client_secret_post\"")
    if grant == "client_credentials" and not (value.get("clientId") and (value.get("clientSecret")
                                                                         or value.get("privateKey"))):
        raise OAuthConfigError("the client_credentials grant needs `oauth.clientId` and `clientSecret` or `privateKey`")
    issuer, idp = value.get("issuer") or "", None
    if issuer and not isinstance(issuer, str):
        raise OAuthConfigError("`oauth.issuer` must be a string")
    if grant == "identity_assertion":
        if not (value.get("clientId") and value.get("clientSecret")):
            raise OAuthConfigError("the identity_assertion grant needs `oauth.clientId` and `clientSecret` (the "
                                   "client registered with the MCP server's authorization server)")
        if not issuer:
            raise OAuthConfigError("the identity_assertion grant needs `oauth.issuer`: the issuer URL of the MCP "
                                   "server's authorization server")
        if not _secure_url(issuer):
            raise OAuthConfigError("`oauth.issuer` must be an https:// URL (http only on localhost)")
        idp = _parse_idp(value.get("idp"))
    return OAuthSettings(True, value.get("clientId") or "", value.get("clientSecret") or "", tuple(scopes), port,
                         value.get("clientMetadataUrl") or "", grant, method, value.get("privateKey") or "",
                         value.get("signingAlgorithm") or "ES256", issuer, idp)

"""Enterprise-managed authorization (SEP-990, "cross-app access") for HTTP MCP servers: the company's identity
provider (IdP) vouches for the user, so no consent page and no browser.

    "oauth": {"grant": "identity_assertion", "issuer": "https://auth.example.com",
              "clientId": "hermes", "clientSecret": "${secret:client}",
              "idp": {"tokenEndpoint": "https://idp.example.com/oauth2/token", "clientId": "hermes-desktop",
                      "idToken": "${secret:id-token}"}}

Two legs, each one HTTP request:
1. **At the IdP** (here, RFC 8693 token exchange): the user's ID token (`idp.idToken`, read from the keyring or the
   environment at each exchange, so a fresh one is picked up without a restart) is exchanged for an Identity
   Assertion JWT Authorization Grant (ID-JAG): `grant_type=…:token-exchange`, `subject_token` = the ID token,
   `subject_token_type=…:id_token`, `requested_token_type=…:id-jag`, `audience` = the authorization server's
   issuer, `resource` = the MCP server, `client_id` = `idp.clientId` (with `idp.clientSecret`: HTTP Basic).
2. **At the MCP server's authorization server** (RFC 7523 jwt-bearer, the SDK's `IdentityAssertionOAuthProvider`):
   the ID-JAG for an access token, the client authenticated with its secret (`tokenEndpointAuth`, default
   client_secret_basic).

Why `issuer` is configuration: the SDK's trust model (and SEP-990's): the authorization server is the one the
company set up for this client, so the ID-JAG and the client secret only ever go to that issuer's token endpoint.
If the MCP server could name the authorization server (RFC 9728 discovery, as the ordinary sign-in does), a
malicious server could collect both. An administrator writes the issuer into mcp.json with the client id.

Getting the ID token itself (the user's OIDC sign-in at the IdP) is the company's tooling; Hermes takes it from
the keyring (`mcp set-secret SERVER id-token`, or an `${input:…}` asked once) or `${env:…}`.

Tokens are kept like every other sign-in: one JSON record in the keyring under `mcp:<server>:oauth` (or this run's
memory when there is no secure keyring: nothing is asked of a person), with the absolute expiry so a stored token
past it is not sent after a restart; an expired or revoked token is simply exchanged again (both legs).

Failures: a refusal by either side (4xx), or an IdP that cannot be reached, stops with `SignInRequired` naming
who refused and their OAuth error
(e.g. "your identity provider refused the token exchange: invalid_grant (Invalid ID token)"), so the server waits
in "needs sign-in" instead of restarting; "Sign in" (`mcp login NAME`) runs both legs again once the ID token or
secret is fixed. Nothing secret is logged or put in a message: only the OAuth `error` and `error_description`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from types import SimpleNamespace
from typing import Any, AsyncGenerator, Awaitable, Callable
from urllib.parse import urlparse

from hermes_desktop.core.mcp.config import ServerConfig, input_username, secret_username
from hermes_desktop.core.mcp.oauth import (
    KeyringTokenStorage,
    SignInError,
    SignInRequired,
    SignInResult,
    _PendingTokens,
)
from hermes_desktop.core.secrets import SecretStore, SecretStoreError

log = logging.getLogger(__name__)

TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag"
IDP_TIMEOUT_S = 30.0
_REFERENCE = re.compile(r"\$\{(secret|input|env):([A-Za-z0-9_.:-]+)\}")


class IdentityProviderUnreachable(SignInRequired):
    """The IdP could not be asked (network). Also a wait for the user, not a restart loop: the MCP server has
    already answered 401, and the supervisor rightly reads a failure after a 401 as "needs sign-in"; the reason
    says what happened and Sign in (or Restart) tries again."""


# ---------------------------------------------------------------------------------------------- values
def resolve_value(config: ServerConfig, secrets: SecretStore | None, value: str, what: str) -> str:
    """`${secret:NAME}`, `${input:ID}` (keyring) or `${env:NAME}`, or the value as written. A missing one raises
    SignInRequired saying how to provide it. Reads the keyring: may block (callers use a thread)."""
    match = _REFERENCE.fullmatch(value.strip())
    if match is None:
        return value
    kind, name = match.groups()
    if kind == "env":
        found = os.environ.get(name)
        if not found:
            raise SignInRequired(f"{what} is taken from the environment variable {name}, which is not set")
        return found
    username = secret_username(config.name, name) if kind == "secret" else input_username(config.name, name)
    try:
        found = secrets.get(username) if secrets is not None else None
    except SecretStoreError as exc:
        raise SignInRequired(f"{what} could not be read from the keyring: {exc}") from None
    if not found:
        key = name if kind == "secret" else f"input:{name}"
        raise SignInRequired(f"{what} is not in the keyring yet: store it with `hermes-desktop mcp set-secret "
                             f"{config.name} {key}` (or “Set secret…” in the MCP tab)")
    return found


def _oauth_error(body: bytes) -> str:
    """"error (description)" from an OAuth error body, or a short note; never the body itself (it could echo
    something secret)."""
    import json

    try:
        data = json.loads(body or b"null")
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("error"), str):
        return "no OAuth error in its answer"
    error = data["error"][:80]
    description = data.get("error_description")
    if isinstance(description, str) and description.strip():
        return f"{error} ({description.strip()[:200]})"
    return error


# ---------------------------------------------------------------------------------------------- leg 1
async def exchange_id_token(config: ServerConfig, secrets: SecretStore | None, audience: str, resource: str,
                            *, scope: str | None = None) -> str:
    """Leg 1: the user's ID token for an ID-JAG at the IdP (RFC 8693). Returns the ID-JAG."""
    import httpx2

    idp = config.oauth.idp
    assert idp is not None
    id_token = await asyncio.to_thread(resolve_value, config, secrets, idp.id_token,
                                       "the ID token from your identity provider (oauth.idp.idToken)")
    idp_secret = await asyncio.to_thread(resolve_value, config, secrets, idp.client_secret,
                                         "the identity provider's client secret (oauth.idp.clientSecret)") \
        if idp.client_secret else ""
    form = {"grant_type": TOKEN_EXCHANGE_GRANT, "requested_token_type": ID_JAG_TYPE, "audience": audience,
            "resource": resource, "subject_token": id_token, "subject_token_type": ID_TOKEN_TYPE,
            "client_id": idp.client_id}
    if scope:
        form["scope"] = scope
    auth = httpx2.BasicAuth(idp.client_id, idp_secret) if idp_secret else None
    host = urlparse(idp.token_endpoint).netloc
    log.info("MCP server %s: exchanging the ID token for an ID-JAG at %s", config.name, host)
    try:
        async with httpx2.AsyncClient(timeout=IDP_TIMEOUT_S, follow_redirects=False) as http:
            answer = await http.post(idp.token_endpoint, data=form, auth=auth,
                                     headers={"Accept": "application/json"})
    except httpx2.HTTPError as exc:
        raise IdentityProviderUnreachable(f"your identity provider at {host} could not be reached "
                                          f"({type(exc).__name__}); try again when it is reachable") from None
    if answer.status_code != 200:
        raise SignInRequired(f"your identity provider refused the token exchange: {_oauth_error(answer.content)} "
                             f"(HTTP {answer.status_code}); {_id_token_hint(config)}")
    try:
        data = answer.json()
    except ValueError:
        data = None
    jag = data.get("access_token") if isinstance(data, dict) else None
    issued = data.get("issued_token_type") if isinstance(data, dict) else None
    if not isinstance(jag, str) or not jag or (issued is not None and issued != ID_JAG_TYPE):
        raise SignInRequired(f"your identity provider answered the token exchange without an ID-JAG "
                             f"(issued_token_type {issued!r})")
    return jag


def _id_token_hint(config: ServerConfig) -> str:
    idp = config.oauth.idp
    match = _REFERENCE.fullmatch((idp.id_token if idp else "").strip())
    if match is None:
        return "update oauth.idp.idToken in mcp.json with a fresh ID token"
    kind, name = match.groups()
    if kind == "env":
        return f"set {name} to a fresh ID token and restart the server"
    key = name if kind == "secret" else f"input:{name}"
    return f"store a fresh ID token with `hermes-desktop mcp set-secret {config.name} {key}`"


# ---------------------------------------------------------------------------------------------- leg 2
def _provider_class() -> type:
    from mcp.client.auth import OAuthFlowError, OAuthTokenError
    from mcp.client.auth.extensions.identity_assertion import IdentityAssertionOAuthProvider

    class HermesIdentityAssertionProvider(IdentityAssertionOAuthProvider):
        """The SDK's leg-2 provider with what the supervisor asks of every provider (`sign_in_needed`,
        `context.current_tokens`), the stored absolute expiry, and refusals turned into SignInRequired."""

        def __init__(self, *args: Any, server: str, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.server = server
            self.sign_in_needed: str | None = None
            self.challenged = False  # whether the server asked for a token (the exchange ran)

        @property
        def context(self) -> Any:  # read like the SDK's OAuthClientProvider.context by the supervisor
            return SimpleNamespace(current_tokens=self._tokens)

        async def _auth_flow(self, request: Any) -> AsyncGenerator[Any, Any]:
            async with self._lock:
                if not self._initialized:  # the stored absolute expiry, not `expires_in` from now (a restart)
                    self._tokens = await self._storage.get_tokens()
                    stored = getattr(self._storage, "expires_at", None)
                    self._expiry = stored if self._tokens is not None and stored else None
                    if self._tokens is not None and self._expiry is not None and time.time() > self._expiry:
                        self._tokens = None
                    self._initialized = True
            flow = super()._auth_flow(request)
            last: Any = None
            try:
                outgoing = await flow.__anext__()
                while True:
                    if outgoing is not request:
                        self.challenged = True
                    response = yield outgoing
                    last = response
                    outgoing = await flow.asend(response)
            except StopAsyncIteration:
                return
            except OAuthTokenError:
                self.sign_in_needed = (f"the authorization server refused the identity assertion: "
                                       f"{_oauth_error(last.content if last is not None else b'')}"
                                       f"{_as_hint(last)}")
                raise SignInRequired(self.sign_in_needed) from None
            except SignInRequired as exc:
                self.sign_in_needed = str(exc)
                raise
            except OAuthFlowError as exc:
                self.sign_in_needed = f"{exc}: check oauth.issuer in mcp.json"
                raise SignInRequired(self.sign_in_needed) from None
            finally:
                await flow.aclose()

    return HermesIdentityAssertionProvider


def _as_hint(response: Any) -> str:
    text = _oauth_error(response.content if response is not None else b"")
    if text.startswith("invalid_client"):
        return "; check oauth.clientId and oauth.clientSecret in mcp.json"
    return ""


async def identity_assertion_provider(config: ServerConfig, secrets: SecretStore | None, *,
                                      storage: Any = None) -> Any:
    """The httpx auth for an identity_assertion server: stored tokens, else both legs at the first 401."""
    settings = config.oauth
    if storage is None:
        storage = KeyringTokenStorage(secrets, config.name, url=config.url, require_persistent=False)
    secret = await asyncio.to_thread(resolve_value, config, secrets, settings.client_secret,
                                     "the client secret for the authorization server (oauth.clientSecret)")

    async def assertion(audience: str, resource: str) -> str:
        return await exchange_id_token(config, secrets, audience, resource)

    from hermes_desktop.core.mcp import oauth_network

    return oauth_network.guard(_provider_class()(
        server_url=config.url, storage=storage, client_id=settings.client_id, client_secret=secret,
        issuer=settings.issuer, assertion_provider=assertion, scope=" ".join(settings.scopes) or None,
        token_endpoint_auth_method=settings.token_endpoint_auth, server=config.name), config.url)


async def background_provider(config: ServerConfig, secrets: SecretStore | None) -> Any:
    """The supervisor's provider. A missing client secret is a state ("needs sign-in"), not a crash loop: the
    provider is then one that stops at the first request with that reason."""
    try:
        return await identity_assertion_provider(config, secrets)
    except SignInRequired as exc:
        return _Stopped(str(exc))


class _Stopped:
    """An httpx auth that sends nothing and says why (see background_provider)."""

    requires_request_body = False
    requires_response_body = False

    def __init__(self, reason: str) -> None:
        self.sign_in_needed = reason
        self.context = SimpleNamespace(current_tokens=None)

    def sync_auth_flow(self, request: Any) -> Any:
        raise SignInRequired(self.sign_in_needed)
        yield request  # pragma: no cover - a generator

    async def async_auth_flow(self, request: Any) -> Any:
        raise SignInRequired(self.sign_in_needed)
        yield request  # pragma: no cover - a generator


async def sign_in(config: ServerConfig, secrets: SecretStore | None, *,
                  connect: Callable[[Any], Awaitable[int]] | None = None) -> SignInResult:
    """"Sign in" for an identity_assertion server: both legs now (no browser), the tokens to the keyring once the
    server accepted them; the stored ones are kept if anything fails. Raises SignInError fit to show."""
    keyring = KeyringTokenStorage(secrets, config.name, url=config.url)
    await asyncio.to_thread(keyring._check)  # no secure keyring: refuse before anything is sent
    pending = _PendingTokens(keyring)
    # A whole deadline: a server (or IdP) dripping its answers never trips a per-read timeout.
    deadline_s = 2 * IDP_TIMEOUT_S + 2 * config.start_timeout_s
    try:
        async with asyncio.timeout(deadline_s):
            provider = await identity_assertion_provider(config, secrets, storage=pending)
            if connect is None:
                from hermes_desktop.core.mcp.supervisor import connect_once

                tools = await connect_once(config, secrets, provider)
            else:
                tools = await connect(provider)
    except BaseException as exc:
        inner = exc
        while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
            found = inner.subgroup((SignInRequired, SignInError))
            inner = found.exceptions[0] if found is not None else inner.exceptions[0]
        if isinstance(inner, (SignInRequired, SignInError)):
            raise SignInError(str(inner)) from None
        if isinstance(exc, TimeoutError):
            raise SignInError(f"sign-in to “{config.name}” did not finish within {deadline_s:g} s (the identity "
                              "provider, the authorization server or the server stopped answering); nothing was "
                              "stored") from None
        if isinstance(exc, asyncio.CancelledError):
            raise
        text = str(inner).strip() or type(inner).__name__
        raise SignInError(f"sign-in to “{config.name}” failed: {text[:300]}") from None
    await pending.commit()
    return SignInResult(config.name, provider.challenged, tools)

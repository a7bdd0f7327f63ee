"""OAuth 2.1 sign-in for Streamable HTTP and SSE servers, on the MCP SDK's `OAuthClientProvider`.

What the SDK does (mcp.client.auth): on a 401 it discovers the protected-resource metadata (RFC 9728, from
`WWW-Authenticate` or the well-known URLs) and the authorization server's metadata (RFC 8414 / OIDC), registers
the client dynamically (RFC 7591) unless one is known, runs the authorization-code grant with PKCE (S256) and a
`state` it checks, exchanges the code, refreshes an expired token, and on a 403 `insufficient_scope` asks again
for the union of the scopes (step-up).

What Hermes adds here:
- `KeyringTokenStorage`: tokens and the client registration (its secret included) are one JSON record in the
  keyring under `mcp:<server>:oauth`, with the token's absolute expiry (the SDK only knows `expires_in`, which
  means nothing after a restart: a stored token past its expiry is refreshed before it is sent). No secure
  keyring: sign-in is refused with that reason; nothing is ever written elsewhere. Logs, mcp.json and the
  database never see a token.
- Two modes. *Background* (the supervisor): a server never signed in gets its requests sent as they are, and a
  401/403 makes `sign_in_needed` say why; a signed-in server's tokens are used and refreshed, and when the SDK
  would open a browser (the refresh failed, more scope is needed) it stops instead with `SignInRequired`. No
  browser ever opens by itself and no restart loop follows. *Interactive* (`sign_in`, used by the MCP tab's
  "Sign in" and `mcp login NAME`): the consent page opens in the system browser (`open_url`, injectable) and a
  one-shot loopback listener on 127.0.0.1 (a free port, or `oauth.redirectPort`) takes the redirect: it checks
  `state` (a code with a wrong one ends the sign-in, refused; a request with neither code nor this state, such
  as a probe or an `error` anyone local could send, is answered 400 and ignored), answers once and closes, and
  gives up after `timeout_s`.
- A sign-in is bound to the server URL it was made for: the record keeps that URL (`url`, normalised), and a
  record for another URL (the entry's URL was edited, an import replaced the entry) or without one (written
  before the binding) is never read: no token, refresh token or registration of it is sent to the new URL, the
  server needs sign-in again, and the next write replaces the stale record. The resource the token names is the
  one the SDK derives from that same URL (RFC 8707; it refuses protected-resource metadata naming another).
- Every OAuth request (discovery, registration, token, refresh) passes fetch_url's address check first
  (oauth_network.py): https except on loopback, and no private, loopback or link-local address unless it is the
  MCP server's own host or the user allowed it.
- A pre-registered client (`oauth.clientId`, `clientSecret` from the keyring) replaces dynamic registration.
- Enterprise-managed authorization (`"grant": "identity_assertion"`, SEP-990) is in identity_assertion.py.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
import webbrowser
from dataclasses import dataclass
from html import escape
from typing import Any, AsyncGenerator, Awaitable, Callable
from urllib.parse import parse_qs, urlparse

from hermes_desktop.core.mcp import oauth_network
from hermes_desktop.core.mcp.config import ServerConfig, secret_username
from hermes_desktop.core.mcp.split_secret import delete_split, read_split, write_split
from hermes_desktop.core.secrets import SecretStore, SecretStoreError

log = logging.getLogger(__name__)

OAUTH_NAME = "oauth"  # keyring username mcp:<server>:oauth
CLIENT_NAME = "Hermes Desktop"
SIGN_IN_TIMEOUT_S = 300.0
CALLBACK_PATH = "/callback"


class SignInRequired(Exception):
    """The server wants the user to sign in (again); the message says why, fit to show."""


class SignInError(Exception):
    """A sign-in did not complete; the message is fit to show."""


def oauth_username(server: str) -> str:
    return secret_username(server, OAUTH_NAME)


def uses_oauth(config: ServerConfig) -> bool:
    """HTTP and SSE servers may ask for sign-in, unless turned off or given their own Authorization header."""
    return bool(config.url) and config.oauth.enabled and not any(
        k.lower() == "authorization" for k in config.headers)


# ---------------------------------------------------------------------------------------------- storage
class KeyringTokenStorage:
    """The SDK's TokenStorage over the keyring (one JSON record per server). Keyring calls run in a thread."""

    def __init__(self, secrets: SecretStore | None, server: str, *, url: str, client_info: Any = None,
                 require_persistent: bool = True) -> None:
        """`url`: the server's URL now; a stored sign-in made for another URL is not used (see the module
        docstring)."""
        self._secrets = secrets
        self._server = server
        self._url = bound_url(url)
        self.stale = False  # a stored sign-in was found for another URL (and is not used)
        self._fixed_client = client_info  # a pre-registered client: used instead of anything stored
        self._require_persistent = require_persistent
        self.expires_at: float | None = None

    def _check(self) -> SecretStore:
        if self._secrets is None or (self._require_persistent and not self._secrets.is_persistent):
            raise SignInError("Sign-in needs the system keyring to keep its tokens, and no secure keyring is "
                              "available here, so nothing was stored (tokens are never written to a file).")
        return self._secrets

    def _read_sync(self) -> dict[str, Any]:
        if self._secrets is None:
            return {}
        try:
            text = read_split(self._secrets, oauth_username(self._server))  # parts: core/mcp/split_secret.py
        except SecretStoreError as exc:
            raise SignInError(str(exc)) from exc
        if not text:
            return {}
        try:
            record = json.loads(text)
        except json.JSONDecodeError:
            log.warning("the stored sign-in of MCP server %s is unreadable; it is ignored", self._server)
            return {}
        if not isinstance(record, dict):
            return {}
        if record.get("url") != self._url:  # made for another URL (or before sign-ins were bound): never sent here
            if not self.stale:
                log.info("the stored sign-in of MCP server %s was made for another URL; it is not sent to the "
                         "server's URL now, which needs sign-in again", self._server)
            self.stale = True
            return {}
        return record

    def _write_sync(self, record: dict[str, Any]) -> None:
        store = self._check()
        try:
            # Bound to its URL (issue 21); split for Windows' ~1,280 characters an entry (issue 25).
            write_split(store, oauth_username(self._server), json.dumps({**record, "url": self._url}))
        except (SecretStoreError, ValueError) as exc:
            raise SignInError(str(exc)) from exc

    async def read(self) -> dict[str, Any]:
        return await asyncio.to_thread(self._read_sync)

    async def update(self, **changes: Any) -> None:
        def change() -> None:
            record = self._read_sync()
            record.update(changes)
            self._write_sync({k: v for k, v in record.items() if v is not None})
        await asyncio.to_thread(change)

    async def get_tokens(self) -> Any:
        from mcp.shared.auth import OAuthToken

        record = await self.read()
        tokens = record.get("tokens")
        if not tokens:
            return None
        self.expires_at = record.get("expires_at")
        try:
            return OAuthToken.model_validate(tokens)
        except Exception:  # noqa: BLE001 - a record from another version: sign in again
            return None

    async def set_tokens(self, tokens: Any) -> None:
        _check_token_size(tokens)
        expires_at = time.time() + tokens.expires_in if tokens.expires_in and tokens.expires_in > 0 else None
        self.expires_at = expires_at
        await self.update(tokens=tokens.model_dump(mode="json", exclude_none=True), expires_at=expires_at)

    async def get_client_info(self) -> Any:
        from mcp.shared.auth import OAuthClientInformationFull

        if self._fixed_client is not None:
            return self._fixed_client
        info = (await self.read()).get("client")
        try:
            return OAuthClientInformationFull.model_validate(info) if info else None
        except Exception:  # noqa: BLE001
            return None

    async def set_client_info(self, client_info: Any) -> None:
        if self._fixed_client is not None:
            return
        await self.update(client=client_info.model_dump(mode="json", exclude_none=True))

    async def wanted_scope(self) -> str | None:
        return (await self.read()).get("wanted_scope")


def sign_out(secrets: SecretStore | None, server: str) -> bool:
    """Remove the server's tokens and registration from the keyring. Returns whether there was anything."""
    if secrets is None:
        return False
    try:
        had = bool(secrets.get(oauth_username(server)))
        delete_split(secrets, oauth_username(server))
    except SecretStoreError as exc:
        raise SignInError(str(exc)) from exc
    return had


def signed_in(secrets: SecretStore | None, server: str, url: str | None = None) -> bool:
    """Whether tokens are stored for the server (for `url`, when given: a sign-in made for another URL does not
    count). Keyring read: may block."""
    try:
        text = read_split(secrets, oauth_username(server)) if secrets is not None else None
        record = json.loads(text) if text else {}
        return bool(record.get("tokens")) and (url is None or record.get("url") == bound_url(url))
    except (SecretStoreError, ValueError, AttributeError):
        return False


def bound_url(url: str) -> str:
    """The form of a server URL a sign-in is bound to: scheme and host in lower case, the default port and the
    fragment dropped; path and query as written (another path can be another resource)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        return url.strip()
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port is None or (scheme, port) in (("http", 80), ("https", 443)) else f"{host}:{port}"
    if parts.username is not None:  # credentials in the URL are part of who is asked
        netloc = f"{parts.username}{':' + parts.password if parts.password is not None else ''}@{netloc}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


# ---------------------------------------------------------------------------------------------- loopback
class LoopbackReceiver:
    """A one-shot HTTP listener on 127.0.0.1 for the authorization redirect."""

    def __init__(self, server_name: str, port: int = 0) -> None:
        self._server_name = server_name
        self._port = port
        self._server: asyncio.base_events.Server | None = None
        self._result: asyncio.Future[Any] | None = None
        self.expected_state: str | None = None

    async def start(self) -> int:
        self._result = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self._port)
        return self._server.sockets[0].getsockname()[1]

    @property
    def redirect_uri(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}{CALLBACK_PATH}"

    def expect(self, authorization_url: str) -> None:
        self.expected_state = (parse_qs(urlparse(authorization_url).query).get("state") or [None])[0]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        parts = head.split(b"\r\n", 1)[0].decode("latin-1").split()
        target = urlparse(parts[1]) if len(parts) >= 2 else urlparse("/")
        query = {k: v[0] for k, v in parse_qs(target.query).items()}
        status, page = 400, "This is not a sign-in answer Hermes is waiting for."
        result = self._result
        if parts[:1] != ["GET"] or target.path != CALLBACK_PATH or result is None or result.done():
            status = 404
        elif "code" not in query and (self.expected_state is None or query.get("state") != self.expected_state):
            pass  # a probe, a prefetch, or an `error` not carrying this sign-in's state: anyone local can send it
        elif "error" in query:
            reason = query.get("error_description") or query["error"]
            page = f"Sign-in was not completed: {reason}"
            result.set_exception(SignInError(f"the authorization server refused the sign-in: {reason}"))
        elif self.expected_state is None or query.get("state") != self.expected_state:
            page = "Refused: this answer does not belong to the sign-in Hermes started."
            result.set_exception(SignInError("the browser returned a sign-in answer that does not match this "
                                             "sign-in (state mismatch); it was refused. Try again."))
        elif not query.get("code"):
            result.set_exception(SignInError("the browser returned no authorization code"))
        else:
            status, page = 200, f"Signed in to “{self._server_name}”. You can close this tab and return to Hermes."
            from mcp.shared.auth import AuthorizationCodeResult

            result.set_result(AuthorizationCodeResult(code=query["code"], state=query.get("state"),
                                                      iss=query.get("iss")))
        body = (f"<!doctype html><meta charset=utf-8><title>Hermes</title><p>{escape(page)}</p>").encode()
        reason = {200: "OK", 400: "Bad Request", 404: "Not Found"}[status]
        writer.write(f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\n"
                     f"Content-Length: {len(body)}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n".encode()
                     + body)
        try:
            await writer.drain()
        except ConnectionError:
            pass
        writer.close()
        if result is not None and result.done():
            self.close()  # single use

    async def wait(self, timeout_s: float) -> Any:
        assert self._result is not None
        try:
            return await asyncio.wait_for(asyncio.shield(self._result), timeout_s)
        except asyncio.TimeoutError:
            raise SignInError(f"no answer from the browser within {timeout_s:g} s; sign-in was cancelled") from None
        finally:
            self.close()

    def close(self) -> None:
        if self._server is not None:
            self._server.close()


# ---------------------------------------------------------------------------------------------- provider
def _quiet_sign_in_required(record: logging.LogRecord) -> bool:
    """The SDK logs every exception from its OAuth flow with a traceback; "needs sign-in" is a state, not an error."""
    error = record.exc_info[1] if record.exc_info else None
    return not isinstance(error, SignInRequired)


@functools.cache
def _provider_class() -> type:
    from mcp.client.auth import OAuthClientProvider
    from mcp.client.auth.utils import union_scopes

    logging.getLogger("mcp.client.auth.oauth2").addFilter(_quiet_sign_in_required)

    class HermesOAuthProvider(OAuthClientProvider):
        """The SDK's provider with Hermes' two modes (see the module docstring)."""

        def __init__(self, *args: Any, interactive: bool, extra_scope: str | None = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.interactive = interactive
            self.extra_scope = extra_scope
            self.sign_in_needed: str | None = None  # why, once a background request found it needs sign-in
            self.challenged = False  # interactive: whether the server asked for authorization at all
            self.consents = 0  # interactive: consent pages opened (one per sign-in)

        async def _initialize(self) -> None:
            await super()._initialize()
            storage = self.context.storage
            if self.context.current_tokens is not None and getattr(storage, "expires_at", None):
                self.context.token_expiry_time = storage.expires_at

        async def _perform_authorization(self) -> Any:
            self.challenged = True
            if not self.interactive:
                self.sign_in_needed = self._reason()
                storage = self.context.storage
                if isinstance(storage, KeyringTokenStorage) and self.context.client_metadata.scope:
                    try:
                        await storage.update(wanted_scope=self.context.client_metadata.scope)
                    except SignInError:
                        pass
                raise SignInRequired(self.sign_in_needed)
            if self.consents:  # the server refused what this sign-in just got: never a second consent page
                raise SignInError(_REFUSED_AFTER_SIGN_IN)
            _require_tls(self.context.oauth_metadata)
            self.consents += 1
            if self.extra_scope:
                self.context.client_metadata.scope = union_scopes(self.context.client_metadata.scope,
                                                                  self.extra_scope)
            return await super()._perform_authorization()

        async def _handle_token_response(self, response: Any) -> None:
            await super()._handle_token_response(response)
            self._unknown_lifetime()

        async def _handle_refresh_response(self, response: Any) -> bool:
            ok = await super()._handle_refresh_response(response)
            self._unknown_lifetime()
            return ok

        def _unknown_lifetime(self) -> None:
            """`expires_in` 0 or less means nothing (the token would be expired on arrival and refreshed again
            and again): its end is unknown, and the server's 401 says when it comes."""
            tokens = self.context.current_tokens
            if tokens is not None and tokens.expires_in is not None and tokens.expires_in <= 0:
                self.context.token_expiry_time = None

        def _reason(self) -> str:
            if self.context.current_tokens is not None:
                return "its sign-in has expired or needs more permission; sign in again"
            return "it needs you to sign in"

        async def _auth_flow(self, request: Any) -> AsyncGenerator[Any, Any]:
            if not self.interactive:
                async with self.context.lock:
                    if not self._initialized:
                        await self._initialize()
                    never_signed_in = self.context.current_tokens is None
                if never_signed_in:  # send as it is; a 401/403 means the user has to sign in first
                    response = yield request
                    if response.status_code in (401, 403):
                        self.sign_in_needed = f"it needs you to sign in (HTTP {response.status_code})"
                    return
            flow = super()._auth_flow(request)
            response = None
            try:
                outgoing = await flow.__anext__()
                while True:
                    response = yield outgoing
                    outgoing = await flow.asend(response)
            except StopAsyncIteration:
                if self.interactive and self.consents and response is not None and response.status_code in (401, 403):
                    raise SignInError(_REFUSED_AFTER_SIGN_IN) from None
                return
            finally:
                await flow.aclose()

    return HermesOAuthProvider


_REFUSED_AFTER_SIGN_IN = ("the server refused the new sign-in (it still answered 401 or 403 with the tokens "
                          "just received); nothing was stored")


MAX_TOKEN_CHARS = 16 * 1024  # larger cannot go in a header (servers take 8-16 KB in all) nor sit well in a keyring


def _check_token_size(tokens: Any) -> None:
    for what in ("access_token", "refresh_token"):
        size = len(getattr(tokens, what, None) or "")
        if size > MAX_TOKEN_CHARS:
            raise SignInError(f"the authorization server's {what.replace('_', ' ')} is too large ({size // 1024} KB; "
                              f"at most {MAX_TOKEN_CHARS // 1024} KB fit in a request header); it was not stored")


def _require_tls(metadata: Any) -> None:
    """OAuth 2.1: every endpoint over https, except on this machine (a consent page or token endpoint at
    http://elsewhere would carry the password, or the code and its verifier, in clear text)."""
    for what in ("authorization_endpoint", "token_endpoint"):
        url = urlparse(str(getattr(metadata, what, None) or ""))
        if url.scheme == "http" and url.hostname not in ("127.0.0.1", "::1", "localhost"):
            raise SignInError(f"the authorization server's {what.replace('_', ' ')} is not https "
                              f"({url.scheme}://{url.hostname}); Hermes does not sign in over plain HTTP")


def _client_secret(config: ServerConfig, secrets: SecretStore | None, value: str | None = None) -> str | None:
    """The pre-registered client's secret (or `value`): `${secret:NAME}` from the keyring (or as written)."""
    import re

    value = config.oauth.client_secret if value is None else value
    if not value:
        return None
    match = re.fullmatch(r"\$\{secret:([A-Za-z0-9_.-]+)\}", value)
    if not match:
        return value
    try:
        found = secrets.get(secret_username(config.name, match.group(1))) if secrets is not None else None
    except SecretStoreError as exc:
        raise SignInError(str(exc)) from exc
    if not found:
        raise SignInError(f"no secret {match.group(1)!r} in the keyring for the OAuth client of “{config.name}”: "
                          f"run `hermes-desktop mcp set-secret {config.name} {match.group(1)}`")
    return found


def make_provider(config: ServerConfig, secrets: SecretStore | None, *, interactive: bool,
                  redirect_uri: str = f"http://127.0.0.1{CALLBACK_PATH}",
                  redirect_handler: Callable[[str], Awaitable[None]] | None = None,
                  callback_handler: Callable[[], Awaitable[Any]] | None = None, storage: Any = None,
                  extra_scope: str | None = None, client_secret: str | None = None) -> Any:
    from pydantic import AnyUrl

    from mcp.shared.auth import OAuthClientMetadata

    settings = config.oauth
    scope = " ".join(settings.scopes) or None
    if storage is None:
        storage = KeyringTokenStorage(secrets, config.name, url=config.url,
                                      client_info=_fixed_client(config, client_secret, redirect_uri))

    async def refuse(_url: str) -> None:
        raise SignInRequired("it needs you to sign in")

    async def nothing() -> Any:
        raise SignInRequired("it needs you to sign in")

    provider = _provider_class()(
        config.url,
        OAuthClientMetadata(client_name=CLIENT_NAME, redirect_uris=[AnyUrl(redirect_uri)],
                            grant_types=["authorization_code", "refresh_token"], response_types=["code"],
                            scope=scope, token_endpoint_auth_method="none"),
        storage, redirect_handler=redirect_handler or refuse, callback_handler=callback_handler or nothing,
        client_metadata_url=settings.client_metadata_url or None, interactive=interactive, extra_scope=extra_scope)
    return oauth_network.guard(provider, config.url)  # discovery never reaches a private address (oauth_network.py)


def _fixed_client(config: ServerConfig, secret: str | None, redirect_uri: str) -> Any:
    """The pre-registered client (`oauth.clientId`), or None for dynamic registration."""
    if not config.oauth.client_id:
        return None
    from pydantic import AnyUrl

    from mcp.shared.auth import OAuthClientInformationFull

    return OAuthClientInformationFull(
        client_id=config.oauth.client_id, client_secret=secret, redirect_uris=[AnyUrl(redirect_uri)],
        token_endpoint_auth_method="client_secret_basic" if secret else "none")


async def background_provider(config: ServerConfig, secrets: SecretStore | None) -> Any:
    """The provider a supervisor uses: stored tokens, refresh, never a browser."""
    if config.oauth.grant == "client_credentials":
        return await _client_credentials_provider(config, secrets)
    if config.oauth.grant == "identity_assertion":  # enterprise-managed (SEP-990): core/mcp/identity_assertion.py
        from hermes_desktop.core.mcp import identity_assertion

        return await identity_assertion.background_provider(config, secrets)
    secret = await asyncio.to_thread(_client_secret, config, secrets) if config.oauth.client_id else None
    storage = KeyringTokenStorage(secrets, config.name, url=config.url, require_persistent=False,
                                  client_info=_fixed_client(config, secret, f"http://127.0.0.1{CALLBACK_PATH}"))
    return make_provider(config, secrets, interactive=False, storage=storage, client_secret=secret)


async def _client_credentials_provider(config: ServerConfig, secrets: SecretStore | None) -> Any:
    """The client-credentials grant (SEP-1046): a secret or a signed JWT, no person involved. Its tokens are
    kept like a sign-in's (the keyring, or this run's memory when there is none: nothing is asked of a user)."""
    from mcp.client.auth.extensions.client_credentials import (
        ClientCredentialsOAuthProvider,
        PrivateKeyJWTOAuthProvider,
        SignedJWTParameters,
    )

    settings = config.oauth
    storage = KeyringTokenStorage(secrets, config.name, url=config.url, require_persistent=False)
    scope = " ".join(settings.scopes) or None
    if settings.private_key:
        key = await asyncio.to_thread(_client_secret, config, secrets, settings.private_key)
        jwt = SignedJWTParameters(issuer=settings.client_id, subject=settings.client_id, signing_key=key or "",
                                  signing_algorithm=settings.signing_algorithm)
        provider = PrivateKeyJWTOAuthProvider(server_url=config.url, storage=storage, client_id=settings.client_id,
                                              assertion_provider=jwt.create_assertion_provider(), scope=scope)
    else:
        secret = await asyncio.to_thread(_client_secret, config, secrets)
        provider = ClientCredentialsOAuthProvider(server_url=config.url, storage=storage,
                                                  client_id=settings.client_id, client_secret=secret or "",
                                                  token_endpoint_auth_method=settings.token_endpoint_auth,
                                                  scope=scope)
    provider.sign_in_needed = None  # the supervisor asks every provider this (a refused grant fails plainly)
    return oauth_network.guard(provider, config.url)


@dataclass
class SignInResult:
    server: str
    challenged: bool  # False: the server never asked for sign-in (nothing was stored)
    tools: int


async def sign_in(config: ServerConfig, secrets: SecretStore | None, *,
                  open_url: Callable[[str], Any] | None = None, on_url: Callable[[str], None] | None = None,
                  timeout_s: float = SIGN_IN_TIMEOUT_S, storage: Any = None,
                  connect: Callable[[Any], Awaitable[int]] | None = None) -> SignInResult:
    """Sign in to an HTTP/SSE server interactively: the browser, the loopback redirect, tokens to the keyring.

    `open_url` opens the consent page (default: the system browser); `on_url` is told the URL first (the CLI
    prints it). `connect(provider)` connects once with the provider and returns the number of tools (default:
    the app's transport, see supervisor.connect_once)."""
    if not config.url:
        raise SignInError(f"“{config.name}” is not an HTTP server; only HTTP and SSE servers sign in")
    if not config.oauth.enabled:
        raise SignInError(f"OAuth is turned off for “{config.name}” in mcp.json (\"oauth\": false)")
    if config.oauth.grant == "client_credentials":
        raise SignInError(f"“{config.name}” uses the client-credentials grant: it signs in by itself, without a "
                          "browser")
    if config.oauth.grant == "identity_assertion":  # both legs again, no browser (core/mcp/identity_assertion.py)
        from hermes_desktop.core.mcp import identity_assertion

        if storage is not None:
            raise SignInError("the identity_assertion grant keeps its tokens in the keyring only")
        return await identity_assertion.sign_in(config, secrets, connect=connect)
    own_storage = storage is None
    storage = storage or KeyringTokenStorage(secrets, config.name, url=config.url)
    if own_storage:
        await asyncio.to_thread(storage._check)  # no secure keyring: refuse before anything happens
    secret = await asyncio.to_thread(_client_secret, config, secrets)
    previous = await storage.get_client_info() if not config.oauth.client_id else None
    port = config.oauth.redirect_port
    if not port and previous is not None and previous.redirect_uris:
        port = urlparse(str(previous.redirect_uris[0])).port or 0  # the registered redirect, if still free
    receiver = LoopbackReceiver(config.name, port)
    try:
        await receiver.start()
    except OSError:
        if config.oauth.redirect_port:
            raise SignInError(f"port {port} on 127.0.0.1 (oauth.redirectPort) is in use; sign-in needs it") from None
        receiver = LoopbackReceiver(config.name, 0)
        await receiver.start()
    redirect_uri = receiver.redirect_uri
    if previous is not None and redirect_uri not in [str(u) for u in previous.redirect_uris or ()]:
        await storage.update(client=None)  # registered for another redirect: register again
    kept = storage
    if own_storage:  # a fresh consent; the stored tokens are replaced only once it succeeded (a cancel keeps them)
        storage = _PendingTokens(storage)
    opener = open_url or _system_browser

    async def redirect(url: str) -> None:
        receiver.expect(url)
        if on_url is not None:
            on_url(url)
        opened = opener(url)
        if asyncio.iscoroutine(opened):
            await opened

    async def callback() -> Any:
        return await receiver.wait(timeout_s)

    fixed = _fixed_client(config, secret, redirect_uri)
    if fixed is not None:
        if isinstance(storage, (KeyringTokenStorage, _PendingTokens)):
            storage._fixed_client = fixed
        else:
            await storage.set_client_info(fixed)
    extra = " ".join(dict.fromkeys((*config.oauth.scopes, *((await storage.wanted_scope() or "").split()
                                                            if hasattr(storage, "wanted_scope") else ())))) or None
    provider = make_provider(config, secrets, interactive=True, redirect_uri=redirect_uri, redirect_handler=redirect,
                             callback_handler=callback, storage=storage, extra_scope=extra, client_secret=secret)
    # A whole deadline: a server dripping its answers never trips a per-read timeout, and would hold it for ever.
    deadline_s = timeout_s + 2 * config.start_timeout_s
    try:
        async with asyncio.timeout(deadline_s):
            if connect is None:
                from hermes_desktop.core.mcp.supervisor import connect_once

                tools = await connect_once(config, secrets, provider)
            else:
                tools = await connect(provider)
    except BaseException as exc:
        inner = _innermost(exc)
        if isinstance(inner, (SignInError, SignInRequired)):
            raise SignInError(str(inner)) from None
        if isinstance(exc, TimeoutError):
            raise SignInError(f"sign-in to “{config.name}” did not finish within {deadline_s:g} s (the server or "
                              "its authorization server stopped answering); nothing was stored") from None
        if isinstance(exc, asyncio.CancelledError):
            raise
        raise SignInError(f"sign-in to “{config.name}” failed: {_describe(inner)}") from None
    finally:
        receiver.close()
    if isinstance(storage, _PendingTokens):
        await storage.commit()
    if hasattr(kept, "update") and provider.challenged:
        await kept.update(wanted_scope=None)
    return SignInResult(config.name, provider.challenged, tools)


class _PendingTokens:
    """An interactive sign-in's storage: starts without tokens (so the server asks for consent, with the scope
    wanted last time), keeps new tokens aside until the sign-in completed, then stores them in the keyring."""

    def __init__(self, keyring: KeyringTokenStorage) -> None:
        self._keyring = keyring
        self._tokens: Any = None
        self.expires_at: float | None = None

    @property
    def _fixed_client(self) -> Any:
        return self._keyring._fixed_client

    @_fixed_client.setter
    def _fixed_client(self, value: Any) -> None:
        self._keyring._fixed_client = value

    async def get_tokens(self) -> Any:
        return self._tokens

    async def set_tokens(self, tokens: Any) -> None:
        _check_token_size(tokens)
        self._tokens = tokens

    async def get_client_info(self) -> Any:
        return await self._keyring.get_client_info()

    async def set_client_info(self, client_info: Any) -> None:
        await self._keyring.set_client_info(client_info)

    async def wanted_scope(self) -> str | None:
        return await self._keyring.wanted_scope()

    async def update(self, **changes: Any) -> None:
        await self._keyring.update(**changes)

    async def commit(self) -> None:
        if self._tokens is not None:
            await self._keyring.set_tokens(self._tokens)


def _innermost(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _describe(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) < 300 else text[:297] + "…"


async def _system_browser(url: str) -> None:
    """The system browser (in a thread: a `BROWSER` command may wait for the page, which needs this loop's
    loopback listener to answer)."""
    if not await asyncio.to_thread(webbrowser.open, url):
        log.info("no browser could be opened for the sign-in page")

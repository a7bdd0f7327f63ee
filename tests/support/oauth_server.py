"""A local OAuth 2.1 authorization server protecting the project's test MCP server (Streamable HTTP), on
127.0.0.1 in a thread of the test process, so tests can look at what it saw.

- `/.well-known/oauth-protected-resource/mcp` (RFC 9728) and `/.well-known/oauth-authorization-server` (RFC 8414);
- `/register`: dynamic client registration (RFC 7591), public clients (no secret) or, with
  `pre_registered`, a fixed client id and secret checked with client_secret_basic;
- `/authorize`: the "browser" step: answers at once with a 302 to the client's redirect URI carrying a code and
  the client's `state` (a test's fake browser GETs it and follows the Location to the app's loopback listener);
- `/token`: authorization_code with PKCE S256 verification, and refresh_token; tokens expire after
  `token_lifetime_s`;
- `/mcp`: the MCP server, answering 401 with `WWW-Authenticate: Bearer resource_metadata=…` without a valid
  token, 403 `insufficient_scope` when a tool needs a scope the token lacks (`needs_scope`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.support.loopback import base_url, loopback_socket, serving
from tests.support.mcp_server import server as mcp_server


@dataclass
class AuthState:
    base: str = ""
    token_lifetime_s: int = 3600
    scopes_supported: tuple[str, ...] = ("mcp.read", "mcp.write")
    pre_registered: tuple[str, str] | None = None  # (client id, secret)
    needs_scope: dict[str, str] = field(default_factory=dict)  # tool name -> the scope a call of it needs (else 403)
    clients: dict[str, dict[str, Any]] = field(default_factory=dict)
    codes: dict[str, dict[str, Any]] = field(default_factory=dict)
    access: dict[str, dict[str, Any]] = field(default_factory=dict)  # token -> {expires, scope}
    refresh: dict[str, dict[str, Any]] = field(default_factory=dict)
    grants: list[str] = field(default_factory=list)  # "authorization_code" / "refresh_token", in order
    authorize_requests: list[dict[str, str]] = field(default_factory=list)
    mcp_statuses: list[int] = field(default_factory=list)
    initialize: list[dict[str, Any]] = field(default_factory=list)  # the params of each `initialize` the MCP side got
    # Enterprise-managed authorization (RFC 7523 jwt-bearer with an ID-JAG from tests/support/idp_server.py): the
    # key the IdP signs its ID-JAGs with (HS256, shared), or None (the grant is refused).
    jag_key: str | None = None
    jag_refusals: list[str] = field(default_factory=list)  # why each ID-JAG was refused
    # A hostile or broken server, for tests: fields laid over the authorization server's metadata and over each
    # token response (e.g. {"expires_in": -5}, {"token_endpoint": "http://elsewhere/token"}).
    metadata_overrides: dict[str, Any] = field(default_factory=dict)
    # Laid over the protected resource metadata (e.g. {"authorization_servers": ["http://169.254.169.254/"]}).
    prm_overrides: dict[str, Any] = field(default_factory=dict)
    # "host path" of every request to the authorization server side (not /mcp), in order: what was reached.
    oauth_requests: list[str] = field(default_factory=list)
    token_overrides: dict[str, Any] = field(default_factory=dict)
    accept_tokens: bool = True  # False: the MCP side answers 401 to every token (a broken resource server)

    def revoke_all(self) -> None:
        self.access.clear()
        self.refresh.clear()


def _error(code: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code}, status_code=status)


def build_app(state: AuthState) -> Any:
    async def prm(request: Request) -> Response:
        resource = "sse" if request.url.path.endswith("/sse") else "mcp"
        return JSONResponse({"resource": f"{state.base}/{resource}", "authorization_servers": [state.base],
                             "scopes_supported": list(state.scopes_supported), **state.prm_overrides})

    async def asm(request: Request) -> Response:
        return JSONResponse({
            "issuer": state.base, "authorization_endpoint": f"{state.base}/authorize",
            "token_endpoint": f"{state.base}/token", "registration_endpoint": f"{state.base}/register",
            "response_types_supported": ["code"], "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
            "scopes_supported": list(state.scopes_supported), **state.metadata_overrides})

    async def register(request: Request) -> Response:
        body = await request.json()
        client_id = "dyn-" + secrets.token_hex(6)
        record = {**body, "client_id": client_id, "client_id_issued_at": int(time.time()),
                  "token_endpoint_auth_method": "none"}
        state.clients[client_id] = record
        return JSONResponse(record, status_code=201)

    async def authorize(request: Request) -> Response:
        q = dict(request.query_params)
        state.authorize_requests.append(q)
        client = state.clients.get(q.get("client_id", ""))
        pre = state.pre_registered is not None and q.get("client_id") == state.pre_registered[0]
        if client is None and not pre:
            return _error("unauthorized_client")
        if client is not None and q.get("redirect_uri") not in client.get("redirect_uris", []):
            return _error("invalid_redirect_uri")
        if q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return _error("invalid_request")
        code = secrets.token_urlsafe(16)
        state.codes[code] = {"client_id": q["client_id"], "challenge": q["code_challenge"],
                             "redirect_uri": q.get("redirect_uri"), "scope": q.get("scope", "")}
        return RedirectResponse(f"{q['redirect_uri']}?{urlencode({'code': code, 'state': q.get('state', '')})}",
                                status_code=302)

    def issue(client_id: str, scope: str) -> JSONResponse:
        access, refresh = "at-" + secrets.token_hex(12), "rt-" + secrets.token_hex(12)
        state.access[access] = {"expires": time.time() + state.token_lifetime_s, "scope": scope}
        state.refresh[refresh] = {"client_id": client_id, "scope": scope}
        answer = {"access_token": access, "token_type": "Bearer", "expires_in": state.token_lifetime_s,
                  "refresh_token": refresh, "scope": scope, **state.token_overrides}
        if answer["access_token"] != access:  # an overridden token is the one the MCP side accepts
            state.access[answer["access_token"]] = state.access.pop(access)
        return JSONResponse({k: v for k, v in answer.items() if v is not None})

    def client_ok(request: Request, form: dict[str, str]) -> str | None:
        if state.pre_registered is not None:
            header = request.headers.get("authorization", "")
            if header.startswith("Basic "):
                cid, _, secret = base64.b64decode(header[6:]).decode().partition(":")
                return cid if (cid, secret) == state.pre_registered else None
        cid = form.get("client_id", "")
        return cid if cid in state.clients else None

    async def token(request: Request) -> Response:
        form = dict(await request.form())
        client_id = client_ok(request, form)
        if client_id is None:
            return _error("invalid_client", 401)
        grant = form.get("grant_type")
        state.grants.append(str(grant))
        if grant == "authorization_code":
            record = state.codes.pop(form.get("code", ""), None)
            if record is None or record["client_id"] != client_id:
                return _error("invalid_grant")
            verifier = form.get("code_verifier", "")
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
            if challenge != record["challenge"] or form.get("redirect_uri") != record["redirect_uri"]:
                return _error("invalid_grant")
            return issue(client_id, record["scope"])
        if grant == "refresh_token":
            record = state.refresh.pop(form.get("refresh_token", ""), None)
            if record is None:
                return _error("invalid_grant")
            return issue(client_id, record["scope"])
        if grant == "urn:ietf:params:oauth:grant-type:jwt-bearer" and state.jag_key is not None:
            import jwt

            try:
                claims = jwt.decode(form.get("assertion", ""), state.jag_key, algorithms=["HS256"],
                                    audience=state.base)
                if jwt.get_unverified_header(form["assertion"]).get("typ") != "oauth-id-jag+jwt":
                    raise ValueError("typ")
                if claims.get("client_id") != client_id or claims.get("resource") != f"{state.base}/mcp":
                    raise ValueError("client_id or resource")
            except (jwt.PyJWTError, ValueError, KeyError) as exc:
                state.jag_refusals.append(str(exc))
                return _error("invalid_grant")
            return issue(client_id, form.get("scope", ""))
        return _error("unsupported_grant_type")

    routes = Starlette(routes=[
        Route("/.well-known/oauth-protected-resource/mcp", prm),
        Route("/.well-known/oauth-protected-resource/sse", prm),
        Route("/.well-known/oauth-protected-resource", prm),
        Route("/.well-known/oauth-authorization-server", asm),
        Route("/register", register, methods=["POST"]),
        Route("/authorize", authorize),
        Route("/token", token, methods=["POST"])])
    streamable_app = mcp_server.streamable_http_app()
    sse_app = mcp_server.sse_app()  # legacy HTTP+SSE: GET /sse, POST /messages/

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        legacy = path.startswith(("/sse", "/messages"))
        mcp_app = sse_app if legacy else streamable_app
        metadata = f"{state.base}/.well-known/oauth-protected-resource/{'sse' if legacy else 'mcp'}"
        if scope["type"] == "http" and not (path.startswith("/mcp") or legacy):
            host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
            state.oauth_requests.append(f"{host} {path}")
            await routes(scope, receive, send)
            return
        if scope["type"] == "http":
            header = dict(scope.get("headers") or []).get(b"authorization", b"").decode()
            record = state.access.get(header[7:]) if header.startswith("Bearer ") else None
            if record is None or record["expires"] < time.time() or not state.accept_tokens:
                state.mcp_statuses.append(401)
                challenge = f'Bearer error="invalid_token", resource_metadata="{metadata}"'
                await Response(status_code=401, headers={"WWW-Authenticate": challenge})(scope, receive, send)
                return
            chunks: list[bytes] = []
            while True:  # the whole body first: whether to answer 403 depends on it
                message = await receive()
                if message["type"] != "http.request":
                    break
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    break
            try:
                request = json.loads(b"".join(chunks) or b"null")
            except ValueError:
                request = None
            method = request.get("method") if isinstance(request, dict) else None
            if method == "initialize":
                state.initialize.append(request.get("params") or {})
            if method == "tools/call":
                needed = state.needs_scope.get((request.get("params") or {}).get("name", ""))
                if needed and needed not in record["scope"].split():
                    state.mcp_statuses.append(403)
                    challenge = f'Bearer error="insufficient_scope", scope="{needed}", resource_metadata="{metadata}"'
                    await Response(status_code=403, headers={"WWW-Authenticate": challenge})(scope, receive, send)
                    return
            state.mcp_statuses.append(200)
            replayed = False

            async def replay() -> Any:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                return await receive()

            await mcp_app(scope, replay, send)
            return
        await streamable_app(scope, receive, send)  # lifespan: the Streamable HTTP session manager

    return app


@contextmanager
def running_auth_server(**options: Any) -> Iterator[AuthState]:
    """An authorization server + protected MCP server on 127.0.0.1 (a free port) for the duration."""
    sock = loopback_socket()
    state = AuthState(base=base_url(sock), **options)
    with serving(build_app(state), sock, lifespan="on"):
        yield state


def follow_consent(url: str) -> None:
    """The test's browser: a real HTTP GET of the consent page, then of the redirect it answers with."""
    import httpx2

    with httpx2.Client() as http:
        answer = http.get(url, follow_redirects=False)
        assert answer.status_code == 302, answer.text
        http.get(answer.headers["location"], follow_redirects=False)

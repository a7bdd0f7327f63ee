"""A tiny enterprise identity provider for enterprise-managed authorization (SEP-990), on 127.0.0.1 in a thread of
the test process: its `/token` endpoint does the RFC 8693 token exchange of leg 1 (an ID token it issued for an
ID-JAG for the requested authorization server and resource).

The ID-JAG is a real JWT (`typ` oauth-id-jag+jwt) signed with HS256 under `jag_key`, which the test authorization
server (tests/support/oauth_server.py, `AuthState.jag_key`) shares to verify it: the two servers trust each other
as an IdP and an authorization server set up by the same company would (with keys published as JWKS in real life).
"""

from __future__ import annotations

import base64
import secrets
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

import jwt
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.support.loopback import base_url, loopback_socket, serving

TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"


@dataclass
class IdpState:
    base: str = ""
    client_id: str = "hermes-at-idp"
    client_secret: str | None = None  # set: the client must authenticate with client_secret_basic
    jag_client_id: str = "hermes-enterprise"  # the client at the MCP authorization server the ID-JAG is for
    jag_key: str = field(default_factory=lambda: secrets.token_hex(32))
    id_tokens: dict[str, str] = field(default_factory=dict)  # a valid ID token -> its user (sub)
    requests: list[dict[str, str]] = field(default_factory=list)  # each token request's form (as received)
    issued: list[str] = field(default_factory=list)  # the ID-JAGs handed out

    def new_id_token(self, user: str = "ada@example.com") -> str:
        token = "idt-" + secrets.token_urlsafe(24)
        self.id_tokens[token] = user
        return token


def _error(code: str, description: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "error_description": description}, status_code=status)


def build_app(state: IdpState) -> Any:
    async def token(request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items()}
        state.requests.append(form)
        if state.client_secret is not None:
            header = request.headers.get("authorization", "")
            given = base64.b64decode(header[6:]).decode() if header.startswith("Basic ") else ""
            if given != f"{state.client_id}:{state.client_secret}":
                return _error("invalid_client", "client authentication failed", 401)
        elif form.get("client_id") != state.client_id:
            return _error("invalid_client", "unknown client", 401)
        if form.get("grant_type") != TOKEN_EXCHANGE:
            return _error("unsupported_grant_type", "only token exchange")
        missing = [k for k in ("subject_token", "audience", "resource") if not form.get(k)]
        if missing or form.get("subject_token_type") != ID_TOKEN or form.get("requested_token_type") != ID_JAG:
            return _error("invalid_request", f"missing or wrong: {', '.join(missing) or 'token types'}")
        user = state.id_tokens.get(form["subject_token"])
        if user is None:
            return _error("invalid_grant", "Invalid ID token")
        now = int(time.time())
        jag = jwt.encode({"iss": state.base, "sub": user, "aud": form["audience"], "resource": form["resource"],
                          "client_id": state.jag_client_id, "iat": now, "exp": now + 300, "jti": str(uuid.uuid4())},
                         state.jag_key, algorithm="HS256", headers={"typ": "oauth-id-jag+jwt"})
        state.issued.append(jag)
        return JSONResponse({"access_token": jag, "issued_token_type": ID_JAG, "token_type": "N_A",
                             "expires_in": 300})

    return Starlette(routes=[Route("/token", token, methods=["POST"])])


@contextmanager
def running_idp(**options: Any) -> Iterator[IdpState]:
    """The identity provider on 127.0.0.1 (a free port) for the duration."""
    sock = loopback_socket()
    state = IdpState(base=base_url(sock), **options)
    with serving(build_app(state), sock):
        yield state

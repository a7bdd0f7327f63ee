"""One HTTP request with the storage services' rate limits in mind, shared by the WebDAV and S3 targets.

坚果云 and Nextcloud answer a burst with 429 (or 503) and say in `Retry-After` when to come back: the request is
sent again after that many seconds (or an HTTP date), capped at MAX_WAIT_S per wait and MAX_ATTEMPTS in all, with
exponential back-off when no Retry-After is given. A dropped connection is retried the same way (the request is
idempotent: every PUT writes a whole object under a name only this device writes). 507 is the storage being full.
"""

from __future__ import annotations

import email.utils
import time
from typing import Callable

import httpx2

from hermes_desktop.core.sync.target import AuthFailed, InsufficientStorage, TargetError

MAX_ATTEMPTS = 6
MAX_WAIT_S = 60.0
RETRY_STATUSES = (429, 502, 503, 504)


def retry_after_seconds(value: str | None, attempt: int, *, now: Callable[[], float] = time.time) -> float:
    """How long to wait before attempt `attempt + 1`: Retry-After (seconds or an HTTP date) when given."""
    if value:
        value = value.strip()
        if value.isdigit():
            return min(float(value), MAX_WAIT_S)
        parsed = email.utils.parsedate_to_datetime(value) if "," in value else None
        if parsed is not None:
            return max(0.0, min(parsed.timestamp() - now(), MAX_WAIT_S))
    return min(0.5 * (2 ** attempt), MAX_WAIT_S)


def send(client: httpx2.Client, method: str, url: str, *, what: str, sleep: Callable[[float], None] = time.sleep,
         **kwargs: object) -> httpx2.Response:
    """The response to `method url`, after rate-limit waits and reconnects; 401/403 and 507 raise at once."""
    last: str = ""
    for attempt in range(MAX_ATTEMPTS):
        try:
            response = client.request(method, url, **kwargs)  # type: ignore[arg-type]
        except (httpx2.TransportError, httpx2.RemoteProtocolError) as exc:
            last = f"the connection failed ({exc.__class__.__name__}: {exc})"
            sleep(retry_after_seconds(None, attempt))
            continue
        if response.status_code in RETRY_STATUSES:
            last = f"the server answered {response.status_code} (busy or rate-limited)"
            sleep(retry_after_seconds(response.headers.get("Retry-After"), attempt))
            continue
        if response.status_code == 507:
            raise InsufficientStorage(f"the storage is full (HTTP 507 Insufficient Storage): {what} was not saved. "
                                      "Free space there or raise the quota, then sync again; nothing was lost")
        if response.status_code in (401, 403):
            raise AuthFailed(f"the server refused the credentials (HTTP {response.status_code}) for {what}: check "
                             "the user name and the (app) password")
        return response
    raise TargetError(f"{what} failed after {MAX_ATTEMPTS} attempts: {last}. Nothing was lost; sync again later")

"""Keep secrets out of everything the app writes or shows: logs, audit, errors, exports."""

from __future__ import annotations

import re
from typing import Any, Iterable

REDACTED = "[redacted]"

# Names of fields whose values are secrets whatever they look like.
_SECRET_FIELD = re.compile(
    r"(api[_-]?key|secret|password|passwd|passphrase|authorization|credential|cookie|private[_-]?key|"
    r"(access|refresh|auth|bearer|session|id)[_-]?token|^token$)", re.I)
# Values that look like provider keys even in free text ("Incorrect API key provided: sk-ab***yz").
_KEY_LIKE = re.compile(
    r"\b(sk-[A-Za-z0-9_\-\*\.]{6,}|sk_[A-Za-z0-9_\-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abpr]-[A-Za-z0-9\-]{10,}"
    r"|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_\-]{30,}|Bearer\s+[A-Za-z0-9_\-\.=]{8,})"
)


def redact_known(text: str, known_secrets: Iterable[str]) -> str:
    """Only the secrets this app holds (its API keys, MCP secrets), wherever they appear."""
    for secret in list(known_secrets):  # a copy: the live set can grow while a turn runs
        if secret and len(secret) >= 4:
            text = text.replace(secret, REDACTED)
    return text


def redact_text(text: str, known_secrets: Iterable[str] = ()) -> str:
    """For logs and errors: the known secrets, and anything that looks like a provider key."""
    return redact_urls(_KEY_LIKE.sub(REDACTED, redact_known(text, known_secrets)))


def redact_value(value: Any, known_secrets: Iterable[str] = ()) -> Any:
    """Redact a JSON-like value: secret-named fields entirely, key-looking strings anywhere."""
    secrets = tuple(known_secrets)
    if isinstance(value, dict):
        return {
            k: (REDACTED if isinstance(k, str) and isinstance(v, str) and v and _SECRET_FIELD.search(k)
                else redact_value(v, secrets))
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [redact_value(v, secrets) for v in value]
    if isinstance(value, str):
        return redact_text(value, secrets)
    return value


# ------------------------------------------------------------------------------- credentials inside URLs
# Issue 21: a URL's password (`https://user:pass@host`) and the query parameters that carry a key (`?key=`,
# `?api_key=`, `?token=`, `access_token`, signed-URL signatures...) never reach a message, `doctor` or a log.
# The user name, host, path and the other parameters stay: they are what tells two servers apart.
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s\"'<>`]+")
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*://)([^/@?#:]*):([^/?#]*)@")  # to the last @: p@ss too
_SECRET_PARAM = re.compile(
    r"^(?:key|api[_\-]?key|apikey|token|access[_\-]?token|refresh[_\-]?token|id[_\-]?token|auth|auth[_\-]?token|"
    r"secret|client[_\-]?secret|password|passwd|pass|pwd|sig|signature|code|session|session[_\-]?id|"
    r"x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|"
    r"private[_\-]?key|credential|credentials|jwt|bearer)$", re.I)
_QUERY_PAIR = re.compile(r"([?&;#])([^=&;#\s]+)=([^&;#\s]*)")  # `#`: a fragment's `#access_token=`


def redact_url(url: str) -> str:
    """One URL with its password and secret-carrying query values replaced by [redacted]."""
    url = _USERINFO.sub(lambda m: f"{m.group(1)}{m.group(2)}:{REDACTED}@", url, count=1)

    def pair(match: re.Match[str]) -> str:
        from urllib.parse import unquote

        name = unquote(match.group(2))
        if match.group(3) and _SECRET_PARAM.match(name):
            return f"{match.group(1)}{match.group(2)}={REDACTED}"
        return match.group(0)

    return _QUERY_PAIR.sub(pair, url)


def redact_urls(text: str) -> str:
    """Every URL in free text with its credentials redacted (see `redact_url`)."""
    return _URL.sub(lambda m: redact_url(m.group(0)), text) if "://" in text else text

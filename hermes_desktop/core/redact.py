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


# ---------------------------------------------------------------- what is stored (memories)
# Key formats of the major providers and hosts, matched anywhere in text that is kept (a memory's statement and
# quote). Broader than _KEY_LIKE on purpose: a false positive costs a few words of a memory, a miss keeps a key
# in the database, its index and every export.
_STORED_KEY = re.compile(
    r"sk-ant-[A-Za-z0-9_\-]{10,}"                      # Anthropic
    r"|sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}"  # OpenAI and the many OpenAI-compatible hosts
    r"|\bhf_[A-Za-z0-9]{20,}"                           # Hugging Face
    r"|\bglpat-[A-Za-z0-9_\-]{16,}"                     # GitLab personal access token
    r"|\bgl(?:dt|rt|ptt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_\-]{16,}"  # GitLab's other tokens
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}"       # GitHub
    r"|\bxox[abposr]-[A-Za-z0-9\-]{10,}|\bxapp-[A-Za-z0-9\-]{10,}"         # Slack
    r"|\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[0-9A-Z]{16}\b"  # AWS access key ids
    r"|\bAIza[0-9A-Za-z_\-]{30,}"                        # Google API key
    r"|\bya29\.[0-9A-Za-z_\-]{20,}"                      # Google OAuth access token
    r"|\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"  # a JWT (header.payload.signature)
    r"|\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"     # Stripe
    r"|\bnpm_[A-Za-z0-9]{30,}|\bpypi-[A-Za-z0-9_\-]{40,}"  # package registries
    r"|\bgsk_[A-Za-z0-9]{20,}|\bxai-[A-Za-z0-9]{20,}|\br8_[A-Za-z0-9]{20,}"  # Groq, xAI, Replicate
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)"
    r"|\bBearer\s+[A-Za-z0-9_\-\.=~+/]{8,}",
    re.S)
# An AWS secret access key: 40 characters of base64, with upper and lower case letters and a digit (so a git SHA,
# hex and lower case, is not one); and any value given to a secret-named field ("password: hunter2").
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]*[A-Z])(?=[A-Za-z0-9/+]*[a-z])(?=[A-Za-z0-9/+]*[0-9])"
                         r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_NAMED_SECRET = re.compile(
    r"(?P<name>\b(?:api[_ -]?key|secret(?:[_ -]access)?[_ -]?key|client[_ -]secret|password|passwd|pwd|passphrase|"
    r"token|access[_ -]token|refresh[_ -]token|auth[_ -]token|密码|口令|密钥|令牌)\b\s*(?:is|=|:|：|是)\s*)"
    r"(?P<value>[\"']?[^\s\"',;，。]{4,}[\"']?)", re.I)
# user:password@ in any URL (scheme://user:password@host): the password goes, the user name and host stay.
_URL_PASSWORD = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/?#@]*:)(?P<password>[^\s/?#@]+)(?=@)")


def redact_stored(text: str, known_secrets: Iterable[str] = ()) -> str:
    """For text that is kept (memories): every secret the app holds (`known_secrets`: its keyring's values, whatever
    they look like), the key formats of the major providers and hosts (OpenAI sk-…, Anthropic sk-ant-…, Hugging
    Face hf_…, GitLab glpat-…, GitHub ghp_/gho_/github_pat_…, Slack xox…-, AWS AKIA… and 40-character secret keys,
    Google AIza…, JWTs, Stripe, private key blocks, Bearer …), a value given to a secret-named field ("my password
    is hunter22"), and the password of a URL (https://user:PASSWORD@host) become "[redacted]"."""
    text = redact_known(text, known_secrets)
    text = _URL_PASSWORD.sub(lambda m: m["head"] + REDACTED, text)
    text = _STORED_KEY.sub(REDACTED, text)
    text = _AWS_SECRET.sub(REDACTED, text)
    return _NAMED_SECRET.sub(lambda m: m["name"] + REDACTED, text)

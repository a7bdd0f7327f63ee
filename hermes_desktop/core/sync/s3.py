"""S3-compatible target (AWS S3, Cloudflare R2, MinIO, 阿里云 OSS, 腾讯云 COS) on httpx2 with Signature V4.

Four requests are all sync needs (PUT, GET, DELETE of an object, ListObjectsV2), so this signs them itself (about
a hundred lines, the algorithm is AWS's published one) instead of carrying boto3 + botocore (~25 MB installed,
most of it service models the app never uses). An S3 PUT is atomic: the object appears whole when the request
completes, so no temporary name is needed. Addressing: "path" (`endpoint/bucket/key`, MinIO and most self-hosted
servers), "virtual" (`bucket.endpoint/key`, AWS's default, OSS and COS require it), or "auto" (virtual for
amazonaws.com / aliyuncs.com / myqcloud.com endpoints, path otherwise).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import xml.etree.ElementTree as ET
from urllib.parse import quote, urlsplit

import httpx2

from hermes_desktop.core.sync.http_retry import send
from hermes_desktop.core.sync.target import InsufficientStorage, ObjectMissing, TargetError, check_key

TIMEOUT_S = 60.0
_VIRTUAL_HOSTS = ("amazonaws.com", "aliyuncs.com", "myqcloud.com")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def sign_v4(method: str, host: str, path: str, query: dict[str, str], payload_hash: str, *, access_key: str,
            secret_key: str, region: str, now: dt.datetime) -> dict[str, str]:
    """The headers (Authorization, x-amz-date, x-amz-content-sha256, host) that sign one request."""
    amz_date = now.strftime("%Y%m%dT%H%M%SZ")
    day = amz_date[:8]
    canonical_query = "&".join(f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}" for k, v in sorted(query.items()))
    headers = {"host": host, "x-amz-content-sha256": payload_hash, "x-amz-date": amz_date}
    signed = ";".join(sorted(headers))
    canonical_headers = "".join(f"{k}:{headers[k].strip()}\n" for k in sorted(headers))
    canonical = "\n".join([method, quote(path, safe="/-_.~"), canonical_query, canonical_headers, signed,
                           payload_hash])
    scope = f"{day}/{region}/s3/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, _sha256(canonical.encode())])
    key = _hmac(_hmac(_hmac(_hmac(("AWS4" + secret_key).encode(), day), region), "s3"), "aws4_request")
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["Authorization"] = (f"AWS4-HMAC-SHA256 Credential={access_key}/{scope}, SignedHeaders={signed}, "
                                f"Signature={signature}")
    return headers


class S3Target:
    kind = "s3"

    def __init__(self, endpoint: str, bucket: str, access_key: str, secret_key: str, *, region: str = "us-east-1",
                 addressing: str = "auto", prefix: str = "", verify: bool | str = True) -> None:
        parts = urlsplit(endpoint)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise TargetError(f"not an S3 endpoint URL: {endpoint!r} (it starts with https://)")
        if not bucket or "/" in bucket:
            raise TargetError(f"not a bucket name: {bucket!r}")
        if addressing == "auto":
            addressing = "virtual" if parts.hostname and parts.hostname.endswith(_VIRTUAL_HOSTS) else "path"
        if addressing not in ("path", "virtual"):
            raise TargetError(f"addressing is path, virtual or auto, not {addressing!r}")
        self.endpoint, self.bucket, self.region, self.addressing = endpoint.rstrip("/"), bucket, region, addressing
        self._scheme, self._netloc = parts.scheme, parts.netloc
        self._access, self._secret = access_key, secret_key
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
        self._client = httpx2.Client(timeout=TIMEOUT_S, verify=verify, follow_redirects=False)

    def describe(self) -> str:
        return f"S3 {self.endpoint} bucket {self.bucket} ({self.addressing}-style)"

    def _where(self, key: str) -> tuple[str, str]:
        """(host, path) of an object key ("" for the bucket itself)."""
        if self.addressing == "virtual":
            return f"{self.bucket}.{self._netloc}", "/" + key
        return self._netloc, f"/{self.bucket}/{key}" if key else f"/{self.bucket}"

    def _request(self, method: str, key: str, *, query: dict[str, str] | None = None, body: bytes = b"",
                 what: str) -> httpx2.Response:
        host, path = self._where(key)
        query = query or {}
        headers = sign_v4(method, host, path, query, _sha256(body), access_key=self._access,
                          secret_key=self._secret, region=self.region, now=dt.datetime.now(dt.timezone.utc))
        url = f"{self._scheme}://{host}{quote(path, safe='/-_.~')}"
        if query:
            url += "?" + "&".join(f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}" for k, v in sorted(query.items()))
        response = send(self._client, method, url, what=what, content=body or None, headers=headers)
        if response.status_code >= 400 and response.status_code != 404:
            code = _error_code(response.content)
            if code in ("QuotaExceeded", "InsufficientStorage", "StorageQuotaExceeded"):
                raise InsufficientStorage(f"the bucket {self.bucket} is over its quota ({code}): {what} was not "
                                          "saved; nothing was lost")
            raise TargetError(f"the S3 server refused {what}: HTTP {response.status_code} {code}".rstrip())
        return response

    def put(self, key: str, data: bytes) -> None:
        self._request("PUT", self.prefix + check_key(key), body=data, what=key)

    def get(self, key: str) -> bytes:
        response = self._request("GET", self.prefix + check_key(key), what=key)
        if response.status_code == 404:
            if _error_code(response.content) == "NoSuchBucket":
                raise TargetError(f"there is no bucket {self.bucket} at {self.endpoint}")
            raise ObjectMissing(f"no object {key} in bucket {self.bucket}")
        return response.content

    def list(self, prefix: str) -> list[str]:
        found: list[str] = []
        token = ""
        while True:
            query = {"list-type": "2", "prefix": self.prefix + prefix}
            if token:
                query["continuation-token"] = token
            response = self._request("GET", "", query=query, what=f"the list of {prefix}")
            if response.status_code == 404:
                raise TargetError(f"there is no bucket {self.bucket} at {self.endpoint}")
            try:
                root = ET.fromstring(response.content)
            except ET.ParseError as exc:
                raise TargetError(f"the S3 server's listing is not XML ({exc})") from exc
            ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
            for item in root.iter(f"{ns}Contents"):
                key = item.findtext(f"{ns}Key") or ""
                if key.startswith(self.prefix) and not key.rsplit("/", 1)[-1].startswith(".tmp-"):
                    found.append(key[len(self.prefix):])
            if root.findtext(f"{ns}IsTruncated") != "true":
                return sorted(found)
            token = root.findtext(f"{ns}NextContinuationToken") or ""
            if not token:
                return sorted(found)

    def delete(self, key: str) -> None:
        self._request("DELETE", self.prefix + check_key(key), what=key)

    def close(self) -> None:
        self._client.close()


def _error_code(body: bytes) -> str:
    try:
        root = ET.fromstring(body)
    except ET.ParseError:
        return ""
    return root.findtext("Code") or ""

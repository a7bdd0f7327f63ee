"""WebDAV target (Nextcloud, 坚果云, Synology, Apache, wsgidav) on httpx2, which the app already carries for
openai: PUT to a temporary name then MOVE (publish), GET, PROPFIND (Depth 1, walked: many servers refuse
Depth infinity), DELETE, MKCOL for folders. Why not webdav4: it would add a dependency (and fsspec-shaped
extras) for the six requests used here, and its retries do not honour Retry-After; see docs/sync.md.
"""

from __future__ import annotations

import secrets
import xml.etree.ElementTree as ET
from urllib.parse import quote, unquote, urlsplit

import httpx2

from hermes_desktop.core.sync.http_retry import send
from hermes_desktop.core.sync.target import ObjectMissing, TargetError, check_key

TIMEOUT_S = 60.0
_DAV = "{DAV:}"


class WebDAVTarget:
    kind = "webdav"

    def __init__(self, url: str, user: str | None = None, password: str | None = None, *,
                 verify: bool | str = True) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise TargetError(f"not a WebDAV URL: {url!r} (it starts with https:// or http://)")
        self.url = url.rstrip("/") + "/"
        self._base_path = urlsplit(self.url).path
        auth = httpx2.BasicAuth(user, password or "") if user else None
        self._client = httpx2.Client(auth=auth, timeout=TIMEOUT_S, verify=verify, follow_redirects=False)
        self._made: set[str] = set()

    def describe(self) -> str:
        return f"WebDAV {self.url}"

    def _url(self, key: str) -> str:
        return self.url + quote(key)

    def _ensure_folders(self, key: str) -> None:
        parts = key.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder in self._made:
                continue
            response = send(self._client, "MKCOL", self._url(folder) + "/", what=f"the folder {folder}")
            if response.status_code not in (201, 405, 301):  # 405: it exists already
                raise TargetError(f"the WebDAV server did not make the folder {folder} (HTTP "
                                  f"{response.status_code})")
            self._made.add(folder)

    def put(self, key: str, data: bytes) -> None:
        check_key(key)
        self._ensure_folders(key)
        folder, _, name = key.rpartition("/")
        temporary = f"{folder}/.tmp-{secrets.token_hex(6)}-{name}" if folder else f".tmp-{secrets.token_hex(6)}-{name}"
        response = send(self._client, "PUT", self._url(temporary), what=key, content=data,
                        headers={"Content-Type": "application/octet-stream"})
        if response.status_code not in (200, 201, 204):
            raise TargetError(f"the WebDAV server refused {key} (HTTP {response.status_code})")
        moved = send(self._client, "MOVE", self._url(temporary), what=key,
                     headers={"Destination": self._url(key), "Overwrite": "T"})
        if moved.status_code not in (201, 204):
            send(self._client, "DELETE", self._url(temporary), what=key)
            raise TargetError(f"the WebDAV server did not publish {key} (MOVE answered HTTP {moved.status_code})")

    def get(self, key: str) -> bytes:
        response = send(self._client, "GET", self._url(check_key(key)), what=key)
        if response.status_code == 404:
            raise ObjectMissing(f"no object {key} on {self.url}")
        if response.status_code != 200:
            raise TargetError(f"the WebDAV server did not give {key} (HTTP {response.status_code})")
        return response.content

    def _children(self, folder: str) -> list[tuple[str, bool]]:
        """(key, is_folder) of the entries directly in `folder` ("" for the root)."""
        url = self.url + (quote(folder) + "/" if folder else "")
        body = ('<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop>'
                '</d:propfind>')
        response = send(self._client, "PROPFIND", url, what=f"the list of {folder or 'the root'}",
                        content=body.encode(), headers={"Depth": "1", "Content-Type": "application/xml"})
        if response.status_code == 404:
            return []
        if response.status_code != 207:
            raise TargetError(f"the WebDAV server did not list {folder or self.url} (HTTP {response.status_code})")
        try:
            root = ET.fromstring(response.content)
        except ET.ParseError as exc:
            raise TargetError(f"the WebDAV server's listing is not XML ({exc})") from exc
        own = urlsplit(url).path.rstrip("/")
        entries = []
        for item in root.iter(f"{_DAV}response"):
            href = item.findtext(f"{_DAV}href") or ""
            path = unquote(urlsplit(href).path).rstrip("/")
            if path == own or not path.startswith(self._base_path.rstrip("/") + "/"):
                continue
            is_folder = item.find(f".//{_DAV}collection") is not None
            entries.append((path[len(self._base_path):].lstrip("/"), is_folder))
        return entries

    def list(self, prefix: str) -> list[str]:
        found: list[str] = []
        pending = [prefix.strip("/")]
        while pending:
            folder = pending.pop()
            for key, is_folder in self._children(folder):
                if is_folder:
                    pending.append(key)
                elif not key.rsplit("/", 1)[-1].startswith(".tmp-"):
                    found.append(key)
        return sorted(found)

    def delete(self, key: str) -> None:
        response = send(self._client, "DELETE", self._url(check_key(key)), what=key)
        if response.status_code not in (200, 204, 404):
            raise TargetError(f"the WebDAV server did not delete {key} (HTTP {response.status_code})")

    def close(self) -> None:
        self._client.close()

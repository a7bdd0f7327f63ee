"""Sync and backup against real servers on 127.0.0.1 started here: wsgidav (WebDAV) and moto's S3 server; faults
injected in front of the real server (429, 507, a held request, a cut connection); kill -9 of a real process."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hermes_desktop.core.attachments import AttachmentFiles
from hermes_desktop.core.sync import crypto
from hermes_desktop.core.sync.backup import Backups, retained, BackupInfo
from hermes_desktop.core.sync.s3 import S3Target
from hermes_desktop.core.sync.target import InsufficientStorage
from hermes_desktop.core.sync.webdav import WebDAVTarget
from tests.support.sync_devices import TEST_KEY, Device, memory_states
from tests.support.sync_servers import PASSWORD, USER, CuttingProxy, Fault, S3Server, WebDAVServer, wait_for

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def dav(tmp_path: Path):
    server = WebDAVServer(tmp_path / "dav-root")
    yield server
    server.stop()


@pytest.fixture
def s3():
    server = S3Server()
    server.bucket = f"hermes-{os.urandom(4).hex()}"  # moto keeps its buckets per process: one per test
    server.create_bucket(server.bucket)
    yield server
    server.stop()


@pytest.fixture
def devices(tmp_path: Path):
    made = [Device(tmp_path, "desktop"), Device(tmp_path, "laptop")]
    yield made
    for d in made:
        d.close()


def _webdav(server: WebDAVServer, port: int | None = None) -> WebDAVTarget:
    url = server.url if port is None else server.url.replace(str(server.port), str(port))
    return WebDAVTarget(url, USER, PASSWORD)


def _two_way(a: Device, b: Device, target) -> None:
    a.chat("work", "plan the week", attachment=os.urandom(3000))
    b.chat("home", "dinner ideas")
    a.sync(target)
    b.sync(target)
    a.sync(target)
    for device in (a, b):
        assert set(device.titles()) == {"work", "home"}
        assert device.store.message_count("work") == device.store.message_count("home") == 2


def test_webdav_two_devices_both_see_all(dav: WebDAVServer, devices) -> None:
    a, b = devices
    _two_way(a, b, _webdav(dav))
    assert _webdav(dav).list("log/")  # published batches, no temporary names left listed
    assert not [p for p in (dav.root).rglob(".tmp-*")]


def test_s3_path_style_two_devices_both_see_all(s3: S3Server, devices) -> None:
    a, b = devices
    _two_way(a, b, S3Target(s3.endpoint, s3.bucket, "test", "test", addressing="path"))


def test_s3_virtual_host_addressing(s3: S3Server, devices, monkeypatch: pytest.MonkeyPatch) -> None:
    # *.localhost does not resolve here: the name lookup (only) answers 127.0.0.1 for it, as DNS would for a
    # real bucket host; the request, its Host header and the server are real.
    real = socket.getaddrinfo

    def resolve(host, *args, **kwargs):
        return real("127.0.0.1" if str(host).endswith(".localhost") else host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    target = S3Target(f"http://localhost:{s3.port}", s3.bucket, "test", "test", addressing="virtual")
    assert target.describe().endswith("(virtual-style)")
    a, b = devices
    _two_way(a, b, target)
    path_view = S3Target(s3.endpoint, s3.bucket, "test", "test", addressing="path")
    assert path_view.list("log/") == target.list("log/")  # the same bucket, reached both ways


def test_429_with_retry_after_is_waited_out(dav: WebDAVServer, devices) -> None:
    a, b = devices
    dav.faults.faults.append(Fault("PUT", "/log/", 429, times=2, headers=[("Retry-After", "1")]))
    a.chat("s", "hello")
    report = a.sync(_webdav(dav))
    assert report.uploaded_batches == 1
    assert sum(1 for m, p in dav.faults.seen if m == "PUT" and "/log/" in p) == 3
    b.sync(_webdav(dav))
    assert b.store.get_session("s") is not None


def test_507_is_a_clear_error_keeps_the_changes_and_the_next_sync_sends_them(dav: WebDAVServer, devices) -> None:
    a, b = devices
    a.chat("s", "hello")
    dav.faults.faults.append(Fault("PUT", "/log/", 507))
    with pytest.raises(InsufficientStorage, match="storage is full"):
        a.sync(_webdav(dav))
    assert a.store._read("SELECT COUNT(*) FROM sync_outbox")[0][0] == 1  # still queued
    assert a.sync(_webdav(dav)).uploaded_batches == 1
    b.sync(_webdav(dav))
    assert b.store.message_count("s") == 2


def test_network_dropped_mid_upload_resumes(dav: WebDAVServer, devices) -> None:
    a, b = devices
    proxy = CuttingProxy(dav.port, b"PUT /dav/log/", keep=40)
    try:
        a.chat("s", "hello", "again")
        report = a.sync(_webdav(dav, proxy.port))
        assert proxy.cut == 1 and report.uploaded_batches == 1
    finally:
        proxy.stop()
    b.sync(_webdav(dav))
    assert b.store.message_count("s") == 4


_CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from pathlib import Path
    from tests.support.sync_devices import Device
    from hermes_desktop.core.sync.webdav import WebDAVTarget
    device = Device(Path({base!r}), {name!r})
    device.sync(WebDAVTarget({url!r}, {user!r}, {password!r}))
""")


def _child(tmp_path: Path, name: str, url: str) -> subprocess.Popen:
    code = _CHILD.format(root=str(ROOT), base=str(tmp_path), name=name, url=url, user=USER, password=PASSWORD)
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def test_kill_9_during_upload_and_during_download_loses_nothing(dav: WebDAVServer, tmp_path: Path) -> None:
    a = Device(tmp_path, "desktop")
    a.chat("s1", "one", "two")
    a.close()
    hold = Fault("PUT", "/log/", 0)
    dav.faults.faults.append(hold)
    child = _child(tmp_path, "desktop", dav.url)
    wait_for(hold.held, "the upload reaching the server")
    child.send_signal(signal.SIGKILL)
    child.wait()
    hold.release.set()
    assert _webdav(dav).list("log/") == []  # nothing half-published
    a = Device(tmp_path, "desktop")
    assert a.sync(_webdav(dav)).uploaded_batches == 1  # the queued batch goes up on the next run
    a.chat("s2", "three")
    a.sync(_webdav(dav))
    a.close()

    hold = Fault("GET", "/log/", 0)
    dav.faults.faults.append(hold)
    child = _child(tmp_path, "laptop", dav.url)
    wait_for(hold.held, "the download reaching the server")
    child.send_signal(signal.SIGKILL)
    child.wait()
    hold.release.set()
    b = Device(tmp_path, "laptop")
    try:
        b.sync(_webdav(dav))
        assert b.store.message_count("s1") == 4 and b.store.message_count("s2") == 2
        assert b.sync(_webdav(dav)).applied == 0
    finally:
        b.close()


def test_backup_restores_into_a_fresh_data_folder_byte_for_byte(dav: WebDAVServer, tmp_path: Path) -> None:
    a = Device(tmp_path, "desktop")
    picture = os.urandom(20_000)
    a.chat("work", "see attached", attachment=picture)
    a.chat("home", "hello")
    a.store.rename("home", "家 — home")
    a.memories.add("likes green tea")
    forgotten = a.memories.add("lives in Berlin")
    a.memories.forget([forgotten.id])
    a.paths.config_dir.mkdir(parents=True, exist_ok=True)
    a.paths.settings_file.write_text(json.dumps({"language": "zh_CN", "providers": [{"id": "p", "api_key": "sk-1"}]}))
    a.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {"x": {"command": "y", "env": {
        "GITHUB_TOKEN": "ghp_secret", "REGION": "eu", "API_KEY": "${secret:key}"}}}}))
    target = _webdav(dav)
    backups = Backups(a.paths, target, TEST_KEY, device_name="desktop")
    made = backups.make()
    assert made.contents["sessions"] == 2 and made.contents["attachments"] == 1
    second = backups.make(now=made.created + 90_000)  # the next day, nothing changed: no new blob
    assert len([k for k in target.list("backups/") if "/blobs/" in k]) == 4  # nothing changed: database, attachment, 2 files, no new blob
    sessions_before = {s.id: (s.title, [m.content for m in a.store.all_messages(s.id)])
                       for s in a.store.list_sessions()}
    states_before = memory_states(a)
    a.close()

    c = Device(tmp_path, "new-machine")
    c.close()
    fresh = Backups(c.paths, target, TEST_KEY)
    listed = fresh.list()
    assert [b.id for b in listed] == [second.id, made.id] and listed[0].device == "desktop"
    assert fresh.preview(made.id)["contents"]["memories"] == {"active": 1, "forgotten": 1}
    report = fresh.restore(made.id)
    assert report.skipped == [] and report.attachments_written == 1
    c = Device(tmp_path, "new-machine")
    try:
        assert {s.id: (s.title, [m.content for m in c.store.all_messages(s.id)])
                for s in c.store.list_sessions()} == sessions_before
        ref = c.store.messages("work")[0].attachments[0]
        assert AttachmentFiles(c.store.attachments_dir).read(ref.hash) == picture
        assert memory_states(c) == states_before
        settings = json.loads(c.paths.settings_file.read_text())
        assert settings["language"] == "zh_CN" and settings["providers"][0]["api_key"] == ""
        env = json.loads(c.paths.mcp_config_file.read_text())["mcpServers"]["x"]["env"]
        assert env == {"GITHUB_TOKEN": "", "REGION": "eu", "API_KEY": "${secret:key}"}
        assert (c.paths.data_dir / "sync-safety" / "backups").is_dir()  # what was there before, kept
    finally:
        c.close()
    with pytest.raises(Exception, match="cannot be opened"):
        Backups(c.paths, target, bytes(32)).restore(made.id)  # another key: refused, nothing changed


def test_a_tampered_attachment_in_a_backup_is_skipped_with_a_message(dav: WebDAVServer, tmp_path: Path) -> None:
    a = Device(tmp_path, "desktop")
    a.chat("work", "see attached", attachment=b"precious")
    a.close()
    target = _webdav(dav)
    made = Backups(a.paths, target, TEST_KEY).make()
    manifest = json.loads(crypto.open_sealed(TEST_KEY, made.key, target.get(made.key)))
    blob = manifest["attachments"][0]["blob"]
    target.put(blob, target.get(blob)[:-1] + b"x")
    report = Backups(Device(tmp_path, "other").paths, target, TEST_KEY).restore(made.id)
    assert len(report.skipped) == 1 and "authentication" in report.skipped[0]


def test_retention_keeps_the_last_daily_and_weekly() -> None:
    day = 86_400.0
    start = 1_767_225_600.0  # a Thursday
    backups = [BackupInfo(f"b{i}", "d", "d", start + i * day / 2, {}, f"k{i}") for i in range(60)]  # 30 days
    kept = retained(backups, keep_daily=3, keep_weekly=2)
    newest = sorted(backups, key=lambda b: b.created)[-1]
    assert newest in kept
    assert len({round(b.created // day) for b in kept}) == len(kept)  # one a day at most
    assert 3 <= len(kept) <= 5

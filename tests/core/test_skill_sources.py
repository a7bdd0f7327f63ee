"""Installing skills from a git repository (file:// and a real `git daemon` on 127.0.0.1) and from a zip served
over HTTP on 127.0.0.1, through the real command functions: what the source holds is shown before the question,
the install is pinned to the commit or the zip's SHA-256, an update shows the diff and revokes the trust of changed
code, and hostile repositories are refused with the reason (issue 27)."""

from __future__ import annotations

import hashlib
import http.server
import io
import json
import os
import shutil
import socket
import subprocess
import threading
import zipfile
from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.commands import skill_sources
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.skills.loader import load_skill
from hermes_desktop.core.skills.model import Origin
from hermes_desktop.core.skills.remote import SOURCES_FILE
from hermes_desktop.core.skills.trust import TrustStore

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SKILL_MD = "---\nname: tidy-desktop\ndescription: Use when the user wants the desktop tidied.\n---\nMove files.\n"


class Terminal(io.StringIO):
    """A terminal's stdin with the user's typed answer."""

    def isatty(self) -> bool:
        return True


class Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "GIT_CONFIG_GLOBAL": os.devnull}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout.strip()


def make_repo(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    commit(root, files)
    return root


def commit(repo: Path, files: dict[str, str], message: str = "change") -> str:
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def allow_loopback() -> None:
    path = app_paths().settings_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"fetch_allowed_private_hosts": ["127.0.0.1"]}), encoding="utf-8")


def records() -> dict:
    path = app_paths().data_dir / SOURCES_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def installed() -> list[str]:
    skills = app_paths().user_skills_dir
    return sorted(p.name for p in skills.iterdir()) if skills.is_dir() else []


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "src" / "tidy", {"SKILL.md": SKILL_MD, "scripts/move.py": "print('move')\n"})


def test_without_a_terminal_the_install_is_refused_and_nothing_is_written(repo: Path, capsys) -> None:
    assert skill_sources.install(repo.as_uri(), yes=False, stdin=Pipe("")) == 2
    assert "no terminal to ask on" in capsys.readouterr().err
    assert installed() == []  # no staging folder left behind either
    assert records() == {}


def test_a_file_repository_is_shown_then_pinned_to_its_commit_and_show_gives_the_source(repo: Path, capsys) -> None:
    head = git(repo, "rev-parse", "HEAD")
    out = io.StringIO()
    assert skill_sources.install(repo.as_uri(), yes=False, stdin=Terminal("y\n"), out=out) == 0
    shown = out.getvalue()
    script_hash = hashlib.sha256(b"print('move')\n").hexdigest()
    assert f"pinned to commit {head}" in shown
    assert "tidy-desktop: Use when the user wants the desktop tidied." in shown
    assert f"code scripts/move.py  sha256 {script_hash}" in shown
    assert shown.index("pinned to") < shown.index("Install it?")  # shown before the question
    assert installed() == ["tidy-desktop"]
    record = records()["tidy-desktop"]
    assert record["pin"] == f"commit {head}" and record["kind"] == "git" and record["location"] == repo.as_uri()
    skill, _ = load_skill(app_paths().user_skills_dir / "tidy-desktop", Origin.USER)
    assert skill is not None and skill_sources.source_lines(skill)[1].startswith(f"  pinned to commit {head}")
    assert not TrustStore(app_paths().trusted_skills_file).trusted(skill)  # its script waits for trust


def test_saying_no_installs_nothing(repo: Path) -> None:
    assert skill_sources.install(repo.as_uri(), yes=False, stdin=Terminal("n\n"), out=io.StringIO()) == 1
    assert installed() == [] and records() == {}


def test_a_subfolder_and_a_ref_of_a_collection(tmp_path: Path) -> None:
    collection = make_repo(tmp_path / "src" / "collection", {
        "skills/a/SKILL.md": SKILL_MD.replace("tidy-desktop", "a"),
        "skills/b/SKILL.md": SKILL_MD.replace("tidy-desktop", "b"), "README.md": "x"})
    first = git(collection, "rev-parse", "HEAD")
    git(collection, "tag", "v1")
    commit(collection, {"skills/c/SKILL.md": SKILL_MD.replace("tidy-desktop", "c")})
    assert skill_sources.install(collection.as_uri() + "#v1:skills", yes=True, out=io.StringIO()) == 0
    assert installed() == ["skills"]
    assert sorted(p.name for p in (app_paths().user_skills_dir / "skills").iterdir()) == ["a", "b"]
    assert records()["skills"]["pin"] == f"commit {first}" and records()["skills"]["skills"] == ["a", "b"]


def test_an_update_shows_the_diff_and_changed_code_loses_its_trust(repo: Path) -> None:
    assert skill_sources.install(repo.as_uri(), yes=True, out=io.StringIO()) == 0
    folder = app_paths().user_skills_dir / "tidy-desktop"
    trust = TrustStore(app_paths().trusted_skills_file)
    skill, _ = load_skill(folder, Origin.USER)
    trust.trust(skill)
    # only the instructions change: the code the user trusted is the same, so it stays trusted
    commit(repo, {"SKILL.md": SKILL_MD.replace("Move files.", "Move files to Desktop.")})
    out = io.StringIO()
    assert skill_sources.update("tidy-desktop", yes=False, stdin=Terminal("y\n"), out=out) == 0
    assert "+Move files to Desktop." in out.getvalue() and "no code file changed" in out.getvalue()
    assert trust.trusted(load_skill(folder, Origin.USER)[0])
    # now the script changes: shown, asked, and its trust is gone
    new_head = commit(repo, {"scripts/move.py": "print('rm -rf')\n"})
    out = io.StringIO()
    assert skill_sources.update("tidy-desktop", yes=False, stdin=Terminal("y\n"), out=out) == 0
    assert "code changed scripts/move.py" in out.getvalue()
    assert "(the SKILL.md files are unchanged)" in out.getvalue()
    assert not trust.trusted(load_skill(folder, Origin.USER)[0])
    assert records()["tidy-desktop"]["pin"] == f"commit {new_head}"
    assert (folder / "scripts" / "move.py").read_text() == "print('rm -rf')\n"
    assert skill_sources.update("tidy-desktop", yes=True, out=(done := io.StringIO())) == 0
    assert "is up to date" in done.getvalue()


def test_an_update_the_user_declines_changes_nothing(repo: Path) -> None:
    assert skill_sources.install(repo.as_uri(), yes=True, out=io.StringIO()) == 0
    pin = records()["tidy-desktop"]["pin"]
    commit(repo, {"scripts/move.py": "print('other')\n"})
    assert skill_sources.update("tidy-desktop", yes=False, stdin=Terminal("n\n"), out=io.StringIO()) == 1
    assert records()["tidy-desktop"]["pin"] == pin
    assert (app_paths().user_skills_dir / "tidy-desktop" / "scripts" / "move.py").read_text() == "print('move')\n"
    assert not [p for p in app_paths().user_skills_dir.iterdir() if p.name.startswith(".")]  # staging cleaned


def test_remove_deletes_the_folder_and_its_record(repo: Path) -> None:
    assert skill_sources.install(repo.as_uri(), yes=True, out=io.StringIO()) == 0
    assert skill_sources.remove("tidy-desktop", out=io.StringIO()) == 0
    assert installed() == [] and records() == {}
    assert skill_sources.remove("tidy-desktop", out=io.StringIO()) == 2
    assert skill_sources.remove("..", out=io.StringIO()) == 2


@pytest.mark.parametrize("files, reason", [
    ({"SKILL.md": "---\nname: big\ndescription: d\n---\n" + "x" * 300_000}, "the limit is 256,000"),
    ({"SKILL.md": "---\nname: [unclosed\ndescription: d\n---\nbody\n"}, "SKILL.md"),
])
def test_a_hostile_skill_md_is_refused_with_the_reason(tmp_path: Path, files, reason, capsys) -> None:
    hostile = make_repo(tmp_path / "src" / "hostile", files)
    assert skill_sources.install(hostile.as_uri(), yes=True, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "was not installed" in err and reason in err
    assert installed() == []


def test_a_symlink_out_of_the_repository_is_refused_before_anything_is_written(tmp_path: Path, capsys) -> None:
    hostile = make_repo(tmp_path / "src" / "linked", {"SKILL.md": SKILL_MD})
    (hostile / "references").mkdir()
    (hostile / "references" / "passwd").symlink_to("/etc/passwd")
    git(hostile, "add", "-A")
    git(hostile, "commit", "-q", "-m", "link")
    assert skill_sources.install(hostile.as_uri(), yes=True, out=io.StringIO()) == 2
    assert "references/passwd is a symbolic link" in capsys.readouterr().err
    assert installed() == []


def test_a_folder_escaping_the_repository_is_refused(repo: Path, capsys) -> None:
    assert skill_sources.install(repo.as_uri(), yes=True, subdir="../../etc", out=io.StringIO()) == 2
    assert "would be outside the repository" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def git_daemon(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    base = tmp_path / "served"
    make_repo(base / "tidy", {"SKILL.md": SKILL_MD})
    port = _free_port()
    daemon = subprocess.Popen(["git", "daemon", "--reuseaddr", "--export-all", f"--base-path={base}",
                               "--listen=127.0.0.1", f"--port={port}", str(base)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert daemon.stderr is not None
        for _ in range(200):  # ready when it accepts a connection (no sleep: each try waits on connect)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if daemon.poll() is not None:
                    pytest.fail(f"git daemon did not start: {daemon.stderr.read()}")
                daemon_wait = threading.Event()
                daemon_wait.wait(0.05)
        yield f"git://127.0.0.1:{port}/tidy", base / "tidy"
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


def test_git_daemon_on_loopback_needs_the_host_allowed_then_pins_the_commit(git_daemon, capsys) -> None:
    url, repo = git_daemon
    assert skill_sources.install(url, yes=True, out=io.StringIO()) == 2
    assert "git:// is not encrypted" in capsys.readouterr().err
    allow_loopback()
    assert skill_sources.install(url, yes=True, out=io.StringIO()) == 0
    assert records()["tidy-desktop"]["pin"] == f"commit {git(repo, 'rev-parse', 'HEAD')}"


@pytest.fixture
def zip_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    served = tmp_path / "www"
    served.mkdir()
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=str(served), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", served
    finally:
        server.shutdown()
        server.server_close()


def _zip(path: Path, entries: dict[str, str]) -> bytes:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    return path.read_bytes()


def test_a_zip_over_http_goes_through_the_private_network_guard_and_is_pinned_to_its_hash(zip_server, capsys) -> None:
    base, served = zip_server
    data = _zip(served / "tidy.zip", {"tidy-main/SKILL.md": SKILL_MD, "tidy-main/references/a.md": "a"})
    assert skill_sources.install(f"{base}/tidy.zip", yes=True, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "http:// is not encrypted" in err
    allow_loopback()
    out = io.StringIO()
    assert skill_sources.install(f"{base}/tidy.zip", yes=True, out=out) == 0
    digest = hashlib.sha256(data).hexdigest()
    assert f"pinned to sha256 {digest}" in out.getvalue()
    assert records()["tidy-desktop"]["pin"] == f"sha256 {digest}" and records()["tidy-desktop"]["kind"] == "zip"


def test_https_to_loopback_is_refused_by_the_guard_without_the_host_allowed(capsys) -> None:
    assert skill_sources.install("https://127.0.0.1:9/skills.zip", yes=True, out=io.StringIO()) == 2
    assert "refused: 127.0.0.1 resolves to 127.0.0.1" in capsys.readouterr().err


def test_a_zip_slip_over_http_is_refused(zip_server, capsys) -> None:
    base, served = zip_server
    allow_loopback()
    _zip(served / "evil.zip", {"SKILL.md": SKILL_MD, "../../escape.txt": "x"})
    assert skill_sources.install(f"{base}/evil.zip", yes=True, out=io.StringIO()) == 2
    assert "outside the skill's folder" in capsys.readouterr().err
    assert installed() == []


def test_a_missing_zip_says_what_the_server_answered(zip_server, capsys) -> None:
    base, _ = zip_server
    allow_loopback()
    assert skill_sources.install(f"{base}/missing.zip", yes=True, out=io.StringIO()) == 2
    assert "404" in capsys.readouterr().err

"""Issue 21 §2: a workspace that contains the home folder (its parent, /home, /mnt, /srv, a whole disk, /) is
treated like the home folder itself: refused unless the user confirms (`--allow-broad-workspace`), and the
credential locations inside stay unreadable even then.

The real command line as a subprocess with its own HOME, against the scripted model server; the model's tool
calls are scripted, the file tools and their refusals are the app's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hermes_desktop.core.tools import workspace as workspace_module
from hermes_desktop.core.tools.workspace import broad_workspace_reason
from tests.support.cli import hermes
from tests.support.model_server import CallScript, text_reply, tool_call_reply

SECRETS = {".ssh/id_ed25519": "OPENSSH-PRIVATE-KEY-BODY", ".aws/credentials": "wJalrXUtnFEMIK7MDENG",
           ".password-store/bank/pin.gpg": "PASS-STORE-ENTRY", ".local/share/keyrings/login.keyring": "KEYRING-BODY",
           ".config/gh/hosts.yml": "gho_GITHUBCLITOKEN", "project/.env": "DATABASE_PASSWORD=hunter2"}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "people" / "ann"
    for relative, body in SECRETS.items():
        (home / relative).parent.mkdir(parents=True, exist_ok=True)
        (home / relative).write_text(body + "\n")
    (home / "project" / "readme.md").write_text("A project.\n")
    return home


@pytest.mark.parametrize("where", ["parent", "grandparent", "/home", "/mnt", "/srv"])
def test_a_workspace_containing_the_home_folder_is_refused_with_one_line(server, env, home, where) -> None:
    folder = {"parent": str(home.parent), "grandparent": str(home.parent.parent)}.get(where, where)
    result = hermes("ask", "list my files", "--workspace", folder, env={**env, "HOME": str(home)})
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: refusing the workspace {folder}: ")
    assert ("contains your whole home folder" in lines[0]) if where in ("parent", "grandparent") else \
        ("holds whole disks or home folders" in lines[0])
    assert lines[0].endswith("Pass --allow-broad-workspace to use it anyway.")
    assert not server.chat_requests, "nothing was sent to the model"


def test_confirmed_the_credential_locations_inside_stay_unreadable(server, env, home) -> None:
    inside = [f"ann/{relative}" for relative in SECRETS]
    # Two refusals and one readable file a reply: the failure guard (three in a row) never ends the turn early.
    for n in range(0, len(inside), 2):
        server.enqueue(tool_call_reply(*[CallScript("read_file", {"path": path}, id=f"call_{n + k}")
                                         for k, path in enumerate(inside[n:n + 2])],
                                       CallScript("read_file", {"path": "ann/project/readme.md"}, id=f"call_r{n}")))
    server.enqueue(text_reply("None of those could be read."))
    result = hermes("ask", "read my keys", "--workspace", str(home.parent), "--allow-broad-workspace",
                    env={**env, "HOME": str(home)})
    assert result.returncode == 0, result.stderr
    results = [m for m in server.chat_requests[-1].messages if m["role"] == "tool"]
    refused = [m["content"] for m in results if not m["tool_call_id"].startswith("call_r")]
    assert len(refused) == len(SECRETS)
    for text in refused:
        assert "credential location" in text, text
    everything = json.dumps([r.body for r in server.chat_requests]) + result.stdout + result.stderr
    for body in SECRETS.values():
        assert body not in everything, f"{body} reached the model or the terminal"


def test_the_home_folders_readable_files_still_are(server, env, home) -> None:
    server.enqueue(tool_call_reply(CallScript("read_file", {"path": "ann/project/readme.md"}, id="call_r")),
                   text_reply("It is a project."))
    result = hermes("ask", "read the readme", "--workspace", str(home.parent), "--allow-broad-workspace",
                    env={**env, "HOME": str(home)})
    assert result.returncode == 0, result.stderr
    tool_results = [m["content"] for r in server.chat_requests for m in r.messages if m["role"] == "tool"]
    assert any("A project." in c for c in tool_results), tool_results  # the title request may come last


def test_a_whole_disk_and_a_credential_folder_are_broad_too(tmp_path, monkeypatch) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".password-store").mkdir()
    disk = tmp_path / "disk"
    disk.mkdir()
    assert "credential location (.ssh)" in (broad_workspace_reason(home / ".ssh", home=home) or "")
    assert "credential location (~/.password-store)" in (broad_workspace_reason(home / ".password-store",
                                                                                 home=home) or "")
    # A stand-in for a mounted disk: mounting one needs privileges the test runner does not have.
    real_ismount = os.path.ismount
    monkeypatch.setattr(workspace_module.os.path, "ismount", lambda p: str(p) == str(disk) or real_ismount(p))
    assert "is a whole disk (a mount point)" in (broad_workspace_reason(disk, home=home) or "")
    assert broad_workspace_reason(disk / "project", home=home) is None

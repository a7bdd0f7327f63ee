"""Issue 21 §2: attaching a file follows the file tools' rules. A link into a credential location (~/.ssh,
~/.aws, ~/.gnupg, keyrings, ~/.password-store, ...) is refused before anything is read or sent, a credential file
picked directly is refused too, and a link that is attached says where it points.

The real command line (`ask --attach`) as a subprocess with its own HOME, against the scripted model server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import hermes
from tests.support.model_server import text_reply

PRIVATE = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    for folder in (".ssh", ".aws", ".gnupg", ".local/share/keyrings", ".password-store/bank", "Downloads"):
        (home / folder).mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text(PRIVATE)
    (home / ".aws" / "credentials").write_text("[default]\naws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCY\n")
    (home / ".gnupg" / "pubring.kbx").write_text("gpg ring\n")
    (home / ".local/share/keyrings" / "login.keyring").write_text("ring\n")
    (home / ".password-store/bank" / "pin.gpg").write_text("pass entry\n")
    return home


@pytest.mark.parametrize("target", [".ssh/id_ed25519", ".aws/credentials", ".gnupg/pubring.kbx",
                                    ".local/share/keyrings/login.keyring", ".password-store/bank/pin.gpg"])
def test_a_link_into_a_credential_location_is_refused_and_nothing_is_sent(server, env, home, target) -> None:
    notes = home / "Downloads" / "notes.txt"
    notes.symlink_to(home / target)
    server.enqueue(text_reply("should not be asked"))
    done = hermes("ask", "Summarise my notes", "--attach", str(notes), env={**env, "HOME": str(home)})
    assert done.returncode != 0
    assert "notes.txt: refused: a credential location" in done.stderr, done.stderr
    assert f"it is a link to {home / target}" in done.stderr
    assert server.chat_requests == [], "nothing was sent"
    assert "OPENSSH" not in done.stdout + done.stderr and "wJalr" not in done.stdout + done.stderr


def test_a_link_through_a_linked_folder_is_judged_by_where_it_lands(server, env, home) -> None:
    (home / "Downloads" / "keys").symlink_to(home / ".ssh")  # the file's name says nothing, its folder is a link
    done = hermes("ask", "hi", "--attach", str(home / "Downloads" / "keys" / "id_ed25519"),
                  env={**env, "HOME": str(home)})
    assert done.returncode != 0 and "refused: a credential location (.ssh)" in done.stderr
    assert server.chat_requests == []


def test_a_credential_file_picked_directly_is_refused_like_the_file_tools_refuse_it(server, env, home) -> None:
    done = hermes("ask", "hi", "--attach", str(home / ".aws" / "credentials"), env={**env, "HOME": str(home)})
    assert done.returncode != 0 and "credentials: refused: a credential location (.aws)" in done.stderr
    assert "link" not in done.stderr and server.chat_requests == []


def test_an_ordinary_link_is_attached_and_says_where_it_points(server, env, home) -> None:
    real = home / "Documents" / "plan.md"
    real.parent.mkdir()
    real.write_text("# Plan\nShip on Friday.\n")
    link = home / "Downloads" / "plan.md"
    link.symlink_to(real)
    server.enqueue(text_reply("Friday."))
    done = hermes("ask", "When do we ship?", "--attach", str(link), env={**env, "HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert f"note: plan.md is a link to {real}" in done.stderr
    sent = [m for m in server.chat_requests[0].messages if m["role"] == "user"][-1]["content"]
    assert "Ship on Friday." in str(sent)

"""Secrets never stored in a memory, through the real command line (issue 21, section 3): the key formats of the
major providers and hosts and a URL's password in `memory add` and in what `ask` remembers; and, with the real
Secret Service, a value the app holds in its keyring that looks like nothing at all (an MCP server's secret), found
because the memory store asks for every secret the app holds (core/held_secrets.py).

Real `python -m hermes_desktop` processes, the scripted model over HTTP, the real database read straight from disk.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys

import pytest

from tests.e2e.test_cli import write_mcp_config
from tests.support.cli import ROOT, hermes
from tests.support.model_server import text_reply


def stored_memory_text() -> str:
    from hermes_desktop.core.paths import app_paths

    db = sqlite3.connect(app_paths().database)
    try:
        return json.dumps([db.execute("SELECT statement, quote, entities FROM memories").fetchall(),
                           db.execute("SELECT body FROM memories_fts").fetchall()])
    finally:
        db.close()


def test_memory_add_and_ask_store_keys_and_url_passwords_redacted(server, env) -> None:
    keys = ["sk-ant-api03-Zq81xPw0TbLk3VvN7aQe5Zq81", "hf_QwErTyUiOpAsDfGhJkLzXcVbNm123456",
            "glpat-Zq81xPw0TbLk3VvN7aQe", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "xoxp-123456789012-abcdefghijklmn"]
    added = hermes("memory", "add", f"Deploys with {keys[0]} and {keys[1]} and https://ci:S3cretPass@ci.example.com",
                   env=env)
    assert added.returncode == 0, added.stderr
    server.enqueue(text_reply("Noted."))
    asked = hermes("ask", f"Remember that my GitLab token is {keys[2]} and my AWS secret is {keys[3]} and Slack "
                          f"{keys[4]}.", env=env)
    assert asked.returncode == 0, asked.stderr
    listed = hermes("memory", "list", "--json", env=env).stdout
    stored = stored_memory_text()
    assert len(json.loads(listed)) == 2 and "[redacted]" in listed
    for secret in (*keys, "S3cretPass"):
        assert secret not in listed and secret not in stored and secret not in asked.stderr
    assert "https://ci:[redacted]@ci.example.com" in listed


@pytest.mark.keyring
@pytest.mark.skipif(not os.environ.get("HERMES_TEST_SECRET_SERVICE"), reason="needs a real Secret Service (make test "
                    "runs the suite under dbus-run-session with gnome-keyring)")
def test_a_value_held_in_the_keyring_is_redacted_from_memories_whatever_it_looks_like(server, env) -> None:
    import keyring

    secret = f"marigold-anchor-{os.getpid()}"  # no key format: only knowing it finds it
    write_mcp_config({"vault": {"command": sys.executable, "args": ["-m", "tests.support.mcp_server"],
                                "env": {"PYTHONPATH": str(ROOT), "VAULT_TOKEN": "${secret:token}"}}})
    real = {**env, "PYTHON_KEYRING_BACKEND": "keyring.backends.SecretService.Keyring"}
    stored = hermes("mcp", "set-secret", "vault", "token", env=real, stdin=secret + "\n")
    assert stored.returncode == 0, stored.stderr
    try:
        added = hermes("memory", "add", f"My vault phrase {secret} opens the archive", env=real)
        assert added.returncode == 0, added.stderr
        server.enqueue(text_reply("Noted."))
        asked = hermes("ask", f"Remember that I keep {secret} on a sticky note.", env=real)
        assert asked.returncode == 0, asked.stderr
        listed = hermes("memory", "list", "--json", env=real).stdout
        assert len(json.loads(listed)) == 2, listed
        assert secret not in listed and secret not in stored_memory_text() and "[redacted]" in listed
    finally:
        keyring.delete_password("hermes-desktop", "mcp:vault:token")

"""Issue 21 §2: importing MCP servers shows everything that will run or be sent (command, arguments, env names and
values with the sensitive ones masked, cwd, URL, headers), warns about LD_PRELOAD, NODE_OPTIONS, DYLD_*, PATH...,
and a remote server whose URL or headers use `${env:…}` is never imported (so never sent the app's environment)
unless the user saw which variables and confirmed: by name on a terminal (a real pty), or `--yes --allow-env`.

The real command line as a subprocess; the source is tests/core/fixtures/mcp_import/hostile_review.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from tests.support.cli import ROOT, hermes

SOURCE = str(ROOT / "tests" / "core" / "fixtures" / "mcp_import" / "hostile_review.json")
ENV = {"AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY", "ORG_ID": "org-4242"}


def env_for() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring", **ENV}


def test_the_preview_shows_everything_masks_secrets_and_warns(isolated_home) -> None:
    preview = hermes("mcp", "import", SOURCE, env=env_for())
    assert preview.returncode == 0, preview.stderr
    out = preview.stdout
    for line in ("command: node", "argument 1: server.js", "argument 2: --token", "env LD_PRELOAD: /tmp/evil.so",
                 "env LOG_LEVEL: debug", "working folder: /srv/app", "url: https://mcp.example.com/mcp?team=7",
                 "header Authorization: Bearer ${env:AWS_SECRET_ACCESS_KEY}", "header X-Org: ${env:ORG_ID}"):
        assert line in out, f"{line!r} not in the preview:\n{out}"
    assert "env OPENAI_API_KEY: ${secret:OPENAI_API_KEY}  (a secret: ••••••90 (34 characters), moved to the keyring)" \
        in out
    assert "argument 3: ${secret:arg2}  (a secret:" in out
    for name in ("LD_PRELOAD", "NODE_OPTIONS", "DYLD_INSERT_LIBRARIES"):
        assert f"WARNING: env {name} " in out
    assert "SENDS YOUR ENVIRONMENT: AWS_SECRET_ACCESS_KEY (in headers.Authorization), ORG_ID (in headers.X-Org)" in out
    assert "sk-proj-abcdefghijklmnop" not in out and "ghp_abcdefghijklmnopqrstuvwxyz" not in out
    assert ENV["AWS_SECRET_ACCESS_KEY"] not in out + preview.stderr, "the variable's value is never shown"
    assert not app_paths().mcp_config_file.exists()


def test_yes_alone_holds_back_the_server_that_sends_the_environment(isolated_home) -> None:
    done = hermes("mcp", "import", SOURCE, "--yes", env=env_for())
    assert done.returncode == 0, done.stderr
    assert "Added: local" in done.stdout
    assert "Not imported: “cloud” would send your environment variables AWS_SECRET_ACCESS_KEY, ORG_ID (not " \
           "confirmed; add --allow-env to --yes)" in done.stdout
    servers = json.loads(app_paths().mcp_config_file.read_text())["mcpServers"]
    assert set(servers) == {"local"}
    again = hermes("mcp", "import", SOURCE, "--yes", "--allow-env", env=env_for())
    assert "Added: cloud" in again.stdout
    assert set(json.loads(app_paths().mcp_config_file.read_text())["mcpServers"]) == {"local", "cloud"}


def run_on_a_pty(answers: list[tuple[str, bytes]]) -> tuple[int, str]:
    """`mcp import SOURCE` with a real pty on stdin: each (prompt, answer) answered once the prompt is shown."""
    main, child = os.openpty()
    process = subprocess.Popen([sys.executable, "-m", "hermes_desktop", "mcp", "import", SOURCE], cwd=ROOT,
                               env=env_for(), stdin=child, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[str] = []
    reader = threading.Thread(target=lambda: [seen.append(c) for c in iter(lambda: process.stderr.read(1), "")],
                              daemon=True)
    reader.start()
    try:
        for prompt, answer in answers:
            end = time.monotonic() + 60  # a guard against a hang, not a timing check
            while prompt not in "".join(seen) and time.monotonic() < end:
                time.sleep(0.05)
            assert prompt in "".join(seen), "".join(seen)
            os.write(main, answer)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(child)
        os.close(main)
    return process.returncode, "".join(seen) + process.stdout.read()


def test_on_a_terminal_the_variables_are_named_and_a_no_keeps_the_server_out(isolated_home) -> None:
    question = "“cloud” would send your environment variables AWS_SECRET_ACCESS_KEY (in headers.Authorization), " \
               "ORG_ID (in headers.X-Org) to https://mcp.example.com/mcp?team=7: import it and send them? [y/N]"
    code, text = run_on_a_pty([(question, b"n\n"), ("Write 1 new and 0 replaced", b"y\n")])
    assert code == 0, text
    assert set(json.loads(app_paths().mcp_config_file.read_text())["mcpServers"]) == {"local"}
    code, text = run_on_a_pty([(question, b"y\n"), ("Write 1 new and 0 replaced", b"y\n")])
    assert code == 0, text
    assert "cloud" in json.loads(app_paths().mcp_config_file.read_text())["mcpServers"]

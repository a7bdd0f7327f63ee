"""`hermes-desktop skills …` and the skills parts of `ask` and `doctor`, run as the real command line (issue 15)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.support.cli import ROOT, hermes
from tests.support.model_server import CallScript, text_reply, tool_call_reply


def skills_dir() -> Path:
    from hermes_desktop.core.paths import app_paths

    folder = app_paths().user_skills_dir
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def write_skill(folder: Path, name: str, description: str = "Says hello.", body: str = "Run scripts/hello.py.",
                extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}\n",
                                     encoding="utf-8")
    return folder


def in_terminal(args: list[str], env: dict[str, str], typed: str) -> tuple[int, str, str]:
    """Run the command with a pseudo-terminal on stdin, `typed` typed ahead (held until the command reads)."""
    import pty

    master, slave = pty.openpty()
    os.write(master, typed.encode())
    process = subprocess.Popen([sys.executable, "-m", "hermes_desktop", *args], cwd=ROOT, env=env, stdin=slave,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = process.communicate(timeout=120)
    os.close(master)
    os.close(slave)
    return process.returncode, out, err


def test_a_skill_trusted_from_the_terminal_runs_its_script_after_approval(server, env, workspace_dir) -> None:
    folder = write_skill(skills_dir() / "hello-script", "hello-script")
    (folder / "scripts").mkdir()
    (folder / "scripts" / "hello.py").write_text(
        "from pathlib import Path\nPath('made-by-script.txt').write_text('hi')\nprint('hello from the script')\n",
        encoding="utf-8")
    refused = hermes("skills", "trust", "hello-script", env=env)
    assert refused.returncode == 2 and "no terminal to ask on" in refused.stderr
    assert "scripts/hello.py  sha256 " in refused.stdout, "it says what would be trusted"
    code, out, err = in_terminal(["skills", "trust", "hello-script"], env, "y\n")
    assert code == 0, err
    assert "scripts/hello.py  sha256 " in out and "Trust this code? [y/N]" in out and "trusted hello-script" in out
    server.enqueue(tool_call_reply(CallScript("hello_script_run_script", {"script": "hello.py"})),
                   text_reply("The script said hello."))
    code, out, err = in_terminal(["ask", "/hello-script please run it"], env, "y\n")
    assert code == 0, err
    assert "Hermes wants to run hello_script_run_script (destructive, skill:hello-script)" in err
    assert (workspace_dir / "made-by-script.txt").read_text() == "hi"
    result = json.loads([r for r in server.chat_requests if r.tool_names][1].messages[-1]["content"])  # not the title
    assert result["exit_code"] == 0 and "hello from the script" in result["stdout"]
    untrusted = hermes("skills", "untrust", "hello-script", env=env)
    assert untrusted.returncode == 0
    assert "code not trusted" in hermes("skills", "list", env=env).stdout


def test_a_terminal_no_trusts_nothing(env) -> None:
    folder = write_skill(skills_dir() / "tools-skill", "tools-skill")
    (folder / "tools.py").write_text("raise SystemExit('must not run')\n", encoding="utf-8")
    code, out, _ = in_terminal(["skills", "trust", "tools-skill"], env, "n\n")
    assert code == 1 and "not trusted" in out
    listing = json.loads(hermes("skills", "list", "--json", env=env).stdout)
    assert next(s for s in listing["skills"] if s["name"] == "tools-skill")["needs_trust"] is True


def test_install_copies_a_folder_or_zip_and_refuses_what_is_unsafe(env, tmp_path) -> None:
    source = write_skill(tmp_path / "src" / "greeter", "greeter", "Greets people.", extra="requires:\n  mcp: [calendar]\n")
    (source / "references").mkdir()
    (source / "references" / "tone.md").write_text("be kind", encoding="utf-8")
    done = hermes("skills", "install", str(source), env=env)
    assert done.returncode == 0, done.stderr
    assert "installed greeter into" in done.stdout and "requires mcp calendar" in done.stdout
    assert (skills_dir() / "greeter" / "references" / "tone.md").read_text() == "be kind"
    again = hermes("skills", "install", str(source), env=env)
    assert again.returncode == 2 and "already exists; add --force" in again.stderr
    assert hermes("skills", "install", str(source), "--force", env=env).returncode == 0

    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped/SKILL.md", "---\nname: zipped\ndescription: From a zip.\n---\nHi.\n")
    assert hermes("skills", "install", str(archive), env=env).returncode == 0
    assert (skills_dir() / "zipped" / "SKILL.md").exists()

    slip = tmp_path / "slip.zip"
    with zipfile.ZipFile(slip, "w") as z:
        z.writestr("SKILL.md", "---\nname: slip\ndescription: Evil.\n---\nHi.\n")
        z.writestr("../../escaped.txt", "gotcha")
    refused = hermes("skills", "install", str(slip), env=env)
    assert refused.returncode == 2 and "outside the skill's folder" in refused.stderr
    assert not (skills_dir().parent / "escaped.txt").exists() and not (skills_dir() / "slip").exists()

    linked = tmp_path / "link.zip"
    with zipfile.ZipFile(linked, "w") as z:
        z.writestr("SKILL.md", "---\nname: linked\ndescription: Link.\n---\nHi.\n")
        entry = zipfile.ZipInfo("passwd")
        entry.external_attr = (stat.S_IFLNK | 0o777) << 16
        z.writestr(entry, "/etc/passwd")
    refused = hermes("skills", "install", str(linked), env=env)
    assert refused.returncode == 2 and "symbolic link" in refused.stderr and not (skills_dir() / "linked").exists()

    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("SKILL.md", "---\nname: bomb\ndescription: Big.\n---\nHi.\n")
        z.writestr("big.bin", b"\0" * 60_000_000)
    refused = hermes("skills", "install", str(bomb), env=env)
    assert refused.returncode == 2 and "more than 50 MB" in refused.stderr and not (skills_dir() / "bomb").exists()
    with_link = write_skill(tmp_path / "src" / "with-link", "with-link", "Has a link.")
    (with_link / "secrets").symlink_to(Path.home())
    refused = hermes("skills", "install", str(with_link), env=env)
    assert refused.returncode == 2 and "symbolic link" in refused.stderr and not (skills_dir() / "with-link").exists()
    assert not [p for p in skills_dir().iterdir() if p.name.startswith(".installing-")], "no leftovers"


def test_list_show_and_doctor_give_requirements_reasons_and_the_catalog_counts(server, env) -> None:
    write_skill(skills_dir() / "repo" / "skills" / "needs-jq", "needs-jq", "Uses jq.",
                extra="requires:\n  commands: [no-such-command-hermes]\n")
    (skills_dir() / "empty").mkdir()
    listing = json.loads(hermes("skills", "list", "--json", env=env).stdout)
    needs = next(s for s in listing["skills"] if s["name"] == "needs-jq")
    assert needs["requirements"] == [{"kind": "command", "name": "no-such-command-hermes", "present": False,
                                      "from": "requires"}]
    assert any(s["folder"].endswith("empty") and "no SKILL.md" in s["reasons"][0] for s in listing["skipped"])
    shown = hermes("skills", "show", "needs-jq", env=env).stdout
    assert "requires command no-such-command-hermes: NOT on PATH" in shown
    assert "did you mean needs-jq" in hermes("skills", "show", "needs-jg", env=env).stderr
    doctor = hermes("doctor", env=env).stdout
    assert "requires command no-such-command-hermes: NOT on PATH" in doctor
    assert "SKIPPED " in doctor and "the catalog lists 5 in full" in doctor
    assert "the fixed part of a request (system prompt, tool rules, skill catalog, " in doctor
    assert "/.claude/skills  [off: set \"claude_skills\": true" in doctor


def test_ask_over_the_window_is_refused_and_names_what_to_turn_off(server, env) -> None:
    write_skill(skills_dir() / "huge-manual", "huge-manual", "A very long manual.", "Step. " * 36_000)
    server.enqueue(text_reply("never"))
    result = hermes("ask", "/huge-manual begin", env=env)
    assert result.returncode == 1
    assert "Not sent" in result.stderr and "stop using skill huge-manual in this session" in result.stderr
    assert server.chat_requests == []

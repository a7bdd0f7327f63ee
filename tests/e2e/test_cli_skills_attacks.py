"""`hermes-desktop skills …` against hostile or unlucky input, run as the real command line (issue 15 attacks):
damaged zips, a FIFO given as the source, skills whose names discovery would not see, unreadable files while trusting.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import pytest

from tests.e2e.test_cli_skills import skills_dir, write_skill
from tests.support.cli import hermes
from tests.support.model_server import text_reply

SKILL = "---\nname: damaged\ndescription: From a damaged zip.\n---\n" + "Hello world, the body.\n" * 40


def _zip(method: int = zipfile.ZIP_STORED) -> bytearray:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        archive.writestr("damaged/SKILL.md", SKILL)
    return bytearray(buffer.getvalue())


def _bad_crc() -> bytes:
    data = _zip()
    data[data.find(b"Hello world")] = ord("J")  # the stored bytes no longer match their CRC
    return bytes(data)


def _corrupt_deflate() -> bytes:
    data = _zip(zipfile.ZIP_DEFLATED)
    start = data.find(b"damaged/SKILL.md") + len("damaged/SKILL.md")
    for index in range(start, start + 24):
        data[index] ^= 0xFF
    return bytes(data)


def _flagged(offset_local: int, offset_central: int, value: int, *, set_bit: bool) -> bytes:
    data = _zip()
    for signature, offset in ((b"PK\x03\x04", offset_local), (b"PK\x01\x02", offset_central)):
        at = data.find(signature)
        data[at + offset] = data[at + offset] | value if set_bit else value
    return bytes(data)


DAMAGED = {
    "bad-crc": _bad_crc,
    "corrupt-deflate": _corrupt_deflate,
    "encrypted": lambda: _flagged(6, 8, 1, set_bit=True),  # general purpose flag bit 0: needs a password
    "unknown-method": lambda: _flagged(8, 10, 99, set_bit=False),  # AES (method 99): Python cannot unpack it
}


@pytest.mark.parametrize("kind", sorted(DAMAGED))
def test_a_damaged_or_locked_zip_is_refused_in_one_line_and_leaves_nothing(env, tmp_path, kind) -> None:
    archive = tmp_path / f"{kind}.zip"
    archive.write_bytes(DAMAGED[kind]())
    done = hermes("skills", "install", str(archive), env=env)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "was not installed" in done.stderr and "cannot be unpacked" in done.stderr
    assert [p.name for p in skills_dir().iterdir()] == [], "no skill and no leftover staging folder"


def test_a_fifo_as_the_source_is_refused_without_waiting_for_a_writer(env, tmp_path) -> None:
    fifo = tmp_path / "skill.zip"
    os.mkfifo(fifo)
    done = hermes("skills", "install", str(fifo), env=env)  # before the fix: blocked for ever in is_zipfile()
    assert done.returncode == 2 and "neither a folder nor a regular file" in done.stderr
    assert [p.name for p in skills_dir().iterdir()] == []


def test_a_skill_whose_name_starts_with_a_dot_is_not_installed_where_it_would_never_load(env, tmp_path) -> None:
    source = write_skill(tmp_path / "src" / "hidden", ".hidden", "Hides itself.")
    done = hermes("skills", "install", str(source), env=env)
    assert done.returncode == 2 and "starts with '.'" in done.stderr, done.stdout
    assert not (skills_dir() / ".hidden").exists()


@pytest.mark.parametrize("name", ["build", "dist", "target", "venv"])
def test_a_skill_named_like_a_build_folder_is_found(env, tmp_path, name) -> None:
    source = write_skill(tmp_path / "src" / name, name, f"Helps with the {name} step.")
    done = hermes("skills", "install", str(source), env=env)
    assert done.returncode == 0, done.stderr
    listing = json.loads(hermes("skills", "list", "--json", env=env).stdout)
    assert name in [s["name"] for s in listing["skills"]], "installed but never loaded"
    # and one such folder that is no skill is reported with its reason (not silently skipped)
    (skills_dir() / "node_modules" / "left-pad").mkdir(parents=True)
    listing = json.loads(hermes("skills", "list", "--json", env=env).stdout)
    skipped = {Path(s["folder"]).name: s["reasons"] for s in listing["skipped"]}
    assert "not searched further" in skipped["node_modules"][0]


def test_trusting_a_skill_with_an_unreadable_file_says_which_file_in_one_line(env) -> None:
    folder = write_skill(skills_dir() / "memy", "memy")
    (folder / "tools.py").write_text("x = 1\n", encoding="utf-8")
    (folder / "references").mkdir()
    (folder / "references" / "mem").symlink_to("/proc/self/mem")  # a regular file by stat; reading it fails (EIO)
    done = hermes("skills", "trust", "memy", "--yes", env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "references/mem cannot be read" in done.stderr
    listing = json.loads(hermes("skills", "list", "--json", env=env).stdout)
    assert next(s for s in listing["skills"] if s["name"] == "memy")["needs_trust"] is True


def test_a_bidi_override_in_a_skill_cannot_reverse_the_flags_skills_list_prints(env) -> None:
    folder = write_skill(skills_dir() / "spoof", "spoof\u202e", "Looks fine \u202e]detsurt ton edoc[")
    (folder / "tools.py").write_text("X = 1\n", encoding="utf-8")
    listing = hermes("skills", "list", env=env)
    line = next(li for li in listing.stdout.splitlines() if li.startswith("spoof"))
    assert "\u202e" not in listing.stdout
    assert line.startswith("spoof\\u202e  [user; code not trusted]")
    shown = hermes("skills", "show", "spoof\u202e", env=env)
    assert "\u202e" not in shown.stdout and shown.stdout.startswith("spoof\\u202e")


def test_installing_the_skills_folder_itself_or_its_parent_is_refused_in_one_line(env) -> None:
    write_skill(skills_dir() / "one", "one", "One skill.")
    for source in (skills_dir(), skills_dir().parent):
        done = hermes("skills", "install", str(source), env=env)
        assert done.returncode == 2 and "holds your skills folder" in done.stderr, done.stderr[:300]
        assert len(done.stderr) < 400, "one line, not a path repeated until it is too long"
    assert sorted(p.name for p in skills_dir().iterdir()) == ["one"]


def test_a_folder_of_thousands_of_empty_folders_is_refused(env, tmp_path) -> None:
    source = write_skill(tmp_path / "src" / "hollow", "hollow", "Mostly folders.")
    for n in range(2_100):
        (source / "assets" / f"d{n}").mkdir(parents=True)
    done = hermes("skills", "install", str(source), env=env)
    assert done.returncode == 2 and "more than 2,000 folders" in done.stderr
    assert [p.name for p in skills_dir().iterdir()] == []


def test_a_skill_without_a_name_is_installed_under_its_folder_or_zip_name(env, tmp_path) -> None:
    archive = tmp_path / "pdf-tools.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("SKILL.md", "---\ndescription: PDF tools without a name.\n---\nBody.\n")
    done = hermes("skills", "install", str(archive), env=env)
    assert done.returncode == 0 and "installed pdf-tools into" in done.stdout, done.stdout + done.stderr
    source = tmp_path / "src" / "my-notes"
    source.mkdir(parents=True)
    (source / "SKILL.md").write_text("---\ndescription: Notes without a name.\n---\nBody.\n", encoding="utf-8")
    done = hermes("skills", "install", str(source), env=env)
    assert done.returncode == 0 and "installed my-notes into" in done.stdout, done.stdout + done.stderr
    assert sorted(p.name for p in skills_dir().iterdir()) == ["my-notes", "pdf-tools"]


def test_untrust_says_what_is_true(env) -> None:
    bundled = hermes("skills", "untrust", "project-doctor", env=env)  # bundled, with tools.py: always trusted
    assert bundled.returncode == 2 and "always trusted" in bundled.stderr and "withdrawn" not in bundled.stdout
    no_code = hermes("skills", "untrust", "meeting-notes", env=env)
    assert no_code.returncode == 0 and "nothing to untrust" in no_code.stdout
    folder = write_skill(skills_dir() / "coder", "coder")
    (folder / "tools.py").write_text("X = 1\n", encoding="utf-8")
    never = hermes("skills", "untrust", "coder", env=env)
    assert never.returncode == 0 and "was not trusted" in never.stdout
    assert hermes("skills", "trust", "coder", "--yes", env=env).returncode == 0
    withdrawn = hermes("skills", "untrust", "coder", env=env)
    assert withdrawn.returncode == 0 and "trust withdrawn" in withdrawn.stdout
    listing = json.loads(hermes("skills", "list", "--json", env=env).stdout)
    assert next(s for s in listing["skills"] if s["name"] == "coder")["needs_trust"] is True


def test_show_and_trust_find_a_name_typed_in_another_letter_case(env) -> None:
    folder = write_skill(skills_dir() / "report-maker", "report-maker")
    (folder / "tools.py").write_text("X = 1\n", encoding="utf-8")
    shown = hermes("skills", "show", "Report-Maker", env=env)
    assert shown.returncode == 0 and shown.stdout.startswith("report-maker"), shown.stderr
    assert hermes("skills", "trust", "REPORT-MAKER", "--yes", env=env).returncode == 0


def test_an_attachment_that_takes_the_request_over_the_window_is_not_sent(server, env, tmp_path) -> None:
    """A long message plus a text file: ~33,000 tokens (by the app's own estimate) went to a 32,768-token window,
    because the current turn's attachments were not counted in the fixed part."""
    attached = tmp_path / "minutes.txt"
    attached.write_text("lorem ipsum dolor " * 20_000, encoding="utf-8")  # cut to its first 40,000 characters
    server.enqueue(text_reply("never"), text_reply("never"))
    result = hermes("ask", "summarise " + "word " * 18_000, "--attach", str(attached), env=env)
    assert result.returncode == 1, result.stdout[-300:]
    assert "Not sent" in result.stderr and "attached files" in result.stderr
    assert server.chat_requests == [], "nothing reaches the model"


def test_skills_list_json_escapes_c1_controls_and_bidi_overrides_but_keeps_chinese(env) -> None:
    # YAML refuses raw C1 characters but accepts them as escapes in a double-quoted string
    write_skill(skills_dir() / "c1", "c1", '"Looks \\u009b2J\\u009b31mred \\u202eevil 会议纪要"')
    done = hermes("skills", "list", "--json", env=env)
    assert done.returncode == 0
    assert "\u009b" not in done.stdout and "\u202e" not in done.stdout and "会议纪要" in done.stdout
    listing = json.loads(done.stdout)
    assert next(s for s in listing["skills"] if s["name"] == "c1")["description"].startswith("Looks \u009b2J")

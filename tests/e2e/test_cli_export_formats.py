"""`sessions export --format docx|obsidian` through the real command line (issue 28): a conversation with a
heading, a table, code and an image, written as Word (opened back with python-docx) and into an Obsidian vault
(front matter, the image in the vault's attachment folder, wiki-links), in English and Chinese."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import docx

from hermes_desktop.core.paths import app_paths
from tests.support.attachment_files import png_bytes
from tests.support.cli import hermes
from tests.support.model_server import text_reply

REPLY = ("## Results\n\nThe **total** is `42`; see [the docs](https://example.com/docs).\n\n"
         "| item | cost |\n|---|---|\n| tea | 3 |\n| cake | 5 |\n\n```python\nprint('hi')\n```\n\n- one\n- two\n")


def chat(server, env, tmp_path: Path) -> None:
    picture = tmp_path / "chart.png"
    picture.write_bytes(png_bytes(60, 40))
    server.enqueue(text_reply(REPLY))
    done = hermes("ask", "summarise the costs", "--attach", str(picture), "--session", "costs", env=env)
    assert done.returncode == 0, done.stderr


def test_a_session_exported_as_word_has_its_headings_table_code_and_image(server, env, tmp_path) -> None:
    chat(server, env, tmp_path)
    target = tmp_path / "costs.docx"
    done = hermes("sessions", "export", "costs", "--format", "docx", "--output", str(target), env=env)
    assert done.returncode == 0, done.stderr
    document = docx.Document(str(target))
    texts = [p.text for p in document.paragraphs]
    styles = {p.text: p.style.name for p in document.paragraphs}
    assert "You" in texts and any(t.startswith("Hermes") for t in texts)
    assert styles["Results"].startswith("Heading")
    total = next(p for p in document.paragraphs if "The total is" in p.text)
    assert any(r.bold and r.text == "total" for r in total.runs) and "https://example.com/docs" in total.text
    assert any("print('hi')" in t for t in texts), "the code block"
    assert [styles.get(t) for t in ("one", "two")] == ["List Bullet", "List Bullet"]
    table = document.tables[0]
    assert [[c.text for c in row.cells] for row in table.rows] == [["item", "cost"], ["tea", "3"], ["cake", "5"]]
    with zipfile.ZipFile(target) as packed:
        assert any(name.startswith("word/media/") for name in packed.namelist()), "the image is inside"


def test_word_refuses_the_terminal_and_obsidian_needs_a_vault(server, env, tmp_path) -> None:
    chat(server, env, tmp_path)
    no_vault = hermes("sessions", "export", "costs", "--format", "obsidian", env=env)
    assert no_vault.returncode == 2 and "--output VAULT_FOLDER" in no_vault.stderr
    missing = hermes("sessions", "export", "costs", "--format", "obsidian", "--output", str(tmp_path / "none"), env=env)
    assert missing.returncode == 1 and "is not a folder" in missing.stderr
    import subprocess
    import sys

    from tests.support.cli import ROOT

    piped = subprocess.run([sys.executable, "-m", "hermes_desktop", "sessions", "export", "costs", "--format", "docx"],
                           cwd=ROOT, env=env, capture_output=True, timeout=60)  # stdout is a pipe: the bytes
    assert piped.returncode == 0 and piped.stdout.startswith(b"PK")


def test_a_session_goes_into_an_obsidian_vault_once_with_its_image_and_links(server, env, tmp_path) -> None:
    chat(server, env, tmp_path)
    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / ".obsidian" / "app.json").write_text(json.dumps({"attachmentFolderPath": "assets"}), encoding="utf-8")
    done = hermes("sessions", "export", "costs", "--format", "obsidian", "--output", str(vault), env=env)
    assert done.returncode == 0, done.stderr
    note = Path(done.stdout.strip())
    assert note.parent == vault / "Hermes" and note.suffix == ".md"
    text = note.read_text(encoding="utf-8")
    assert text.startswith("---\ntitle: ") and 'hermes_session: "costs"' in text and "tags:\n  - hermes" in text
    assert "![[chart.png]]" in text and (vault / "assets" / "chart.png").read_bytes() == (tmp_path / "chart.png").read_bytes()
    assert "| tea | 3 |" in text and "[[Hermes sessions]]" in text
    index = (vault / "Hermes" / "Hermes sessions.md").read_text(encoding="utf-8")
    assert f"- [[{note.stem}]]" in index
    again = hermes("sessions", "export", "costs", "--format", "obsidian", "--output", str(vault), env=env)
    assert again.returncode == 0 and Path(again.stdout.strip()) == note
    assert len(list((vault / "Hermes").glob("*.md"))) == 2, "the note is replaced, not duplicated (note + index)"
    assert len(list((vault / "assets").iterdir())) == 1
    assert index.count(note.stem) == (vault / "Hermes" / "Hermes sessions.md").read_text(encoding="utf-8").count(note.stem)


def test_exports_speak_the_app_s_language(server, env, tmp_path) -> None:
    chat(server, env, tmp_path)
    settings = app_paths().settings_file
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"language": "zh_CN"}), encoding="utf-8")
    target = tmp_path / "zh.docx"
    assert hermes("sessions", "export", "costs", "--format", "docx", "--output", str(target), env=env).returncode == 0
    texts = [p.text for p in docx.Document(str(target)).paragraphs]
    assert "你" in texts and any("条消息" in t for t in texts)
    vault = tmp_path / "zh-vault"
    vault.mkdir()
    done = hermes("sessions", "export", "costs", "--format", "obsidian", "--output", str(vault), env=env)
    assert "## 你" in Path(done.stdout.strip()).read_text(encoding="utf-8")
    assert (vault / "Hermes" / "Hermes 对话.md").is_file()
    assert (vault / "attachments" / "chart.png").is_file(), "no attachment setting: the vault's attachments folder"

"""Exports keep a reply's citations (issue 22: "Exports keep the citations"): the passages behind the [n] markers
of a reply are listed under it in Markdown, Word and Obsidian, and as `sources` on the message in JSON; a passage
given to the model but not cited is not listed, a number that names no passage is left alone, and a document's
text cannot become Markdown structure in the file. Real SQLite for the sessions (hermes.db) and for the knowledge
registry's stored citations (<data>/knowledge/registry.db), real files written."""

from __future__ import annotations

import io
import json
from pathlib import Path

import docx

from hermes_desktop.core.exports.docx_export import session_docx
from hermes_desktop.core.exports.document import read_session
from hermes_desktop.core.exports.obsidian import export_to_vault
from hermes_desktop.core.knowledge.registry import KnowledgeRegistry
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.storage.transfer import export_json, export_markdown, import_file
from tests.support.stores import open_test_store

PASSAGES = [
    {"number": 1, "knowledge_base": "资料", "document": "资料/长城.pdf", "path": "/docs/资料/长城.pdf", "page": 2,
     "heading": ["历史", "明代"], "text": "长城是中国古代的军事防御工程。"},
    {"number": 2, "knowledge_base": "资料", "document": "资料/notes.md", "path": "", "page": None, "heading": [],
     "text": "# Not a heading\n[a link](http://x) <b>bold</b> Visa: ten working days."},
    {"number": 3, "knowledge_base": "资料", "document": "资料/other.md", "path": "", "page": None, "heading": [],
     "text": "Given to the model, never cited."},
]


def _session() -> tuple[object, int]:
    store = open_test_store().store
    store.create_session("kb", title="长城")
    question = store.append_message("kb", NewMessage("user", "长城是什么？"))
    store.append_message("kb", NewMessage("assistant", "长城是军事防御工程 [1]。签证要十个工作日 [2][1]，见 [9]。",
                                          finish_reason="stop"))
    KnowledgeRegistry(app_paths().knowledge_dir).save_citations("kb", question, PASSAGES, replace=True)
    return store, question


def test_markdown_and_json_exports_list_the_cited_passages() -> None:
    store, _ = _session()
    markdown = export_markdown(store, "kb")
    assert "**Sources**" in markdown
    assert "- \\[1\\] 资料/长城.pdf, page 2 · 历史 / 明代" in markdown
    assert "  > 长城是中国古代的军事防御工程。" in markdown
    assert markdown.index("\\[1\\] 资料/长城.pdf") < markdown.index("\\[2\\] 资料/notes.md")  # as first cited
    assert "other.md" not in markdown and "\\[9\\]" not in markdown
    assert "\n# Not a heading" not in markdown and "\\# Not a heading" in markdown  # no structure from documents
    assert "\\<b\\>" in markdown and "\\[a link\\]" in markdown

    exported = export_json(store, "kb")
    reply = json.loads(exported)["messages"][1]
    assert [s["citation"] for s in reply["sources"]] == ["[1]", "[2]"]
    assert reply["sources"][0] == {"citation": "[1]", "knowledge_base": "资料", "document": "资料/长城.pdf",
                                   "page": 2, "heading": "历史 / 明代", "text": "长城是中国古代的军事防御工程。"}
    assert "/docs/" not in exported  # the user's own file system paths stay out of the file
    store.close()


def test_an_exported_json_with_sources_imports_again(monkeypatch, tmp_path: Path) -> None:
    store, _ = _session()
    exported = export_json(store, "kb")
    store.close()
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "other" / name))
    other = open_test_store().store
    result = import_file(other, exported)
    assert result.messages == 2 and other.messages(result.session_id)[1].content.startswith("长城是军事防御工程")
    other.close()


def test_word_and_obsidian_exports_list_the_cited_passages_in_the_files_language(tmp_path: Path) -> None:
    store, _ = _session()
    document = read_session(store, "kb")
    assert [n for n, _ in document.blocks[1].sources] == [1, 2]
    word = docx.Document(io.BytesIO(session_docx(document, language="zh_CN")))
    text = "\n".join(p.text for p in word.paragraphs)
    assert "来源" in text and "[1] 资料/长城.pdf, 第 2 页 · 历史 / 明代" in text
    assert "长城是中国古代的军事防御工程。" in text and "other.md" not in text
    vault = tmp_path / "vault"
    vault.mkdir()
    note = export_to_vault(document, vault, language="en")
    written = Path(note).read_text(encoding="utf-8")
    assert "**Sources**" in written and "\\[2\\] 资料/notes.md" in written
    store.close()


def test_an_export_without_a_knowledge_registry_has_no_sources_and_creates_none() -> None:
    store = open_test_store().store
    store.create_session("plain", title="x")
    store.append_message("plain", NewMessage("user", "hi"))
    store.append_message("plain", NewMessage("assistant", "see [1]", finish_reason="stop"))
    assert "Sources" not in export_markdown(store, "plain")
    assert "sources" not in json.loads(export_json(store, "plain"))["messages"][1]
    assert not (app_paths().knowledge_dir / "registry.db").exists()
    store.close()

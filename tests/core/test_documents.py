"""The shared document readers (core/documents/) on real files made here: Chinese PDFs in two font kinds, DOCX,
HTML with navigation, Markdown, reStructuredText, CSV, text in other encodings, and files that must be refused."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from hermes_desktop.core.attachments import prepare_attachment
from hermes_desktop.core.documents import DocumentError, read_bytes, read_path
from hermes_desktop.core.documents import errors as E
from tests.support.attachment_files import encrypted_pdf_bytes, pdf_bytes
from tests.support.knowledge_files import cff_pdf, docx_file, html_page, truetype_pdf

ZH_PAGE_1 = "数据库索引可以加快查询速度。第二句话在这里！混合检索 works in English too."
ZH_PAGE_2 = "第二页：向量检索与全文检索的融合。长城是中国古代的军事防御工程。"


def test_a_chinese_pdf_with_a_cff_font_reads_as_it_prints_with_page_numbers(tmp_path: Path) -> None:
    path = cff_pdf(tmp_path / "cff.pdf", [ZH_PAGE_1, ZH_PAGE_2], tmp_path)
    assert b"FontFile3" in path.read_bytes()  # really the CFF kind
    document, _ = read_path(path)
    assert [(s.page, s.text) for s in document.sections] == [(1, ZH_PAGE_1), (2, ZH_PAGE_2)]
    assert "\x00" not in document.plain_text()
    from pypdf import PdfReader  # the judgement in docs/knowledge.md, measured again

    pypdf_text = PdfReader(str(path)).pages[0].extract_text()
    print(f"\npypdf on the CFF PDF: {pypdf_text[:24]!r} ({pypdf_text.count(chr(0))} NULs); "
          f"pypdfium2: {document.sections[0].text[:12]!r}")


def test_a_chinese_pdf_with_a_truetype_font_reads_with_its_characters_not_radicals(tmp_path: Path) -> None:
    path = truetype_pdf(tmp_path / "qt.pdf", ["第二页：向量检索与全文检索。", "长城是中国古代的防御工程。"])
    assert b"CIDFontType2" in path.read_bytes()
    document, _ = read_path(path)
    text = document.plain_text()
    assert "第二页" in text and "全文检索" in text and "长城" in text  # not ⼆ (U+2F06) or ⻚ (U+2EDA)
    assert [s.page for s in document.sections] == [1, 2]


def test_pdf_refusals_have_their_reasons(tmp_path: Path) -> None:
    with pytest.raises(DocumentError) as encrypted:
        read_bytes("locked.pdf", encrypted_pdf_bytes("secret text"), "pdf")
    assert encrypted.value.code == E.ENCRYPTED and "password" in str(encrypted.value)
    with pytest.raises(DocumentError) as scanned:
        read_bytes("scan.pdf", pdf_bytes([None, None]), "pdf")
    assert scanned.value.code == E.NO_TEXT and "2 pages" in str(scanned.value)
    with pytest.raises(DocumentError) as broken:
        read_bytes("broken.pdf", b"%PDF-1.7\n" + os.urandom(2000), "pdf")
    assert broken.value.code == E.DAMAGED


def test_a_hostile_pdf_is_stopped_by_the_child_process_limits() -> None:
    from tests.core.test_attachment_limits import bomb_pdf

    with pytest.raises(DocumentError) as stopped:
        read_bytes("bomb.pdf", bomb_pdf(30_000), "pdf", timeout=1.0)
    assert stopped.value.code in (E.TIMEOUT, E.MEMORY, E.NO_TEXT)  # PDFium may also just find no text in time


def test_docx_headings_paragraphs_and_tables_in_order(tmp_path: Path) -> None:
    path = docx_file(tmp_path / "report.docx", [
        ("h1", "项目报告"), ("p", "本项目使用混合检索。"), ("h2", "Results"), ("p", "Recall improved by 12 percent."),
        ("table", "指标|数值;召回率|0.92"), ("h1", "附录"), ("p", "更多细节。")])
    document, _ = read_path(path)
    assert [(s.heading, s.text) for s in document.sections] == [
        (("项目报告",), "本项目使用混合检索。"),
        (("项目报告", "Results"), "Recall improved by 12 percent.\n\n指标 | 数值\n\n召回率 | 0.92"),
        (("附录",), "更多细节。"),
    ]


def test_a_broken_docx_is_refused_with_a_reason() -> None:
    with pytest.raises(DocumentError) as broken:
        read_bytes("x.docx", b"PK\x03\x04 not really a zip", "docx")
    assert broken.value.code == E.DAMAGED


def test_html_main_text_leaves_navigation_header_footer_and_scripts_out() -> None:
    document = read_bytes("page.html", html_page("Site", "长城", "长城是古代的防御工程。").encode(), "html")
    text = document.plain_text()
    assert "长城是古代的防御工程。" in text and "More about 长城." in text
    for noise in ("SITE_HEADER", "NAV_ITEM", "SIDEBAR_TEXT", "FOOTER_TEXT", "SCRIPT_TEXT", "color:red"):
        assert noise not in text
    assert [s.heading for s in document.sections] == [("长城",), ("长城", "Details")]


def test_markdown_and_rst_sections_follow_headings_not_code() -> None:
    markdown = "# Guide\n\nIntro.\n\n```\n# not a heading\n```\n\n## Install\n\nRun it.\n\nSetext\n------\n\nBody."
    sections = read_bytes("g.md", markdown.encode(), "markdown").sections
    assert [(s.heading, s.text) for s in sections] == [
        (("Guide",), "Intro.\n\n```\n# not a heading\n```"), (("Guide", "Install"), "Run it."),
        (("Guide", "Setext"), "Body.")]
    rst = "Title\n=====\n\nIntro.\n\nPart\n----\n\nText here.\n\nOther\n=====\n\nMore."
    sections = read_bytes("g.rst", rst.encode(), "rst").sections
    assert [(s.heading, s.text) for s in sections] == [
        (("Title",), "Intro."), (("Title", "Part"), "Text here."), (("Other",), "More.")]


def test_csv_rows_say_their_columns() -> None:
    sections = read_bytes("t.csv", "城市,人口\n北京,2189万\n上海,2487万\n".encode(), "csv").sections
    assert sections[0].text == "城市: 北京; 人口: 2189万\n\n城市: 上海; 人口: 2487万"


def test_text_that_is_not_utf8_is_decoded_in_the_encoding_detected_and_said() -> None:
    chinese = ("这是一个用国标编码保存的中文文本文件，内容关于数据库索引和全文检索。" * 4).encode("gb18030")
    document = read_bytes("gbk.txt", chinese, "text")
    assert "数据库索引" in document.plain_text()
    assert document.encoding == "gb18030" and "gb18030" in document.note and "Not UTF-8" in document.note
    latin = ("Café au lait, crème brûlée and a naïve façade. " * 6).encode("cp1252")
    read = read_bytes("fr.txt", latin, "text")
    assert "crème brûlée" in read.plain_text() and "Not UTF-8" in read.note
    assert read_bytes("u.txt", "plain".encode(), "text").note == ""
    with pytest.raises(DocumentError) as binary:
        read_bytes("b.txt", b"\x00\x01\x02\xff" * 100, "text")
    assert binary.value.code == E.NOT_TEXT


def test_files_that_must_not_be_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "folder"
    root.mkdir()
    os.mkfifo(root / "pipe.txt")
    with pytest.raises(DocumentError) as fifo:
        read_path(root / "pipe.txt", root=root)
    assert fifo.value.code == E.NOT_REGULAR
    (tmp_path / "secret.txt").write_text("outside")
    (root / "link.txt").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(DocumentError) as link:
        read_path(root / "link.txt", root=root)
    assert link.value.code == E.SYMLINK_OUTSIDE
    (root / "inside.md").write_text("# Inside\n\nfine")
    (root / "alias.md").symlink_to(root / "inside.md")
    assert read_path(root / "alias.md", root=root)[0].sections[0].text == "fine"
    import hermes_desktop.core.documents.reader as reader

    monkeypatch.setattr(reader, "MAX_TEXT_BYTES", 100)
    (root / "big.txt").write_text("x" * 101)
    with pytest.raises(DocumentError) as big:
        read_path(root / "big.txt", root=root)
    assert big.value.code == E.TOO_LARGE
    with pytest.raises(DocumentError) as unknown:
        read_path(root / "image.xyz")
    assert unknown.value.code == E.UNSUPPORTED


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its permission bits (and this Python, "
                    "under /root, cannot be run as another user)")
def test_a_file_without_permission_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "locked.txt"
    path.write_text("no")
    path.chmod(0)
    with pytest.raises(DocumentError) as denied:
        read_path(path)
    assert denied.value.code == E.PERMISSION


def test_attachments_use_the_same_readers_for_word_and_html(tmp_path: Path) -> None:
    word = prepare_attachment(docx_file(tmp_path / "memo.docx", [("h1", "会议纪要"), ("p", "下周一发布。")]),
                              process_image=None)
    assert word.kind == "text" and word.text == "# 会议纪要\n\n下周一发布。"
    page = tmp_path / "page.html"
    page.write_text(html_page("Site", "Release", "Ships on Monday."))
    html = prepare_attachment(page, process_image=None)
    assert "Ships on Monday." in (html.text or "") and "NAV_ITEM" not in (html.text or "")
    gbk = tmp_path / "gbk.txt"
    gbk.write_bytes(("国标编码的文本文件，内容关于发布计划和会议安排。" * 4).encode("gb18030"))
    text = prepare_attachment(gbk, process_image=None)
    assert "发布计划" in (text.text or "") and "gb18030" in text.note

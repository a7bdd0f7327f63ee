"""Real documents for the knowledge-base tests, made here: Chinese PDFs in two font kinds, DOCX, HTML, Markdown.

- `cff_pdf`: fpdf2 (LGPL, a test dependency) embedding Noto Sans CJK SC as a CFF font (CIDFontType0C in FontFile3),
  as Chrome, LibreOffice and most tools write Chinese PDFs: the case where pypdf returns NULs between characters.
- `truetype_pdf`: Qt's QPdfWriter with the same family (it embeds CIDFontType2, TrueType outlines; its ToUnicode maps
  some characters to look-alike radicals, which the reader folds back).
- `docx_file`: python-docx with Heading 1/2 styles, Chinese and English paragraphs, a table.
"""

from __future__ import annotations

from pathlib import Path

NOTO_TTC = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
_OTF_CACHE: dict[str, Path] = {}


def noto_sc_otf(tmp: Path) -> Path:
    """The Simplified Chinese face of the installed Noto Sans CJK collection as a lone .otf (fpdf2 reads no .ttc)."""
    import pytest

    if not NOTO_TTC.exists():
        pytest.skip("fonts-noto-cjk is not installed (packaging/linux/system-deps.sh installs it)")
    if "sc" in _OTF_CACHE and _OTF_CACHE["sc"].exists():
        return _OTF_CACHE["sc"]
    from fontTools.ttLib import TTCollection

    collection = TTCollection(str(NOTO_TTC))
    face = next(f for f in collection.fonts if "SC" in f["name"].getDebugName(4))
    target = tmp / "NotoSansCJKsc.otf"
    face.save(str(target))
    _OTF_CACHE["sc"] = target
    return target


def cff_pdf(path: Path, pages: list[str], font_dir: Path) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_font("noto", fname=str(noto_sc_otf(font_dir)))
    for text in pages:
        pdf.add_page()
        pdf.set_font("noto", size=12)
        pdf.multi_cell(0, 8, text)
    pdf.output(str(path))
    return path


def truetype_pdf(path: Path, pages: list[str]) -> Path:
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QFont, QFontDatabase, QPageSize, QPainter, QPdfWriter
    from PySide6.QtWidgets import QApplication

    # A QApplication (not a QGuiApplication): the suite's widget tests run later in the same process and need one.
    app = QApplication.instance() or QApplication([])
    families = QFontDatabase.applicationFontFamilies(QFontDatabase.addApplicationFont(str(NOTO_TTC)))
    writer = QPdfWriter(str(path))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    painter = QPainter(writer)
    font = QFont(next((f for f in families if f.endswith("SC")), "Noto Sans CJK SC"))
    font.setPointSize(11)
    painter.setFont(font)
    for index, text in enumerate(pages):
        if index:
            writer.newPage()
        painter.drawText(QRectF(0, 0, writer.width(), writer.height()), int(Qt.TextFlag.TextWordWrap), text)
    painter.end()
    assert app is not None
    return path


def docx_file(path: Path, blocks: list[tuple[str, str]]) -> Path:
    """`blocks`: ("h1"/"h2", title), ("p", text) or ("table", "a|b;c|d")."""
    import docx

    document = docx.Document()
    for kind, text in blocks:
        if kind in ("h1", "h2", "h3"):
            document.add_heading(text, level=int(kind[1]))
        elif kind == "table":
            rows = [r.split("|") for r in text.split(";")]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    table.cell(r, c).text = value
        else:
            document.add_paragraph(text)
    document.save(str(path))
    return path


def html_page(title: str, heading: str, body: str) -> str:
    return (f"<!doctype html><html><head><title>{title}</title><style>p{{color:red}}</style>"
            "<script>var tracking = 'SCRIPT_TEXT';</script></head><body>"
            "<header><a href='/'>Home</a> <a href='/blog'>Blog</a> SITE_HEADER</header>"
            "<nav class='menu'><ul><li>Products</li><li>NAV_ITEM</li></ul></nav>"
            f"<main><article><h1>{heading}</h1><p>{body}</p><h2>Details</h2><p>More about {heading}.</p>"
            "</article></main>"
            "<div class='sidebar'>SIDEBAR_TEXT</div><footer>© 2026 FOOTER_TEXT</footer></body></html>")

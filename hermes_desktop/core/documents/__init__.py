"""Document readers shared by attachments (core/attachments.py) and knowledge bases (core/knowledge/).

PDF (pypdfium2, page by page), DOCX (python-docx), Markdown, reStructuredText, HTML (main text), CSV, source code and
plain text (encoding detected and said), each with a size limit and a time limit; PDF and DOCX are parsed in a child
process with a memory cap (core/pdf_extract.py) so a hostile file cannot take the app down. A file that cannot be
read raises `DocumentError` with a code (errors.py) and one line for the user.
"""

from hermes_desktop.core.documents.errors import DocumentError
from hermes_desktop.core.documents.model import Document, Section
from hermes_desktop.core.documents.reader import kind_for, read_bytes, read_path

__all__ = ["Document", "DocumentError", "Section", "kind_for", "read_bytes", "read_path"]

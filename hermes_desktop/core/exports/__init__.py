"""Session exports beyond Markdown and JSON (issue 28): Word (.docx) and an Obsidian vault, in the user's language.

`document.py` reads a session into speaker blocks once; `docx_export.py` and `obsidian.py` write them. The Markdown
and JSON exports stay in core/storage/transfer.py (JSON is the format an import reads back). Every export redacts
the secrets the app holds, as the Markdown export does.
"""

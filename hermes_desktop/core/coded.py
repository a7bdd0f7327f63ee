"""A sentence for the user that also carries a code and its parameters (issue 16: Chinese all the way through).

Start-up problems (settings, the database, the keyring, mcp.json, folders) travel as plain strings through
`Runtime.problems`, `OpenedStore.messages` and `MCPConfig.problems`, which the command line, the log and
`ask --json` print as they are. `CodedText` is such a string — equal to, printed and serialised as its English
text — that also says which problem it is (`code`) and with what data (`params`: paths, numbers, a system's own
English error), so the window can word it in the user's language (ui/startup_words.py). Only passing it on keeps
the code: an f-string or `str()` of it makes a plain string again (the window then quotes the English).

No Qt here: the core stays Qt-free.
"""

from __future__ import annotations

from typing import Any


class CodedText(str):
    """An English sentence with `code` and `params` beside it (see the module docstring)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str = "", params: dict[str, Any] | None = None) -> "CodedText":
        made = super().__new__(cls, text)
        made.code = code
        made.params = dict(params or {})
        return made


def coded(text: str, code: str, **params: Any) -> CodedText:
    return CodedText(text, code, params)


def code_of(text: object) -> tuple[str, dict[str, Any]]:
    """(code, params) of a problem string; ("", {}) for a plain one."""
    if isinstance(text, CodedText):
        return text.code, text.params
    return "", {}

"""Why a document cannot be read: one code per reason (the window words it) and one English line.

Shared by attachments and knowledge bases, so a file refused in the chat is refused for the same reason, in the same
words, in a knowledge base's per-file list. `AttachmentError` (core/attachments.py) is a DocumentError.
"""

from __future__ import annotations

# The reasons (codes are stable: ui/words.py and `knowledge list --json` use them).
ENCRYPTED = "encrypted"  # a PDF protected by a password
NO_TEXT = "no_text"  # a PDF without a text layer (scanned pages)
TOO_LARGE = "too_large"
PERMISSION = "permission"  # the file cannot be opened (permission denied)
NOT_TEXT = "not_text"  # binary, or an encoding that cannot be told
NOT_REGULAR = "not_regular"  # a FIFO, socket or device
SYMLINK_OUTSIDE = "symlink_outside"  # a link that points out of the knowledge base's folder
TIMEOUT = "timeout"
MEMORY = "memory"
DAMAGED = "damaged"  # not a readable PDF / DOCX
UNSUPPORTED = "unsupported"
MISSING = "missing"
CANCELLED = "cancelled"
CREDENTIAL = "credential"  # a credential location (~/.ssh, ~/.aws, keyrings...): never read
FOLDER = "folder"  # a folder given where a file is wanted
UNREADABLE = "unreadable"  # anything else


class DocumentError(Exception):
    """A document that cannot be read. `str()` is one line for the user naming the file and the reason; `code` is
    one of the constants above."""

    def __init__(self, message: str, code: str = UNREADABLE) -> None:
        super().__init__(message)
        self.code = code

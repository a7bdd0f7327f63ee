"""Bytes to text: UTF-8 (with or without BOM), UTF-16/32 with a BOM, else the encoding detected, said in a note.

Before, a file that was not UTF-8 was decoded as GB18030 without a word (issue 21): a Latin-1 or Shift-JIS file then
read as Chinese nonsense, and nobody knew. Now `charset_normalizer` (MIT, pure Python) picks the encoding, and the
note says it ("not UTF-8: read as gb18030 (detected)"). Binary (a NUL in the first 8 KB without a UTF-16 BOM, or no
encoding that decodes it cleanly) is refused with NOT_TEXT.
"""

from __future__ import annotations

import codecs

from hermes_desktop.core.documents.errors import NOT_TEXT, DocumentError

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
DETECT_BYTES = 256 * 1024
_COMMON = ("gb18030", "big5", "cp932", "shift_jis", "euc_jp", "cp949", "euc_kr", "cp1252", "latin_1", "cp1251",
           "cp1250", "utf_16")  # the detector's sample: enough to tell, bounded in time


def decode_text(data: bytes, name: str) -> tuple[str, str, str]:
    """(text, encoding used, note for the user: "" for UTF-8). Raises DocumentError(NOT_TEXT)."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding), encoding, ""
            except UnicodeDecodeError:
                break
    try:
        return data.decode("utf-8"), "utf-8", ""
    except UnicodeDecodeError:
        pass
    if b"\x00" in data[:8192]:
        raise DocumentError(f"{name}: not a text file (binary data), so it cannot be read.", NOT_TEXT)
    encoding = _detect(data)
    if encoding is None:
        raise DocumentError(f"{name}: not UTF-8, and its encoding could not be detected, so it cannot be read.",
                            NOT_TEXT)
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        raise DocumentError(f"{name}: not UTF-8, and it does not decode as {encoding} either.", NOT_TEXT) from None
    return text, encoding, f"Not UTF-8: read as {encoding} (detected)."


def _detect(data: bytes) -> str | None:
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - a declared dependency; then the old guess, said in the note
        try:
            data.decode("gb18030")
            return "gb18030"
        except UnicodeDecodeError:
            return None
    matches = list(from_bytes(data[:DETECT_BYTES]))
    if not matches:
        return None
    best = matches[0]
    # Ties (the same chaos and coherence: cp1250 and cp1252 read "crème" the same way to the detector) go to the
    # encoding more files are written in; so do the encodings a match decodes exactly as (`could_be_from_charset`:
    # German text is cp1250 to the detector, and reads the same as cp1252, which it far more likely is).
    tied = [m for m in matches if m.chaos == best.chaos and m.coherence == best.coherence]
    names = [str(name) for m in tied for name in (m.could_be_from_charset or [m.encoding])]
    encoding = min(names, key=lambda name: _COMMON.index(name) if name in _COMMON else len(_COMMON))
    # The detector names GB2312/GBK for Chinese; GB18030 is their superset, so a rare character later in the file
    # (past the sample) still decodes.
    return "gb18030" if encoding.lower().replace("-", "").replace("_", "") in ("gb2312", "gbk", "gb18030") else encoding

"""Read a large JSON object piece by piece: its members one at a time, and one array member element by element.

A session file can be hundreds of megabytes; `json.load` would hold the text and every decoded object at
once (a 300 MB file took 2.5 GB). This reader keeps a buffer of about `CHUNK_CHARS` characters plus the
value being decoded, so memory follows the largest single message, not the file. Values are decoded by
the standard library's `json.JSONDecoder.raw_decode` (no new dependency): when a value runs past the end
of the buffer, more of the file is read and the same value is decoded again.

Every error is a `JsonStreamError` with the line and column where the problem is, and the file size is
checked as it is read (a file that grows while being read is still stopped at `max_bytes`).
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterator, Union

CHUNK_CHARS = 1 << 20
_WHITESPACE = re.compile(r"[ \t\n\r]*")
# A value cut off by the end of the buffer fails either as an unterminated string or within this many
# characters of the end (a literal like `false`, an escape like `\u00e9`); deeper errors are real.
_CUT_OFF_MARGIN = 16
_DECODER = json.JSONDecoder()


class JsonStreamError(ValueError):
    """Malformed or oversized input; `line` and `column` are 1-based."""

    def __init__(self, reason: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {reason}")
        self.reason, self.line, self.column = reason, line, column


@dataclass(frozen=True, slots=True)
class Member:
    """A member of the top-level object that is not the streamed array."""

    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class Element:
    """One element of the streamed array: its 1-based index and where it starts."""

    index: int
    value: Any
    line: int
    column: int


Item = Union[Member, Element]


class _Reader:
    def __init__(self, stream: BinaryIO, max_bytes: int | None) -> None:
        self._stream = stream
        self._max_bytes = max_bytes
        self._decode = codecs.getincrementaldecoder("utf-8-sig")().decode
        self._bytes_read = 0
        # A known place in the buffer (position, line, column), moved forward as places are asked for, so
        # finding a line number counts only the newlines since the last one (not from the buffer's start).
        self._mark = (0, 1, 1)
        self._origin = (1, 1)  # line and column of the buffer's first character
        self.buffer = ""
        self.pos = 0
        self.eof = False

    def place(self, pos: int | None = None) -> tuple[int, int]:
        pos = self.pos if pos is None else pos
        start, line, column = self._mark if pos >= self._mark[0] else (0, *self._origin)
        newlines = self.buffer.count("\n", start, pos)
        if newlines:
            line, column = line + newlines, pos - self.buffer.rfind("\n", start, pos)
        else:
            column += pos - start
        self._mark = (pos, line, column)
        return line, column

    def error(self, reason: str, pos: int | None = None) -> JsonStreamError:
        return JsonStreamError(reason, *self.place(pos))

    def _fill(self, at_least: int = CHUNK_CHARS) -> None:
        """Drop what was consumed and read more (at least `at_least` characters' worth of bytes)."""
        if self.pos:
            line, column = self.place(self.pos)
            self.buffer, self.pos = self.buffer[self.pos:], 0
            self._mark, self._origin = (0, line, column), (line, column)
        data = self._stream.read(max(CHUNK_CHARS, at_least))
        self._bytes_read += len(data)
        if self._max_bytes is not None and self._bytes_read > self._max_bytes:
            raise self.error(f"the file is larger than the import limit of {self._max_bytes:,} bytes",
                             len(self.buffer))
        try:
            self.buffer += self._decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise self.error(f"not UTF-8 text (byte {self._bytes_read - len(data) + exc.start:,} of the file)",
                             len(self.buffer)) from None
        self.eof = not data

    def peek(self) -> str:
        """The next character that is not whitespace ("" at the end of the file)."""
        while True:
            self.pos = _WHITESPACE.match(self.buffer, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buffer) or self.eof:
                return self.buffer[self.pos: self.pos + 1]
            self._fill()

    def expect(self, allowed: str, what: str) -> str:
        char = self.peek()
        if not char or char not in allowed:
            raise self.error(f"expected {what}, found {_describe(char)}")
        self.pos += 1
        return char

    def value(self) -> Any:
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buffer, self.pos)
            except RecursionError:
                raise self.error("nested too deeply to be a session file") from None
            except ValueError as exc:
                if not isinstance(exc, json.JSONDecodeError):  # e.g. an integer of thousands of digits
                    raise self.error(f"a value Hermes cannot read ({exc})") from None
                cut_off = exc.msg.startswith("Unterminated string") or exc.pos >= len(self.buffer) - _CUT_OFF_MARGIN
                if self.eof or not cut_off:
                    raise self.error(exc.msg, exc.pos) from None
                self._fill(at_least=len(self.buffer) - self.pos)  # double what is held: linear overall
                continue
            if end == len(self.buffer) and not self.eof and _is_number(value):
                self._fill(at_least=len(self.buffer) - self.pos)  # `12` may be the start of `123`
                continue
            self.pos = end
            return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _describe(char: str) -> str:
    return "the end of the file" if not char else repr(char)


def read_object(stream: BinaryIO, array_key: str, *, max_bytes: int | None = None) -> Iterator[Item]:
    """The members of the JSON object in `stream`, in file order; the member `array_key`, when it is an
    array, comes as its elements (`Element`) instead of one `Member`. Raises JsonStreamError."""
    reader = _Reader(stream, max_bytes)
    if reader.peek() != "{":
        raise reader.error(f"expected a JSON object ('{{'), found {_describe(reader.peek())}")
    reader.pos += 1
    if reader.peek() == "}":
        reader.pos += 1
    else:
        while True:
            if reader.peek() != '"':
                raise reader.error(f"expected a member name in double quotes, found {_describe(reader.peek())}")
            key = reader.value()
            reader.expect(":", "':' after a member name")
            if key == array_key and reader.peek() == "[":
                reader.pos += 1
                yield from _elements(reader)
            else:
                yield Member(key, reader.value())
            if reader.expect(",}", "',' or '}' after a member") == "}":
                break
    if reader.peek():
        raise reader.error("unexpected text after the end of the JSON object")


def _elements(reader: _Reader) -> Iterator[Element]:
    if reader.peek() == "]":
        reader.pos += 1
        return
    index = 0
    while True:
        reader.peek()
        index += 1
        line, column = reader.place()
        yield Element(index, reader.value(), line, column)
        if reader.expect(",]", "',' or ']' after an array element") == "]":
            return
